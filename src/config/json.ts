// A structured setting in an environment variable: JSON, checked by the setting's own schema
// (the config file gives the same schema YAML instead). Empty means the setting's empty value.
import { z } from 'zod';

export function jsonSetting<T>(schema: z.ZodType<T>, empty: T, expected: string) {
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
