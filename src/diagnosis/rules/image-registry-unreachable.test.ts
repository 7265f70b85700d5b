import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-registry-unreachable.js';

const pulling = (image: string, reason: string, message?: string, name = 'web-7d9f8c6b5-x2k4q') =>
  waitingPod(reason, message, { metadata: { name }, spec: { containers: [{ name: 'web', image }] } });

const TIMEOUT =
  'failed to pull and unpack image "registry.example.com/shop/web:1.4.2": failed to resolve reference "registry.example.com/shop/web:1.4.2": failed to do ' +
  'request: Head "https://registry.example.com/v2/shop/web/manifests/1.4.2": dial tcp 10.0.0.5:443: i/o timeout';
const firstTry = pulling('registry.example.com/shop/web:1.4.2', 'ErrImagePull', TIMEOUT);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'first pull attempt failed seconds ago (may clear by itself): info only',
      snapshot: snapshot(firstTry, {
        events: [event(firstTry, { reason: 'Failed', message: `Failed to pull image "registry.example.com/shop/web:1.4.2": ${TIMEOUT}`, lastSeenAgo: 5 })],
      }),
    },
  ],
  invalid: [
    {
      name: 'containerd: dial tcp i/o timeout, repeated',
      snapshot: snapshot(firstTry, {
        events: [
          event(firstTry, { reason: 'Failed', count: 6, firstSeenAgo: 600, message: `Failed to pull image "registry.example.com/shop/web:1.4.2": ${TIMEOUT}` }),
        ],
      }),
      expect: {
        severity: 'error',
        causeKey: 'registry/registry.example.com:registry-unreachable',
        said: [
          { id: 'dialTimeout', data: { phrase: '"dial tcp 10.0.0.5:443: i/o timeout"' } },
          { id: 'everyImageAttempts', data: { failures: 6 } },
        ],
      },
    },
    {
      name: 'docker era: DNS lookup of registry-1.docker.io fails',
      snapshot: snapshot(
        pulling(
          'busybox',
          'ErrImagePull',
          'rpc error: code = Unknown desc = Error response from daemon: Get https://registry-1.docker.io/v2/: dial tcp: lookup registry-1.docker.io on ' +
            '127.0.0.53:53: server misbehaving',
        ),
      ),
      expect: { severity: 'error', causeKey: 'registry/docker.io:registry-unreachable', said: ['dns'] },
    },
    {
      name: 'docker era: request canceled while waiting for connection (gcr.io blocked)',
      snapshot: snapshot(
        pulling(
          'gcr.io/google_containers/pause-amd64:3.1',
          'ErrImagePull',
          'rpc error: code = Unknown desc = Error response from daemon: Get https://gcr.io/v2/: net/http: request canceled while waiting for connection ' +
            '(Client.Timeout exceeded while awaiting headers)',
        ),
      ),
      expect: { causeKey: 'registry/gcr.io:registry-unreachable' },
    },
  ],
});

describe('image.registry-unreachable', () => {
  it('groups pods of different images behind one registry under one cause key', () => {
    const a = findingsOf(rule, snapshot(pulling('registry.example.com/shop/web:1.4.2', 'ErrImagePull', TIMEOUT), { events: [] }));
    const b = findingsOf(
      rule,
      snapshot(pulling('registry.example.com/shop/cart:7', 'ErrImagePull', TIMEOUT.replaceAll('shop/web:1.4.2', 'shop/cart:7'), 'cart-1')),
    );
    expect(a[0]?.causeKey).toBe(b[0]?.causeKey);
    expect(a[0]?.subject).not.toBe(b[0]?.subject);
  });
});
