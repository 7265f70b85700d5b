// One setting's definition: shared by the settings table (schema.ts) and the config file's reader
// (file.ts), which must not import each other.
import type { z } from 'zod';

export interface SettingDef<S extends z.ZodType = z.ZodType> {
  env: string;
  /** Parses the variable's text (unset: undefined); its output is the setting's value. */
  schema: S;
  /**
   * The setting's form in the config file (its key is the setting's name): a structured
   * schema with the same output (lists and maps instead of JSON or comma lists), or false when
   * the file may not set it. Unset: a single value, checked by `schema` as text.
   * Secrets never come from the file (it is a ConfigMap).
   */
  file?: z.ZodType<z.output<S>> | false;
  /** Former names of the variable: still read when `env` is unset, with a deprecation note. */
  deprecatedEnv?: readonly string[];
  description: string;
  /** Secrets are never logged or printed. */
  secret?: boolean;
  /** Which roles read it (for docs and manifests). */
  roles: readonly ('bot' | 'worker' | 'agent' | 'cli')[];
}
