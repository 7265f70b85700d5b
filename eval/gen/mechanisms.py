# Evaluation corpus, MECHANISM cases, DEV split (slug prefix mx-): failures that no rule names, as a
# new user's cluster brings them (issue 32). Each is a real public report whose decisive line is an
# operating-system error, a server's start-up check, a TLS, DNS or API refusal; a correct answer names
# the mechanism in its own words (which limit, permission or setting the line points at, and the knob
# that changes it) and quotes the line. The pod spec carries what decides the mechanism
# (securityContext, volumes, hostNetwork/dnsPolicy, serviceAccountName, env); the node carries real
# kubelet/containerd versions; logs are multi-line with the decisive line often not last.
# `expect` was decided from each report's mechanism before any run, never from the product's output.
# Run: python3 eval/gen/mechanisms.py  (writes eval/corpus/mx-*/)
import copy
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh import *  # noqa: F401,F403  (its cases only run under __main__)
from fresh import _strings

CASES = []  # this file's own list (fresh's CASES holds fresh's cases)


def register(f):
    CASES.append(f)
    return f


msev = make_sev('mxsev', 104729, 37)

_CATALOGUE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../src/diagnosis/mechanisms/catalogue')


def _mechanism_ids():
    """The catalogue's mechanism ids (top-level entries; signatures have a dot in theirs)."""
    ids = set()
    for f in os.listdir(_CATALOGUE):
        with open(os.path.join(_CATALOGUE, f)) as fh:
            ids.update(m for m in re.findall(r"^    id: '([a-z0-9-]+)',", fh.read(), re.M))
    return ids


MECHANISM_IDS = _mechanism_ids()


def case(slug, title, url, reported, target, first, objects, decisive=None, mechanism=None, playbook=None, acceptable=None):
    """`mechanism`: (id or None, [[alternatives], ...]). `playbook` defaults to null (no cluster change)."""
    assert slug.startswith('mx-'), slug
    expect = {'first': first}
    if acceptable: expect['acceptable'] = acceptable
    if first is not None and playbook != 'omit': expect['playbook'] = playbook
    if decisive is not None:
        assert 20 <= len(decisive) <= 80, (slug, len(decisive), decisive)
        assert any(decisive in s for s in _strings(objects)), (slug, 'decisive line not in the dump', decisive)
        expect['decisive'] = decisive
    if mechanism is not None:
        mid, terms = mechanism
        assert mid is None or mid in MECHANISM_IDS, (slug, 'unknown mechanism id', mid)
        assert terms and all(g and all(t for t in g) for g in terms), (slug, terms)
        expect['mechanism'] = ({'id': mid} if mid else {}) | {'terms': terms}
    assert first != 'any' or mechanism is not None, (slug, '`first: any` needs a mechanism')
    assert first is not None or (decisive is None and mechanism is None), (slug, 'a negative has no decisive line or mechanism')
    ns_, name = target.split('/')
    assert any(o.get('kind') in ('Pod', 'Deployment', 'StatefulSet', 'Job', 'DaemonSet', 'CronJob', 'ReplicaSet') and o['metadata']['name'] == name
               and o['metadata'].get('namespace') == ns_ for o in objects), (slug, 'target missing')
    _references_exist(slug, objects, target)
    write_case(slug, {'title': title, 'url': url, 'reported': reported, 'target': target, 'split': 'dev', 'expect': expect}, objects)


def _references_exist(slug, objects, target):
    """Every ConfigMap, Secret and claim the target pod's volumes or env name is in the dump (unless optional):
    a missing one would be a different incident (ContainerCreating, CreateContainerConfigError)."""
    have = {(o['kind'], o['metadata'].get('namespace'), o['metadata']['name']) for o in objects if 'metadata' in o and 'name' in o['metadata']}
    for p in (o for o in objects if o.get('kind') == 'Pod' and o.get('spec') and '%s/%s' % (o['metadata']['namespace'], o['metadata']['name']) == target):
        ns_ = p['metadata']['namespace']
        for v in p['spec'].get('volumes', []):
            for kind, key, ref in (('ConfigMap', 'configMap', 'name'), ('Secret', 'secret', 'secretName'), ('PersistentVolumeClaim', 'persistentVolumeClaim', 'claimName')):
                if key in v and not v[key].get('optional'):
                    assert (kind, ns_, v[key][ref]) in have, (slug, p['metadata']['name'], 'missing', kind, v[key][ref])
        for c in p['spec']['containers'] + p['spec'].get('initContainers', []):
            for e in c.get('env', []):
                for kind, key in (('Secret', 'secretKeyRef'), ('ConfigMap', 'configMapKeyRef')):
                    ref = e.get('valueFrom', {}).get(key)
                    if ref and not ref.get('optional'):
                        assert (kind, ns_, ref['name']) in have, (slug, p['metadata']['name'], 'missing', kind, ref['name'])


# ---------------------------------------------------------------- helpers (this file only)
def sa_token(p, suffix):
    """The projected ServiceAccount token volume every pod gets, mounted in each container."""
    vol = 'kube-api-access-' + suffix
    p['spec'].setdefault('volumes', []).append(
        {'name': vol, 'projected': {'defaultMode': 420, 'sources': [
            {'serviceAccountToken': {'expirationSeconds': 3607, 'path': 'token'}},
            {'configMap': {'name': 'kube-root-ca.crt', 'items': [{'key': 'ca.crt', 'path': 'ca.crt'}]}},
            {'downwardAPI': {'items': [{'path': 'namespace', 'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'metadata.namespace'}}]}}]}})
    for c in p['spec']['containers'] + p['spec'].get('initContainers', []):
        c.setdefault('volumeMounts', []).append({'name': vol, 'mountPath': '/var/run/secrets/kubernetes.io/serviceaccount', 'readOnly': True})
    return p


def xpod(name, namespace, node_name, containers, statuses, created, token=None, init=None, **kw):
    """mkpod on copies of the containers (the owner's template stays as it is), with its token volume."""
    p = mkpod(name, namespace, node_name, copy.deepcopy(containers), statuses, created, init=copy.deepcopy(init) if init else None, **kw)
    if token is False: return p  # automountServiceAccountToken: false
    return sa_token(p, token or hexid(name, 5).replace('0', 'q').replace('1', 'x'))


def crashloop(p, node_name, image, cname, restarts, created, last_start, backoff_count, pulled_in='4.1s', size=98213392, present=False):
    """The kubelet's events for a container that crashes again and again since the pod was created."""
    return [scheduled(p, node_name, created - 1), *started(p, node_name, image, cname, created - 3, pulled_in, size=size, present=present),
            *restarted(p, node_name, image, cname, restarts, created - 70, last_start), backoff(p, node_name, cname, backoff_count, created - 90, 11)]


def sts(name, namespace, labels, replicas, spec, ready, created=86400 * 30, revision=None, claims=None):
    s = workload('StatefulSet', name, namespace, labels, replicas=replicas, template_spec=spec)
    s['metadata']['creationTimestamp'] = ago(created)
    s['spec'].update({'serviceName': name + '-headless', 'podManagementPolicy': 'OrderedReady', 'updateStrategy': {'type': 'RollingUpdate', 'rollingUpdate': {'partition': 0}},
                      'persistentVolumeClaimRetentionPolicy': {'whenDeleted': 'Retain', 'whenScaled': 'Retain'}})
    if claims: s['spec']['volumeClaimTemplates'] = claims
    rev = revision or '%s-%s' % (name, hexid(name, 10).replace('0', 'c').replace('1', 'd'))
    s['status'] = {'observedGeneration': 3, 'replicas': replicas, 'readyReplicas': ready, 'currentReplicas': replicas, 'updatedReplicas': replicas, 'availableReplicas': ready,
                   'currentRevision': rev, 'updateRevision': rev, 'collisionCount': 0}
    return s


def sts_labels(s, i):
    name = s['metadata']['name']
    return {**s['spec']['selector']['matchLabels'], 'statefulset.kubernetes.io/pod-name': '%s-%d' % (name, i), 'apps.kubernetes.io/pod-index': str(i),
            'controller-revision-hash': s['status']['currentRevision']}


def vct(name, size, sc=None, access=('ReadWriteOnce',)):
    t = {'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'metadata': {'name': name}, 'spec': {'accessModes': list(access), 'resources': {'requests': {'storage': size}}, 'volumeMode': 'Filesystem'}}
    if sc: t['spec']['storageClassName'] = sc
    return t


def vol(name, c, **kw):
    """A PersistentVolume provisioned for claim `c`, created with it."""
    v = pv(name, c, **kw)
    v['metadata']['creationTimestamp'] = c['metadata']['creationTimestamp']
    return v


def es_json(t, level, component, cluster, node, message):
    """Elasticsearch 7.x JSON server log line at NOW - t seconds."""
    return ('{"type": "server", "timestamp": "%s", "level": "%s", "component": "%s", "cluster.name": "%s", "node.name": "%s", "message": "%s" }'
            % (ts(t, '%Y-%m-%dT%H:%M:%S,%f')[:-3] + 'Z', level, component, cluster, node, message))


def es_plain(t, level, component, node, message):
    """Elasticsearch 6.x plain log line at NOW - t seconds."""
    return '[%s][%-5s][%-25s] [%s] %s' % (ts(t, '%Y-%m-%dT%H:%M:%S,%f')[:-3], level, component, node, message)


# =====================================================================================
# 1. max-map-count: an ECK data node lands on a fresh node of an upgraded node group whose vm.max_map_count is 65530
# =====================================================================================
@register
def es_max_map_count():
    old = ['ip-192-168-12-201.us-west-2.compute.internal', 'ip-192-168-47-88.us-west-2.compute.internal']
    new = 'ip-192-168-70-14.us-west-2.compute.internal'
    kern = '5.10.226-214.880.amzn2.x86_64'
    lab = lambda ng, z: {'eks.amazonaws.com/nodegroup': ng, 'eks.amazonaws.com/capacityType': 'ON_DEMAND', 'node.kubernetes.io/instance-type': 'r5.xlarge',
                         'topology.kubernetes.io/region': 'us-west-2', 'topology.kubernetes.io/zone': z}
    nodes = [mknode(n, kubelet='v1.30.4-eks-a737599', runtime='containerd://1.7.22', kernel=kern, os_image='Amazon Linux 2', ip=n[3:17].replace('-', '.').rstrip('.'),
                    labels=lab('es-ng-1', 'us-west-2%s' % 'ab'[i]), created=86400 * 120) for i, n in enumerate(old)]
    nn = mknode(new, kubelet='v1.30.4-eks-a737599', runtime='containerd://1.7.22', kernel=kern, os_image='Amazon Linux 2', ip='192.168.70.14',
                labels=lab('es-ng-2', 'us-west-2c'), created=2900)
    NS = 'logging'
    img = 'docker.elastic.co/elasticsearch/elasticsearch:7.6.2'
    es_labels = {'common.k8s.elastic.co/type': 'elasticsearch', 'elasticsearch.k8s.elastic.co/cluster-name': 'elasticsearch'}
    cr = obj('Elasticsearch', 'elasticsearch.k8s.elastic.co/v1', 'elasticsearch', NS, 86400 * 110,
             spec={'version': '7.6.2', 'nodeSets': [{'name': 'master', 'count': 2, 'config': {'node.master': True, 'node.data': False}},
                                                    {'name': 'data', 'count': 2, 'config': {'node.master': False, 'node.data': True}}]},
             status={'availableNodes': 3, 'health': 'yellow', 'phase': 'ApplyingChanges'})
    def es_spec(set_name):
        return {'automountServiceAccountToken': False, 'securityContext': {'fsGroup': 1000, 'runAsUser': 1000},
                'initContainers': [{'name': 'elastic-internal-init-filesystem', 'image': img, 'command': ['bash', '-c', '/mnt/elastic-internal/scripts/prepare-fs.sh'],
                                    'securityContext': {'privileged': False}, 'resources': {'limits': {'cpu': '100m', 'memory': '50Mi'}}}],
                'containers': [{'name': 'elasticsearch', 'image': img, 'ports': [{'name': 'https', 'containerPort': 9200}, {'name': 'transport', 'containerPort': 9300}],
                                'env': [{'name': 'ES_JAVA_OPTS', 'value': '-Xms4g -Xmx4g'}, {'name': 'NODE_NAME', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}},
                                        {'name': 'HEADLESS_SERVICE_NAME', 'value': 'elasticsearch-es-%s' % set_name}],
                                'readinessProbe': {'exec': {'command': ['bash', '-c', '/mnt/elastic-internal/scripts/readiness-probe-script.sh']}, 'periodSeconds': 5, 'timeoutSeconds': 5,
                                                   'failureThreshold': 3, 'initialDelaySeconds': 10},
                                'volumeMounts': [{'name': 'elasticsearch-data', 'mountPath': '/usr/share/elasticsearch/data'},
                                                 {'name': 'elastic-internal-scripts', 'mountPath': '/mnt/elastic-internal/scripts', 'readOnly': True}],
                                'resources': {'requests': {'cpu': '1', 'memory': '8Gi'}, 'limits': {'memory': '8Gi'}}}],
                'volumes': [{'name': 'elastic-internal-scripts', 'configMap': {'name': 'elasticsearch-es-scripts', 'defaultMode': 493}}]}
    objs = [ns(NS), ns('kube-system'), ns('elastic-system'), *nodes, nn, cr]
    data_spec = es_spec('data')
    data = sts('elasticsearch-es-data', NS, {**es_labels, 'elasticsearch.k8s.elastic.co/statefulset-name': 'elasticsearch-es-data'}, 2, data_spec, 1, created=86400 * 110,
               claims=[vct('elasticsearch-data', '100Gi', 'gp2')])
    owned_by(data, cr)
    master = sts('elasticsearch-es-master', NS, {**es_labels, 'elasticsearch.k8s.elastic.co/statefulset-name': 'elasticsearch-es-master'}, 2, es_spec('master'), 2, created=86400 * 110,
                 claims=[vct('elasticsearch-data', '10Gi', 'gp2')])
    owned_by(master, cr)
    sc = storageclass('gp2', 'ebs.csi.aws.com', 'WaitForFirstConsumer', default=True, params={'type': 'gp2', 'fsType': 'ext4'})
    objs += [sc, data, master, configmap('elasticsearch-es-scripts', NS, {'prepare-fs.sh': '#!/usr/bin/env bash\nset -eu\n...', 'readiness-probe-script.sh': '#!/usr/bin/env bash\n...'},
                                         created=86400 * 110)]
    # the masters and data-1 run on the old nodes, where someone ran sysctl -w by hand long ago
    for s_, i, n_, since in ((master, 0, old[0], 86400 * 40), (master, 1, old[1], 86400 * 40), (data, 1, old[1], 86400 * 40)):
        nm = '%s-%d' % (s_['metadata']['name'], i)
        sp = s_['spec']['template']['spec']
        p_ = xpod(nm, NS, n_, sp['containers'], [running('elasticsearch', img, since - 30)], since, token=False, owner=('StatefulSet', s_['metadata']['name']), labels=sts_labels(s_, i),
                  init=sp['initContainers'], init_statuses=[{'name': 'elastic-internal-init-filesystem', 'ready': True, 'restartCount': 0, 'image': img, 'imageID': imgid(img),
                                                             'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(since - 5), 'finishedAt': ago(since - 8)}}}],
                  spec_extra={'volumes': [{'name': 'elasticsearch-data', 'persistentVolumeClaim': {'claimName': 'elasticsearch-data-' + nm}}] + sp['volumes'],
                              'securityContext': sp['securityContext'], 'automountServiceAccountToken': False, 'hostname': nm, 'subdomain': 'elasticsearch-es-' + s_['metadata']['name'].rsplit('-', 1)[1]})
        objs.append(p_)
    # data-0 was evicted from the drained old node and recreated on the new node group
    pn = 'elasticsearch-es-data-0'
    created = 2600
    init_st = [{'name': 'elastic-internal-init-filesystem', 'ready': True, 'restartCount': 0, 'image': img, 'imageID': imgid(img),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 40), 'finishedAt': ago(created - 43), 'containerID': cid(pn + 'init')}}}]
    p = xpod(pn, NS, new, data_spec['containers'], [clbo_(pn, NS, 'elasticsearch', img, 11, term(78, 'Error', 243, 229, seed='es11'))], created, token=False,
             owner=('StatefulSet', 'elasticsearch-es-data'), labels=sts_labels(data, 0), init=data_spec['initContainers'], init_statuses=init_st,
             spec_extra={'volumes': [{'name': 'elasticsearch-data', 'persistentVolumeClaim': {'claimName': 'elasticsearch-data-' + pn}}] + data_spec['volumes'],
                         'securityContext': data_spec['securityContext'], 'hostname': pn, 'subdomain': 'elasticsearch-es-data', 'automountServiceAccountToken': False},
             conditions=conds(created, False, since=created - 45, msg='containers with unready status: [elasticsearch]'), host_ip='192.168.70.14')
    pvn = 'pvc-5c1f0e3a-8b47-4d2e-9f61-3a7d2c9e8b14'
    c_ = claim('elasticsearch-data-' + pn, NS, 'gp2', 'Bound', '100Gi', volume=pvn, created=86400 * 110, provisioner='ebs.csi.aws.com')
    v_ = vol(pvn, c_, handle='vol-0e4d2c81a97b3f562', size='100Gi', storage_class='gp2')
    cn = 'elasticsearch'
    log = [es_json(238, 'INFO', 'o.e.e.NodeEnvironment', cn, pn, 'using [1] data paths, mounts [[/usr/share/elasticsearch/data (/dev/nvme1n1)]], net usable_space [91.2gb], net total_space [97.9gb], types [ext4]'),
           es_json(238, 'INFO', 'o.e.e.NodeEnvironment', cn, pn, 'heap size [3.9gb], compressed ordinary object pointers [true]'),
           es_json(237, 'INFO', 'o.e.n.Node', cn, pn, 'node name [%s], node ID [sJ3n9kQfRZ2bV0y7cXkP4w], cluster name [elasticsearch]' % pn),
           es_json(237, 'INFO', 'o.e.n.Node', cn, pn, 'version[7.6.2], pid[1], build[default/docker/ef48eb35cf30adf4db14086e8aabd07ef6fb113f/2020-03-26T06:34:37.794943Z], OS[Linux/5.10.226-214.880.amzn2.x86_64/amd64], JVM[AdoptOpenJDK/OpenJDK 64-Bit Server VM/13.0.2/13.0.2+8]'),
           es_json(237, 'INFO', 'o.e.n.Node', cn, pn, 'JVM home [/usr/share/elasticsearch/jdk]'),
           *[es_json(236, 'INFO', 'o.e.p.PluginsService', cn, pn, 'loaded module [%s]' % m) for m in ('aggs-matrix-stats', 'analysis-common', 'ingest-common', 'lang-painless', 'mapper-extras', 'percolator', 'reindex', 'repository-url', 'transport-netty4', 'x-pack-core', 'x-pack-security')],
           es_json(236, 'INFO', 'o.e.p.PluginsService', cn, pn, 'no plugins loaded'),
           es_json(233, 'INFO', 'o.e.x.s.a.s.FileRolesStore', cn, pn, 'parsed [0] roles from file [/usr/share/elasticsearch/config/roles.yml]'),
           es_json(232, 'INFO', 'o.e.x.m.p.l.CppLogMessageHandler', cn, pn, '[controller/100] [Main.cc@110] controller (64 bit): Version 7.6.2 (Build e06ef9d86d5332) Copyright (c) 2020 Elasticsearch BV'),
           es_json(231, 'INFO', 'o.e.d.DiscoveryModule', cn, pn, 'using discovery type [zen] and seed hosts providers [settings, file]'),
           es_json(230, 'INFO', 'o.e.n.Node', cn, pn, 'initialized'),
           es_json(230, 'INFO', 'o.e.n.Node', cn, pn, 'starting ...'),
           es_json(230, 'INFO', 'o.e.t.TransportService', cn, pn, 'publish_address {192.168.75.203:9300}, bound_addresses {0.0.0.0:9300}'),
           es_json(230, 'INFO', 'o.e.b.BootstrapChecks', cn, pn, 'bound or publishing to a non-loopback address, enforcing bootstrap checks'),
           'ERROR: [1] bootstrap checks failed',
           '[1]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]',
           es_json(229, 'INFO', 'o.e.n.Node', cn, pn, 'stopping ...'),
           es_json(229, 'INFO', 'o.e.n.Node', cn, pn, 'stopped'),
           es_json(229, 'INFO', 'o.e.n.Node', cn, pn, 'closing ...'),
           es_json(229, 'INFO', 'o.e.n.Node', cn, pn, 'closed'),
           es_json(229, 'INFO', 'o.e.x.m.p.NativeController', cn, pn, 'Native controller process has stopped - no new native processes can be started')]
    objs += [c_, v_, p, podlog(NS, pn, 'elasticsearch', log, previous=True),
             kube_proxy(new, version='v1.30.4-eks-a737599'), *[kube_proxy(n, version='v1.30.4-eks-a737599') for n in old], *coredns(old, image='602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns:v1.11.3-eksbuild.1', hash_='5b9dfbf96'),
             node_event(nn, 'Starting', 'Starting kubelet.', last=2880, first=2880), node_event(nn, 'NodeReady', 'Node %s status is now: NodeReady' % new, last=2860, first=2860),
             node_event(nodes[0], 'NodeNotSchedulable', 'Node %s status is now: NodeNotSchedulable' % old[0], last=2700, first=2700),
             ctrl_ev(data, 'SuccessfulCreate', 'create Pod %s in StatefulSet elasticsearch-es-data successful' % pn, 'statefulset-controller', last=created),
             scheduled(p, new, created - 1),
             msev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvn, 'Normal', count=1, first=created - 20, controller='attachdetach-controller', instance='kube-controller-manager'),
             *started(p, new, img, 'elastic-internal-init-filesystem', created - 35, '21.4s', size=471932816, init=True),
             *restarted(p, new, img, 'elasticsearch', 11, created - 60, 243), backoff(p, new, 'elasticsearch', 58, created - 120, 14),
             ev(p, 'Unhealthy', 'Readiness probe failed: {"timestamp": "%s", "message": "readiness probe failed", "curl_rc": "7"}' % ts(2470, '%Y-%m-%dT%H:%M:%S+00:00'),
                count=3, first=2480, last=2470, host=new, fieldPath=fp('elasticsearch'))]
    case('mx-es-max-map-count',
         'CrashLoopBackOff: an ECK data node recreated on a new node group stops at the bootstrap checks, the new nodes keep the kernel default vm.max_map_count 65530',
         'https://github.com/elastic/cloud-on-k8s/issues/2853',
         '[1]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]',
         NS + '/' + pn, 'any', objs, decisive='max virtual memory areas vm.max_map_count [65530] is too low',
         mechanism=('max-map-count', [['vm.max_map_count']]))


# =====================================================================================
# 2. fd-limit: the logging Elasticsearch on a containerd node gets RLIMIT_NOFILE 1024 from the runtime
# =====================================================================================
@register
def es_nofile_containerd():
    N = 'k8s-worker-03'
    n = mknode(N, kubelet='v1.31.3', runtime='containerd://2.0.1', kernel='6.8.0-49-generic', os_image='Ubuntu 24.04.1 LTS', ip='10.20.0.33', created=86400 * 12)
    others = [mknode('k8s-worker-0%d' % i, kubelet='v1.31.3', runtime='containerd://2.0.1', kernel='6.8.0-49-generic', os_image='Ubuntu 24.04.1 LTS', ip='10.20.0.3%d' % i, created=86400 * 12)
              for i in (1, 2)]
    NS = 'kube-system'
    img = 'quay.io/fluentd_elasticsearch/elasticsearch:v6.6.1'
    labels = {'k8s-app': 'elasticsearch-logging', 'version': 'v6.6.1'}
    spec = {'serviceAccountName': 'elasticsearch-logging',
            'initContainers': [{'name': 'elasticsearch-logging-init', 'image': 'alpine:3.6', 'command': ['/sbin/sysctl', '-w', 'vm.max_map_count=262144'], 'securityContext': {'privileged': True}}],
            'containers': [{'name': 'elasticsearch-logging', 'image': img, 'ports': [{'name': 'db', 'containerPort': 9200, 'protocol': 'TCP'}, {'name': 'transport', 'containerPort': 9300, 'protocol': 'TCP'}],
                            'env': [{'name': 'NAMESPACE', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.namespace'}}}, {'name': 'MINIMUM_MASTER_NODES', 'value': '1'}],
                            'volumeMounts': [{'name': 'elasticsearch-logging', 'mountPath': '/data'}],
                            'resources': {'requests': {'cpu': '100m'}, 'limits': {'cpu': '1'}}}]}
    s = sts('elasticsearch-logging', NS, labels, 2, spec, 0, created=5400, claims=[vct('elasticsearch-logging', '20Gi', 'local-path')])
    s['metadata']['labels'] = {**labels, 'addonmanager.kubernetes.io/mode': 'Reconcile'}
    pn = 'elasticsearch-logging-0'
    created = 5300
    init_st = [{'name': 'elasticsearch-logging-init', 'ready': True, 'restartCount': 0, 'image': 'docker.io/library/alpine:3.6', 'imageID': imgid('docker.io/library/alpine:3.6'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 12), 'finishedAt': ago(created - 12), 'containerID': cid(pn + 'init')}}}]
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'elasticsearch-logging', img, 17, term(1, 'Error', 318, 301, seed='esl17'))], created,
             owner=('StatefulSet', 'elasticsearch-logging'), labels=sts_labels(s, 0), init=spec['initContainers'], init_statuses=init_st, sa='elasticsearch-logging',
             spec_extra={'volumes': [{'name': 'elasticsearch-logging', 'persistentVolumeClaim': {'claimName': 'elasticsearch-logging-' + pn}}], 'hostname': pn,
                         'subdomain': 'elasticsearch-logging-headless'},
             conditions=conds(created, False, since=created - 15, msg='containers with unready status: [elasticsearch-logging]'), host_ip='10.20.0.33')
    log = ['Starting Elasticsearch with the following settings:', '  cluster.name: kubernetes-logging', '  node.name: %s' % pn, '  discovery.zen.ping.unicast.hosts: elasticsearch-logging-headless',
           'OpenJDK 64-Bit Server VM warning: Option UseConcMarkSweepGC was deprecated in version 9.0 and will likely be removed in a future release.',
           es_plain(312, 'INFO', 'o.e.e.NodeEnvironment', pn, 'using [1] data paths, mounts [[/data (/dev/sdb1)]], net usable_space [18.9gb], net total_space [19.5gb], types [ext4]'),
           es_plain(312, 'INFO', 'o.e.e.NodeEnvironment', pn, 'heap size [989.8mb], compressed ordinary object pointers [true]'),
           es_plain(311, 'INFO', 'o.e.n.Node', pn, 'node name [%s], node ID [4fYtQz3hS8mWc1dXr7oK2A]' % pn),
           es_plain(311, 'INFO', 'o.e.n.Node', pn, 'version[6.6.1], pid[1], build[oss/tar/1fd8f69/2019-02-13T17:10:04.160291Z], OS[Linux/6.8.0-49-generic/amd64], JVM[Oracle Corporation/OpenJDK 64-Bit Server VM/11.0.2/11.0.2+9]'),
           *[es_plain(310, 'INFO', 'o.e.p.PluginsService', pn, 'loaded module [%s]' % m) for m in ('aggs-matrix-stats', 'analysis-common', 'ingest-common', 'lang-painless', 'mapper-extras', 'parent-join', 'percolator', 'reindex', 'repository-url', 'transport-netty4')],
           es_plain(310, 'INFO', 'o.e.p.PluginsService', pn, 'no plugins loaded'),
           es_plain(306, 'INFO', 'o.e.d.DiscoveryModule', pn, 'using discovery type [zen] and host providers [settings]'),
           es_plain(305, 'INFO', 'o.e.n.Node', pn, 'initialized'),
           es_plain(305, 'INFO', 'o.e.n.Node', pn, 'starting ...'),
           es_plain(304, 'INFO', 'o.e.t.TransportService', pn, 'publish_address {10.244.3.57:9300}, bound_addresses {0.0.0.0:9300}'),
           es_plain(304, 'INFO', 'o.e.b.BootstrapChecks', pn, 'bound or publishing to a non-loopback address, enforcing bootstrap checks'),
           'ERROR: [1] bootstrap checks failed',
           '[1]: max file descriptors [1024] for elasticsearch process is too low, increase to at least [65536]',
           es_plain(303, 'INFO', 'o.e.n.Node', pn, 'stopping ...'),
           es_plain(303, 'INFO', 'o.e.n.Node', pn, 'stopped'),
           es_plain(303, 'INFO', 'o.e.n.Node', pn, 'closing ...'),
           es_plain(302, 'INFO', 'o.e.n.Node', pn, 'closed')]
    fimg = 'quay.io/fluentd_elasticsearch/fluentd:v2.5.2'
    fds = daemonset('fluentd-es-v2.5.2', NS, {'k8s-app': 'fluentd-es'}, 3, 3, {'containers': [{'name': 'fluentd-es', 'image': fimg}]})
    fpods = [ds_pod(fds, x['metadata']['name'], fimg, 'fluentd-es', 5350) for x in [n] + others]
    flog = ['2026-11-21 09:5%d:1%d +0000 [warn]: #0 [elasticsearch] Could not communicate to Elasticsearch, resetting connection and trying again. connect_write timeout reached' % (k, k) for k in range(5)]
    pvn = 'pvc-0d7a3c2e-5f1b-4e8a-b6c9-1e2f3a4b5c6d'
    c_ = claim('elasticsearch-logging-' + pn, NS, 'local-path', 'Bound', '20Gi', volume=pvn, created=5300, provisioner='rancher.io/local-path', selected_node=N)
    objs = [ns(NS), n, *others, s, p, c_, podlog(NS, pn, 'elasticsearch-logging', log, previous=True), fds, *fpods,
            podlog(NS, fpods[0]['metadata']['name'], 'fluentd-es', flog, previous=False), serviceaccount('elasticsearch-logging', NS),
            kube_proxy(N, version='v1.31.3'), *[kube_proxy(x['metadata']['name'], version='v1.31.3') for x in others], *coredns([others[0]['metadata']['name'], others[1]['metadata']['name']]),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim elasticsearch-logging-%s Pod %s in StatefulSet elasticsearch-logging success' % (pn, pn), 'statefulset-controller', last=created + 1),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod %s in StatefulSet elasticsearch-logging successful' % pn, 'statefulset-controller', last=created),
            scheduled(p, N, created - 8), *started(p, N, 'alpine:3.6', 'elasticsearch-logging-init', created - 10, '1.9s', size=2016349, init=True),
            *started(p, N, img, 'elasticsearch-logging', created - 14, '38.7s', size=301947552),
            *restarted(p, N, img, 'elasticsearch-logging', 17, created - 90, 319), backoff(p, N, 'elasticsearch-logging', 121, created - 140, 9)]
    case('mx-es-nofile-1024-containerd',
         'CrashLoopBackOff: the logging Elasticsearch stops at its bootstrap checks, containerd gives containers an open-files limit of 1024',
         'https://github.com/kubernetes/kubernetes/issues/59321',
         '[1]: max file descriptors [1024] for elasticsearch process is too low, increase to at least [65536]',
         NS + '/' + pn, 'any', objs, decisive='max file descriptors [1024] for elasticsearch process is too low',
         mechanism=('fd-limit', [['LimitNOFILE', 'RLIMIT_NOFILE', 'nofile', 'ulimit', 'open-files limit', 'open files limit'], ['containerd', 'container runtime']]))


# =====================================================================================
# 3. data-dir-not-empty: postgres initdb on the root of a fresh ext4 volume (lost+found); PGDATA not a subdirectory
# =====================================================================================
@register
def postgres_lost_found():
    N = 'aks-agentpool-17529043-vmss000001'
    n = mknode(N, kubelet='v1.30.6', runtime='containerd://1.7.23-1', kernel='5.15.0-1074-azure', os_image='Ubuntu 22.04.5 LTS', ip='10.224.0.5',
               labels={'kubernetes.azure.com/agentpool': 'agentpool', 'topology.kubernetes.io/zone': '0'})
    NS = 'default'
    img = 'postgres:11.6-alpine'
    labels = {'app': 'todo-list', 'component': 'db'}
    spec = {'containers': [{'name': 'db', 'image': img, 'env': [{'name': 'POSTGRES_PASSWORD_FILE', 'value': '/secrets/postgres_password'}],
                            'volumeMounts': [{'name': 'secret', 'mountPath': '/secrets'}, {'name': 'data', 'mountPath': '/var/lib/postgresql/data'}],
                            'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '512Mi'}}}],
            'volumes': [{'name': 'secret', 'secret': {'secretName': 'todo-db-secret', 'defaultMode': 400, 'items': [{'key': 'POSTGRES_PASSWORD', 'path': 'postgres_password'}]}},
                        {'name': 'data', 'persistentVolumeClaim': {'claimName': 'todo-db-pvc'}}]}
    d, rs = deploy('todo-list-db', NS, labels, 1, '64c7587854', spec, ready=0, created=1500, generation=1, strategy={'type': 'Recreate'})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'todo-list-db-64c7587854-m68bt'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'db', img, 7, term(1, 'Error', 193, 192, seed='pg7'))], 1480,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '64c7587854'}, spec_extra={'volumes': copy.deepcopy(spec['volumes'])},
             conditions=conds(1480, False, since=1460, msg='containers with unready status: [db]'), host_ip='10.224.0.5')
    pvn = 'pvc-8e2b6d1f-0c3a-4f59-a7e4-2d9c1b5f6a03'
    sc = storageclass('managed-csi', 'disk.csi.azure.com', 'WaitForFirstConsumer', default=True, params={'skuname': 'StandardSSD_LRS'})
    c_ = claim('todo-db-pvc', NS, 'managed-csi', 'Bound', '1Gi', volume=pvn, created=1500, provisioner='disk.csi.azure.com', selected_node=N)
    v_ = vol(pvn, c_, driver='disk.csi.azure.com', handle='/subscriptions/1f2e3d4c-5b6a-4789-8abc-def012345678/resourceGroups/mc_kiamol_aks_eastus/providers/Microsoft.Compute/disks/' + pvn,
            size='1Gi', storage_class='managed-csi')
    log = ['The files belonging to this database system will be owned by user "postgres".', 'This user must also own the server process.', '',
           'The database cluster will be initialized with locale "en_US.utf8".', 'The default database encoding has accordingly been set to "UTF8".',
           'The default text search configuration will be set to "english".', '', 'Data page checksums are disabled.', '',
           'initdb: directory "/var/lib/postgresql/data" exists but is not empty', 'It contains a lost+found directory, perhaps due to it being a mount point.',
           'Using a mount point directly as the data directory is not recommended.', 'Create a subdirectory under the mount point.']
    wimg = 'kiamol/ch04-todo-list'
    wd, wrs = deploy('todo-list-web', NS, {'app': 'todo-list', 'component': 'web'}, 1, '7d9c5b8f46', {'containers': [{'name': 'web', 'image': wimg}]}, ready=1, created=1500, generation=1)
    wp = xpod('todo-list-web-7d9c5b8f46-qk2zd', NS, N, [{'name': 'web', 'image': wimg}], [running('web', wimg, 1400, restarts=2, last=term(139, 'Error', 1470, 1420, seed='web2'))], 1480,
              owner=('ReplicaSet', wrs['metadata']['name']), labels={'app': 'todo-list', 'component': 'web', 'pod-template-hash': '7d9c5b8f46'})
    wlog = ['info: Microsoft.Hosting.Lifetime[0]', '      Now listening on: http://[::]:80', 'info: Microsoft.Hosting.Lifetime[0]', '      Application started. Press Ctrl+C to shut down.',
            'fail: ToDoList.Pages.IndexModel[0]', '      Failed to load items: Npgsql.NpgsqlException (0x80004005): Exception while connecting',
            ' ---> System.Net.Sockets.SocketException (111): Connection refused']
    objs = [ns(NS), n, d, rs, p, sc, c_, v_, secret('todo-db-secret', NS, ['POSTGRES_PASSWORD'], created=1500), podlog(NS, pn, 'db', log, previous=True),
            wd, wrs, wp, podlog(NS, wp['metadata']['name'], 'web', wlog, previous=False), service('todo-db', NS, labels, ports=((5432, 5432),), created=1500),
            endpoints('todo-db', NS, not_ready=[(p['status']['podIP'], pn, N)], port=5432),
            kube_proxy(N, version='v1.30.6'), *coredns([N, N], image='mcr.microsoft.com/oss/kubernetes/coredns:v1.11.3-2', hash_='659fcb445'),
            ctrl_ev(c_, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'persistentvolume-controller', last=1499),
            ctrl_ev(c_, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvn, 'disk.csi.azure.com_csi-azuredisk-controller-6f9c5d7b48-2xkqz_8d1e0f2a-3b4c-4d5e-9f6a-7b8c9d0e1f2a', last=1486),
            msev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvn, 'Normal', count=1, first=1470, controller='attachdetach-controller', instance='kube-controller-manager'),
            *crashloop(p, N, img, 'db', 7, 1478, 194, 33, pulled_in='6.2s', size=57342851)]
    case('mx-postgres-lost-found-pgdata',
         'CrashLoopBackOff: postgres initdb refuses the data directory because the new Azure disk is mounted at /var/lib/postgresql/data itself, with lost+found at its root',
         'https://github.com/sixeyed/kiamol/issues/72',
         'initdb: directory "/var/lib/postgresql/data" exists but is not empty',
         NS + '/' + pn, 'any', objs, decisive='initdb: directory "/var/lib/postgresql/data" exists but is not empty',
         mechanism=('data-dir-not-empty', [['PGDATA', 'subPath']]))


# =====================================================================================
# 4. data-dir-not-empty: Kubeflow Pipelines' MySQL 8 on an NFS claim; --initialize refuses a data directory with files
# =====================================================================================
@register
def mysql_initialize_has_files():
    nodes = ['kf-worker-%d' % i for i in (1, 2, 3)]
    ns_ = [mknode(x, kubelet='v1.31.4', runtime='containerd://1.7.24', kernel='5.15.0-126-generic', os_image='Ubuntu 22.04.5 LTS', ip='172.16.10.%d' % (21 + i), created=86400 * 60)
           for i, x in enumerate(nodes)]
    N = nodes[1]
    NS = 'kubeflow'
    img = 'gcr.io/ml-pipeline/mysql:8.0.26'
    labels = {'app': 'mysql', 'application-crd-id': 'kubeflow-pipelines'}
    spec = {'serviceAccountName': 'mysql',
            'containers': [{'name': 'mysql', 'image': img, 'args': ['--datadir', '/var/lib/mysql', '--default-authentication-plugin=mysql_native_password', '--disable-log-bin'],
                            'env': [{'name': 'MYSQL_ALLOW_EMPTY_PASSWORD', 'value': 'true'}], 'ports': [{'name': 'mysql', 'containerPort': 3306}],
                            'readinessProbe': {'exec': {'command': ['/bin/bash', '-c', 'mysql -D $$MYSQL_DATABASE -h 127.0.0.1 -e "SELECT 1"']}, 'initialDelaySeconds': 5, 'periodSeconds': 2, 'timeoutSeconds': 1},
                            'volumeMounts': [{'name': 'mysql-persistent-storage', 'mountPath': '/var/lib/mysql'}],
                            'resources': {'requests': {'cpu': '100m', 'memory': '800Mi'}}}],
            'volumes': [{'name': 'mysql-persistent-storage', 'persistentVolumeClaim': {'claimName': 'mysql-pv-claim'}}]}
    d, rs = deploy('mysql', NS, labels, 1, '5b4c8f7d96', spec, ready=0, created=3000, generation=1, strategy={'type': 'Recreate'})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'mysql-5b4c8f7d96-7ckxq'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'mysql', img, 9, term(1, 'Error', 261, 259, seed='my9'))], 2950, sa='mysql',
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5b4c8f7d96'}, spec_extra={'volumes': copy.deepcopy(spec['volumes'])},
             conditions=conds(2950, False, since=2930, msg='containers with unready status: [mysql]'), host_ip='172.16.10.22')
    sc = storageclass('nfs-client', 'cluster.local/nfs-subdir-external-provisioner', 'Immediate', default=True, params={'archiveOnDelete': 'true'})
    pvn = 'pvc-3b9e7f12-6a4d-4c8e-9d15-0f2a7b6c8e41'
    c_ = claim('mysql-pv-claim', NS, 'nfs-client', 'Bound', '20Gi', volume=pvn, created=3000, provisioner='cluster.local/nfs-subdir-external-provisioner')
    v_ = vol(pvn, c_, driver=None, size='20Gi', storage_class='nfs-client')
    v_['spec'].pop('csi')
    v_['spec']['nfs'] = {'server': '172.16.10.5', 'path': '/srv/nfs/kubeflow-mysql-pv-claim-' + pvn}
    v_['metadata']['annotations'] = {'pv.kubernetes.io/provisioned-by': 'cluster.local/nfs-subdir-external-provisioner'}
    def my(t, level, code, text):
        return '%s 0 [%s] [%s] [Server] %s' % (ts(t, '%Y-%m-%dT%H:%M:%S.%fZ'), level, code, text)
    ent = lambda t, text: '%s [Note] [Entrypoint]: %s' % (ts(t, '%Y-%m-%d %H:%M:%S+00:00'), text)
    log = [ent(262, 'Entrypoint script for MySQL Server 8.0.26-1debian10 started.'), ent(262, "Switching to dedicated user 'mysql'"),
           ent(262, 'Entrypoint script for MySQL Server 8.0.26-1debian10 started.'), ent(261, 'Initializing database files'),
           my(261, 'System', 'MY-013169', '/usr/sbin/mysqld (mysqld 8.0.26) initializing of server in progress as process 42'),
           my(261, 'ERROR', 'MY-010457', '--initialize specified but the data directory has files in it. Aborting.'),
           my(261, 'ERROR', 'MY-013236', 'The designated data directory /var/lib/mysql/ is unusable. You can remove all files that the server added to it.'),
           my(261, 'ERROR', 'MY-010119', 'Aborting'),
           my(260, 'System', 'MY-010910', '/usr/sbin/mysqld: Shutdown complete (mysqld 8.0.26)  MySQL Community Server - GPL.')]
    # the API server and the metadata service wait on MySQL and crash-loop too (downstream, not the cause)
    aimg = 'gcr.io/ml-pipeline/api-server:2.3.0'
    ad, ars = deploy('ml-pipeline', NS, {'app': 'ml-pipeline'}, 1, '6f7d9c8b54', {'containers': [{'name': 'ml-pipeline-api-server', 'image': aimg}]}, ready=0, created=3000, generation=1)
    ap = xpod('ml-pipeline-6f7d9c8b54-j2vwn', NS, nodes[0], [{'name': 'ml-pipeline-api-server', 'image': aimg}],
              [clbo_('ml-pipeline-6f7d9c8b54-j2vwn', NS, 'ml-pipeline-api-server', aimg, 8, term(255, 'Error', 700, 405, seed='api8'))], 2950, sa='ml-pipeline',
              owner=('ReplicaSet', ars['metadata']['name']), labels={'app': 'ml-pipeline', 'pod-template-hash': '6f7d9c8b54'},
              conditions=conds(2950, False, since=2930, msg='containers with unready status: [ml-pipeline-api-server]'))
    alog = klog_lines(700, [('I', 'client_manager.go:170', 'Initializing client manager'), ('I', 'config.go:57', 'Config DBConfig.MySQLConfig.ExtraParams not specified, skipping'),
                            ('F', 'error.go:340', 'dial tcp 10.104.87.212:3306: connect: connection refused')], step=147)
    minio_img = 'gcr.io/ml-pipeline/minio:RELEASE.2019-08-14T20-37-41Z-license-compliance'
    md, mrs = deploy('minio', NS, {'app': 'minio'}, 1, '65dff76b66', {'containers': [{'name': 'minio', 'image': minio_img}]}, created=3000, generation=1)
    mp = xpod('minio-65dff76b66-8mxpl', NS, nodes[2], [{'name': 'minio', 'image': minio_img}], [running('minio', minio_img, 2900)], 2950,
              owner=('ReplicaSet', mrs['metadata']['name']), labels={'app': 'minio', 'pod-template-hash': '65dff76b66'})
    objs = [ns(NS), ns('kube-system'), *ns_, sc, c_, v_, d, rs, p, podlog(NS, pn, 'mysql', log, previous=True), serviceaccount('mysql', NS),
            service('mysql', NS, labels, ports=((3306, 3306),), created=3000), endpoints('mysql', NS, not_ready=[(p['status']['podIP'], pn, N)], port=3306),
            ad, ars, ap, podlog(NS, ap['metadata']['name'], 'ml-pipeline-api-server', alog, previous=True), md, mrs, mp,
            *[kube_proxy(x, version='v1.31.4') for x in nodes], *coredns(nodes),
            ctrl_ev(c_, 'Provisioning', 'External provisioner is provisioning volume for claim "kubeflow/mysql-pv-claim"',
                    'cluster.local/nfs-subdir-external-provisioner_nfs-subdir-external-provisioner-7d8f6b9c5-x2qlm_0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', last=2999),
            ctrl_ev(c_, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvn,
                    'cluster.local/nfs-subdir-external-provisioner_nfs-subdir-external-provisioner-7d8f6b9c5-x2qlm_0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', last=2998),
            *crashloop(p, N, img, 'mysql', 9, 2948, 262, 47, pulled_in='19.3s', size=151204735),
            ev(p, 'Unhealthy', 'Readiness probe failed: mysql: [Warning] Using a password on the command line interface can be insecure.\nERROR 2003 (HY000): '
               "Can't connect to MySQL server on '127.0.0.1:3306' (111)", count=6, first=2900, last=262, host=N, fieldPath=fp('mysql')),
            *crashloop(ap, nodes[0], aimg, 'ml-pipeline-api-server', 8, 2948, 701, 40, pulled_in='7.7s', size=38230126)]
    case('mx-mysql-initialize-has-files',
         "CrashLoopBackOff: Kubeflow Pipelines' MySQL 8 on a new NFS claim stops at --initialize, the data directory already holds files",
         'https://github.com/kubeflow/website/issues/3990',
         '[ERROR] [MY-010457] [Server] --initialize specified but the data directory has files in it. Aborting.',
         NS + '/' + pn, 'any', objs, decisive='--initialize specified but the data directory has files in it',
         mechanism=('data-dir-not-empty', [['subPath', 'subdirectory']]))


# =====================================================================================
# 5. fs-permission: Grafana runs as UID 472 on a claim whose root belongs to root; the pod sets no fsGroup
# =====================================================================================
@register
def grafana_data_not_writable():
    A = 'gke-ops-default-pool-6c1e9f2b-4mfx'; B = 'gke-ops-default-pool-6c1e9f2b-r7tq'
    na = mknode(A, kubelet='v1.30.5-gke.1699000', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.138.0.12',
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'us-west1-a'})
    nb = mknode(B, kubelet='v1.30.5-gke.1699000', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.138.0.13',
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'us-west1-a'})
    NS = 'monitoring'
    img = 'grafana/grafana:7.1.1'
    labels = {'app': 'grafana'}
    spec = {'securityContext': {'runAsUser': 472, 'runAsGroup': 472},
            'containers': [{'name': 'grafana', 'image': img, 'ports': [{'name': 'http-grafana', 'containerPort': 3000}],
                            'readinessProbe': {'httpGet': {'path': '/robots.txt', 'port': 3000}, 'initialDelaySeconds': 10, 'periodSeconds': 30, 'timeoutSeconds': 2, 'failureThreshold': 3},
                            'volumeMounts': [{'name': 'grafana-pv', 'mountPath': '/var/lib/grafana'}, {'name': 'grafana-datasources', 'mountPath': '/etc/grafana/provisioning/datasources'}],
                            'resources': {'requests': {'cpu': '250m', 'memory': '750Mi'}}}],
            'volumes': [{'name': 'grafana-pv', 'persistentVolumeClaim': {'claimName': 'grafana-pvc'}},
                        {'name': 'grafana-datasources', 'configMap': {'name': 'grafana-datasources', 'defaultMode': 420}}]}
    d, rs = deploy('grafana', NS, labels, 1, '7c9f6d5b8d', spec, ready=0, created=86400 * 6, generation=3)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 3}
    rs['metadata']['creationTimestamp'] = ago(1900)
    pn = 'grafana-7c9f6d5b8d-9tq4w'
    p = xpod(pn, NS, B, spec['containers'], [clbo_(pn, NS, 'grafana', img, 8, term(1, 'Error', 225, 225, seed='gf8'))], 1880,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7c9f6d5b8d'},
             spec_extra={'volumes': copy.deepcopy(spec['volumes']), 'securityContext': dict(spec['securityContext'])},
             conditions=conds(1880, False, since=1860, msg='containers with unready status: [grafana]'), host_ip='10.138.0.13')
    sc = storageclass('standard-rwo', 'pd.csi.storage.gke.io', 'WaitForFirstConsumer', default=True, params={'type': 'pd-balanced'})
    pvn = 'pvc-f2a4c6e8-1b3d-4f5a-8c7e-9d0b2a4c6e81'
    c_ = claim('grafana-pvc', NS, 'standard-rwo', 'Bound', '1Gi', volume=pvn, created=86400 * 6, provisioner='pd.csi.storage.gke.io', selected_node=A)
    v_ = vol(pvn, c_, driver='pd.csi.storage.gke.io', handle='projects/acme-ops/zones/us-west1-a/disks/' + pvn, size='1Gi', storage_class='standard-rwo')
    log = ["mkdir: can't create directory '/var/lib/grafana/plugins': Permission denied", "GF_PATHS_DATA='/var/lib/grafana' is not writable.",
           'You may have issues with file permissions, more information here: http://docs.grafana.org/installation/docker/#migration-from-a-previous-version-of-the-docker-container-to-5-1-or-later']
    pimg = 'prom/prometheus:v2.20.0'
    pd_, prs = deploy('prometheus', NS, {'app': 'prometheus'}, 1, '84d9b6c7f5', {'containers': [{'name': 'prometheus', 'image': pimg}]}, created=86400 * 6)
    pp = xpod('prometheus-84d9b6c7f5-wz6kn', NS, A, [{'name': 'prometheus', 'image': pimg}], [running('prometheus', pimg, 86400 * 6 - 60)], 86400 * 6,
              owner=('ReplicaSet', prs['metadata']['name']), labels={'app': 'prometheus', 'pod-template-hash': '84d9b6c7f5'})
    objs = [ns(NS), ns('kube-system'), na, nb, sc, c_, v_, d, rs, replicaset(d, '5d8b7c6f49', 0, 0, spec, created=86400 * 6, revision=2), p,
            configmap('grafana-datasources', NS, {'prometheus.yaml': 'apiVersion: 1\ndatasources:\n- name: Prometheus\n  type: prometheus\n  url: http://prometheus:9090\n'}, created=86400 * 6),
            podlog(NS, pn, 'grafana', log, previous=True), pd_, prs, pp,
            kube_proxy(A, version='v1.30.5-gke.1699000'), kube_proxy(B, version='v1.30.5-gke.1699000'), *coredns([A, B], image='gke.gcr.io/coredns/coredns:v1.11.3-gke.3'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set grafana-7c9f6d5b8d from 0 to 1', 'deployment-controller', last=1900),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set grafana-5d8b7c6f49 from 1 to 0', 'deployment-controller', last=1885),
            msev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvn, 'Normal', count=1, first=1850, controller='attachdetach-controller', instance='kube-controller-manager'),
            *crashloop(p, B, img, 'grafana', 8, 1848, 226, 36, pulled_in='9.8s', size=54201187)]
    case('mx-grafana-data-not-writable',
         'CrashLoopBackOff after the pod was recreated: Grafana runs as UID 472 and cannot write /var/lib/grafana, the claim\'s root belongs to root and the pod sets no fsGroup',
         'https://github.com/grafana/grafana/issues/26675',
         "GF_PATHS_DATA='/var/lib/grafana' is not writable.",
         NS + '/' + pn, 'any', objs, decisive="GF_PATHS_DATA='/var/lib/grafana' is not writable",
         mechanism=('fs-permission', [['fsGroup']]))


# =====================================================================================
# 6. fs-permission: Prometheus (operator) runs as nobody after its securityContext was emptied; its claim is root-owned
# =====================================================================================
@register
def prometheus_queries_active():
    nodes = ['worker-%02d.ocp.example.internal' % i for i in (1, 2)]
    ns_ = [mknode(x, kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.14.0-427.40.1.el9_4.x86_64', os_image='Rocky Linux 9.4 (Blue Onyx)', ip='10.40.8.%d' % (11 + i))
           for i, x in enumerate(nodes)]
    N = nodes[0]
    NS = 'monitoring'
    img = 'quay.io/prometheus/prometheus:v2.22.1'; rimg = 'quay.io/prometheus-operator/prometheus-config-reloader:v0.43.2'
    cr = obj('Prometheus', 'monitoring.coreos.com/v1', 'k8s', NS, 86400 * 20,
             spec={'replicas': 1, 'version': 'v2.22.1', 'serviceAccountName': 'prometheus-k8s', 'securityContext': {}, 'retention': '15d',
                   'storage': {'volumeClaimTemplate': {'spec': {'storageClassName': 'longhorn', 'resources': {'requests': {'storage': '50Gi'}}}}}})
    labels = {'app': 'prometheus', 'prometheus': 'k8s', 'app.kubernetes.io/name': 'prometheus', 'operator.prometheus.io/name': 'k8s'}
    spec = {'serviceAccountName': 'prometheus-k8s', 'securityContext': {},
            'containers': [{'name': 'prometheus', 'image': img, 'args': ['--web.console.templates=/etc/prometheus/consoles', '--web.console.libraries=/etc/prometheus/console_libraries',
                                                                        '--config.file=/etc/prometheus/config_out/prometheus.env.yaml', '--storage.tsdb.path=/prometheus',
                                                                        '--storage.tsdb.retention.time=15d', '--web.enable-lifecycle', '--web.route-prefix=/'],
                            'ports': [{'name': 'web', 'containerPort': 9090}],
                            'readinessProbe': {'httpGet': {'path': '/-/ready', 'port': 'web'}, 'periodSeconds': 5, 'timeoutSeconds': 3, 'failureThreshold': 120},
                            'volumeMounts': [{'name': 'config-out', 'mountPath': '/etc/prometheus/config_out', 'readOnly': True},
                                             {'name': 'prometheus-k8s-db', 'mountPath': '/prometheus', 'subPath': 'prometheus-db'}]},
                           {'name': 'config-reloader', 'image': rimg, 'args': ['--listen-address=:8080', '--reload-url=http://localhost:9090/-/reload',
                                                                                '--config-file=/etc/prometheus/config/prometheus.yaml.gz', '--config-envsubst-file=/etc/prometheus/config_out/prometheus.env.yaml'],
                            'volumeMounts': [{'name': 'config', 'mountPath': '/etc/prometheus/config'}, {'name': 'config-out', 'mountPath': '/etc/prometheus/config_out'}],
                            'resources': {'limits': {'cpu': '100m', 'memory': '50Mi'}}}],
            'volumes': [{'name': 'config', 'secret': {'secretName': 'prometheus-k8s', 'defaultMode': 420}}, {'name': 'config-out', 'emptyDir': {}},
                        {'name': 'prometheus-k8s-db', 'persistentVolumeClaim': {'claimName': 'prometheus-k8s-db-prometheus-k8s-0'}}]}
    s = sts('prometheus-k8s', NS, labels, 1, spec, 0, created=86400 * 20, claims=[vct('prometheus-k8s-db', '50Gi', 'longhorn')])
    owned_by(s, cr)
    pn = 'prometheus-k8s-0'
    st = [clbo_(pn, NS, 'prometheus', img, 14, term(2, 'Error', 305, 305, seed='pr14')), running('config-reloader', rimg, 4170, ready=True)]
    p = xpod(pn, NS, N, spec['containers'], st, 4200, sa='prometheus-k8s', owner=('StatefulSet', 'prometheus-k8s'), labels=sts_labels(s, 0),
             spec_extra={'volumes': copy.deepcopy(spec['volumes']), 'securityContext': {}, 'hostname': pn, 'subdomain': 'prometheus-operated'},
             conditions=conds(4200, False, since=4180, msg='containers with unready status: [prometheus]'), host_ip='10.40.8.11')
    pvn = 'pvc-71c3e9a5-2d4b-4f6e-8a1c-5b7d9e0f2a34'
    c_ = claim('prometheus-k8s-db-prometheus-k8s-0', NS, 'longhorn', 'Bound', '50Gi', volume=pvn, created=86400 * 20, provisioner='driver.longhorn.io',
               labels={'app.kubernetes.io/name': 'prometheus', 'operator.prometheus.io/name': 'k8s'})
    v_ = vol(pvn, c_, driver='driver.longhorn.io', handle=pvn, size='50Gi', storage_class='longhorn')
    sc = storageclass('longhorn', 'driver.longhorn.io', 'Immediate', default=True, params={'numberOfReplicas': '3', 'staleReplicaTimeout': '2880', 'fsType': 'ext4'})
    lg = lambda t, caller, rest: 'level=%s ts=%s caller=%s %s' % (rest[0], ts(t, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z', caller, rest[1])
    log = [lg(306, 'main.go:353', ('info', 'msg="Starting Prometheus" version="(version=2.22.1, branch=HEAD, revision=00f16d1ac3a4c94561e5133b821d8e4d9ef78ec2)"')),
           lg(306, 'main.go:358', ('info', 'build_context="(go=go1.15.3, user=root@516b109b1732, date=20201105-14:02:25)"')),
           lg(306, 'main.go:359', ('info', 'host_details="(Linux 5.14.0-427.40.1.el9_4.x86_64 #1 SMP PREEMPT_DYNAMIC Tue Oct 8 11:40:50 UTC 2024 x86_64 prometheus-k8s-0 (none))"')),
           lg(306, 'main.go:360', ('info', 'fd_limits="(soft=1048576, hard=1048576)"')),
           lg(306, 'main.go:361', ('info', 'vm_limits="(soft=unlimited, hard=unlimited)"')),
           lg(306, 'query_logger.go:87', ('error', 'component=activeQueryTracker msg="Error opening query log file" file=/prometheus/queries.active err="open /prometheus/queries.active: permission denied"')),
           'panic: Unable to create mmap-ed active query log', '', 'goroutine 1 [running]:',
           'github.com/prometheus/prometheus/promql.NewActiveQueryTracker(0x7ffd3a2b5e8b, 0xb, 0x14, 0x3135ca0, 0xc000ae4f30, 0x3135ca0)',
           '\t/app/promql/query_logger.go:117 +0x4cd', 'main.main()', '\t/app/cmd/prometheus/main.go:384 +0x52c5']
    rlog = ['level=info ts=%s caller=main.go:147 msg="Starting prometheus-config-reloader" version="(version=0.43.2, branch=refs/tags/pkg/apis/monitoring/v0.43.2, revision=3c4d6b3a)"' % ts(4170, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z',
            'level=info ts=%s caller=main.go:148 build_context="(go=go1.14.12, user=paulfantom, date=20201118-10:42:13)"' % ts(4170, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z',
            'level=info ts=%s caller=main.go:182 msg="Starting web server for metrics" listen=:8080' % ts(4170, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z']
    rlog += ['level=error ts=%s caller=runutil.go:98 msg="function failed. Retrying in next tick" err="trigger reload: reload request failed: Post \\"http://localhost:9090/-/reload\\": dial tcp [::1]:9090: connect: connection refused"'
             % (ts(4100 - 300 * k, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z') for k in range(12)]
    oimg = 'quay.io/prometheus-operator/prometheus-operator:v0.43.2'
    od, ors = deploy('prometheus-operator', NS, {'app.kubernetes.io/name': 'prometheus-operator'}, 1, '6b8f9d4c7b', {'containers': [{'name': 'prometheus-operator', 'image': oimg}]}, created=86400 * 20)
    op = xpod('prometheus-operator-6b8f9d4c7b-fx8mw', NS, nodes[1], [{'name': 'prometheus-operator', 'image': oimg}], [running('prometheus-operator', oimg, 86400 * 20 - 40)], 86400 * 20,
              owner=('ReplicaSet', ors['metadata']['name']), labels={'app.kubernetes.io/name': 'prometheus-operator', 'pod-template-hash': '6b8f9d4c7b'}, sa='prometheus-operator')
    objs = [ns(NS), ns('kube-system'), *ns_, cr, s, p, sc, c_, v_, secret('prometheus-k8s', NS, ['prometheus.yaml.gz'], created=86400 * 20), serviceaccount('prometheus-k8s', NS),
            podlog(NS, pn, 'prometheus', log, previous=True), podlog(NS, pn, 'config-reloader', rlog, previous=False), od, ors, op,
            *[kube_proxy(x, version='v1.29.10') for x in nodes], *coredns(nodes),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod prometheus-k8s-0 in StatefulSet prometheus-k8s successful', 'statefulset-controller', last=4200),
            scheduled(p, N, 4199), *started(p, N, rimg, 'config-reloader', 4190, '2.2s', size=4802377),
            *restarted(p, N, img, 'prometheus', 14, 4180, 306), backoff(p, N, 'prometheus', 96, 4100, 8),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:9090/-/ready": dial tcp %s:9090: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']),
               count=22, first=4170, last=300, host=N, fieldPath=fp('prometheus'))]
    case('mx-prometheus-queries-active-denied',
         "CrashLoopBackOff: Prometheus panics at start, it cannot create /prometheus/queries.active on its claim since the Prometheus resource's securityContext was emptied (no fsGroup, runs as the image's nobody)",
         'https://github.com/prometheus-operator/prometheus-operator/issues/3693',
         'level=error ts=2020-11-19T05:32:16.299Z caller=query_logger.go:87 component=activeQueryTracker msg="Error opening query log file" '
         'file=/prometheus/queries.active err="open /prometheus/queries.active: permission denied"',
         NS + '/' + pn, 'any', objs, decisive='open /prometheus/queries.active: permission denied',
         mechanism=('fs-permission', [['fsGroup']]))


# =====================================================================================
# 7. fs-permission: Jenkins (UID 1000) on a hostPath directory that was chowned to another UID on the node
# =====================================================================================
@register
def jenkins_hostpath_permissions():
    N = 'ci-node-01'
    n = mknode(N, kubelet='v1.31.2+k3s1', runtime='containerd://1.7.22-k3s1', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS', ip='10.0.1.12',
               labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true', 'node.kubernetes.io/instance-type': 'k3s', 'ci': 'true'})
    NS = 'jenkins'
    img = 'jenkins/jenkins:lts-jdk11'
    labels = {'app': 'jenkins-server'}
    spec = {'serviceAccountName': 'jenkins-admin', 'nodeSelector': {'ci': 'true'},
            'containers': [{'name': 'jenkins', 'image': img, 'ports': [{'name': 'httpport', 'containerPort': 8080}, {'name': 'jnlpport', 'containerPort': 50000}],
                            'livenessProbe': {'httpGet': {'path': '/login', 'port': 8080}, 'initialDelaySeconds': 90, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 5},
                            'readinessProbe': {'httpGet': {'path': '/login', 'port': 8080}, 'initialDelaySeconds': 60, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 3},
                            'volumeMounts': [{'name': 'jenkins-data', 'mountPath': '/var/jenkins_home'}],
                            'resources': {'requests': {'cpu': '500m', 'memory': '500Mi'}, 'limits': {'cpu': '1', 'memory': '2Gi'}}}],
            'volumes': [{'name': 'jenkins-data', 'hostPath': {'path': '/home/jenkins/jenkins_home/jenkins', 'type': 'DirectoryOrCreate'}}]}
    d, rs = deploy('jenkins', NS, labels, 1, '57d8c6f9b4', spec, ready=0, created=86400 * 3, generation=2, strategy={'type': 'Recreate'})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 2}
    rs['metadata']['creationTimestamp'] = ago(1320)
    pn = 'jenkins-57d8c6f9b4-xw7tn'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'jenkins', img, 7, term(1, 'Error', 164, 164, seed='jk7'))], 1300, sa='jenkins-admin',
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '57d8c6f9b4'},
             spec_extra={'volumes': copy.deepcopy(spec['volumes']), 'nodeSelector': {'ci': 'true'}},
             conditions=conds(1300, False, since=1280, msg='containers with unready status: [jenkins]'), host_ip='10.0.1.12')
    log = ["touch: cannot touch '/var/jenkins_home/copy_reference_file.log': Permission denied",
           'Can not write to /var/jenkins_home/copy_reference_file.log. Wrong volume permissions?']
    timg = 'rancher/mirrored-library-traefik:2.11.10'
    tr = xpod('traefik-5fb479b77f-2lk8w', 'kube-system', N, [{'name': 'traefik', 'image': timg}], [running('traefik', timg, 86400 * 20)], 86400 * 20,
              owner=('ReplicaSet', 'traefik-5fb479b77f'), labels={'app.kubernetes.io/name': 'traefik', 'pod-template-hash': '5fb479b77f'}, sa='traefik')
    limg = 'rancher/local-path-provisioner:v0.0.30'
    lp = xpod('local-path-provisioner-595dcfc56f-8vn4c', 'kube-system', N, [{'name': 'local-path-provisioner', 'image': limg}], [running('local-path-provisioner', limg, 86400 * 20)], 86400 * 20,
              owner=('ReplicaSet', 'local-path-provisioner-595dcfc56f'), labels={'app': 'local-path-provisioner', 'pod-template-hash': '595dcfc56f'}, sa='local-path-provisioner-service-account')
    objs = [ns(NS), ns('kube-system'), n, d, rs, replicaset(d, '6c9b7d8f5c', 0, 0, spec, created=86400 * 3, revision=1), p, serviceaccount('jenkins-admin', NS),
            podlog(NS, pn, 'jenkins', log, previous=True), service('jenkins-service', NS, labels, ports=((8080, 8080),), created=86400 * 3),
            endpoints('jenkins-service', NS, not_ready=[(p['status']['podIP'], pn, N)], port=8080), tr, lp,
            *coredns([N, N], image='rancher/mirrored-coredns-coredns:1.11.3', hash_='ccb96694c'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set jenkins-6c9b7d8f5c from 1 to 0', 'deployment-controller', last=1325),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set jenkins-57d8c6f9b4 from 0 to 1', 'deployment-controller', last=1320),
            *crashloop(p, N, img, 'jenkins', 7, 1298, 165, 31, present=True)]
    case('mx-jenkins-hostpath-permissions',
         'CrashLoopBackOff after the home directory was restored on the node: Jenkins (UID 1000) cannot write its hostPath /var/jenkins_home, the directory was chowned to 1001',
         'https://github.com/jenkinsci/docker/issues/677',
         "touch: cannot touch '/var/jenkins_home/copy_reference_file.log': Permission denied",
         NS + '/' + pn, 'any', objs, decisive="cannot touch '/var/jenkins_home/copy_reference_file.log': Permission denied",
         mechanism=('fs-permission', [['hostPath', 'host directory', 'host path'], ['chown', 'owner', 'owned']]))


# =====================================================================================
# 8. privileged-port: the nginx sidecar of kube-resource-report runs as UID 1000 and listens on port 80
# =====================================================================================
@register
def nginx_nonroot_port_80():
    A = 'ip-10-31-44-102.eu-central-1.compute.internal'; B = 'ip-10-31-60-17.eu-central-1.compute.internal'
    mk = lambda x, ip, z: mknode(x, kubelet='v1.30.6-eks-7f9249a', runtime='containerd://1.7.23', kernel='6.1.115-126.197.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241121', ip=ip,
                                 labels={'eks.amazonaws.com/nodegroup': 'system', 'topology.kubernetes.io/zone': z, 'node.kubernetes.io/instance-type': 'm6i.large'})
    na = mk(A, '10.31.44.102', 'eu-central-1a'); nb = mk(B, '10.31.60.17', 'eu-central-1b')
    NS = 'kube-resource-report'
    rimg = 'hjacobs/kube-resource-report:20.4.3'; nimg = 'nginx:1.17.9-alpine'
    sc = {'runAsNonRoot': True, 'runAsUser': 1000, 'readOnlyRootFilesystem': False}
    labels = {'application': 'kube-resource-report', 'component': 'np'}
    spec = {'serviceAccountName': 'kube-resource-report',
            'containers': [{'name': 'kube-resource-report', 'image': rimg, 'args': ['--update-interval-minutes=1', '--additional-cost-per-cluster=30.0', '/output'],
                            'volumeMounts': [{'name': 'report-data', 'mountPath': '/output'}], 'securityContext': dict(sc),
                            'resources': {'limits': {'memory': '100Mi'}, 'requests': {'cpu': '5m', 'memory': '50Mi'}}},
                           {'name': 'nginx', 'image': nimg, 'ports': [{'name': 'http', 'containerPort': 80, 'protocol': 'TCP'}],
                            'readinessProbe': {'httpGet': {'path': '/', 'port': 80}}, 'securityContext': dict(sc),
                            'volumeMounts': [{'name': 'report-data', 'mountPath': '/usr/share/nginx/html', 'readOnly': True},
                                             {'name': 'nginx-config', 'mountPath': '/etc/nginx/nginx.conf', 'subPath': 'nginx.conf', 'readOnly': True},
                                             {'name': 'nginx-tmp', 'mountPath': '/tmp'}],
                            'resources': {'limits': {'memory': '50Mi'}, 'requests': {'cpu': '5m', 'memory': '20Mi'}}}],
            'volumes': [{'name': 'report-data', 'emptyDir': {'sizeLimit': '500Mi'}}, {'name': 'nginx-tmp', 'emptyDir': {}},
                        {'name': 'nginx-config', 'configMap': {'name': 'kube-resource-report-nginx', 'defaultMode': 420}}]}
    d, rs = deploy('kube-resource-report-np', NS, labels, 1, '797b5fbb8d', spec, ready=0, created=2100, generation=1)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'kube-resource-report-np-797b5fbb8d-l75xp'
    st = [running('kube-resource-report', rimg, 2060), clbo_(pn, NS, 'nginx', nimg, 8, term(1, 'Error', 276, 276, seed='ngx8'))]
    p = xpod(pn, NS, B, spec['containers'], st, 2080, sa='kube-resource-report', owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '797b5fbb8d'},
             spec_extra={'volumes': copy.deepcopy(spec['volumes'])}, conditions=conds(2080, False, since=2060, msg='containers with unready status: [nginx]'), host_ip='10.31.60.17')
    conf = ('worker_processes 1;\npid /tmp/nginx.pid;\nerror_log stderr warn;\nevents { worker_connections 1024; }\nhttp {\n  include /etc/nginx/mime.types;\n'
            '  client_body_temp_path /tmp/client_temp;\n  proxy_temp_path /tmp/proxy_temp;\n  fastcgi_temp_path /tmp/fastcgi_temp;\n  uwsgi_temp_path /tmp/uwsgi_temp;\n'
            '  scgi_temp_path /tmp/scgi_temp;\n  access_log /dev/stdout;\n  server {\n    listen 80;\n    root /usr/share/nginx/html;\n    index index.html;\n  }\n}\n')
    t0 = NOW_MINUS(277).strftime('%Y/%m/%d %H:%M:%S')
    log = ['%s [emerg] 1#1: bind() to 0.0.0.0:80 failed (13: Permission denied)' % t0, 'nginx: [emerg] bind() to 0.0.0.0:80 failed (13: Permission denied)']
    rlog = ['%s INFO: Starting kube-resource-report 20.4.3..' % ts(2055, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '%s INFO: Discovering clusters..' % ts(2055, '%Y-%m-%d %H:%M:%S,%f')[:-3]]
    rlog += ['%s INFO: Collecting data from cluster local (%d nodes, %d pods)..' % (ts(1980 - 60 * k, '%Y-%m-%d %H:%M:%S,%f')[:-3], 6, 143 + k % 3) for k in range(0, 30, 3)]
    rlog += ['%s INFO: Writing /output/index.html..' % ts(60, '%Y-%m-%d %H:%M:%S,%f')[:-3], '%s INFO: Done generating HTML report in 1.27 seconds.' % ts(59, '%Y-%m-%d %H:%M:%S,%f')[:-3]]
    fp_ = 'spec.containers{nginx}'
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, p, serviceaccount('kube-resource-report', NS), configmap('kube-resource-report-nginx', NS, {'nginx.conf': conf}, created=2100),
            podlog(NS, pn, 'nginx', log, previous=True), podlog(NS, pn, 'kube-resource-report', rlog, previous=False),
            service('kube-resource-report', NS, labels, ports=((80, 80),), created=2100), endpoints('kube-resource-report', NS, not_ready=[(p['status']['podIP'], pn, B)], port=80),
            kube_proxy(A, version='v1.30.6-eks-7f9249a'), kube_proxy(B, version='v1.30.6-eks-7f9249a'),
            *coredns([A, B], image='602401143452.dkr.ecr.eu-central-1.amazonaws.com/eks/coredns:v1.11.3-eksbuild.2', hash_='789f8477df'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set kube-resource-report-np-797b5fbb8d from 0 to 1', 'deployment-controller', last=2100),
            scheduled(p, B, 2079), *started(p, B, rimg, 'kube-resource-report', 2076, '8.4s', size=71923310),
            *started(p, B, nimg, 'nginx', 2066, '2.1s', size=8960301), *restarted(p, B, nimg, 'nginx', 8, 2000, 277), backoff(p, B, 'nginx', 44, 1990, 7),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:80/": dial tcp %s:80: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']),
               count=2, first=2050, last=1400, host=B, fieldPath=fp_)]
    case('mx-nginx-nonroot-port-80',
         'CrashLoopBackOff of the nginx sidecar: it runs as UID 1000 (runAsNonRoot) and its configuration listens on port 80, below the unprivileged port range',
         'https://github.com/hjacobs/kube-resource-report/issues/146',
         '2020/04/15 02:38:08 [emerg] 1#1: bind() to 0.0.0.0:80 failed (13: Permission denied)',
         NS + '/' + pn, 'any', objs, decisive='bind() to 0.0.0.0:80 failed (13: Permission denied)',
         mechanism=('privileged-port', [['ip_unprivileged_port_start', 'NET_BIND_SERVICE', '1024']]))


# =====================================================================================
# 9. fs-read-only: the alpine nginx entrypoint edits default.conf in place, which is a file of a ConfigMap volume
# =====================================================================================
@register
def nginx_entrypoint_sed_configmap():
    A = 'node-pool-a-7x2kq'; B = 'node-pool-a-9mzp4'
    mk = lambda x, ip: mknode(x, kubelet='v1.31.1', runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)', ip=ip,
                              labels={'node.kubernetes.io/instance-type': 'DEV1-L', 'topology.kubernetes.io/zone': 'fr-par-1', 'k8s.scaleway.com/pool-name': 'pool-a'})
    na = mk(A, '172.16.8.3'); nb = mk(B, '172.16.8.4')
    NS = 'web'
    img = 'nginx:1.19.0-alpine'
    labels = {'app.kubernetes.io/name': 'docs-site'}
    spec = {'containers': [{'name': 'nginx', 'image': img, 'ports': [{'name': 'http', 'containerPort': 80}],
                            'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 8081}, 'periodSeconds': 10},
                            'volumeMounts': [{'name': 'conf', 'mountPath': '/etc/nginx/conf.d'}, {'name': 'site', 'mountPath': '/usr/share/nginx/html', 'readOnly': True}],
                            'resources': {'requests': {'cpu': '20m', 'memory': '32Mi'}, 'limits': {'memory': '64Mi'}}}],
            'volumes': [{'name': 'conf', 'configMap': {'name': 'docs-site-nginx', 'defaultMode': 420}}, {'name': 'site', 'persistentVolumeClaim': {'claimName': 'docs-site-html'}}]}
    d, rs = deploy('docs-site', NS, labels, 2, '6d5f8b7c9c', spec, ready=1, updated=1, created=86400 * 200, generation=31,
                   conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 30), 'lastTransitionTime': ago(86400 * 30)},
                               {'type': 'Progressing', 'status': 'True', 'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "docs-site-6d5f8b7c9c" is progressing.', 'lastUpdateTime': ago(1500), 'lastTransitionTime': ago(1500)}])
    d['status'].update({'replicas': 3, 'updatedReplicas': 1, 'readyReplicas': 2, 'availableReplicas': 2, 'unavailableReplicas': 1})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    rs['metadata']['creationTimestamp'] = ago(1500)
    old_spec = copy.deepcopy(spec); old_spec['containers'][0]['image'] = 'nginx:1.17.10-alpine'
    rs_old = replicaset(d, '58c9d7f6b4', 2, 2, old_spec, created=86400 * 30, revision=30)
    olds = [xpod('docs-site-58c9d7f6b4-%s' % sfx, NS, n_, old_spec['containers'], [running('nginx', 'nginx:1.17.10-alpine', 86400 * 30 - 20)], 86400 * 30,
                 owner=('ReplicaSet', rs_old['metadata']['name']), labels={**labels, 'pod-template-hash': '58c9d7f6b4'}, spec_extra={'volumes': copy.deepcopy(spec['volumes'])})
            for sfx, n_ in (('hq2vz', A), ('t8w4k', B))]
    pn = 'docs-site-6d5f8b7c9c-r5xjd'
    p = xpod(pn, NS, A, spec['containers'], [clbo_(pn, NS, 'nginx', img, 6, term(1, 'Error', 190, 190, seed='ngs6'))], 1495,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6d5f8b7c9c'}, spec_extra={'volumes': copy.deepcopy(spec['volumes'])},
             conditions=conds(1495, False, since=1480, msg='containers with unready status: [nginx]'), host_ip='172.16.8.3')
    default_conf = ('server {\n    listen       80;\n    listen  [::]:80;\n    server_name  localhost;\n\n    location / {\n        root   /usr/share/nginx/html;\n'
                    '        index  index.html index.htm;\n    }\n\n    error_page   500 502 503 504  /50x.html;\n    location = /50x.html {\n        root   /usr/share/nginx/html;\n    }\n}\n')
    cm = configmap('docs-site-nginx', NS, {'default.conf': default_conf.replace('    listen  [::]:80;\n', ''),
                                           'healthz.conf': 'server {\n    listen 8081;\n    location = /healthz { return 200 "ok"; }\n}\n'}, created=86400 * 200)
    log = ['/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration', '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
           '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh', '10-listen-on-ipv6-by-default.sh: Getting the checksum of /etc/nginx/conf.d/default.conf',
           "sed: can't create temp file '/etc/nginx/conf.d/default.confXXXXXX': Read-only file system"]
    pvn = 'pvc-0a8f3c21-7b6e-4d1f-9e25-4c3b2a1d0e9f'
    c_ = claim('docs-site-html', NS, 'scw-bssd', 'Bound', '5Gi', volume=pvn, created=86400 * 200, provisioner='csi.scaleway.com', access=('ReadWriteMany',))
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, rs_old, *olds, p, cm, c_, vol(pvn, c_, driver='csi.scaleway.com', handle='fr-par-1/6f2d8c1e-4a5b-4c3d-9e8f-7a6b5c4d3e2f', size='5Gi', storage_class='scw-bssd'),
            podlog(NS, pn, 'nginx', log, previous=True),
            kube_proxy(A, version='v1.31.1'), kube_proxy(B, version='v1.31.1'), *coredns([A, B], image='registry.k8s.io/coredns/coredns:v1.11.3'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set docs-site-6d5f8b7c9c from 0 to 1', 'deployment-controller', last=1500),
            *crashloop(p, A, img, 'nginx', 6, 1493, 191, 29, pulled_in='3.4s', size=9181240)]
    case('mx-nginx-entrypoint-sed-configmap',
         'Rollout stuck after moving to nginx 1.19 alpine: the new entrypoint script edits /etc/nginx/conf.d/default.conf in place, and conf.d is a ConfigMap volume',
         'https://github.com/nginx/docker-nginx/issues/416',
         "sed: can't create temp file '/etc/nginx/conf.d/default.confXXXXXX': Read-only file system",
         NS + '/' + pn, 'any', objs, decisive="temp file '/etc/nginx/conf.d/default.confXXXXXX': Read-only file system",
         mechanism=('fs-read-only', [['ConfigMap'], ['read-only', 'readOnly']]))


# =====================================================================================
# 10. security.read-only-rootfs: the acceptance-test pod (readOnlyRootFilesystem) fails when Mockito's agent writes a temp jar
# =====================================================================================
@register
def java_readonly_rootfs_tempfile():
    N = 'gke-mirror-ci-pool-3a7c1e5f-h2pd'
    n = mknode(N, kubelet='v1.30.5-gke.1713000', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.150.0.31',
               labels={'cloud.google.com/gke-nodepool': 'ci-pool', 'topology.kubernetes.io/zone': 'us-central1-f'})
    NS = 'mirror'
    img = 'gcr.io/mirrornode/hedera-mirror-test:0.80.0'
    sc = {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True}
    containers = [{'name': 'test', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'securityContext': sc,
                   'args': ['-Dcucumber.filter.tags=@acceptance', '-Dspring.config.additional-location=file:/usr/etc/hedera/'],
                   'env': [{'name': 'SPRING_CONFIG_ADDITIONAL_LOCATION', 'value': 'file:/usr/etc/hedera/'}],
                   'volumeMounts': [{'name': 'config', 'mountPath': '/usr/etc/hedera', 'readOnly': True}],
                   'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'cpu': '2', 'memory': '2Gi'}}}]
    pn = 'mirror-acceptance-test'
    done = {'terminated': {'exitCode': 1, 'reason': 'Error', 'startedAt': ago(1290), 'finishedAt': ago(1251), 'containerID': cid(pn + 'test')}}
    st = [{'name': 'test', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(pn + 'test'), 'state': done}]
    p = xpod(pn, NS, N, containers, st, 1320, phase='Failed', labels={'app.kubernetes.io/name': 'mirror-test', 'app.kubernetes.io/instance': 'mirror', 'app.kubernetes.io/component': 'acceptance'},
             spec_extra={'restartPolicy': 'Never', 'securityContext': {'fsGroup': 1000, 'runAsGroup': 1000, 'runAsNonRoot': True, 'runAsUser': 1000, 'seccompProfile': {'type': 'RuntimeDefault'}},
                         'volumes': [{'name': 'config', 'secret': {'secretName': 'mirror-acceptance-test', 'defaultMode': 420}}]},
             conditions=[{'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(1250)},
                         {'type': 'Initialized', 'status': 'True', 'lastTransitionTime': ago(1318)},
                         {'type': 'Ready', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(1251)},
                         {'type': 'ContainersReady', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(1251)},
                         {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(1319)}], host_ip='10.150.0.31')
    p['metadata']['annotations'] = {'helm.sh/hook': 'test', 'helm.sh/hook-delete-policy': 'before-hook-creation'}
    t = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z'
    log = ['', '  .   ____          _            __ _ _', ' /\\\\ / ___\'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\', "( ( )\\___ | '_ | '_| | '_ \\/ _` | \\ \\ \\ \\",
           ' \\\\/  ___)| |_)| | | | | || (_| |  ) ) ) )', "  '  |____| .__|_| |_|_| |_\\__, | / / / /", ' =========|_|==============|___/=/_/_/_/', ' :: Spring Boot ::                (v3.0.6)', '',
           '%s INFO  main c.h.m.t.e.a.AcceptanceTest Starting AcceptanceTest using Java 17.0.7 with PID 1 (/app started by 1000 in /app)' % t(1283),
           '%s INFO  main c.h.m.t.e.a.AcceptanceTest No active profile set, falling back to 1 default profile: "default"' % t(1282),
           '%s INFO  main c.h.m.t.e.a.c.AcceptanceTestProperties Running acceptance tests against network TESTNET with 4 nodes' % t(1279),
           '%s ERROR main o.s.t.c.TestContextManager Caught exception while allowing TestExecutionListener [org.springframework.test.context.support.DependencyInjectionTestExecutionListener] to prepare test instance' % t(1262),
           'java.lang.IllegalStateException: Failed to load ApplicationContext for [MergedContextConfiguration@6a2f6f80 testClass = com.hedera.mirror.test.e2e.acceptance.AcceptanceTest]',
           '\tat org.springframework.test.context.cache.DefaultCacheAwareContextLoaderDelegate.loadContext(DefaultCacheAwareContextLoaderDelegate.java:143)',
           '\tat org.springframework.test.context.support.DefaultTestContext.getApplicationContext(DefaultTestContext.java:127)',
           '     Caused by: java.lang.IllegalStateException: Could not initialize plugin: interface org.mockito.plugins.MockMaker (alternate: null)',
           '       org.mockito.internal.configuration.plugins.PluginLoader$1.invoke(PluginLoader.java:84)',
           '     Caused by: java.lang.IllegalStateException: Error during attachment using: net.bytebuddy.agent.ByteBuddyAgent$AttachmentProvider$Compound@48cd64fd',
           '       net.bytebuddy.agent.ByteBuddyAgent.install(ByteBuddyAgent.java:638)', '       net.bytebuddy.agent.ByteBuddyAgent.install(ByteBuddyAgent.java:611)',
           '       net.bytebuddy.agent.ByteBuddyAgent.install(ByteBuddyAgent.java:563)', '       net.bytebuddy.agent.ByteBuddyAgent.install(ByteBuddyAgent.java:540)',
           '       org.mockito.internal.creation.bytebuddy.InlineDelegateByteBuddyMockMaker.<clinit>(InlineDelegateByteBuddyMockMaker.java:115)',
           '     Caused by: java.io.IOException: Read-only file system', '       java.base/java.io.UnixFileSystem.createFileExclusively(Native Method)',
           '       java.base/java.io.File.createTempFile(Unknown Source)', '       java.base/java.io.File.createTempFile(Unknown Source)',
           '       net.bytebuddy.agent.ByteBuddyAgent$AgentProvider$ForByteBuddyAgent.createJarFile(ByteBuddyAgent.java:1504)',
           '       net.bytebuddy.agent.ByteBuddyAgent$AgentProvider$ForByteBuddyAgent.resolve(ByteBuddyAgent.java:1489)', '',
           '%s INFO  main c.h.m.t.e.a.AcceptanceTest Scenario failed: Validate network node details (0 of 48 scenarios run)' % t(1258),
           '', '48 Scenarios (1 failed, 47 skipped)', '213 Steps (1 failed, 212 skipped)', '0m21.377s', '',
           '%s INFO  SpringApplicationShutdownHook o.s.s.c.ThreadPoolTaskScheduler Shutting down ExecutorService' % t(1252)]
    objs = [ns(NS), n, p, secret('mirror-acceptance-test', NS, ['application.yml'], created=1330, labels={'app.kubernetes.io/managed-by': 'Helm'}),
            podlog(NS, pn, 'test', log, previous=False), kube_proxy(N, version='v1.30.5-gke.1713000'), ns('kube-system'),
            *coredns([N, N], image='gke.gcr.io/coredns/coredns:v1.11.3-gke.3', hash_='6b7c9d8f5d'),
            scheduled(p, N, 1319), *started(p, N, img, 'test', 1316, '24.9s', size=412883190)]
    for comp, h in (('importer', '6c8f7b9d54'), ('rest', '7d4b9c8f6a'), ('grpc', '5f9d6c7b48')):
        cimg = 'gcr.io/mirrornode/hedera-mirror-%s:0.80.0' % comp
        objs.append(xpod('mirror-%s-%s-%s' % (comp, h, hexid(comp, 5).replace('0', 'z').replace('1', 'k')), NS, N, [{'name': comp, 'image': cimg}], [running(comp, cimg, 86400 * 2)], 86400 * 2,
                         owner=('ReplicaSet', 'mirror-%s-%s' % (comp, h)), labels={'app.kubernetes.io/name': comp, 'app.kubernetes.io/instance': 'mirror', 'pod-template-hash': h}))
    case('mx-java-readonly-rootfs-tempfile',
         'Helm test pod failed: the acceptance tests run with readOnlyRootFilesystem and Mockito\'s inline mock maker writes its agent jar with File.createTempFile under /tmp',
         'https://github.com/hiero-ledger/hiero-mirror-node/pull/6063',
         'java.io.IOException: Read-only file system',
         NS + '/' + pn, 'security.read-only-rootfs', objs, decisive='java.io.IOException: Read-only file system', acceptable=['crash.app-exit'],
         mechanism=(None, [['/tmp'], ['emptyDir']]))


# =====================================================================================
# 11. cpu-instruction-set: MongoDB 6 lands on the one node whose VM CPU type (kvm64) has no AVX
# =====================================================================================
@register
def mongodb_avx():
    names = ['pve-k3s-01', 'pve-k3s-02', 'pve-k3s-03']
    avx = {'feature.node.kubernetes.io/cpu-cpuid.AVX': 'true', 'feature.node.kubernetes.io/cpu-cpuid.AVX2': 'true', 'feature.node.kubernetes.io/cpu-model.vendor_id': 'Intel'}
    nodes = []
    for i, x in enumerate(names):
        lab = {'node.kubernetes.io/instance-type': 'k3s', 'feature.node.kubernetes.io/cpu-model.vendor_id': 'Intel', 'feature.node.kubernetes.io/kernel-version.major': '6'}
        if i < 2: lab.update(avx)
        if i == 0: lab.update({'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
        nodes.append(mknode(x, kubelet='v1.30.6+k3s1', runtime='containerd://1.7.22-k3s1', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS', ip='192.168.50.%d' % (11 + i),
                            labels=lab, created=86400 * (200 if i < 2 else 9)))
    N = names[2]
    NS = 'quality-time'
    img = 'mongo:6.0.19'
    labels = {'app.kubernetes.io/name': 'database', 'app.kubernetes.io/instance': 'quality-time'}
    spec = {'containers': [{'name': 'database', 'image': img, 'ports': [{'name': 'mongodb', 'containerPort': 27017}],
                            'volumeMounts': [{'name': 'data', 'mountPath': '/data/db'}],
                            'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '1Gi'}}}]}
    s = sts('quality-time-database', NS, labels, 1, spec, 0, created=86400 * 120, claims=[vct('data', '8Gi', 'local-path')])
    pn = 'quality-time-database-0'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'database', img, 12, term(132, 'Error', 311, 311, seed='mg12'))], 3300,
             owner=('StatefulSet', 'quality-time-database'), labels=sts_labels(s, 0),
             spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-' + pn}}], 'hostname': pn, 'subdomain': 'quality-time-database-headless'},
             conditions=conds(3300, False, since=3290, msg='containers with unready status: [database]'), host_ip='192.168.50.13')
    log = ['', 'WARNING: MongoDB 5.0+ requires a CPU with AVX support, and your current system does not appear to have that!',
           '  see https://jira.mongodb.org/browse/SERVER-54407', '  see also https://www.mongodb.com/community/forums/t/mongodb-5-0-cpu-intel-g4650-compatibility/116610/2',
           '  see also https://github.com/docker-library/mongo/issues/485#issuecomment-891991814', '']
    pvn = 'pvc-6a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d'
    c_ = claim('data-' + pn, NS, 'local-path', 'Bound', '8Gi', volume=pvn, created=3320, provisioner='rancher.io/local-path', selected_node=N)
    v_ = vol(pvn, c_, driver='rancher.io/local-path', size='8Gi', storage_class='local-path')
    v_['spec'].pop('csi'); v_['spec']['hostPath'] = {'path': '/var/lib/rancher/k3s/storage/%s_%s_data-%s' % (pvn, NS, pn), 'type': 'DirectoryOrCreate'}
    v_['spec']['nodeAffinity'] = {'required': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'kubernetes.io/hostname', 'operator': 'In', 'values': [N]}]}]}}
    objs = [ns(NS), ns('kube-system'), ns('node-feature-discovery'), *nodes, s, p, c_, v_, podlog(NS, pn, 'database', log, previous=True)]
    nfd = daemonset('nfd-worker', 'node-feature-discovery', {'app.kubernetes.io/name': 'node-feature-discovery', 'role': 'worker'}, 3, 3,
                    {'containers': [{'name': 'worker', 'image': 'registry.k8s.io/nfd/node-feature-discovery:v0.16.4'}]})
    objs += [nfd, *[ds_pod(nfd, x, 'registry.k8s.io/nfd/node-feature-discovery:v0.16.4', 'worker', 86400 * 9, namespace='node-feature-discovery') for x in names]]
    for comp, h, x in (('server', '7b9c6d5f48', names[0]), ('frontend', '6d8f7c9b5d', names[1]), ('collector', '5c7d9b8f6a', names[2])):
        cimg = 'ghcr.io/ictu/quality-time_%s:v5.19.0' % comp
        st_ = [running(comp, cimg, 3200, restarts=4 if comp == 'server' else 0)]
        if comp == 'server':
            st_[0]['lastState'] = term(1, 'Error', 3260, 3205, seed='qts4')
        objs.append(xpod('quality-time-%s-%s-%s' % (comp, h, hexid(comp, 5).replace('0', 'w').replace('1', 'j')), NS, x, [{'name': comp, 'image': cimg}], st_, 3300,
                         owner=('ReplicaSet', 'quality-time-%s-%s' % (comp, h)), labels={'app.kubernetes.io/name': comp, 'pod-template-hash': h}))
    objs += [*coredns([names[0], names[1]], image='rancher/mirrored-coredns-coredns:1.11.3', hash_='ccb96694c'),
             node_event(nodes[2], 'Starting', 'Starting kubelet.', last=86400 * 9, first=86400 * 9),
             node_event(nodes[1], 'NodeNotSchedulable', 'Node %s status is now: NodeNotSchedulable' % names[1], last=3500, first=3500),
             node_event(nodes[1], 'NodeSchedulable', 'Node %s status is now: NodeSchedulable' % names[1], last=2900, first=2900),
             ctrl_ev(s, 'SuccessfulCreate', 'create Pod %s in StatefulSet quality-time-database successful' % pn, 'statefulset-controller', last=3300),
             *crashloop(p, N, img, 'database', 12, 3298, 312, 70, pulled_in='17.5s', size=252803761)]
    case('mx-mongodb-avx-missing',
         'CrashLoopBackOff after a node drain: MongoDB 6 was rescheduled onto the newest Proxmox VM, whose CPU type (kvm64) does not expose AVX; mongod dies with SIGILL (exit 132)',
         'https://github.com/ICTU/quality-time/issues/3255',
         'WARNING: MongoDB 5.0+ requires a CPU with AVX support, and your current system does not appear to have that!',
         NS + '/' + pn, 'any', objs, decisive='MongoDB 5.0+ requires a CPU with AVX support',
         mechanism=('cpu-instruction-set', [['AVX'], ['nodeSelector', 'nodeAffinity', 'node affinity', 'CPU type', 'CPU model']]))


# =====================================================================================
# 12. pids-limit: the JVM cannot start its threads (EAGAIN) at boot on a minikube node crowded with JVMs; memory is plentiful
# =====================================================================================
@register
def java_native_thread_pids():
    N = 'minikube'
    n = mknode(N, kubelet='v1.31.0', runtime='docker://27.2.0', kernel='5.14.0-503.14.1.el9_5.x86_64', os_image='Ubuntu 22.04.4 LTS', ip='192.168.49.2',
               labels={'minikube.k8s.io/name': 'minikube', 'minikube.k8s.io/primary': 'true', 'minikube.k8s.io/version': 'v1.34.0', 'node-role.kubernetes.io/control-plane': ''},
               created=86400 * 4)
    n['status']['capacity'].update({'cpu': '8', 'memory': '40953868Ki'}); n['status']['allocatable'].update({'cpu': '8', 'memory': '40953868Ki'})
    NS = 'monitoring'
    img = 'quay.io/kruize/autotune_operator:0.4'
    labels = {'app': 'kruize'}
    spec = {'serviceAccountName': 'kruize-sa',
            'containers': [{'name': 'kruize', 'image': img, 'imagePullPolicy': 'Always', 'ports': [{'name': 'kruize-port', 'containerPort': 8080}],
                            'env': [{'name': 'LOGGING_LEVEL', 'value': 'info'}, {'name': 'ROOT_LOGGING_LEVEL', 'value': 'error'}, {'name': 'DB_CONFIG_FILE', 'value': '/etc/config/dbconfigjson'},
                                    {'name': 'KRUIZE_CONFIG_FILE', 'value': '/etc/config/kruizeconfigjson'}, {'name': 'JAVA_TOOL_OPTIONS', 'value': '-XX:MaxRAMPercentage=80'}],
                            'volumeMounts': [{'name': 'config-volume', 'mountPath': '/etc/config'}],
                            'resources': {'requests': {'cpu': '1', 'memory': '768Mi'}, 'limits': {'cpu': '1', 'memory': '768Mi'}}}],
            'volumes': [{'name': 'config-volume', 'configMap': {'name': 'kruizeconfig'}}]}
    d, rs = deploy('kruize', NS, labels, 1, '7f6d9c8b5d', spec, ready=0, created=86400 * 3, generation=1)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'kruize-7f6d9c8b5d-m4x9q'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'kruize', img, 5, term(1, 'Error', 157, 152, seed='kz5'))], 86400 * 3, sa='kruize-sa',
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7f6d9c8b5d'}, spec_extra={'volumes': copy.deepcopy(spec['volumes'])},
             conditions=conds(86400 * 3, False, since=1900, msg='containers with unready status: [kruize]'), host_ip='192.168.49.2')
    w = lambda t_, text: '[%.3fs][warning][os,thread] %s' % (t_, text)
    log = ['Picked up JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=80',
           '%s INFO  [main] [Autotune.java(82)] - Checking Liveliness probe DB connection...' % ts(156, '%Y-%m-%d %H:%M:%S.%f')[:-3],
           '%s INFO  [main] [KruizeDeploymentInfo.java(197)] - KRUIZE_LOCAL=true, CLUSTER_TYPE=kubernetes, K8S_TYPE=minikube' % ts(155, '%Y-%m-%d %H:%M:%S.%f')[:-3],
           w(4.265, 'Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 4k, detached.'),
           w(4.266, 'Failed to start the native thread for java.lang.Thread "vert.x-internal-blocking-1"'),
           w(4.281, 'Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 4k, detached.'),
           w(4.281, 'Failed to start the native thread for java.lang.Thread "-2111462181-pool-3-thread-1"'),
           'Exception in thread "main" java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
           '\tat java.base/java.lang.Thread.start0(Native Method)', '\tat java.base/java.lang.Thread.start(Unknown Source)', '\tat java.base/java.lang.System$2.start(Unknown Source)',
           '\tat java.base/jdk.internal.vm.SharedThreadContainer.start(Unknown Source)', '\tat java.base/java.util.concurrent.ThreadPoolExecutor.addWorker(Unknown Source)',
           '\tat java.base/java.util.concurrent.ThreadPoolExecutor.execute(Unknown Source)', '\tat com.autotune.Autotune.main(Autotune.java:152)',
           w(4.283, 'Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 4k, detached.'),
           w(4.283, 'Failed to start the native thread for java.lang.Thread "Thread-0"')]
    objs = [ns(NS), ns('kube-system'), n, d, rs, p, serviceaccount('kruize-sa', NS), configmap('kruizeconfig', NS, {'dbconfigjson': '{"database": {"hostname": "postgres-service"}}',
                                                                                                              'kruizeconfigjson': '{"clustertype": "kubernetes", "k8stype": "minikube"}'}),
            podlog(NS, pn, 'kruize', log, previous=True), kube_proxy(N, version='v1.31.0'), *coredns([N, N], hash_='6f6b679f8f')]
    # the daily functional tests have left their workloads behind on the single node: many JVMs, thousands of threads
    for i in range(14):
        timg = 'quay.io/kruizehub/tfb-qrh:1.13.2.F_et17'
        objs.append(xpod('tfb-qrh-sample-%d-6d8c9f7b5c-%s' % (i, hexid('tfb%d' % i, 5).replace('0', 'v').replace('1', 'n')), 'default', N, [{'name': 'tfb-server', 'image': timg}],
                         [running('tfb-server', timg, 86400 * 2 - 60 * i)], 86400 * 2 - 60 * i, owner=('ReplicaSet', 'tfb-qrh-sample-%d-6d8c9f7b5c' % i),
                         labels={'app': 'tfb-qrh-deployment-%d' % i, 'pod-template-hash': '6d8c9f7b5c'}))
    pgimg = 'quay.io/kruizehub/postgres:15.2'
    objs.append(xpod('kruize-db-deployment-5d4c8b7f96-k7wqz', NS, N, [{'name': 'kruize-db', 'image': pgimg}], [running('kruize-db', pgimg, 86400 * 3)], 86400 * 3,
                     owner=('ReplicaSet', 'kruize-db-deployment-5d4c8b7f96'), labels={'app': 'kruize-db', 'pod-template-hash': '5d4c8b7f96'}))
    objs += [*restarted(p, N, img, 'kruize', 5, 1880, 158), backoff(p, N, 'kruize', 28, 1860, 20)]
    case('mx-java-native-thread-pids',
         'CrashLoopBackOff after days of test runs: the JVM cannot start threads at boot (pthread_create EAGAIN) on a single node crowded with JVMs, while memory is plentiful',
         'https://github.com/kruize/autotune/issues/1551',
         'Exception in thread "main" java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
         NS + '/' + pn, 'any', objs, decisive='OutOfMemoryError: unable to create native thread',
         mechanism=('pids-limit', [['podPidsLimit', 'pids.max', 'pid_max', 'threads-max', 'PID limit', 'pids limit']]))


# =====================================================================================
# 13. inotify-watches: a Node dev server's file watcher hits the node's fs.inotify.max_user_watches (8192 on this MicroK8s host)
# =====================================================================================
@register
def node_enospc_file_watchers():
    N = 'hgop-dev-01'
    n = mknode(N, kubelet='v1.31.3', runtime='containerd://1.6.28', kernel='5.15.0-126-generic', os_image='Ubuntu 22.04.5 LTS', ip='10.0.0.21',
               labels={'microk8s.io/cluster': 'true', 'node.kubernetes.io/microk8s-controlplane': 'microk8s-controlplane'})
    NS = 'team-7'
    img = 'registry.hgop.local/team-7/tictactoe-client:dev-4f1c2ab'
    labels = {'app': 'client'}
    spec = {'containers': [{'name': 'client', 'image': img, 'command': ['npm', 'start'], 'ports': [{'containerPort': 3000}],
                            'env': [{'name': 'API_URL', 'value': 'http://api:3000'}, {'name': 'NODE_ENV', 'value': 'development'}],
                            'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '1Gi'}}}]}
    d, rs = deploy('client', NS, labels, 1, '68bd9f7c4d', spec, ready=0, created=86400 * 2, generation=5)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 5}
    rs['metadata']['creationTimestamp'] = ago(2400)
    pn = 'client-68bd9f7c4d-t9ksm'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'client', img, 9, term(1, 'Error', 209, 203, seed='cl9'))], 2390,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '68bd9f7c4d'},
             conditions=conds(2390, False, since=2370, msg='containers with unready status: [client]'), host_ip='10.0.0.21')
    log = ['', '> tictactoe-client@0.1.0 start', '> webpack serve --mode development --host 0.0.0.0 --port 3000', '',
           '<i> [webpack-dev-server] Project is running at:', '<i> [webpack-dev-server] Loopback: http://localhost:3000/',
           '<i> [webpack-dev-server] On Your Network (IPv4): http://10.1.95.81:3000/', "<i> [webpack-dev-server] Content not from webpack is served from '/app/public' directory",
           'node:internal/fs/watchers:218', '    throw error;', '    ^', '',
           "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/public'",
           '    at FSWatcher.<computed> (node:internal/fs/watchers:218:26)', '    at Object.watch (node:fs:2213:34)',
           '    at createFsWatchInstance (/app/node_modules/chokidar/lib/nodefs-handler.js:119:15)',
           '    at setFsWatchListener (/app/node_modules/chokidar/lib/nodefs-handler.js:166:15)',
           '    at NodeFsHandler._watchWithNodeFs (/app/node_modules/chokidar/lib/nodefs-handler.js:331:14)',
           '    at NodeFsHandler._handleDir (/app/node_modules/chokidar/lib/nodefs-handler.js:567:19)', ' {',
           '  errno: -28,', "  syscall: 'watch',", "  code: 'ENOSPC',", "  path: '/app/public',", "  filename: '/app/public'", '}', '',
           'Node.js v16.20.2']
    objs = [ns(NS), ns('kube-system'), n, d, rs, p, podlog(NS, pn, 'client', log, previous=True)]
    # the other teams' dev servers on the same node, all running as root, share the per-user watch budget
    for t_ in range(1, 7):
        tn = 'team-%d' % t_
        timg = 'registry.hgop.local/%s/tictactoe-client:dev-%s' % (tn, hexid(tn, 7))
        h = hexid(tn + 'rs', 10).replace('0', 'b').replace('1', 'f')
        objs += [ns(tn), xpod('client-%s-%s' % (h, hexid(tn, 5).replace('0', 'g').replace('1', 'h')), tn, N, [{'name': 'client', 'image': timg}],
                              [running('client', timg, 86400 - 600 * t_)], 86400 - 600 * t_, owner=('ReplicaSet', 'client-' + h), labels={'app': 'client', 'pod-template-hash': h})]
    cimg = 'registry.k8s.io/coredns/coredns:v1.11.1'
    objs += [xpod('coredns-864597b5fd-8lq2v', 'kube-system', N, [{'name': 'coredns', 'image': cimg}], [running('coredns', cimg, 86400 * 30)], 86400 * 30,
                  owner=('ReplicaSet', 'coredns-864597b5fd'), labels={'k8s-app': 'kube-dns', 'pod-template-hash': '864597b5fd'}),
             ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set client-68bd9f7c4d from 0 to 1', 'deployment-controller', last=2400),
             *crashloop(p, N, img, 'client', 9, 2388, 210, 40, pulled_in='12.7s', size=402118364)]
    case('mx-node-enospc-file-watchers',
         'CrashLoopBackOff of a dev server: webpack\'s file watcher hits the node\'s inotify watch limit (fs.inotify.max_user_watches 8192), shared by every root container on the node',
         'https://github.com/hgop/syllabus-2020/issues/43',
         "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/public'",
         NS + '/' + pn, 'any', objs, decisive='System limit for number of file watchers reached',
         mechanism=('inotify-watches', [['max_user_watches']]))


# =====================================================================================
# 14. capability-missing: a hardening change drops ALL capabilities; the postgres entrypoint (root) cannot gosu to postgres
# =====================================================================================
@register
def gosu_drop_all():
    A = 'worker-a1.k8s.corp.example'; B = 'worker-a2.k8s.corp.example'
    mk = lambda x, ip: mknode(x, kubelet='v1.30.7', runtime='containerd://1.7.24', kernel='5.14.0-503.15.1.el9_5.x86_64', os_image='Red Hat Enterprise Linux 9.5 (Plow)', ip=ip)
    na = mk(A, '10.60.2.11'); nb = mk(B, '10.60.2.12')
    NS = 'billing'
    img = 'postgres:16.4'
    labels = {'app.kubernetes.io/name': 'billing-db'}
    spec = {'containers': [{'name': 'postgres', 'image': img, 'ports': [{'name': 'postgres', 'containerPort': 5432}],
                            'env': [{'name': 'POSTGRES_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'billing-db', 'key': 'password'}}},
                                    {'name': 'PGDATA', 'value': '/var/lib/postgresql/data/pgdata'}],
                            'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'seccompProfile': {'type': 'RuntimeDefault'}},
                            'readinessProbe': {'exec': {'command': ['pg_isready', '-U', 'postgres']}, 'periodSeconds': 10},
                            'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/postgresql/data'}],
                            'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '2Gi'}}}]}
    s = sts('billing-db', NS, labels, 1, spec, 0, created=86400 * 150, claims=[vct('data', '20Gi', 'thin-csi')])
    s['status'].update({'currentRevision': 'billing-db-6d9f8c7b54', 'updateRevision': 'billing-db-7c5b9d8f66', 'currentReplicas': 0, 'updatedReplicas': 1})
    pn = 'billing-db-0'
    p = xpod(pn, NS, A, spec['containers'], [clbo_(pn, NS, 'postgres', img, 8, term(1, 'Error', 231, 231, seed='gs8'))], 1340,
             owner=('StatefulSet', 'billing-db'), labels={**sts_labels(s, 0), 'controller-revision-hash': 'billing-db-7c5b9d8f66'},
             spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-' + pn}}], 'hostname': pn, 'subdomain': 'billing-db-headless'},
             conditions=conds(1340, False, since=1320, msg='containers with unready status: [postgres]'), host_ip='10.60.2.11')
    log = ['error: failed switching to "postgres": operation not permitted']
    pvn = 'pvc-2e4c6a8b-0d1f-4e3a-9b5c-7d9e1f3a5b7c'
    c_ = claim('data-' + pn, NS, 'thin-csi', 'Bound', '20Gi', volume=pvn, created=86400 * 150, provisioner='csi.vsphere.vmware.com')
    aimg = 'registry.corp.example/billing/api:3.14.2'
    api = xpod('billing-api-5f7c9d8b6d-q4w8z', NS, B, [{'name': 'api', 'image': aimg}],
               [running('api', aimg, 86400 * 5, ready=False)], 86400 * 5, owner=('ReplicaSet', 'billing-api-5f7c9d8b6d'),
               labels={'app.kubernetes.io/name': 'billing-api', 'pod-template-hash': '5f7c9d8b6d'}, conditions=conds(86400 * 5, False, since=1330, msg='containers with unready status: [api]'))
    alog = ['%s WARN  [HikariPool-1 housekeeper] com.zaxxer.hikari.pool.HikariPool - HikariPool-1 - Thread starvation or clock leap detected' % ts(1300, '%Y-%m-%d %H:%M:%S.%f')[:-3],
            '%s ERROR [http-nio-8080-exec-4] o.h.engine.jdbc.spi.SqlExceptionHelper - Connection to billing-db:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.'
            % ts(40, '%Y-%m-%d %H:%M:%S.%f')[:-3]]
    objs = [ns(NS), ns('kube-system'), na, nb, s, p, c_, vol(pvn, c_, driver='csi.vsphere.vmware.com', handle='file:' + hexid(pvn, 32), size='20Gi', storage_class='thin-csi'),
            secret('billing-db', NS, ['password'], created=86400 * 150), podlog(NS, pn, 'postgres', log, previous=True), api,
            podlog(NS, api['metadata']['name'], 'api', alog, previous=False),
            kube_proxy(A, version='v1.30.7'), kube_proxy(B, version='v1.30.7'), *coredns([A, B]),
            ctrl_ev(s, 'SuccessfulDelete', 'delete Pod %s in StatefulSet billing-db successful' % pn, 'statefulset-controller', last=1345),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod %s in StatefulSet billing-db successful' % pn, 'statefulset-controller', last=1340),
            *crashloop(p, A, img, 'postgres', 8, 1338, 232, 37, present=True)]
    case('mx-gosu-capabilities-drop-all',
         'CrashLoopBackOff after a hardening rollout: postgres now drops ALL capabilities, so its entrypoint (running as root) cannot switch to the postgres user with gosu',
         'https://github.com/docker-library/postgres/issues/269',
         'error: failed switching to "postgres": operation not permitted',
         NS + '/' + pn, 'any', objs, decisive='failed switching to "postgres": operation not permitted',
         mechanism=('capability-missing', [['SETUID', 'SETGID', 'runAsUser']]))


# =====================================================================================
# 15. no-new-privileges: code-server's entrypoint calls sudo; the restricted namespace forces allowPrivilegeEscalation: false
# =====================================================================================
@register
def sudo_no_new_privs():
    N = 'ip-172-20-51-9.ec2.internal'
    n = mknode(N, kubelet='v1.31.2-eks-94953ac', runtime='containerd://1.7.23', kernel='6.1.115-126.197.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241121', ip='172.20.51.9',
               labels={'eks.amazonaws.com/nodegroup': 'devbox', 'topology.kubernetes.io/zone': 'us-east-1b', 'node.kubernetes.io/instance-type': 'm6i.2xlarge'})
    NS = 'devbox-jdoe'
    namespace = ns(NS, meta={'labels': {'kubernetes.io/metadata.name': NS, 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest'}})
    img = 'codercom/code-server:4.93.1'
    sc = {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 1000, 'seccompProfile': {'type': 'RuntimeDefault'}}
    spec = {'securityContext': {'fsGroup': 1000},
            'containers': [{'name': 'code-server', 'image': img, 'args': ['--auth', 'none', '--bind-addr', '0.0.0.0:8080', '/home/coder/project'],
                            'env': [{'name': 'DOCKER_USER', 'value': 'jdoe'}], 'ports': [{'name': 'http', 'containerPort': 8080}], 'securityContext': sc,
                            'volumeMounts': [{'name': 'home', 'mountPath': '/home/coder'}],
                            'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '4Gi'}}}],
            'volumes': [{'name': 'home', 'persistentVolumeClaim': {'claimName': 'home-jdoe'}}]}
    d, rs = deploy('code-server', NS, {'app': 'code-server'}, 1, '74c9f8d6b5', spec, ready=0, created=900, generation=1, strategy={'type': 'Recreate'})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'code-server-74c9f8d6b5-8zqlv'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'code-server', img, 5, term(1, 'Error', 118, 118, seed='cs5'))], 890,
             owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'code-server', 'pod-template-hash': '74c9f8d6b5'},
             spec_extra={'volumes': copy.deepcopy(spec['volumes']), 'securityContext': {'fsGroup': 1000}},
             conditions=conds(890, False, since=870, msg='containers with unready status: [code-server]'), host_ip='172.20.51.9')
    log = ['sudo: The "no new privileges" flag is set, which prevents sudo from running as root.',
           'sudo: If sudo is running in a container, you may need to adjust the container configuration to disable the flag.']
    pvn = 'pvc-9b7d5f3a-1c2e-4a6b-8d0f-3e5a7c9b1d2f'
    c_ = claim('home-jdoe', NS, 'gp3', 'Bound', '30Gi', volume=pvn, created=900, provisioner='ebs.csi.aws.com', selected_node=N)
    objs = [namespace, ns('kube-system'), n, d, rs, p, c_, vol(pvn, c_, handle='vol-04c1e9a7b3d5f2e68', size='30Gi', storage_class='gp3'),
            storageclass('gp3', 'ebs.csi.aws.com', 'WaitForFirstConsumer', default=True, params={'type': 'gp3'}),
            podlog(NS, pn, 'code-server', log, previous=True), kube_proxy(N, version='v1.31.2-eks-94953ac'),
            *coredns([N, N], image='602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.11.3-eksbuild.2', hash_='789f8477df'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set code-server-74c9f8d6b5 from 0 to 1', 'deployment-controller', last=900),
            ctrl_ev(c_, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'persistentvolume-controller', last=899),
            ctrl_ev(c_, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvn, 'ebs.csi.aws.com_ebs-csi-controller-6c9f7b8d54-k2x4q_5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', last=885),
            msev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvn, 'Normal', count=1, first=880, controller='attachdetach-controller', instance='kube-controller-manager'),
            *crashloop(p, N, img, 'code-server', 5, 888, 119, 21, pulled_in='14.2s', size=297338194)]
    case('mx-sudo-no-new-privs',
         'CrashLoopBackOff of a new dev environment: code-server\'s entrypoint renames its user with sudo, and the restricted namespace requires allowPrivilegeEscalation: false',
         'https://github.com/container2wasm/container2wasm/issues/239',
         'sudo: The "no new privileges" flag is set, which prevents sudo from running as root.',
         NS + '/' + pn, 'any', objs, decisive='The "no new privileges" flag is set, which prevents sudo from running as root',
         mechanism=('no-new-privileges', [['allowPrivilegeEscalation']]))


# =====================================================================================
# 16. seccomp-blocked: a Netty io_uring server on nodes upgraded to containerd 2.0, whose RuntimeDefault profile blocks io_uring_setup
# =====================================================================================
@register
def seccomp_io_uring():
    names = ['mc-node-1', 'mc-node-2']
    nodes = [mknode(x, kubelet='v1.32.0', runtime='containerd://2.0.1', kernel='6.8.0-50-generic', os_image='Ubuntu 24.04.1 LTS', ip='10.88.0.%d' % (11 + i), created=86400 * 3)
             for i, x in enumerate(names)]
    N = names[0]
    NS = 'minecraft'
    img = 'registry.example.net/mc/onefork:git-OneFork-47e86db'
    labels = {'app': 'proxy'}
    spec = {'securityContext': {'runAsNonRoot': True, 'runAsUser': 1000, 'seccompProfile': {'type': 'RuntimeDefault'}},
            'containers': [{'name': 'proxy', 'image': img, 'ports': [{'name': 'minecraft', 'containerPort': 25577}],
                            'env': [{'name': 'JAVA_OPTS', 'value': '-Xms512M -Xmx512M -Dnetty.transport=io_uring'}],
                            'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}},
                            'volumeMounts': [{'name': 'config', 'mountPath': '/server/config.yml', 'subPath': 'config.yml'}],
                            'resources': {'requests': {'cpu': '500m', 'memory': '768Mi'}, 'limits': {'memory': '1Gi'}}}],
            'volumes': [{'name': 'config', 'configMap': {'name': 'proxy-config'}}]}
    d, rs = deploy('proxy', NS, labels, 1, '5c8d7f9b64', spec, ready=0, created=86400 * 90, generation=12)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 12}
    rs['metadata']['creationTimestamp'] = ago(86400 * 20)
    pn = 'proxy-5c8d7f9b64-w6r2k'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'proxy', img, 10, term(1, 'Error', 256, 253, seed='mc10'))], 3100,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5c8d7f9b64'},
             spec_extra={'volumes': copy.deepcopy(spec['volumes']), 'securityContext': copy.deepcopy(spec['securityContext'])},
             conditions=conds(3100, False, since=3080, msg='containers with unready status: [proxy]'), host_ip='10.88.0.11')
    t = lambda s_: NOW_MINUS(s_).strftime('%H:%M:%S')
    log = ['%s [INFO] Using mbed TLS based native cipher.' % t(255), '%s [INFO] Using zlib based native compressor.' % t(255),
           '%s [INFO] Enabled OneFork version git:OneFork-Bootstrap:1.16-R0.5-SNAPSHOT:47e86db:1542' % t(254), '%s [INFO] Loaded plugin cmd_server version git:cmd_server:1.16-R0.5-SNAPSHOT' % t(254),
           '%s [INFO] Enabled plugin cmd_server version git:cmd_server:1.16-R0.5-SNAPSHOT' % t(254),
           'Exception in thread "main" java.lang.UnsatisfiedLinkError: failed to load the required native library',
           '\tat io.netty.incubator.channel.uring.IOUring.ensureAvailability(IOUring.java:63) ~[onefork.jar:git-OneFork-47e86db]',
           '\tat io.netty.incubator.channel.uring.IOUringEventLoop.<init>(IOUringEventLoop.java:64) ~[onefork.jar:git-OneFork-47e86db]',
           '\tat io.netty.incubator.channel.uring.IOUringEventLoopGroup.newChild(IOUringEventLoopGroup.java:117) ~[onefork.jar:git-OneFork-47e86db]',
           '\tat io.netty.util.concurrent.MultithreadEventExecutorGroup.<init>(MultithreadEventExecutorGroup.java:84) ~[onefork.jar:git-OneFork-47e86db]',
           'Caused by: java.lang.RuntimeException: failed to create io_uring ring fd Operation not permitted',
           '\tat io.netty.incubator.channel.uring.Native.ioUringSetup(Native Method) ~[onefork.jar:git-OneFork-47e86db]',
           '\tat io.netty.incubator.channel.uring.Native.createRingBuffer(Native.java:141) ~[onefork.jar:git-OneFork-47e86db]',
           '\tat io.netty.incubator.channel.uring.Native.createRingBuffer(Native.java:174) ~[onefork.jar:git-OneFork-47e86db]',
           '\tat io.netty.incubator.channel.uring.IOUring.<clinit>(IOUring.java:36) ~[onefork.jar:git-OneFork-47e86db]',
           '\t... 9 more', '%s [INFO] Closing IO threads' % t(253), '%s [INFO] Thank you and goodbye' % t(253)]
    simg = 'itzg/minecraft-server:java21'
    servers = [xpod('lobby-%d' % i, NS, names[i % 2], [{'name': 'server', 'image': simg}], [running('server', simg, 86400 * 3 - 100)], 86400 * 3,
                    owner=('StatefulSet', 'lobby'), labels={'app': 'lobby', 'statefulset.kubernetes.io/pod-name': 'lobby-%d' % i}) for i in range(2)]
    objs = [ns(NS), ns('kube-system'), *nodes, d, rs, p, configmap('proxy-config', NS, {'config.yml': 'listeners:\n- host: 0.0.0.0:25577\n  motd: OneFork\nservers:\n  lobby:\n    address: lobby:25565\n'}),
            podlog(NS, pn, 'proxy', log, previous=True), *servers,
            *[kube_proxy(x, version='v1.32.0') for x in names], *coredns(names, image='registry.k8s.io/coredns/coredns:v1.11.3'),
            *[node_event(x, 'Starting', 'Starting kubelet.', last=86400 * 3 - 60, first=86400 * 3 - 60) for x in nodes],
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=3100),
            *crashloop(p, N, img, 'proxy', 10, 3098, 257, 63, pulled_in='6.0s', size=213447102)]
    case('mx-seccomp-io-uring',
         'CrashLoopBackOff after the node pool moved to containerd 2.0: the proxy uses Netty\'s io_uring transport, and the RuntimeDefault seccomp profile now refuses io_uring_setup',
         'https://github.com/netty/netty-incubator-transport-io_uring/issues/41',
         'java.lang.RuntimeException: failed to create io_uring ring fd Operation not permitted',
         NS + '/' + pn, 'any', objs, decisive='failed to create io_uring ring fd Operation not permitted',
         mechanism=('seccomp-blocked', [['seccomp'], ['RuntimeDefault', 'Unconfined', 'seccompProfile', 'Localhost']]))


# =====================================================================================
# 17. data-dir-locked: a Prometheus Deployment on an RWX claim rolls with maxSurge; the new pod meets the old pod's TSDB lock
# =====================================================================================
@register
def prometheus_lock_rolling_update():
    A = 'ip-10-2-33-71.eu-west-1.compute.internal'; B = 'ip-10-2-48-150.eu-west-1.compute.internal'
    mk = lambda x, ip, z: mknode(x, kubelet='v1.30.6-eks-7f9249a', runtime='containerd://1.7.23', kernel='5.10.228-219.884.amzn2.x86_64', os_image='Amazon Linux 2', ip=ip,
                                 labels={'eks.amazonaws.com/nodegroup': 'ops', 'topology.kubernetes.io/zone': z})
    na = mk(A, '10.2.33.71', 'eu-west-1a'); nb = mk(B, '10.2.48.150', 'eu-west-1b')
    NS = 'monitoring'
    img = 'quay.io/prometheus/prometheus:v2.30.3'; rimg = 'jimmidyson/configmap-reload:v0.5.0'
    labels = {'app': 'prometheus', 'component': 'server', 'release': 'prometheus'}
    def spec(retention):
        return {'serviceAccountName': 'prometheus-server', 'securityContext': {'fsGroup': 65534, 'runAsGroup': 65534, 'runAsNonRoot': True, 'runAsUser': 65534},
                'containers': [{'name': 'prometheus-server-configmap-reload', 'image': rimg, 'args': ['--volume-dir=/etc/config', '--webhook-url=http://127.0.0.1:9090/-/reload'],
                                'volumeMounts': [{'name': 'config-volume', 'mountPath': '/etc/config', 'readOnly': True}]},
                               {'name': 'prometheus-server', 'image': img, 'args': ['--storage.tsdb.retention.time=%s' % retention, '--config.file=/etc/config/prometheus.yml',
                                                                                   '--storage.tsdb.path=/data', '--web.console.libraries=/etc/prometheus/console_libraries',
                                                                                   '--web.console.templates=/etc/prometheus/consoles', '--web.enable-lifecycle'],
                                'ports': [{'containerPort': 9090}],
                                'readinessProbe': {'httpGet': {'path': '/-/ready', 'port': 9090}, 'initialDelaySeconds': 30, 'periodSeconds': 5, 'timeoutSeconds': 4, 'failureThreshold': 3},
                                'livenessProbe': {'httpGet': {'path': '/-/healthy', 'port': 9090}, 'initialDelaySeconds': 30, 'periodSeconds': 15, 'timeoutSeconds': 10, 'failureThreshold': 3},
                                'volumeMounts': [{'name': 'config-volume', 'mountPath': '/etc/config'}, {'name': 'storage-volume', 'mountPath': '/data'}]}],
                'volumes': [{'name': 'config-volume', 'configMap': {'name': 'prometheus-server', 'defaultMode': 420}},
                            {'name': 'storage-volume', 'persistentVolumeClaim': {'claimName': 'prometheus-server'}}]}
    new_spec, old_spec = spec('30d'), spec('15d')
    strategy = {'type': 'RollingUpdate', 'rollingUpdate': {'maxSurge': '25%', 'maxUnavailable': '25%'}}
    d, rs_new = deploy('prometheus-server', NS, labels, 1, '7b4d9c6f58', new_spec, ready=1, updated=1, created=86400 * 300, generation=9, strategy=strategy,
                       conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 14), 'lastTransitionTime': ago(86400 * 14)},
                                   {'type': 'Progressing', 'status': 'True', 'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "prometheus-server-7b4d9c6f58" is progressing.', 'lastUpdateTime': ago(540), 'lastTransitionTime': ago(540)}])
    d['status'].update({'replicas': 2, 'updatedReplicas': 1, 'readyReplicas': 1, 'availableReplicas': 1, 'unavailableReplicas': 1})
    rs_new['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    rs_new['metadata']['creationTimestamp'] = ago(540)
    rs_old = replicaset(d, '5f9c8d7b46', 1, 1, old_spec, created=86400 * 14, revision=8)
    old = xpod('prometheus-server-5f9c8d7b46-lx7vd', NS, A, old_spec['containers'], [running('prometheus-server-configmap-reload', rimg, 86400 * 14 - 30), running('prometheus-server', img, 86400 * 14 - 30)],
               86400 * 14, owner=('ReplicaSet', rs_old['metadata']['name']), labels={**labels, 'pod-template-hash': '5f9c8d7b46'}, sa='prometheus-server',
               spec_extra={'volumes': copy.deepcopy(old_spec['volumes']), 'securityContext': dict(old_spec['securityContext'])})
    pn = 'prometheus-server-7b4d9c6f58-9fzq2'
    st = [running('prometheus-server-configmap-reload', rimg, 530), clbo_(pn, NS, 'prometheus-server', img, 6, term(1, 'Error', 121, 120, seed='pl6'))]
    p = xpod(pn, NS, B, new_spec['containers'], st, 540, owner=('ReplicaSet', rs_new['metadata']['name']), labels={**labels, 'pod-template-hash': '7b4d9c6f58'}, sa='prometheus-server',
             spec_extra={'volumes': copy.deepcopy(new_spec['volumes']), 'securityContext': dict(new_spec['securityContext'])},
             conditions=conds(540, False, since=530, msg='containers with unready status: [prometheus-server]'), host_ip='10.2.48.150')
    pvn = 'pvc-4f6a8c0e-2b4d-4f6a-8c0e-2b4d6f8a0c2e'
    sc = storageclass('efs-sc', 'efs.csi.aws.com', 'Immediate', params={'provisioningMode': 'efs-ap', 'fileSystemId': 'fs-0c8e2a4f6b1d3e5a7', 'directoryPerms': '700'})
    c_ = claim('prometheus-server', NS, 'efs-sc', 'Bound', '50Gi', volume=pvn, created=86400 * 300, provisioner='efs.csi.aws.com', access=('ReadWriteMany',))
    v_ = vol(pvn, c_, driver='efs.csi.aws.com', handle='fs-0c8e2a4f6b1d3e5a7::fsap-0a1b2c3d4e5f60718', size='50Gi', storage_class='efs-sc')
    v_['spec']['accessModes'] = ['ReadWriteMany']
    lg = lambda t_, caller, level, rest: 'level=%s ts=%s caller=%s %s' % (level, ts(t_, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z', caller, rest)
    log = [lg(122, 'main.go:443', 'info', 'msg="Starting Prometheus" version="(version=2.30.3, branch=HEAD, revision=f29caccc42557f6a8ec30ea9b3c8c089391bd5df)"'),
           lg(122, 'main.go:448', 'info', 'build_context="(go=go1.17.1, user=root@5cff4265f0e3, date=20211005-16:10:52)"'),
           lg(122, 'main.go:449', 'info', 'host_details="(Linux 5.10.228-219.884.amzn2.x86_64 #1 SMP Wed Oct 23 17:17:00 UTC 2024 x86_64 %s (none))"' % pn),
           lg(122, 'main.go:450', 'info', 'fd_limits="(soft=1048576, hard=1048576)"'), lg(122, 'main.go:451', 'info', 'vm_limits="(soft=unlimited, hard=unlimited)"'),
           lg(122, 'web.go:541', 'info', 'component=web msg="Start listening for connections" address=0.0.0.0:9090'),
           lg(122, 'main.go:824', 'info', 'msg="Starting TSDB ..."'),
           lg(122, 'tls_config.go:191', 'info', 'component=web msg="TLS is disabled." http2=false'),
           lg(121, 'main.go:668', 'info', 'msg="Stopping scrape discovery manager..."'), lg(121, 'main.go:682', 'info', 'msg="Stopping notify discovery manager..."'),
           lg(121, 'main.go:704', 'info', 'msg="Stopping scrape manager..."'), lg(121, 'main.go:678', 'info', 'msg="Notify discovery manager stopped"'),
           lg(121, 'main.go:664', 'info', 'msg="Scrape discovery manager stopped"'), lg(121, 'manager.go:945', 'info', 'component="rule manager" msg="Stopping rule manager..."'),
           lg(121, 'manager.go:955', 'info', 'component="rule manager" msg="Rule manager stopped"'), lg(121, 'notifier.go:600', 'info', 'component=notifier msg="Stopping notification manager..."'),
           lg(121, 'main.go:698', 'info', 'msg="Scrape manager stopped"'), lg(121, 'main.go:885', 'info', 'msg="Notifier manager stopped"'),
           lg(121, 'main.go:915', 'error', 'err="opening storage failed: lock DB directory: resource temporarily unavailable"')]
    rlog = ['2026/11/21 09:51:03 Watching directory: "/etc/config"']
    objs = [ns(NS), ns('kube-system'), na, nb, sc, c_, v_, d, rs_new, rs_old, old, p, serviceaccount('prometheus-server', NS),
            configmap('prometheus-server', NS, {'prometheus.yml': 'global:\n  scrape_interval: 1m\nscrape_configs:\n- job_name: prometheus\n  static_configs:\n  - targets: [localhost:9090]\n'}),
            podlog(NS, pn, 'prometheus-server', log, previous=True), podlog(NS, pn, 'prometheus-server-configmap-reload', rlog, previous=False),
            kube_proxy(A, version='v1.30.6-eks-7f9249a'), kube_proxy(B, version='v1.30.6-eks-7f9249a'),
            *coredns([A, B], image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.11.3-eksbuild.2', hash_='789f8477df'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set prometheus-server-7b4d9c6f58 from 0 to 1', 'deployment-controller', last=540),
            scheduled(p, B, 539), *started(p, B, rimg, 'prometheus-server-configmap-reload', 536, '1.7s', size=4406270),
            *started(p, B, img, 'prometheus-server', 534, '5.9s', size=72830199), *restarted(p, B, img, 'prometheus-server', 6, 470, 122),
            backoff(p, B, 'prometheus-server', 24, 450, 9),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:9090/-/ready": dial tcp %s:9090: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']),
               count=4, first=500, last=130, host=B, fieldPath=fp('prometheus-server'))]
    case('mx-prometheus-tsdb-lock-rolling-update',
         'Rollout stuck: the new Prometheus pod shares the ReadWriteMany claim with the old one (RollingUpdate keeps the old pod until the new is Ready) and cannot take the TSDB lock',
         'https://github.com/prometheus/prometheus/issues/9513',
         'level=error ts=2021-10-15T08:25:42.501Z caller=main.go:915 err="opening storage failed: lock DB directory: resource temporarily unavailable"',
         NS + '/' + pn, 'any', objs, decisive='lock DB directory: resource temporarily unavailable',
         mechanism=('data-dir-locked', [['Recreate', 'ReadWriteOncePod']]))


# =====================================================================================
# 18. rbac-forbidden: Gluu's cr-rotate lists pods as the namespace's default ServiceAccount; the chart's Role grants no pods
# =====================================================================================
@register
def rbac_default_sa_gluu():
    A = 'gluu-k8s-w1'; B = 'gluu-k8s-w2'
    mk = lambda x, ip: mknode(x, kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS', ip=ip)
    na = mk(A, '192.168.122.31'); nb = mk(B, '192.168.122.32')
    NS = 'gluu'
    img = 'gluufederation/cr-rotate:4.4.0_01'
    labels = {'app': 'cr-rotate', 'APP_NAME': 'cr-rotate'}
    spec = {'containers': [{'name': 'cr-rotate', 'image': img, 'env': [{'name': 'GLUU_CONFIG_ADAPTER', 'value': 'kubernetes'}, {'name': 'GLUU_SECRET_ADAPTER', 'value': 'kubernetes'},
                                                                       {'name': 'GLUU_CONTAINER_METADATA', 'value': 'kubernetes'}, {'name': 'GLUU_PERSISTENCE_TYPE', 'value': 'ldap'}],
                            'resources': {'requests': {'cpu': '200m', 'memory': '200Mi'}, 'limits': {'cpu': '200m', 'memory': '200Mi'}}}]}
    d, rs = deploy('gluu-cr-rotate', NS, labels, 1, '6b9c7d8f54', spec, ready=0, created=2700, generation=1)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'gluu-cr-rotate-6b9c7d8f54-hx2mv'
    p = xpod(pn, NS, A, spec['containers'], [clbo_(pn, NS, 'cr-rotate', img, 9, term(1, 'Error', 236, 231, seed='cr9'))], 2690,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6b9c7d8f54'},
             conditions=conds(2690, False, since=2670, msg='containers with unready status: [cr-rotate]'), host_ip='192.168.122.31')
    t = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S,%f')[:-3]
    body = ('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:serviceaccount:gluu:default\\" cannot list resource '
            '\\"pods\\" in API group \\"\\" in the namespace \\"gluu\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}')
    log = ['INFO - pygluu.containerlib.wait - %s - Config is ready' % t(235), 'INFO - pygluu.containerlib.wait - %s - Secret is ready' % t(235),
           'INFO - cr-rotate - %s - Using kubernetes client to discover oxTrust and oxShibboleth containers' % t(234),
           'Traceback (most recent call last):', '  File "/app/scripts/entrypoint.py", line 276, in <module>', '    main()',
           '  File "/app/scripts/entrypoint.py", line 262, in main', '    rotator.check_pods()', '  File "/app/scripts/entrypoint.py", line 198, in check_pods',
           '    oxtrust_containers = self.client.get_containers("APP_NAME=oxtrust")', '  File "/usr/lib/python3.9/site-packages/pygluu/containerlib/meta/kubernetes_meta.py", line 41, in get_containers',
           '    return self.client.list_namespaced_pod(namespace, label_selector=label).items',
           '  File "/usr/lib/python3.9/site-packages/kubernetes/client/api/core_v1_api.py", line 15697, in list_namespaced_pod',
           '    return self.list_namespaced_pod_with_http_info(namespace, **kwargs)  # noqa: E501',
           '  File "/usr/lib/python3.9/site-packages/kubernetes/client/rest.py", line 234, in request', '    raise ApiException(http_resp=r)',
           'kubernetes.client.exceptions.ApiException: (403)', 'Reason: Forbidden',
           "HTTP response headers: HTTPHeaderDict({'Audit-Id': '%s', 'Cache-Control': 'no-cache, private', 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', "
           "'X-Kubernetes-Pf-Flowschema-Uid': '%s', 'X-Kubernetes-Pf-Prioritylevel-Uid': '%s', 'Date': '%s', 'Content-Length': '300'})"
           % (uid('audit-cr'), uid('fs-cr'), uid('pl-cr'), NOW_MINUS(233).strftime('%a, %d %b %Y %H:%M:%S GMT')),
           'HTTP response body: ' + body, '']
    role = obj('Role', 'rbac.authorization.k8s.io/v1', 'gluu-role', NS, 2800,
               rules=[{'apiGroups': [''], 'resources': ['configmaps', 'secrets'], 'verbs': ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']}])
    rb = obj('RoleBinding', 'rbac.authorization.k8s.io/v1', 'gluu-rolebinding', NS, 2800,
             subjects=[{'kind': 'ServiceAccount', 'name': 'default', 'namespace': NS}], roleRef={'apiGroup': 'rbac.authorization.k8s.io', 'kind': 'Role', 'name': 'gluu-role'})
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, p, serviceaccount('default', NS, created=86400 * 20), role, rb, podlog(NS, pn, 'cr-rotate', log, previous=True)]
    for comp, h, x, ready in (('oxauth', '79f8c6d5b4', A, True), ('oxtrust', None, B, True), ('opendj', None, A, True)):
        cimg = 'gluufederation/%s:4.4.0_01' % comp
        if h:
            objs.append(xpod('gluu-%s-%s-%s' % (comp, h, hexid(comp, 5).replace('0', 'p').replace('1', 'r')), NS, x, [{'name': comp, 'image': cimg}], [running(comp, cimg, 2500)], 2600,
                             owner=('ReplicaSet', 'gluu-%s-%s' % (comp, h)), labels={'app': comp, 'APP_NAME': comp, 'pod-template-hash': h}))
        else:
            objs.append(xpod('gluu-%s-0' % comp, NS, x, [{'name': comp, 'image': cimg}], [running(comp, cimg, 2550)], 2650, owner=('StatefulSet', 'gluu-' + comp),
                             labels={'app': comp, 'APP_NAME': comp, 'statefulset.kubernetes.io/pod-name': 'gluu-%s-0' % comp}))
    objs += [kube_proxy(A, version='v1.29.10'), kube_proxy(B, version='v1.29.10'), *coredns([A, B]),
             ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set gluu-cr-rotate-6b9c7d8f54 from 0 to 1', 'deployment-controller', last=2700),
             *crashloop(p, A, img, 'cr-rotate', 9, 2688, 237, 52, pulled_in='11.3s', size=98802114)]
    case('mx-rbac-forbidden-default-sa',
         "CrashLoopBackOff of Gluu's cr-rotate: it lists pods with the namespace's default ServiceAccount, and the chart's Role bound to it grants only configmaps and secrets",
         'https://github.com/GluuFederation/cloud-native-edition/issues/543',
         '"message":"pods is forbidden: User \\"system:serviceaccount:gluu:default\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"gluu\\""',
         NS + '/' + pn, 'any', objs, decisive='system:serviceaccount:gluu:default',
         mechanism=('rbac-forbidden', [['ServiceAccount'], ['RoleBinding', 'ClusterRoleBinding']]))


# =====================================================================================
# 19. tls-unknown-authority: a Spring Cloud Kubernetes service is pointed at the API through the corporate load balancer,
#     whose certificate chains to a corporate CA the pod's trust (the cluster CA) does not hold
# =====================================================================================
@register
def spring_pkix_unknown_ca():
    A = 'k8s-prd-wrk-04'; B = 'k8s-prd-wrk-05'
    mk = lambda x, ip: mknode(x, kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.14.0-427.42.1.el9_4.x86_64', os_image='Rocky Linux 9.4 (Blue Onyx)', ip=ip)
    na = mk(A, '10.14.2.54'); nb = mk(B, '10.14.2.55')
    NS = 'auth'
    img = 'harbor.corp.example/vr20/core-auth:0.0.1-SNAPSHOT-b214'
    labels = {'app': 'core-auth'}
    spec = {'serviceAccountName': 'core-auth',
            'containers': [{'name': 'core-auth', 'image': img, 'ports': [{'name': 'http', 'containerPort': 8080}],
                            'env': [{'name': 'SPRING_PROFILES_ACTIVE', 'value': 'kubernetes,prd'}, {'name': 'KUBERNETES_MASTER', 'value': 'https://k8s-api.corp.example:6443'},
                                    {'name': 'JAVA_TOOL_OPTIONS', 'value': '-XX:MaxRAMPercentage=75'}],
                            'readinessProbe': {'httpGet': {'path': '/actuator/health/readiness', 'port': 8080}, 'initialDelaySeconds': 20, 'periodSeconds': 10},
                            'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}}]}
    d, rs = deploy('core-auth', NS, labels, 2, '7c6b8d9f5c', spec, ready=0, created=86400 * 45, generation=14)
    rs['status'] = {'replicas': 2, 'fullyLabeledReplicas': 2, 'observedGeneration': 14}
    rs['metadata']['creationTimestamp'] = ago(2200)
    pods = []
    for sfx, n_, r in (('tq8mz', A, 8), ('6dwk4', B, 8)):
        pn_ = 'core-auth-7c6b8d9f5c-' + sfx
        pods.append(xpod(pn_, NS, n_, spec['containers'], [clbo_(pn_, NS, 'core-auth', img, r, term(1, 'Error', 260, 238, seed=pn_))], 2190, sa='core-auth',
                         owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7c6b8d9f5c'},
                         conditions=conds(2190, False, since=2170, msg='containers with unready status: [core-auth]')))
    p = pods[0]; pn = p['metadata']['name']
    t = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f')[:-3]
    log = ['', '  .   ____          _            __ _ _', ' /\\\\ / ___\'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\', ' :: Spring Boot ::        (v2.2.7.RELEASE)', '',
           '%s  INFO 1 --- [           main] b.c.PropertySourceBootstrapConfiguration : Located property source: [BootstrapPropertySource {name=\'bootstrapProperties-configmap.core-auth.auth\'}]' % t(255),
           '%s  INFO 1 --- [           main] com.vr20.coreAuth.CoreAuthApplication    : The following profiles are active: kubernetes,prd' % t(254),
           '%s  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port(s): 8080 (http)' % t(249),
           '%s  WARN 1 --- [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: '
           'org.springframework.context.ApplicationContextException: Failed to start bean \'kubernetesDiscoveryLifecycle\'; nested exception is '
           'io.fabric8.kubernetes.client.KubernetesClientException: Operation: [list]  for kind: [Service]  with name: [null]  in namespace: [auth]  failed.' % t(240),
           '%s ERROR 1 --- [           main] o.s.boot.SpringApplication               : Application run failed' % t(239), '',
           'org.springframework.context.ApplicationContextException: Failed to start bean \'kubernetesDiscoveryLifecycle\'; nested exception is io.fabric8.kubernetes.client.KubernetesClientException: '
           'Operation: [list]  for kind: [Service]  with name: [null]  in namespace: [auth]  failed.',
           '\tat org.springframework.context.support.DefaultLifecycleProcessor.doStart(DefaultLifecycleProcessor.java:185) ~[spring-context-5.2.6.RELEASE.jar!/:5.2.6.RELEASE]',
           '\tat org.springframework.boot.SpringApplication.run(SpringApplication.java:1215) ~[spring-boot-2.2.7.RELEASE.jar!/:2.2.7.RELEASE]',
           '\tat com.vr20.coreAuth.CoreAuthApplication.main(CoreAuthApplication.java:43) ~[classes!/:na]',
           '\tat org.springframework.boot.loader.JarLauncher.main(JarLauncher.java:52) ~[core-auth-0.0.1-SNAPSHOT.jar:na]',
           'Caused by: io.fabric8.kubernetes.client.KubernetesClientException: Operation: [list]  for kind: [Service]  with name: [null]  in namespace: [auth]  failed.',
           '\tat io.fabric8.kubernetes.client.KubernetesClientException.launderThrowable(KubernetesClientException.java:64) ~[kubernetes-client-4.4.1.jar!/:na]',
           '\tat io.fabric8.kubernetes.client.dsl.base.BaseOperation.list(BaseOperation.java:605) ~[kubernetes-client-4.4.1.jar!/:na]',
           'Caused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
           '\tat java.base/sun.security.ssl.Alert.createSSLException(Alert.java:131) ~[na:na]', '\tat java.base/sun.security.ssl.TransportContext.fatal(TransportContext.java:326) ~[na:na]',
           '\tat java.base/sun.security.ssl.CertificateMessage$T12CertificateConsumer.checkServerCerts(CertificateMessage.java:645) ~[na:na]',
           'Caused by: sun.security.validator.ValidatorException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
           '\tat java.base/sun.security.validator.PKIXValidator.doBuild(PKIXValidator.java:439) ~[na:na]',
           'Caused by: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
           '\tat java.base/sun.security.provider.certpath.SunCertPathBuilder.build(SunCertPathBuilder.java:141) ~[na:na]', '\t... 56 common frames omitted', '',
           '%s  INFO 1 --- [           main] o.apache.catalina.core.StandardService   : Stopping service [Tomcat]' % t(238)]
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, *pods, serviceaccount('core-auth', NS), configmap('core-auth', NS, {'application.yaml': 'spring:\n  datasource:\n    url: jdbc:postgresql://auth-db:5432/auth\n'}),
            podlog(NS, pn, 'core-auth', log, previous=True),
            kube_proxy(A, version='v1.29.10'), kube_proxy(B, version='v1.29.10'), *coredns([A, B]),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set core-auth-7c6b8d9f5c from 0 to 2', 'deployment-controller', last=2200)]
    for q, n_ in zip(pods, (A, B)):
        objs += crashloop(q, n_, img, 'core-auth', 8, 2188, 261, 45, pulled_in='9.1s', size=187330126)
    case('mx-spring-pkix-unknown-ca',
         'CrashLoopBackOff after a config change: the service reaches the Kubernetes API through the corporate load balancer (KUBERNETES_MASTER), whose certificate the pod does not trust',
         'https://github.com/spring-cloud/spring-cloud-kubernetes/issues/560',
         'Caused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: '
         'unable to find valid certification path to requested target',
         NS + '/' + pn, 'any', objs, decisive='unable to find valid certification path to requested target',
         mechanism=('tls-unknown-authority', [['trust store', 'truststore', 'CA certificate', 'CA bundle', 'certificate authority', 'ca.crt']]))


# =====================================================================================
# 20. dns-resolution: a hostNetwork worker keeps dnsPolicy ClusterFirst, so it gets the node's resolver and cannot resolve a Service name
# =====================================================================================
@register
def hostnetwork_clusterfirst_dns():
    N = 'edge-gw-01'
    n = mknode(N, kubelet='v1.31.4', runtime='containerd://1.7.24', kernel='6.1.0-28-amd64', os_image='Debian GNU/Linux 12 (bookworm)', ip='192.168.10.5',
               labels={'node-role.kubernetes.io/control-plane': ''})
    NS = 'default'
    img = 'registry.local/vision/frame-worker:2.3.1'
    labels = {'app': 'deployment2'}
    spec = {'hostNetwork': True, 'dnsPolicy': 'ClusterFirst',
            'containers': [{'name': 'worker', 'image': img, 'command': ['python', '-u', 'worker.py'],
                            'env': [{'name': 'INFERENCE_URL', 'value': 'http://servicename:5000/predict'}, {'name': 'CAMERA_GROUP', 'value': '239.0.0.1:5004'}],
                            'resources': {'requests': {'cpu': '200m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}]}
    d, rs = deploy('deployment2', NS, labels, 1, '85b7c6d9f4', spec, ready=0, created=86400 * 3, generation=2)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 2}
    pn = 'deployment2-85b7c6d9f4-5jwqp'
    p = xpod(pn, NS, N, spec['containers'], [clbo_(pn, NS, 'worker', img, 10, term(1, 'Error', 292, 281, seed='hn10'))], 3600,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '85b7c6d9f4'}, spec_extra={'hostNetwork': True, 'dnsPolicy': 'ClusterFirst'},
             conditions=conds(3600, False, since=3580, msg='containers with unready status: [worker]'), host_ip='192.168.10.5')
    log = ['INFO:worker:joining multicast group 239.0.0.1:5004 on 0.0.0.0', 'INFO:worker:registering with inference service http://servicename:5000/predict',
           'Traceback (most recent call last):',
           '  File "/usr/local/lib/python3.6/site-packages/urllib3/connection.py", line 159, in _new_conn', '    (self._dns_host, self.port), self.timeout, **extra_kw)',
           '  File "/usr/local/lib/python3.6/site-packages/urllib3/util/connection.py", line 57, in create_connection',
           '    for res in socket.getaddrinfo(host, port, family, socket.SOCK_STREAM):', '  File "/usr/local/lib/python3.6/socket.py", line 745, in getaddrinfo',
           '    for res in _socket.getaddrinfo(host, port, family, type, proto, flags):', 'socket.gaierror: [Errno -2] Name does not resolve', '',
           'During handling of the above exception, another exception occurred:', '', 'Traceback (most recent call last):',
           '  File "worker.py", line 88, in <module>', '    register()', '  File "worker.py", line 41, in register', '    r = requests.post(INFERENCE_URL, json=hello, timeout=5)',
           '  File "/usr/local/lib/python3.6/site-packages/requests/adapters.py", line 516, in send', '    raise ConnectionError(e, request=request)',
           "requests.exceptions.ConnectionError: HTTPConnectionPool(host='servicename', port=5000): Max retries exceeded with url: /predict "
           "(Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3b2c1e0b38>: Failed to establish a new connection: [Errno -2] Name does not resolve'))"]
    simg = 'registry.local/vision/inference:2.3.1'
    sd, srs = deploy('deployment1', NS, {'app': 'deployment1'}, 1, '6c9d7f8b54', {'containers': [{'name': 'inference', 'image': simg}]}, created=86400 * 3)
    sp = xpod('deployment1-6c9d7f8b54-zr4nh', NS, N, [{'name': 'inference', 'image': simg}], [running('inference', simg, 86400 * 3 - 40)], 86400 * 3,
              owner=('ReplicaSet', srs['metadata']['name']), labels={'app': 'deployment1', 'pod-template-hash': '6c9d7f8b54'})
    svc = service('servicename', NS, {'app': 'deployment1'}, ports=((5000, 5000),), created=86400 * 3)
    svc['spec']['clusterIP'] = '10.110.140.125'
    cal = daemonset('calico-node', 'kube-system', {'k8s-app': 'calico-node'}, 1, 1, {'hostNetwork': True, 'containers': [{'name': 'calico-node', 'image': 'docker.io/calico/node:v3.28.2'}]})
    objs = [ns(NS), ns('kube-system'), n, d, rs, p, podlog(NS, pn, 'worker', log, previous=True), sd, srs, sp, svc,
            endpoints('servicename', NS, ready=[(sp['status']['podIP'], sp['metadata']['name'], N)], port=5000), cal,
            ds_pod(cal, N, 'docker.io/calico/node:v3.28.2', 'calico-node', 86400 * 30), kube_proxy(N, version='v1.31.4'), *coredns([N, N]),
            service('kube-dns', 'kube-system', {'k8s-app': 'kube-dns'}, ports=((53, 53),), created=86400 * 30),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set deployment2-85b7c6d9f4 from 0 to 1', 'deployment-controller', last=3600),
            *crashloop(p, N, img, 'worker', 10, 3598, 293, 66, present=True)]
    case('mx-hostnetwork-clusterfirst-dns',
         'CrashLoopBackOff of a hostNetwork worker: with dnsPolicy ClusterFirst a hostNetwork pod uses the node\'s resolver, which knows nothing of the Service "servicename"',
         'https://github.com/kubernetes/dns/issues/316',
         "nslookup: can't resolve 'servicename': Name does not resolve",
         NS + '/' + pn, 'any', objs, decisive='Failed to establish a new connection: [Errno -2] Name does not resolve',
         mechanism=('dns-resolution', [['ClusterFirstWithHostNet']]))


# =====================================================================================
# 21. capability-missing: busybox ping on a CRI-O node, whose default capability set has no NET_RAW
# =====================================================================================
@register
def ping_net_raw_crio():
    A = 'k8s-crio-w1'; B = 'k8s-crio-w2'
    mk = lambda x, ip: mknode(x, kubelet='v1.30.6', runtime='cri-o://1.30.7', kernel='5.14.0-503.14.1.el9_5.x86_64', os_image='Rocky Linux 9.5 (Blue Onyx)', ip=ip)
    na = mk(A, '192.168.56.21'); nb = mk(B, '192.168.56.22')
    NS = 'default'
    img = 'busybox:1.36'
    c = [{'name': 'busybox', 'image': img, 'args': ['ping', '-c', '5', 'google.com'], 'resources': {}}]
    pn = 'busybox'
    p = xpod(pn, NS, B, c, [clbo_(pn, NS, 'busybox', img, 6, term(1, 'Error', 203, 203, seed='bb6'))], 820, labels={'run': 'busybox'},
             conditions=conds(820, False, since=810, msg='containers with unready status: [busybox]'), host_ip='192.168.56.22')
    p['status']['containerStatuses'][0]['imageID'] = 'docker.io/library/busybox@sha256:' + hexid('busybox136')
    p['status']['qosClass'] = 'BestEffort'
    log = ['ping: permission denied (are you root?)']
    nimg = 'nginx:1.27'
    web = xpod('web-6d9f7c8b5d-x2v9k', NS, A, [{'name': 'nginx', 'image': nimg}], [running('nginx', nimg, 86400 * 2)], 86400 * 2,
               owner=('ReplicaSet', 'web-6d9f7c8b5d'), labels={'app': 'web', 'pod-template-hash': '6d9f7c8b5d'})
    fl = daemonset('kube-flannel-ds', 'kube-flannel', {'app': 'flannel'}, 2, 2, {'hostNetwork': True, 'containers': [{'name': 'kube-flannel', 'image': 'docker.io/flannel/flannel:v0.26.1'}]})
    objs = [ns(NS), ns('kube-system'), ns('kube-flannel'), na, nb, p, podlog(NS, pn, 'busybox', log, previous=True), web, fl,
            *[ds_pod(fl, x, 'docker.io/flannel/flannel:v0.26.1', 'kube-flannel', 86400 * 30, namespace='kube-flannel') for x in (A, B)],
            kube_proxy(A, version='v1.30.6'), kube_proxy(B, version='v1.30.6'), *coredns([A, B]),
            *crashloop(p, B, img, 'busybox', 6, 818, 204, 30, pulled_in='2.3s', size=4269694)]
    case('mx-ping-net-raw-crio',
         'CrashLoopBackOff of a busybox test pod: ping needs a raw socket, and CRI-O\'s default capabilities (unlike Docker\'s) leave out NET_RAW',
         'https://github.com/justmeandopensource/kubernetes/issues/67',
         'ping: permission denied (are you root?)',
         NS + '/' + pn, 'any', objs, decisive='ping: permission denied (are you root?)',
         mechanism=('capability-missing', [['NET_RAW', 'ping_group_range']]))


# =====================================================================================
# 22. user-unknown: an image on top of bitnami/wildfly runs as UID 1001 (its Dockerfile USER), which /etc/passwd does not list;
#     the team's entrypoint asks whoami for the JVM monitoring setup
# =====================================================================================
@register
def whoami_unknown_uid():
    A = 'ip-10-40-3-17.ec2.internal'; B = 'ip-10-40-5-201.ec2.internal'
    mk = lambda x, ip: mknode(x, kubelet='v1.30.6-eks-7f9249a', runtime='containerd://1.7.23', kernel='5.10.228-219.884.amzn2.x86_64', os_image='Amazon Linux 2', ip=ip,
                              labels={'eks.amazonaws.com/nodegroup': 'apps'})
    na = mk(A, '10.40.3.17'); nb = mk(B, '10.40.5.201')
    NS = 'reporting'
    img = '123456789012.dkr.ecr.us-east-1.amazonaws.com/reporting/wildfly-app:3.4.0'
    labels = {'app': 'reporting-api'}
    spec = {'securityContext': {'runAsUser': 1001, 'runAsNonRoot': True, 'fsGroup': 1001},
            'containers': [{'name': 'wildfly', 'image': img, 'command': ['/opt/acme/entrypoint.sh'], 'ports': [{'name': 'http', 'containerPort': 8080}, {'name': 'mgmt', 'containerPort': 9990}],
                            'env': [{'name': 'WILDFLY_USERNAME', 'value': 'admin'}, {'name': 'WILDFLY_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'reporting-api', 'key': 'wildfly-password'}}},
                                    {'name': 'ENABLE_JSTAT_EXPORT', 'value': 'true'}],
                            'readinessProbe': {'httpGet': {'path': '/health/ready', 'port': 9990}, 'periodSeconds': 10},
                            'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '2Gi'}}}]}
    d, rs = deploy('reporting-api', NS, labels, 2, '6f8d7c9b5d', spec, ready=2, updated=1, created=86400 * 60, generation=21,
                   conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 10), 'lastTransitionTime': ago(86400 * 10)},
                               {'type': 'Progressing', 'status': 'True', 'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "reporting-api-6f8d7c9b5d" is progressing.', 'lastUpdateTime': ago(1700), 'lastTransitionTime': ago(1700)}])
    d['status'].update({'replicas': 3, 'updatedReplicas': 1, 'readyReplicas': 2, 'availableReplicas': 2, 'unavailableReplicas': 1})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    rs['metadata']['creationTimestamp'] = ago(1700)
    old_spec = copy.deepcopy(spec); old_spec['containers'][0]['image'] = img.replace('3.4.0', '3.3.2'); old_spec['containers'][0]['env'] = old_spec['containers'][0]['env'][:2]
    rs_old = replicaset(d, '59c7b8d6f4', 2, 2, old_spec, created=86400 * 10, revision=20)
    olds = [xpod('reporting-api-59c7b8d6f4-%s' % sfx, NS, n_, old_spec['containers'], [running('wildfly', old_spec['containers'][0]['image'], 86400 * 10 - 60)], 86400 * 10,
                 owner=('ReplicaSet', rs_old['metadata']['name']), labels={**labels, 'pod-template-hash': '59c7b8d6f4'}, spec_extra={'securityContext': dict(spec['securityContext'])})
            for sfx, n_ in (('bx4nq', A), ('kz7rt', B))]
    pn = 'reporting-api-6f8d7c9b5d-w2p8s'
    p = xpod(pn, NS, B, spec['containers'], [clbo_(pn, NS, 'wildfly', img, 7, term(1, 'Error', 186, 186, seed='wf7'))], 1690,
             owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6f8d7c9b5d'}, spec_extra={'securityContext': dict(spec['securityContext'])},
             conditions=conds(1690, False, since=1670, msg='containers with unready status: [wildfly]'), host_ip='10.40.5.201')
    log = ['[acme-entrypoint] preparing WildFly configuration (profile=standalone, mgmt user admin)', '[acme-entrypoint] ENABLE_JSTAT_EXPORT=true: setting up jstatd policy for the JVM user',
           'whoami: cannot find name for user ID 1001']
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, rs_old, *olds, p, secret('reporting-api', NS, ['wildfly-password'], created=86400 * 60),
            podlog(NS, pn, 'wildfly', log, previous=True), kube_proxy(A, version='v1.30.6-eks-7f9249a'), kube_proxy(B, version='v1.30.6-eks-7f9249a'),
            *coredns([A, B], image='602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.11.3-eksbuild.2', hash_='789f8477df'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set reporting-api-6f8d7c9b5d from 0 to 1', 'deployment-controller', last=1700),
            *crashloop(p, B, img, 'wildfly', 7, 1688, 187, 35, pulled_in='21.6s', size=512447730)]
    case('mx-whoami-unknown-uid',
         'Rollout stuck: the new image turns on a jstat exporter whose setup calls whoami, and UID 1001 (the bitnami base image\'s USER) has no /etc/passwd entry',
         'https://github.com/bitnami/bitnami-docker-wildfly/issues/71',
         '`whoami` -> `whoami: cannot find name for user ID 1001`',
         NS + '/' + pn, 'any', objs, decisive='whoami: cannot find name for user ID 1001',
         mechanism=('user-unknown', [['passwd'], ['runAsUser', 'nss_wrapper']]))


# =====================================================================================
# 23. rbac-forbidden, Running but not Ready: the control plane's pod informer cannot list pods in the task namespace
#     (the Role and RoleBinding failed to install), so it never binds its HTTP port; restartCount 0
# =====================================================================================
@register
def operator_not_ready_forbidden():
    names = ['k3d-lfval-server-0', 'k3d-lfval-agent-0', 'k3d-lfval-agent-1']
    nodes = [mknode(x, kubelet='v1.31.4+k3s1', runtime='containerd://1.7.23-k3s2', kernel='6.8.0-49-generic', os_image='K3s v1.31.4+k3s1', ip='172.19.0.%d' % (2 + i),
                    labels={'node.kubernetes.io/instance-type': 'k3s', **({'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'} if i == 0 else {})},
                    created=86400) for i, x in enumerate(names)]
    NS = 'lfval'
    img = 'ghcr.io/neochaotic/leoflow-control-plane:v0.4.6-rc.1'
    labels = {'app.kubernetes.io/name': 'leoflow', 'app.kubernetes.io/component': 'control-plane'}
    spec = {'serviceAccountName': 'leoflow',
            'containers': [{'name': 'control-plane', 'image': img, 'args': ['--task-namespace=leoflow', '--http-addr=:8080', '--grpc-addr=:9090'],
                            'ports': [{'name': 'http', 'containerPort': 8080}, {'name': 'grpc', 'containerPort': 9090}],
                            'readinessProbe': {'httpGet': {'path': '/readyz', 'port': 8080}, 'periodSeconds': 10, 'failureThreshold': 3},
                            'livenessProbe': {'grpc': {'port': 9090}, 'periodSeconds': 20},
                            'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '512Mi'}}}]}
    d, rs = deploy('leoflow-control-plane', NS, labels, 2, '7d9b6c5f8d', spec, ready=0, created=2500, generation=1)
    rs['status'] = {'replicas': 2, 'fullyLabeledReplicas': 2, 'observedGeneration': 1}
    pods = []
    for sfx, n_ in (('qv7lz', names[1]), ('m4k9x', names[2])):
        pn_ = 'leoflow-control-plane-7d9b6c5f8d-' + sfx
        q = xpod(pn_, NS, n_, spec['containers'], [running('control-plane', img, 2460, ready=False)], 2480, sa='leoflow',
                 owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7d9b6c5f8d'},
                 conditions=conds(2480, False, since=2470, msg='containers with unready status: [control-plane]'))
        pods.append(q)
    p = pods[0]; pn = p['metadata']['name']
    kl = lambda t_, lvl, src, text: '%s%s %s       1 %s] %s' % (lvl, NOW_MINUS(t_).strftime('%m%d'), NOW_MINUS(t_).strftime('%H:%M:%S.%f'), src, text)
    err = ('"Failed to watch" err="failed to list *v1.Pod: pods is forbidden: User \\"system:serviceaccount:lfval:leoflow\\" cannot list resource \\"pods\\" '
           'in API group \\"\\" in the namespace \\"leoflow\\""')
    log = [kl(2458, 'I', 'main.go:71', '"starting leoflow control plane" version="v0.4.6-rc.1" taskNamespace="leoflow"'),
           kl(2458, 'I', 'grpc.go:48', '"gRPC server listening" addr=":9090"')]
    for k in range(12):
        log.append(kl(2456 - k * 200 if k < 11 else 31, 'E', 'reflector.go:227', err))
    pdb = obj('PodDisruptionBudget', 'policy/v1', 'leoflow-control-plane', NS, 2500, spec={'minAvailable': 1, 'selector': {'matchLabels': labels}},
              status={'currentHealthy': 0, 'desiredHealthy': 1, 'disruptionsAllowed': 0, 'expectedPods': 2, 'observedGeneration': 1,
                      'conditions': [{'type': 'DisruptionAllowed', 'status': 'False', 'reason': 'InsufficientPods', 'message': '', 'observedGeneration': 1, 'lastTransitionTime': ago(2470)}]})
    role = obj('ClusterRole', 'rbac.authorization.k8s.io/v1', 'leoflow-control-plane', None, 2500,
               rules=[{'apiGroups': ['leoflow.io'], 'resources': ['workflows', 'workflows/status'], 'verbs': ['get', 'list', 'watch', 'update', 'patch']}])
    objs = [ns(NS), ns('kube-system'), *nodes, d, rs, *pods, pdb, role, serviceaccount('leoflow', NS, created=2500),
            service('leoflow-control-plane', NS, labels, ports=((8080, 8080), (9090, 9090)), created=2500),
            endpoints('leoflow-control-plane', NS, not_ready=[(q['status']['podIP'], q['metadata']['name'], q['spec']['nodeName']) for q in pods], port=8080),
            podlog(NS, pn, 'control-plane', log, previous=False),
            *coredns([names[0], names[0]], image='rancher/mirrored-coredns-coredns:1.11.3', hash_='ccb96694c'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set leoflow-control-plane-7d9b6c5f8d from 0 to 2', 'deployment-controller', last=2500)]
    for q in pods:
        n_ = q['spec']['nodeName']
        objs += [scheduled(q, n_, 2479), *started(q, n_, img, 'control-plane', 2476, '4.8s', size=31824510),
                 ev(q, 'Unhealthy', 'Readiness probe failed: Get "http://%s:8080/readyz": dial tcp %s:8080: connect: connection refused' % (q['status']['podIP'], q['status']['podIP']),
                    count=245, first=2450, last=6, host=n_, fieldPath=fp('control-plane'))]
    case('mx-operator-not-ready-forbidden',
         'Running 0/1 for 40 minutes, no restarts: the control plane\'s ServiceAccount cannot list pods in its task namespace, so its informer never syncs and /readyz never listens',
         'https://github.com/neochaotic/leoflow/issues/1085',
         'E0910 22:35:46.130042  reflector.go:227] "Failed to watch" err="failed to list *v1.Pod: pods is forbidden: User \\"system:serviceaccount:lfval:leoflow\\" '
         'cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"leoflow\\""',
         NS + '/' + pn, 'any', objs, decisive='system:serviceaccount:lfval:leoflow',
         mechanism=('rbac-forbidden', [['RoleBinding', 'ClusterRoleBinding']]))


# =====================================================================================
# 24. tls-unknown-authority, Running but not Ready: a self-managed CoreDNS reaches the API with a CA from a Secret
#     made before the cluster's certificates were rotated; its kubernetes plugin never syncs, /ready answers 503; restartCount 0
# =====================================================================================
@register
def coredns_not_ready_unknown_ca():
    names = ['aks-system-27615432-vmss000000', 'aks-system-27615432-vmss000001']
    nodes = [mknode(x, kubelet='v1.30.5', runtime='containerd://1.7.22-1', kernel='5.15.0-1074-azure', os_image='Ubuntu 22.04.5 LTS', ip='10.224.0.%d' % (4 + i),
                    labels={'kubernetes.azure.com/agentpool': 'system', 'kubernetes.azure.com/mode': 'system'}, created=2 * 3600) for i, x in enumerate(names)]
    NS = 'internal-dns'
    img = 'coredns/coredns:1.13.2'
    labels = {'app': 'internal-dns'}
    corefile = ('corp.internal:53 {\n    errors\n    health :8080\n    ready :8181\n    kubernetes corp.internal {\n        endpoint https://aks-prod-dns-5f2e9c1a.hcp.centralus.azmk8s.io:443\n'
                '        tls /etc/coredns/kube/client.crt /etc/coredns/kube/client.key /etc/coredns/kube/ca.crt\n        pods insecure\n    }\n    cache 30\n    reload\n}\n')
    spec = {'serviceAccountName': 'internal-dns',
            'containers': [{'name': 'coredns', 'image': img, 'args': ['-conf', '/etc/coredns/Corefile'], 'ports': [{'name': 'dns', 'containerPort': 53, 'protocol': 'UDP'}],
                            'livenessProbe': {'httpGet': {'path': '/health', 'port': 8080}, 'initialDelaySeconds': 60, 'timeoutSeconds': 5, 'failureThreshold': 5},
                            'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8181}, 'periodSeconds': 10},
                            'volumeMounts': [{'name': 'config', 'mountPath': '/etc/coredns', 'readOnly': True}, {'name': 'kube-tls', 'mountPath': '/etc/coredns/kube', 'readOnly': True}],
                            'resources': {'requests': {'cpu': '100m', 'memory': '70Mi'}, 'limits': {'memory': '170Mi'}}}],
            'volumes': [{'name': 'config', 'configMap': {'name': 'internal-dns', 'items': [{'key': 'Corefile', 'path': 'Corefile'}]}},
                        {'name': 'kube-tls', 'secret': {'secretName': 'internal-dns-kube-tls', 'defaultMode': 420}}]}
    d, rs = deploy('internal-dns', NS, labels, 2, '64f9c7d8b5', spec, ready=0, created=86400 * 400, generation=6)
    rs['status'] = {'replicas': 2, 'fullyLabeledReplicas': 2, 'observedGeneration': 6}
    pods = []
    for i, (sfx, n_) in enumerate((('9xq4t', names[0]), ('c2m7w', names[1]))):
        pn_ = 'internal-dns-64f9c7d8b5-' + sfx
        pods.append(xpod(pn_, NS, n_, spec['containers'], [running('coredns', img, 6950 - i * 40, ready=False)], 6990 - i * 40, sa='internal-dns',
                         owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '64f9c7d8b5'}, spec_extra={'volumes': copy.deepcopy(spec['volumes'])},
                         conditions=conds(6990 - i * 40, False, since=6980 - i * 40, msg='containers with unready status: [coredns]')))
    p = pods[0]; pn = p['metadata']['name']
    werr = ('[ERROR] plugin/kubernetes: Failed to watch: failed to list *v1.%s: Get "https://aks-prod-dns-5f2e9c1a.hcp.centralus.azmk8s.io:443/%s?limit=500&resourceVersion=0": '
            'tls: failed to verify certificate: x509: certificate signed by unknown authority (possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "ca")')
    log = ['[INFO] plugin/kubernetes: waiting for Kubernetes API before starting server', werr % ('Namespace', 'api/v1/namespaces'), werr % ('Service', 'api/v1/services'),
           '[WARNING] plugin/kubernetes: starting server with unsynced Kubernetes API', 'corp.internal.:53', '[INFO] plugin/reload: Running configuration SHA512 = 3a7c5e1f0d9b8a2c4e6f',
           'CoreDNS-1.13.2', 'linux/amd64, go1.25.4, 1db4568']
    for k in range(30):
        log.append('[INFO] plugin/ready: Still waiting on: "kubernetes"')
        if k % 6 == 2:
            log.append(werr % ('EndpointSlice', 'apis/discovery.k8s.io/v1/endpointslices'))
    tls = secret('internal-dns-kube-tls', NS, ['client.crt', 'client.key', 'ca.crt'], created=86400 * 400, type_='kubernetes.io/tls')
    objs = [ns(NS), ns('kube-system'), *nodes, d, rs, *pods, tls, serviceaccount('internal-dns', NS, created=86400 * 400),
            configmap('internal-dns', NS, {'Corefile': corefile}, created=86400 * 400), podlog(NS, pn, 'coredns', log, previous=False),
            service('internal-dns', NS, labels, ports=((53, 53),), created=86400 * 400),
            endpoints('internal-dns', NS, not_ready=[(q['status']['podIP'], q['metadata']['name'], q['spec']['nodeName']) for q in pods], port=53),
            *[kube_proxy(x, version='v1.30.5', created=2 * 3600 - 120) for x in names], *coredns(names, created=2 * 3600 - 100, image='mcr.microsoft.com/oss/kubernetes/coredns:v1.11.3-2', hash_='659fcb445'),
            *[node_event(x, 'Starting', 'Starting kubelet.', last=2 * 3600 - 30, first=2 * 3600 - 30) for x in nodes],
            *[node_event(x, 'NodeReady', 'Node %s status is now: NodeReady' % x['metadata']['name'], last=2 * 3600 - 90, first=2 * 3600 - 90) for x in nodes],
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=6990)]
    for q in pods:
        n_ = q['spec']['nodeName']
        objs += [scheduled(q, n_, 6989), *started(q, n_, img, 'coredns', 6985, '3.3s', size=22385184),
                 ev(q, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', count=694, first=6940, last=8, host=n_, fieldPath=fp('coredns'))]
    case('mx-coredns-not-ready-unknown-ca',
         'Running 0/1 for two hours, no restarts: after the cluster\'s certificate rotation, a self-managed CoreDNS still verifies the API server with the old CA from its Secret',
         'https://github.com/coredns/coredns/issues/5190',
         'Failed to list *v1.Pod: Get [https://hidden.hcp.centralus.azmk8s.io:443/api/v1/pods?...]: x509: certificate signed by unknown authority '
         '(possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "ca")',
         NS + '/' + pn, 'any', objs, decisive='x509: certificate signed by unknown authority',
         mechanism=('tls-unknown-authority', [['CA certificate', 'CA bundle', 'certificate authority', 'ca.crt', 'trust store']]))


# =====================================================================================
# 25. fs-ownership-change in an INIT container: the permissions fixer runs chown as root on an NFS export with root_squash
# =====================================================================================
@register
def init_chown_nfs():
    A = 'node-3.lab.example'; B = 'node-4.lab.example'
    mk = lambda x, ip: mknode(x, kubelet='v1.30.8', runtime='containerd://1.7.24', kernel='6.1.0-28-amd64', os_image='Debian GNU/Linux 12 (bookworm)', ip=ip)
    na = mk(A, '10.10.20.13'); nb = mk(B, '10.10.20.14')
    NS = 'inventory'
    img = 'mongo:7.0.15'; iimg = 'debian:bookworm-slim'
    labels = {'app.kubernetes.io/name': 'inventory-mongo'}
    init = [{'name': 'fix-permissions', 'image': iimg, 'command': ['sh', '-c', 'chown -R 999:999 /data/db'], 'securityContext': {'runAsUser': 0},
             'volumeMounts': [{'name': 'data', 'mountPath': '/data/db'}]}]
    spec = {'initContainers': init,
            'containers': [{'name': 'mongo', 'image': img, 'ports': [{'name': 'mongodb', 'containerPort': 27017}],
                            'volumeMounts': [{'name': 'data', 'mountPath': '/data/db'}], 'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '2Gi'}}}]}
    s_ = sts('inventory-mongo', NS, labels, 1, spec, 0, created=1900, claims=[vct('data', '50Gi', 'nfs-csi')])
    pn = 'inventory-mongo-0'
    ist = [{'name': 'fix-permissions', 'ready': False, 'started': False, 'restartCount': 6, 'image': 'docker.io/library/' + iimg, 'imageID': imgid('docker.io/library/' + iimg),
            'state': {'waiting': {'reason': 'CrashLoopBackOff', 'message': 'back-off 5m0s restarting failed container=fix-permissions pod=%s_%s(%s)' % (pn, NS, uid('pod' + NS + pn))}},
            'lastState': term(1, 'Error', 160, 160, seed='fp6')}]
    main = waiting('mongo', img, 'PodInitializing', pulled=False)
    p = xpod(pn, NS, A, spec['containers'], [main], 1880, owner=('StatefulSet', 'inventory-mongo'), labels=sts_labels(s_, 0), init=init, init_statuses=ist, phase='Pending',
             spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-' + pn}}], 'hostname': pn, 'subdomain': 'inventory-mongo-headless'},
             conditions=conds(1880, False, since=1870, msg='containers with unready status: [mongo]', initialized=False), host_ip='10.10.20.13')
    p['status']['conditions'][1]['message'] = 'containers with incomplete status: [fix-permissions]'
    log = ["chown: changing ownership of '/data/db': Operation not permitted"]
    sc = storageclass('nfs-csi', 'nfs.csi.k8s.io', 'Immediate', default=True, params={'server': 'nas01.lab.example', 'share': '/export/k8s'})
    sc['mountOptions'] = ['nfsvers=4.1']
    pvn = 'pvc-8c0e2a4b-6d8f-4a1c-9e3b-5d7f9a1c3e5b'
    c_ = claim('data-' + pn, NS, 'nfs-csi', 'Bound', '50Gi', volume=pvn, created=1900, provisioner='nfs.csi.k8s.io')
    v_ = vol(pvn, c_, driver='nfs.csi.k8s.io', handle='nas01.lab.example#export/k8s#%s##' % pvn, size='50Gi', storage_class='nfs-csi')
    v_['spec']['csi']['volumeAttributes'] = {'server': 'nas01.lab.example', 'share': '/export/k8s', 'subdir': pvn}
    v_['spec']['mountOptions'] = ['nfsvers=4.1']
    ctl = daemonset('csi-nfs-node', 'kube-system', {'app': 'csi-nfs-node'}, 2, 2, {'hostNetwork': True, 'containers': [{'name': 'nfs', 'image': 'registry.k8s.io/sig-storage/nfsplugin:v4.9.0'}]})
    objs = [ns(NS), ns('kube-system'), na, nb, sc, c_, v_, s_, p, podlog(NS, pn, 'fix-permissions', log, previous=True), ctl,
            *[ds_pod(ctl, x, 'registry.k8s.io/sig-storage/nfsplugin:v4.9.0', 'nfs', 86400 * 50) for x in (A, B)],
            kube_proxy(A, version='v1.30.8'), kube_proxy(B, version='v1.30.8'), *coredns([A, B]),
            ctrl_ev(s_, 'SuccessfulCreate', 'create Claim data-%s Pod %s in StatefulSet inventory-mongo success' % (pn, pn), 'statefulset-controller', last=1881),
            ctrl_ev(s_, 'SuccessfulCreate', 'create Pod %s in StatefulSet inventory-mongo successful' % pn, 'statefulset-controller', last=1880),
            ctrl_ev(c_, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvn, 'nfs.csi.k8s.io_csi-nfs-controller-7c8b9d6f5d-q2wlz_4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d', last=1878),
            scheduled(p, A, 1876), *started(p, A, iimg, 'fix-permissions', 1870, '3.9s', size=28227559, init=True),
            *restarted(p, A, iimg, 'fix-permissions', 6, 1800, 161, init=True), backoff(p, A, 'fix-permissions', 33, 1780, 15, init=True)]
    case('mx-init-chown-nfs-root-squash',
         'Init:CrashLoopBackOff: the init container that chowns the MongoDB data directory runs as root on an NFS export, where root_squash maps root to nobody',
         'https://github.com/docker-library/mongo/issues/127',
         "chown: changing ownership of '/data/db': Operation not permitted",
         NS + '/' + pn, 'any', objs, decisive="chown: changing ownership of '/data/db': Operation not permitted",
         mechanism=('fs-ownership-change', [['NFS'], ['root_squash', 'no_root_squash', 'all_squash']]))


# =====================================================================================
# 26. Job BackoffLimitExceeded: the nightly report's parallel query needs more than the database pod's 64 MiB /dev/shm
# =====================================================================================
@register
def job_report_shm():
    A = 'gke-analytics-default-9a1c3e5f-2kqp'; B = 'gke-analytics-default-9a1c3e5f-x7wd'
    mk = lambda x, ip: mknode(x, kubelet='v1.30.5-gke.1713000', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip=ip,
                              labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'europe-west1-b'})
    na = mk(A, '10.132.0.21'); nb = mk(B, '10.132.0.22')
    NS = 'analytics'
    pgimg = 'postgres:15.8'
    dspec = {'containers': [{'name': 'postgres', 'image': pgimg, 'env': [{'name': 'POSTGRES_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'analytics-db', 'key': 'password'}}},
                                                                        {'name': 'PGDATA', 'value': '/var/lib/postgresql/data/pgdata'}],
                             'args': ['-c', 'shared_buffers=2GB', '-c', 'work_mem=64MB', '-c', 'max_parallel_workers_per_gather=4'],
                             'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/postgresql/data'}],
                             'resources': {'requests': {'cpu': '2', 'memory': '8Gi'}, 'limits': {'memory': '8Gi'}}}]}
    dbs = sts('analytics-db', NS, {'app': 'analytics-db'}, 1, dspec, 1, created=86400 * 200, claims=[vct('data', '500Gi', 'premium-rwo')])
    db = xpod('analytics-db-0', NS, B, dspec['containers'], [running('postgres', pgimg, 86400 * 11)], 86400 * 11, owner=('StatefulSet', 'analytics-db'), labels=sts_labels(dbs, 0),
              spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-analytics-db-0'}}], 'hostname': 'analytics-db-0', 'subdomain': 'analytics-db-headless'})
    dblog = []
    for k, t_ in enumerate((1720, 1330, 905)):
        when = ts(t_, '%Y-%m-%d %H:%M:%S.%f')[:-3] + ' UTC'
        dblog += ['%s [%d] ERROR:  could not resize shared memory segment "/PostgreSQL.%d" to 8409088 bytes: No space left on device' % (when, 4117 + k * 37, 412969521 + k * 7919),
                  '%s [%d] STATEMENT:  INSERT INTO report.daily_revenue SELECT o.region, date_trunc(\'day\', o.created_at), sum(l.amount) FROM orders o JOIN order_lines l USING (order_id) '
                  'WHERE o.created_at >= now() - interval \'400 days\' GROUP BY 1, 2;' % (when, 4117 + k * 37)]
    dblog += ['%s [68] LOG:  checkpoint starting: time' % (ts(600, '%Y-%m-%d %H:%M:%S.%f')[:-3] + ' UTC'),
              '%s [68] LOG:  checkpoint complete: wrote 2214 buffers (0.8%%); 0 WAL file(s) added, 0 removed, 1 recycled; write=269.810 s, sync=0.012 s, total=269.851 s' % (ts(330, '%Y-%m-%d %H:%M:%S.%f')[:-3] + ' UTC')]
    img = 'europe-docker.pkg.dev/acme-analytics/jobs/report-runner:2.8.0'
    tmpl = {'restartPolicy': 'Never', 'containers': [{'name': 'report', 'image': img, 'command': ['psql', '-v', 'ON_ERROR_STOP=1', '-f', '/sql/daily_revenue.sql'],
                                                      'env': [{'name': 'PGHOST', 'value': 'analytics-db'}, {'name': 'PGUSER', 'value': 'reporter'},
                                                              {'name': 'PGPASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'analytics-db', 'key': 'reporter-password'}}}],
                                                      'volumeMounts': [{'name': 'sql', 'mountPath': '/sql'}], 'resources': {'requests': {'cpu': '100m', 'memory': '64Mi'}}}],
            'volumes': [{'name': 'sql', 'configMap': {'name': 'daily-revenue-sql'}}]}
    cj = workload('CronJob', 'daily-revenue', NS, {'app': 'daily-revenue'}, template_spec=tmpl)
    cj['metadata']['creationTimestamp'] = ago(86400 * 90)
    cj['spec'] = {'schedule': '30 9 * * *', 'concurrencyPolicy': 'Forbid', 'suspend': False, 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
                  'jobTemplate': {'spec': {'backoffLimit': 2, 'template': {'metadata': {'labels': {'app': 'daily-revenue'}}, 'spec': tmpl}}}}
    jn = 'daily-revenue-29891610'
    j = workload('Job', jn, NS, {'app': 'daily-revenue'}, template_spec=tmpl)
    owned_by(j, cj)
    failed_at = 900
    j['metadata'].update({'creationTimestamp': ago(1800), 'labels': {'app': 'daily-revenue', 'batch.kubernetes.io/job-name': jn, 'batch.kubernetes.io/controller-uid': j['metadata']['uid']}})
    j['spec'].update({'backoffLimit': 2, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False, 'podReplacementPolicy': 'TerminatingOrFailed',
                      'selector': {'matchLabels': {'batch.kubernetes.io/controller-uid': j['metadata']['uid']}}})
    j['status'] = {'startTime': ago(1800), 'failed': 3, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
                   'conditions': [{'type': 'FailureTarget', 'status': 'True', 'reason': 'BackoffLimitExceeded', 'message': 'Job has reached the specified backoff limit', 'lastProbeTime': ago(failed_at), 'lastTransitionTime': ago(failed_at)},
                                  {'type': 'Failed', 'status': 'True', 'reason': 'BackoffLimitExceeded', 'message': 'Job has reached the specified backoff limit', 'lastProbeTime': ago(failed_at - 1), 'lastTransitionTime': ago(failed_at - 1)}]}
    cj['status'] = {'lastScheduleTime': ago(1800), 'lastSuccessfulTime': ago(86400 * 3 + 1200)}
    jl = {'app': 'daily-revenue', 'batch.kubernetes.io/controller-uid': j['metadata']['uid'], 'batch.kubernetes.io/job-name': jn, 'controller-uid': j['metadata']['uid'], 'job-name': jn}
    pods, evs = [], []
    for k, (sfx, start, end, n_) in enumerate((('4mxkz', 1790, 1720, A), ('qj7sd', 1700, 1330, A), ('b8wtn', 1300, 905, B))):
        pn_ = '%s-%s' % (jn, sfx)
        st = {'name': 'report', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(pn_),
              'state': {'terminated': {'exitCode': 3, 'reason': 'Error', 'startedAt': ago(start), 'finishedAt': ago(end), 'containerID': cid(pn_)}}}
        q = xpod(pn_, NS, n_, tmpl['containers'], [st], start + 8, owner=('Job', jn), labels=dict(jl), phase='Failed', spec_extra={'restartPolicy': 'Never', 'volumes': copy.deepcopy(tmpl['volumes'])},
                 conditions=[{'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(end - 1)},
                             {'type': 'Initialized', 'status': 'True', 'lastTransitionTime': ago(start + 6)},
                             {'type': 'Ready', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(end)},
                             {'type': 'ContainersReady', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(end)},
                             {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(start + 7)}])
        pods.append(q)
        evs += [ctrl_ev(j, 'SuccessfulCreate', 'Created pod: %s' % pn_, 'job-controller', last=start + 8), scheduled(q, n_, start + 7),
                *started(q, n_, img, 'report', start + 5, present=k > 0 or n_ != A)]
    p = pods[-1]; pn = p['metadata']['name']
    log = ['SET', 'SET', 'BEGIN', 'DELETE 18214', 'SET',
           'psql:/sql/daily_revenue.sql:41: ERROR:  could not resize shared memory segment "/PostgreSQL.412985359" to 8409088 bytes: No space left on device',
           'CONTEXT:  parallel worker']
    objs = [ns(NS), ns('kube-system'), na, nb, dbs, db, podlog(NS, 'analytics-db-0', 'postgres', dblog, previous=False), cj, j, *pods, podlog(NS, pn, 'report', log, previous=False),
            secret('analytics-db', NS, ['password', 'reporter-password'], created=86400 * 200),
            configmap('daily-revenue-sql', NS, {'daily_revenue.sql': '\\set ON_ERROR_STOP on\nSET statement_timeout = 0;\n...\n'}, created=86400 * 90),
            service('analytics-db', NS, {'app': 'analytics-db'}, ports=((5432, 5432),), created=86400 * 200),
            endpoints('analytics-db', NS, ready=[(db['status']['podIP'], 'analytics-db-0', B)], port=5432),
            kube_proxy(A, version='v1.30.5-gke.1713000'), kube_proxy(B, version='v1.30.5-gke.1713000'), *coredns([A, B], image='gke.gcr.io/coredns/coredns:v1.11.3-gke.3'),
            ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jn, 'cronjob-controller', last=1800),
            ctrl_ev(cj, 'SawCompletedJob', 'Saw completed job: %s, condition: Failed' % jn, 'cronjob-controller', last=failed_at - 2),
            ctrl_ev(j, 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', 'job-controller', 'Warning', last=failed_at - 1), *evs]
    case('mx-job-report-dev-shm',
         'Job failed (BackoffLimitExceeded): the nightly report\'s parallel query fails in the database pod, whose /dev/shm is the runtime\'s 64 MiB default',
         'https://github.com/CrunchyData/postgres-operator/issues/1358',
         'ERROR:  could not resize shared memory segment "/PostgreSQL.412969521" to 8409088 bytes: No space left on device',
         NS + '/' + pn, 'job.backoff-limit-exceeded', objs, decisive='could not resize shared memory segment',
         mechanism=('shm-exhausted', [['/dev/shm'], ['emptyDir']]))


# =====================================================================================
# N1. negative: a Kafka broker Ready for five days; at start the JVM warned it cannot open its GC log (permission denied) and runs without it
# =====================================================================================
@register
def neg_kafka_gc_log_denied():
    names = ['ocp-worker-%d.apps.example' % i for i in (1, 2, 3)]
    nodes = [mknode(x, kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.14.0-427.42.1.el9_4.x86_64', os_image='Rocky Linux 9.4 (Blue Onyx)', ip='10.30.1.%d' % (11 + i))
             for i, x in enumerate(names)]
    NS = 'streaming'
    img = 'confluentinc/cp-kafka:4.0.0'
    labels = {'app': 'kafka'}
    spec = {'securityContext': {'runAsUser': 1000, 'fsGroup': 1000},
            'containers': [{'name': 'kafka', 'image': img, 'ports': [{'name': 'broker', 'containerPort': 9092}],
                            'env': [{'name': 'KAFKA_ZOOKEEPER_CONNECT', 'value': 'zookeeper:2181'}, {'name': 'KAFKA_HEAP_OPTS', 'value': '-Xms1g -Xmx1g'}],
                            'readinessProbe': {'tcpSocket': {'port': 9092}, 'periodSeconds': 10},
                            'volumeMounts': [{'name': 'datadir', 'mountPath': '/var/lib/kafka'}],
                            'resources': {'requests': {'cpu': '500m', 'memory': '2Gi'}, 'limits': {'memory': '2Gi'}}}]}
    s_ = sts('kafka', NS, labels, 3, spec, 3, created=86400 * 60, claims=[vct('datadir', '100Gi', 'thin-csi')])
    up = 86400 * 5 + 3100
    pods = []
    for i, n_ in enumerate(names):
        pn_ = 'kafka-%d' % i
        pods.append(xpod(pn_, NS, n_, spec['containers'], [running('kafka', img, up - 40 - 90 * i)], up - 90 * i, owner=('StatefulSet', 'kafka'), labels=sts_labels(s_, i),
                         spec_extra={'volumes': [{'name': 'datadir', 'persistentVolumeClaim': {'claimName': 'datadir-' + pn_}}], 'securityContext': dict(spec['securityContext']),
                                     'hostname': pn_, 'subdomain': 'kafka-headless'}, conditions=conds(up - 90 * i, True, since=up - 90 * i - 70)))
    p = pods[0]; pn = 'kafka-0'
    t = lambda s__: '[%s]' % ts(s__, '%Y-%m-%d %H:%M:%S,%f')[:-3]
    log = ['OpenJDK 64-Bit Server VM warning: Cannot open file /var/log/kafka/kafkaServer-gc.log due to Permission denied', '',
           '%s INFO KafkaConfig values: ' % t(up - 45), '\tadvertised.listeners = PLAINTEXT://kafka-0.kafka-headless.streaming.svc.cluster.local:9092', '\tbroker.id = 0',
           '\tlog.dirs = /var/lib/kafka/data', '\tzookeeper.connect = zookeeper:2181', ' (kafka.server.KafkaConfig)',
           '%s INFO starting (kafka.server.KafkaServer)' % t(up - 44), '%s INFO Connecting to zookeeper on zookeeper:2181 (kafka.server.KafkaServer)' % t(up - 44),
           '%s INFO [ZooKeeperClient] Connected. (kafka.zookeeper.ZooKeeperClient)' % t(up - 43),
           '%s INFO Loading logs. (kafka.log.LogManager)' % t(up - 42), '%s INFO Logs loading complete in 2814 ms. (kafka.log.LogManager)' % t(up - 39),
           '%s INFO [KafkaServer id=0] started (kafka.server.KafkaServer)' % t(up - 36)]
    for k in range(12):
        log.append('%s INFO [GroupMetadataManager brokerId=0] Removed 0 expired offsets in 1 milliseconds. (kafka.coordinator.group.GroupMetadataManager)' % t(36000 * (12 - k) // 3))
    log.append('%s INFO [Log partition=orders-7, dir=/var/lib/kafka/data] Rolled new log segment at offset 48213377 in 1 ms. (kafka.log.Log)' % t(420))
    zimg = 'confluentinc/cp-zookeeper:4.0.0'
    zk = [xpod('zookeeper-%d' % i, NS, names[i], [{'name': 'zookeeper', 'image': zimg}], [running('zookeeper', zimg, 86400 * 20)], 86400 * 20, owner=('StatefulSet', 'zookeeper'),
               labels={'app': 'zookeeper', 'statefulset.kubernetes.io/pod-name': 'zookeeper-%d' % i}) for i in range(3)]
    pvn = 'pvc-1f3b5d7a-9c2e-4b6d-8f0a-2c4e6a8b0d1f'
    c_ = claim('datadir-kafka-0', NS, 'thin-csi', 'Bound', '100Gi', volume=pvn, created=86400 * 60, provisioner='csi.vsphere.vmware.com')
    objs = [ns(NS), ns('kube-system'), *nodes, s_, *pods, *zk, c_, vol(pvn, c_, driver='csi.vsphere.vmware.com', handle='file:' + hexid(pvn, 32), size='100Gi', storage_class='thin-csi'),
            podlog(NS, pn, 'kafka', log, previous=False),
            service('kafka-headless', NS, labels, ports=((9092, 9092),), created=86400 * 60),
            endpoints('kafka-headless', NS, ready=[(q['status']['podIP'], q['metadata']['name'], q['spec']['nodeName']) for q in pods], port=9092),
            *[kube_proxy(x, version='v1.29.10') for x in names], *coredns(names)]
    case('mx-neg-kafka-gc-log-denied',
         'Healthy: a Kafka broker Ready for five days; its log opens with the JVM warning that it cannot write its GC log (permission denied), and it runs without GC logging',
         'https://github.com/confluentinc/cp-docker-images/pull/407',
         'OpenJDK 64-Bit Server VM warning: Cannot open file /var/log/kafka/kafkaServer-gc.log due to Permission denied',
         NS + '/' + pn, None, objs)


# =====================================================================================
# N2. negative: a ThingsBoard node up for four days; its only restart, four days ago, followed a burst of "Too many open files"
# =====================================================================================
@register
def neg_old_restart_too_many_open_files():
    A = 'tb-k8s-worker-1'; B = 'tb-k8s-worker-2'
    mk = lambda x, ip: mknode(x, kubelet='v1.31.3', runtime='containerd://1.7.24', kernel='6.8.0-49-generic', os_image='Ubuntu 24.04.1 LTS', ip=ip)
    na = mk(A, '10.50.0.21'); nb = mk(B, '10.50.0.22')
    NS = 'thingsboard'
    img = 'thingsboard/tb-node:3.8.1'
    labels = {'app': 'tb-node'}
    spec = {'containers': [{'name': 'server', 'image': img, 'ports': [{'name': 'http', 'containerPort': 8080}, {'name': 'mqtt', 'containerPort': 1883}],
                            'env': [{'name': 'TB_SERVICE_ID', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}}, {'name': 'TB_QUEUE_TYPE', 'value': 'kafka'}],
                            'livenessProbe': {'httpGet': {'path': '/login', 'port': 8080}, 'initialDelaySeconds': 300, 'periodSeconds': 10, 'failureThreshold': 3},
                            'readinessProbe': {'httpGet': {'path': '/login', 'port': 8080}, 'periodSeconds': 10},
                            'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}, 'limits': {'memory': '4Gi'}}}]}
    s_ = sts('tb-node', NS, labels, 2, spec, 2, created=86400 * 120)
    since = 86400 * 4 + 7300
    pods = []
    for i, n_ in enumerate((A, B)):
        pn_ = 'tb-node-%d' % i
        st = running('server', img, since if i == 0 else 86400 * 30, restarts=1 if i == 0 else 0,
                     last=term(137, 'Error', 86400 * 30 - 40, since + 5, seed='tb1') if i == 0 else None)
        pods.append(xpod(pn_, NS, n_, spec['containers'], [st], 86400 * 30, owner=('StatefulSet', 'tb-node'), labels=sts_labels(s_, i),
                         spec_extra={'hostname': pn_, 'subdomain': 'tb-node'}, conditions=conds(86400 * 30, True, since=since - 320 if i == 0 else 86400 * 30 - 340)))
    p = pods[0]; pn = 'tb-node-0'
    tt = lambda s__: ts(s__, '%Y-%m-%d %H:%M:%S,%f')[:-3]
    prev = ['%s [nioEventLoopGroup-2-1] INFO  o.t.s.t.mqtt.MqttTransportHandler - [%s] Processing connect msg for client: gw-%04d!' % (tt(since + 900 - k), uid('mq%d' % k), k) for k in range(6)]
    for k in range(8):
        prev += ['%s [nioEventLoopGroup-2-1] WARN  i.n.channel.DefaultChannelPipeline - An exceptionCaught() event was fired, and it reached at the tail of the pipeline. '
                 'It usually means the last handler in the pipeline did not handle the exception.' % tt(since + 600 - 40 * k),
                 'java.io.IOException: Too many open files', '\tat java.base/sun.nio.ch.ServerSocketChannelImpl.accept0(Native Method)',
                 '\tat java.base/sun.nio.ch.ServerSocketChannelImpl.accept(ServerSocketChannelImpl.java:425)',
                 '\tat io.netty.channel.socket.nio.NioServerSocketChannel.doReadMessages(NioServerSocketChannel.java:154)']
    prev.append('%s [SpringApplicationShutdownHook] INFO  o.t.s.s.q.DefaultTbClusterService - Stopping ThingsBoard cluster service...' % tt(since + 8))
    cur = ['%s [main] INFO  o.t.server.ThingsboardServerApplication - Started ThingsboardServerApplication in 41.527 seconds (process running for 44.09)' % tt(since - 300)]
    cur += ['%s [sql-queue-0-ts-28-thread-1] INFO  o.t.s.d.s.SqlBlockingQueue - [TS] queueSize [0] totalAdded [%d] totalSaved [%d] totalFailed [0]' % (tt(600 * (40 - k)), 18000 + 311 * k, 18000 + 311 * k)
            for k in range(40)]
    kimg = 'bitnami/kafka:3.7.1'
    kf = xpod('tb-kafka-0', NS, B, [{'name': 'kafka', 'image': kimg}], [running('kafka', kimg, 86400 * 30)], 86400 * 30, owner=('StatefulSet', 'tb-kafka'),
              labels={'app': 'tb-kafka', 'statefulset.kubernetes.io/pod-name': 'tb-kafka-0'})
    objs = [ns(NS), ns('kube-system'), na, nb, s_, *pods, kf, podlog(NS, pn, 'server', prev, previous=True), podlog(NS, pn, 'server', cur, previous=False),
            service('tb-node', NS, labels, ports=((8080, 8080), (1883, 1883)), created=86400 * 120),
            endpoints('tb-node', NS, ready=[(q['status']['podIP'], q['metadata']['name'], q['spec']['nodeName']) for q in pods], port=8080),
            kube_proxy(A, version='v1.31.3'), kube_proxy(B, version='v1.31.3'), *coredns([A, B])]
    case('mx-neg-old-restart-too-many-open-files',
         'Healthy: tb-node-0 Ready for four days; its one restart, four days ago, followed a burst of "Too many open files" in the MQTT transport, not seen since',
         'https://github.com/thingsboard/thingsboard/issues/2202',
         'java.io.IOException: Too many open files',
         NS + '/' + pn, None, objs)


if __name__ == '__main__':
    for f in CASES:
        f()
    print('wrote %d cases' % len(CASES))
