// A container's probe as `kubectl describe` shows it: the probe rules quote it.
import type { Container } from './types.js';

export type Probe = NonNullable<Container['livenessProbe']>;

export function probeAction(p: Probe): string {
  if (p.httpGet) return `HTTP GET ${(p.httpGet.scheme ?? 'HTTP').toLowerCase()}://:${p.httpGet.port}${p.httpGet.path ?? '/'}`;
  if (p.tcpSocket) return `TCP :${p.tcpSocket.port}`;
  if (p.grpc) return `gRPC :${p.grpc.port}${p.grpc.service ? ` service ${p.grpc.service}` : ''}`;
  if (p.exec) return `exec ${(p.exec.command ?? []).join(' ')}`;
  return 'no action';
}

/** The probe as `kubectl describe` would show it, with the kubelet defaults filled in. */
export function probeSettings(p: Probe): string {
  return `${probeAction(p)} initialDelaySeconds=${p.initialDelaySeconds ?? 0} periodSeconds=${p.periodSeconds ?? 10} timeoutSeconds=${p.timeoutSeconds ?? 1} failureThreshold=${p.failureThreshold ?? 3}`;
}
