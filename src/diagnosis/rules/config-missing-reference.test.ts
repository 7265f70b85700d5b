import { describe, expect, it } from 'vitest';
import { ago, containerStatus, event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { parseMissing, rule } from './config-missing-reference.js';

const envFromConfigMap = (name: string, key = 'DB_HOST', optional = false) => ({
  spec: {
    containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', env: [{ name: key, valueFrom: { configMapKeyRef: { name, key, optional } } }] }],
  },
});
const configError = (message: string, patch = {}) => waitingPod('CreateContainerConfigError', message, patch);

const modern = configError('configmap "app-config" not found', envFromConfigMap('app-config'));
const old = configError('configmaps "app-config" not found', envFromConfigMap('app-config'));
const keyMissing = configError("couldn't find key DB_HOST in ConfigMap prod/app-config", {
  metadata: { namespace: 'prod' },
  ...envFromConfigMap('app-config'),
});
const secretVolume = waitingPod('ContainerCreating', undefined, {
  spec: { volumes: [{ name: 'secrets', secret: { secretName: 'secret-appsettings' } }] },
});
const pvcPod = pod({
  spec: { nodeName: undefined, volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
  status: {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message:
          '0/3 nodes are available: persistentvolumeclaim "data" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      },
    ],
    containerStatuses: undefined,
  },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'optional reference to a missing ConfigMap',
      snapshot: snapshot(pod(envFromConfigMap('feature-flags', 'FLAGS', true)), { configMaps: { 'feature-flags': false } }),
    },
    {
      name: 'old FailedMount event; the ConfigMap exists now and the pod runs',
      snapshot: snapshot(pod({ spec: { volumes: [{ name: 'config', configMap: { name: 'app-config' } }] } }), {
        configMaps: { 'app-config': true },
        events: [
          event(pod(), {
            reason: 'FailedMount',
            lastSeenAgo: 7200,
            message: 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found',
          }),
        ],
      }),
    },
    {
      name: 'Secrets not readable and the kubelet says nothing: no claim',
      snapshot: snapshot(pod({ spec: { containers: [{ name: 'web', image: 'x', envFrom: [{ secretRef: { name: 'db-creds' } }] }] } })),
    },
    {
      name: 'running pod whose ConfigMap was deleted later: info only',
      snapshot: snapshot(pod(envFromConfigMap('app-config')), { configMaps: { 'app-config': false } }),
    },
    {
      name: 'kube-root-ca.crt "not registered" is a kubelet cache hiccup, not a missing object',
      snapshot: snapshot(secretVolume, {
        events: [
          event(secretVolume, {
            reason: 'FailedMount',
            message: 'MountVolume.SetUp failed for volume "kube-api-access-dq7b2" : object "default"/"kube-root-ca.crt" not registered',
          }),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'CreateContainerConfigError, watch-based kubelet (>= 1.14): configmap "x" not found',
      snapshot: snapshot(modern, { events: [event(modern, { reason: 'Failed', count: 12, message: 'Error: configmap "app-config" not found' })] }),
      expect: {
        severity: 'error',
        causeKey: 'configmap/shop/app-config',
        params: { kind: 'configmap', name: 'app-config', namespace: 'shop', container: 'web' },
        said: [{ id: 'referencesUsed', data: { kind: 'ConfigMap', name: 'app-config', namespace: 'shop', uses: 'env DB_HOST of container web' } }],
        quotes: [/CreateContainerConfigError: configmap "app-config" not found/, /Error: configmap "app-config" not found/],
      },
    },
    {
      name: 'old kubelet (<= 1.13): plural configmaps "x" not found',
      snapshot: snapshot(old),
      expect: { causeKey: 'configmap/shop/app-config' },
    },
    {
      name: "missing key: couldn't find key DB_HOST in ConfigMap prod/app-config",
      snapshot: snapshot(keyMissing, { configMaps: { 'app-config': true } }),
      expect: {
        causeKey: 'configmap/prod/app-config:key/DB_HOST',
        params: { key: 'DB_HOST', namespace: 'prod' },
        said: [{ id: 'referencesKeyUsed', data: { key: 'DB_HOST', kind: 'ConfigMap', name: 'app-config', namespace: 'prod' } }],
      },
    },
    {
      name: 'secret "x" not found in an env reference',
      snapshot: snapshot(
        configError('secret "db-creds" not found', {
          spec: { containers: [{ name: 'web', image: 'x', env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db-creds', key: 'password' } } }] }] },
        }),
      ),
      expect: { causeKey: 'secret/shop/db-creds', params: { kind: 'secret' } },
    },
    {
      name: 'FailedMount for a Secret volume (pod stays ContainerCreating)',
      snapshot: snapshot(secretVolume, {
        events: [
          event(secretVolume, {
            reason: 'FailedMount',
            count: 9,
            message: 'MountVolume.SetUp failed for volume "secrets" : secret "secret-appsettings" not found',
          }),
        ],
      }),
      expect: { causeKey: 'secret/shop/secret-appsettings', said: [{ id: 'referencesUsed', data: { uses: 'volume secrets' } }, 'mountBlocked'] },
    },
    {
      name: 'missing PVC: scheduler message and the claim lookup',
      snapshot: snapshot(pvcPod, { pvcs: { data: null } }),
      expect: {
        causeKey: 'pvc/shop/data',
        params: { kind: 'pvc' },
        said: [{ id: 'referencesUsed', data: { kind: 'PersistentVolumeClaim', name: 'data', namespace: 'shop' } }],
        quotes: [/persistentvolumeclaim "data" not found/],
      },
    },
    {
      name: 'named before the kubelet says so: existence map only',
      snapshot: snapshot(waitingPod('ContainerCreating', undefined, { spec: { volumes: [{ name: 'config', configMap: { name: 'nginx-conf' } }] } }), {
        configMaps: { 'nginx-conf': false },
      }),
      expect: { severity: 'error', causeKey: 'configmap/shop/nginx-conf', said: ['doesNotExistChecked'] },
    },
  ],
});

describe('config.missing-reference', () => {
  it.each([
    ['configmap "app-config" not found', { kind: 'configmap', name: 'app-config' }],
    ['configmaps "app-config" not found', { kind: 'configmap', name: 'app-config' }],
    ['secrets "db" not found', { kind: 'secret', name: 'db' }],
    ["Couldn't find key password in Secret prod/db-creds", { kind: 'secret', name: 'db-creds', key: 'password', namespace: 'prod' }],
    ['MountVolume.SetUp failed for volume "config" : configmap "kube-apiserver" not found', { kind: 'configmap', name: 'kube-apiserver', volume: 'config' }],
  ])('parses %s', (text, expected) => {
    expect(parseMissing(text)).toMatchObject(expected);
  });
  it('a pod created seconds ago is only info: the ConfigMap may be applied right after it', () => {
    const fresh = configError('configmap "app-config" not found', { metadata: { creationTimestamp: ago(10) }, ...envFromConfigMap('app-config') });
    expect(findingsOf(rule, snapshot(fresh))[0]?.severity).toBe('info');
  });
  it('one finding per missing object, even when kubelet and lookup both report it', () => {
    const p = configError('configmap "app-config" not found', {
      ...envFromConfigMap('app-config'),
      status: {
        containerStatuses: [
          containerStatus({ ready: false, state: { waiting: { reason: 'CreateContainerConfigError', message: 'configmap "app-config" not found' } } }),
        ],
      },
    });
    const found = findingsOf(rule, snapshot(p, { configMaps: { 'app-config': false } }));
    expect(found).toHaveLength(1);
    expect(found[0]?.evidence).toHaveLength(2);
  });
});
