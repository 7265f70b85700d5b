import { describe, expect, it } from 'vitest';
import { normalizeImageRef, sameImage } from './types.js';

describe('image references as the runtime lists them', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.25', 'docker.io/library/nginx:1.25'],
    ['bitnami/redis:7.2', 'docker.io/bitnami/redis:7.2'],
    ['docker.io/library/nginx:1.25', 'docker.io/library/nginx:1.25'],
    ['registry.example.com:5000/shop/app:1.0', 'registry.example.com:5000/shop/app:1.0'],
    ['localhost/app', 'localhost/app:latest'],
    ['pod-doctor.local/busybox:1.35', 'pod-doctor.local/busybox:1.35'],
    [`nginx@sha256:${'a'.repeat(64)}`, `docker.io/library/nginx@sha256:${'a'.repeat(64)}`],
  ])('%s → %s', (ref, full) => expect(normalizeImageRef(ref)).toBe(full));

  it("a pod spec's short name matches containerd's full tag, and nothing else", () => {
    expect(sameImage('docker.io/library/nginx:1.25', 'nginx:1.25')).toBe(true);
    expect(sameImage('docker.io/library/nginx:1.25', 'nginx:1.26')).toBe(false);
    expect(sameImage('docker.io/library/nginx:latest', 'nginx')).toBe(true);
    expect(sameImage('quay.io/library/nginx:1.25', 'nginx:1.25')).toBe(false);
    expect(sameImage('', 'nginx')).toBe(false);
  });
});
