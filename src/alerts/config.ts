// Parsers of the Alertmanager settings that arrive as JSON in environment variables. They live
// here (not in config/schema.ts) so the alert code and its settings share one definition.
import { z } from 'zod';
import { AlertRoutes, type AlertRoute } from './routes.js';
import { labelMapping, LabelMappingOverrides, type LabelMapping } from './targets.js';

function jsonSetting<T>(schema: z.ZodType<T>, empty: T, expected: string) {
  return z
    .string()
    .default('')
    .transform((text, ctx): T => {
      if (!text.trim()) return empty;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: `not JSON; expected ${expected}` });
        return empty;
      }
      const result = schema.safeParse(parsed);
      if (result.success) return result.data;
      for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: `${issue.path.join('.') || '(root)'}: ${issue.message}` });
      return empty;
    });
}

/** `{"namespace":["exported_namespace","namespace"],"pod":"kubernetes_pod_name"}` → the full mapping. */
export const alertLabelsSetting = jsonSetting<LabelMapping>(LabelMappingOverrides.transform((o) => labelMapping(o)), labelMapping(), 'an object of role → label name(s)');

/** `[{"receiver":"pod-doctor","matchers":{"severity":"critical"},"channel":"C0123"}]`. */
export const alertRoutesSetting = jsonSetting<AlertRoute[]>(AlertRoutes, [], 'a list of {receiver?, matchers?, channel}');
