// Small builders for the catalogue files: a case-insensitive pattern from parts, and the typed
// identity functions that keep each file's entries checked against the vocabulary.
import type { Evidence, MessageData } from '../types.js';
import { containerPath, mountOf } from './context.js';
import type { Mechanism, ReadingContext, Signature } from './types.js';

/** A case-insensitive pattern joined from string parts (regex sources). */
export function re(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'i');
}

export function mechanisms<const T extends readonly Mechanism[]>(list: T): T {
  return list;
}

export function signatures<const T extends readonly Signature[]>(list: T): T {
  return list;
}

/** Evidence of the spec field that decides a variant: `spec.containers[web].securityContext` `readOnlyRootFilesystem: true`. */
export function specFact(ctx: ReadingContext, field: string, text: string): Evidence {
  return { source: `pod.${field.startsWith('spec') ? field : `${containerPath(ctx)}.${field}`}`, text };
}

/** The mount a path lies on, as evidence: `volumeMounts[cache] mountPath: /data (persistentVolumeClaim data-web-0)`. */
export function mountFact(ctx: ReadingContext, path: string | undefined): Evidence[] {
  const m = mountOf(ctx, path);
  if (!m) return [];
  const claim = m.volume?.persistentVolumeClaim?.claimName;
  const source = m.volume?.configMap?.name ?? m.volume?.secret?.secretName ?? claim ?? m.volume?.hostPath?.path ?? m.volume?.nfs?.path;
  const what = [m.kind, source].filter(Boolean).join(' ');
  return [
    {
      source: `pod.${containerPath(ctx)}.volumeMounts[${m.mount.name}]`,
      text: `mountPath: ${m.mount.mountPath}${m.mount.readOnly ? ', readOnly: true' : ''}${m.mount.subPath ? `, subPath: ${m.mount.subPath}` : ''}${what ? ` (${what})` : ''}`,
    },
  ];
}

/** Merges a variant's data with defaults, dropping undefined values (a template keeps a missing placeholder visible). */
export function data(values: Record<string, string | number | undefined>): MessageData {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string | number] => e[1] !== undefined));
}
