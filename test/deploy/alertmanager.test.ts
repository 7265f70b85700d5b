// deploy/alertmanager/: the AlertmanagerConfig (Prometheus Operator) says what alertmanager.yml
// says, reads the token from the Secret the template creates, and posts where the bot listens.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/schema.js';
import { DEPLOY, type KubeObject, parseYamlFile } from '../helpers/deploy.js';

interface AmRoute {
  receiver: string;
  matchers?: string[];
  group_by?: string[];
  group_wait?: string;
  group_interval?: string;
  repeat_interval?: string;
  continue?: boolean;
  routes?: AmRoute[];
}
interface AmWebhook {
  url: string;
  send_resolved?: boolean;
  max_alerts?: number;
  http_config?: { authorization?: { type?: string; credentials_file?: string } };
}
type AmConfig = { route: AmRoute; receivers: { name: string; webhook_configs?: AmWebhook[] }[] };
type CrdConfig = KubeObject & {
  spec: {
    route: {
      receiver: string;
      matchers: { name: string; matchType: string; value: string }[];
      groupBy: string[];
      groupWait: string;
      groupInterval: string;
      repeatInterval: string;
      continue: boolean;
    };
    receivers: {
      name: string;
      webhookConfigs: {
        url: string;
        sendResolved: boolean;
        maxAlerts: number;
        httpConfig: { authorization: { type: string; credentials: { name: string; key: string } } };
      }[];
    }[];
  };
};

const plain = parseYamlFile(join(DEPLOY, 'alertmanager/alertmanager.yml')).docs[0] as unknown as AmConfig;
const crd = parseYamlFile(join(DEPLOY, 'alertmanager/alertmanagerconfig.yaml')).docs[0] as CrdConfig;
const secret = parseYamlFile(join(DEPLOY, 'alertmanager/token-secret.example.yaml')).docs[0] as KubeObject & { stringData: Record<string, string> };
const route = plain.route.routes!.find((r) => r.receiver === 'pod-doctor')!;
const webhook = plain.receivers.find((r) => r.name === 'pod-doctor')!.webhook_configs![0]!;

describe('deploy/alertmanager/alertmanagerconfig.yaml', () => {
  it('is an AlertmanagerConfig in the namespace of the token Secret', () => {
    expect([crd.apiVersion, crd.kind]).toEqual(['monitoring.coreos.com/v1alpha1', 'AlertmanagerConfig']);
    expect(crd.metadata?.namespace).toBe(secret.metadata?.namespace);
  });

  it('routes the alerts alertmanager.yml routes, grouped and repeated the same way', () => {
    const r = crd.spec.route;
    expect(r.matchers.map((m) => `${m.name}${m.matchType}"${m.value}"`)).toEqual(route.matchers);
    expect([r.receiver, r.groupBy, r.groupWait, r.groupInterval, r.repeatInterval, r.continue]).toEqual([
      route.receiver,
      route.group_by,
      route.group_wait,
      route.group_interval,
      route.repeat_interval,
      route.continue,
    ]);
  });

  it('posts to the bot like alertmanager.yml, with the bearer token of the Secret template', () => {
    const receiver = crd.spec.receivers.find((x) => x.name === crd.spec.route.receiver)!;
    const w = receiver.webhookConfigs[0]!;
    expect([w.url, w.sendResolved, w.maxAlerts, w.httpConfig.authorization.type]).toEqual([
      webhook.url,
      webhook.send_resolved,
      webhook.max_alerts,
      webhook.http_config?.authorization?.type,
    ]);
    expect(new URL(w.url).pathname).toBe(SETTINGS.alertmanagerPath.schema.parse(undefined));
    expect(w.httpConfig.authorization.credentials).toEqual({ name: secret.metadata?.name, key: Object.keys(secret.stringData)[0] });
  });
});
