// Lazy-unmount a FUSE or network mount (`umount -l`) that belongs to the pod (its UID is in the
// path) or that does not answer stat right now. The file system type comes from the host's
// mountinfo, never from the request; an overlay, a bind mount or a local disk is refused.
import { join } from 'node:path';
import { isRemoteFs } from '../../probes/fs-mounts.js';
import { runNamedProbe } from '../../probes/index.js';
import { parseMountinfoLine, readText } from '../../probes/proc.js';
import { ActionRefused, type AgentActionDef, podLabel } from './types.js';

export const action: AgentActionDef<'lazy-unmount'> = {
  async run(req, env) {
    const text = (await readText(join(env.probeEnv.procRoot, '1', 'mountinfo'))) ?? (await readText(join(env.probeEnv.procRoot, 'self', 'mountinfo')));
    if (text === undefined) throw new ActionRefused(503, 'cannot read the host mount table');
    const entries = text
      .split('\n')
      .map(parseMountinfoLine)
      .filter((e) => e !== undefined && e.mountPoint === req.mount);
    const entry = entries[entries.length - 1];
    if (!entry) return { changed: false, detail: `${req.mount} is not mounted`, items: [] };
    if (!isRemoteFs(entry.fsType))
      throw new ActionRefused(403, `${req.mount} is a ${entry.fsType} mount; only FUSE and network mounts are unmounted by this action`);
    const ofPod = req.mount.includes(`/pods/${req.pod.uid}/`);
    if (!ofPod) {
      const fs = await runNamedProbe('fs-mounts', { podUid: req.pod.uid }, env.probeEnv);
      const hung = fs.ok && fs.mounts.some((m) => m.mountPoint === req.mount && m.state === 'hung');
      if (!hung) {
        throw new ActionRefused(
          403,
          `${req.mount} is not a mount of pod ${podLabel(req.pod)} and answers stat${fs.ok ? '' : ` (check failed: ${fs.error})`}; refusing to unmount it`,
        );
      }
    }
    const result = await env.exec.lazyUnmount(req.mount);
    if (!result.ok) throw new ActionRefused(502, `umount -l ${req.mount} failed: ${result.detail}`);
    return {
      changed: true,
      detail: `lazily unmounted ${entry.fsType} ${entry.source} at ${req.mount}${ofPod ? '' : ' (it did not answer stat)'}`,
      items: [req.mount],
    };
  },
};
