// Discovery documents (/version, /api, /apis, /api/v1, /apis/<g>[/<v>]) in the shape a
// 1.20 kube-apiserver returns, so kubectl and client-node's KubernetesObjectApi resolve kinds.
import { apiVersionOf, type ResourceDef, type ResourceTable } from './resources.js';

export const VERSION_INFO = {
  major: '1',
  minor: '20',
  gitVersion: 'v1.20.15',
  gitCommit: '8f1e5bf0b9729a899b8df86249b56e2c74aebc55',
  gitTreeState: 'clean',
  buildDate: '2022-01-19T17:23:01Z',
  goVersion: 'go1.15.15',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const MAIN_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDoc(name: string, versions: string[]): unknown {
  const list = versions.map((v) => ({ groupVersion: apiVersionOf(name, v), version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

export function apiGroupList(table: ResourceTable): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: table
      .groupVersions()
      .filter((g) => g.group !== '')
      .map((g) => groupDoc(g.group, g.versions)),
  };
}

export function apiGroup(table: ResourceTable, group: string): unknown | undefined {
  const g = table.groupVersions().find((x) => x.group === group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...(groupDoc(g.group, g.versions) as object) } : undefined;
}

function entries(def: ResourceDef): unknown[] {
  const base = { singularName: def.custom ? def.kind.toLowerCase() : '', namespaced: def.namespaced };
  const out: unknown[] = [
    {
      name: def.resource,
      ...base,
      kind: def.kind,
      verbs: MAIN_VERBS,
      ...(def.shortNames ? { shortNames: def.shortNames } : {}),
      ...(def.categories ? { categories: def.categories } : {}),
    },
  ];
  for (const sub of def.subresources) {
    const name = `${def.resource}/${sub}`;
    switch (sub) {
      case 'status':
        out.push({ name, ...base, kind: def.kind, verbs: ['get', 'patch', 'update'] });
        break;
      case 'scale':
        out.push({ name, ...base, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
        break;
      case 'log':
        out.push({ name, ...base, kind: 'Pod', verbs: ['get'] });
        break;
      case 'eviction':
        out.push({ name, ...base, group: 'policy', version: 'v1beta1', kind: 'Eviction', verbs: ['create'] });
        break;
      case 'finalize':
        out.push({ name, ...base, kind: def.kind, verbs: ['update'] });
        break;
    }
  }
  return out;
}

export function apiResourceList(table: ResourceTable, group: string, version: string): unknown {
  const resources = table.inGroupVersion(group, version).flatMap(entries);
  // The legacy /api/v1 document carries no apiVersion; group documents do.
  return group === ''
    ? { kind: 'APIResourceList', groupVersion: 'v1', resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}
