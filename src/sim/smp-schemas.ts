// Strategic-merge-patch metadata: the `patchStrategy`/`patchMergeKey` struct tags of the
// k8s.io/api types the simulator serves. Only fields whose tags differ from the default
// (maps merge, lists replace) are listed.
import type { SmpField, SmpSchema } from './patch.js';

const merge = (mergeKey?: string, fields?: SmpSchema): SmpField => ({ strategy: 'merge', ...(mergeKey ? { mergeKey } : {}), ...(fields ? { fields } : {}) });
const byType = merge('type');

const objectMeta: SmpSchema = {
  finalizers: merge(),
  ownerReferences: merge('uid'),
};

const container: SmpSchema = {
  ports: merge('containerPort'),
  env: merge('name'),
  volumeMounts: merge('mountPath'),
  volumeDevices: merge('devicePath'),
};

const podSpec: SmpSchema = {
  volumes: { strategy: 'merge,retainKeys', mergeKey: 'name' },
  initContainers: merge('name', container),
  containers: merge('name', container),
  ephemeralContainers: merge('name', container),
  imagePullSecrets: merge('name'),
  hostAliases: merge('ip'),
  topologySpreadConstraints: merge('topologyKey'),
};

const podTemplate: SmpField = { fields: { metadata: { fields: objectMeta }, spec: { fields: podSpec } } };
const conditionsStatus: SmpField = { fields: { conditions: byType } };

function withMeta(rest: SmpSchema = {}): SmpSchema {
  return { metadata: { fields: objectMeta }, ...rest };
}

export const SMP = {
  generic: withMeta(),
  pod: withMeta({ spec: { fields: podSpec }, status: { fields: { conditions: byType, podIPs: merge('ip') } } }),
  node: withMeta({
    spec: { fields: { podCIDRs: merge() } },
    status: { fields: { conditions: byType, addresses: byType } },
  }),
  namespace: withMeta({ status: conditionsStatus }),
  service: withMeta({ spec: { fields: { ports: merge('port') } }, status: conditionsStatus }),
  persistentVolumeClaim: withMeta({ status: conditionsStatus }),
  serviceAccount: withMeta({ secrets: merge('name') }),
  deployment: withMeta({ spec: { fields: { template: podTemplate, strategy: { strategy: 'retainKeys' } } }, status: conditionsStatus }),
  daemonSet: withMeta({ spec: { fields: { template: podTemplate, updateStrategy: { strategy: 'retainKeys' } } }, status: conditionsStatus }),
  workload: withMeta({ spec: { fields: { template: podTemplate } }, status: conditionsStatus }),
  podDisruptionBudget: withMeta({ status: conditionsStatus }),
  horizontalPodAutoscaler: withMeta({ status: conditionsStatus }),
} satisfies Record<string, SmpSchema>;
