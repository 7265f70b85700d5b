// The container runtimes the actions can use (`--runtime`), apart from host-exec.ts: the serving
// agent checks the flag at start without loading the runtime clients.
export const RUNTIME_CHOICES = ['auto', 'docker', 'cri'] as const;
export type RuntimeChoice = (typeof RUNTIME_CHOICES)[number];
