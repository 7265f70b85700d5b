// Which chat channel an alert's thread goes to: the first route whose receiver and label
// matchers all match, else the default channel. Matching is per alert, so one Alertmanager
// group may fan out to several channels (one group state and thread per channel).
import type { AlertRoute } from '../config/alerts.js';
import { unquoteReceiver } from './schema.js';

/** A route without receiver and matchers takes every alert that reaches it. */
export function isCatchAll(route: AlertRoute): boolean {
  return route.receiver === undefined && Object.keys(route.matchers ?? {}).length === 0;
}

/**
 * Why the webhook could accept an alert and post it nowhere, or undefined when every alert has a
 * channel: a default channel, or a catch-all route.
 */
export function alertDestinationProblem(config: {
  alertmanagerToken?: string | undefined;
  alertChannel?: string | undefined;
  alertRoutes: readonly AlertRoute[];
}): string | undefined {
  if (!config.alertmanagerToken || config.alertChannel || config.alertRoutes.some(isCatchAll)) return undefined;
  const which = config.alertRoutes.length > 0 ? 'alerts no POD_DOCTOR_ALERT_ROUTES entry matches' : 'alerts';
  return (
    `ALERTMANAGER_TOKEN enables the Alertmanager webhook, but ${which} would have no channel: ` +
    'set POD_DOCTOR_ALERT_CHANNEL (`alertChannel` in the config file), or end the alert routes (`alertRoutes`, POD_DOCTOR_ALERT_ROUTES) ' +
    'with a route that has only a channel'
  );
}

export function channelFor(
  input: { receiver: string; labels: Record<string, string> },
  routes: readonly AlertRoute[],
  defaultChannel: string | undefined,
): string | null {
  const receiver = unquoteReceiver(input.receiver);
  for (const route of routes) {
    if (route.receiver !== undefined && route.receiver !== receiver && route.receiver !== input.receiver) continue;
    const matchers = Object.entries(route.matchers ?? {});
    if (matchers.every(([label, value]) => (input.labels[label] ?? '') === value)) return route.channel;
  }
  return defaultChannel ?? null;
}
