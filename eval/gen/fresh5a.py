# Evaluation corpus, FRESH5 split, author A (slug prefix f5a-): public incidents written blind, by an
# author who saw only issue 32's text, the case schema and the authoring helpers (never the rules'
# code, their tests, or the other generators' incidents beyond their names).
# Sixteen cases: six classes no rule names (expect.first: any, mechanism terms taken from each
# report's resolution), five named classes in shapes the corpus did not have (containerd 2.x pull
# wording, native gRPC probes, an uninitialized cloud-provider taint, a .NET host on a read-only root,
# a sidecar losing its port to an ephemeral source port), five healthy pods with the noise their
# reports call harmless. Incidents come from repositories whose owner starts with a-m.
# Each expectation was decided from its report before the dump was written and is never changed to
# change a verdict. Run: python3 eval/gen/fresh5a.py (writes eval/corpus/f5a-*/)
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh2 import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, set_status, with_api, noise, sts, unhealthy, crio, ...)
from fresh2 import _strings
from blind import make_case

SPLIT = 'fresh5'
sev5 = make_sev('f5asev', 151007, 53)


case = make_case('f5a-', SPLIT)


CASES5 = []
def reg(f):
    CASES5.append(f)
    return f


# ---------------------------------------------------------------- helpers (this file only)
def done_init(name, image, started_at, finished_at, seed):
    return {'name': name, 'ready': True, 'started': False, 'restartCount': 0, 'image': image, 'imageID': imgid(image),
            'containerID': cid(seed), 'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(started_at), 'finishedAt': ago(finished_at), 'containerID': cid(seed)}}}


def killing(p, node_name, cname, msg, count, first, last):
    return ev(p, 'Killing', msg, 'Normal', count=count, first=first, last=last, host=node_name, fieldPath=fp(cname))


def T(s, fmt='%Y-%m-%d %H:%M:%S'):
    return ts(s, fmt)


def node_hugepages(n, size='2Gi'):
    n['status']['capacity']['hugepages-2Mi'] = size
    n['status']['allocatable']['hugepages-2Mi'] = size
    n['status']['capacity']['hugepages-1Gi'] = '0'
    n['status']['allocatable']['hugepages-1Gi'] = '0'
    return n


# =====================================================================================
# M1. mechanism: Postgres initdb dies with SIGBUS: the node has huge pages, the pod has no hugepages
#     limit, and initdb runs with huge_pages=try (Harbor's database StatefulSet, SPDK storage nodes)
# =====================================================================================
@reg
def harbor_db_hugepages():
    ns_ = 'harbor'
    kv = 'v1.29.10'
    nodes = [node_hugepages(mknode('stor-%02d' % i, kubelet=kv, runtime='containerd://1.7.22', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS',
                                   labels={'openebs.io/engine': 'mayastor'})) for i in (1, 2, 3)]
    nn = 'stor-02'
    img = 'goharbor/harbor-db:v2.10.2'
    labels = {'app': 'harbor', 'component': 'database', 'release': 'harbor'}
    init = [{'name': 'data-migrator', 'image': img, 'command': ['/bin/sh'], 'args': ['-c', '[ -e /var/lib/postgresql/data/postgresql.conf ] && [ ! -d /var/lib/postgresql/data/pgdata ] && mkdir -m 0700 /var/lib/postgresql/data/pgdata && mv /var/lib/postgresql/data/* /var/lib/postgresql/data/pgdata/ || true'],
             'volumeMounts': [{'name': 'database-data', 'mountPath': '/var/lib/postgresql/data', 'subPath': ''}]},
            {'name': 'data-permissions-ensurer', 'image': img, 'command': ['/bin/sh'], 'args': ['-c', 'chmod -R 700 /var/lib/postgresql/data/pgdata || true'],
             'volumeMounts': [{'name': 'database-data', 'mountPath': '/var/lib/postgresql/data', 'subPath': ''}]}]
    c = {'name': 'database', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'PGDATA', 'value': '/var/lib/postgresql/data/pgdata'}, {'name': 'POSTGRES_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'harbor-database', 'key': 'POSTGRES_PASSWORD'}}}],
         'livenessProbe': {'exec': {'command': ['/docker-healthcheck.sh']}, 'initialDelaySeconds': 300, 'periodSeconds': 10, 'timeoutSeconds': 1},
         'readinessProbe': {'exec': {'command': ['/docker-healthcheck.sh']}, 'initialDelaySeconds': 1, 'periodSeconds': 10, 'timeoutSeconds': 1},
         'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}},
         'volumeMounts': [{'name': 'database-data', 'mountPath': '/var/lib/postgresql/data'}, {'name': 'shm-volume', 'mountPath': '/dev/shm'}]}
    containers, vols = with_api([c], [{'name': 'shm-volume', 'emptyDir': {'medium': 'Memory', 'sizeLimit': '512Mi'}},
                                      {'name': 'database-data', 'persistentVolumeClaim': {'claimName': 'database-data-harbor-database-0'}}], 'harbor-db')
    spec = {'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'runAsUser': 999, 'fsGroup': 999}}
    ss = sts('harbor-database', ns_, labels, 1, spec, ready=0, created=1800, service='harbor-database')
    created = 1750
    p = mkpod('harbor-database-0', ns_, nn, containers, [running('database', img, 60)], created, owner=('StatefulSet', 'harbor-database'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'harbor-database-0'}, init=init,
              spec_extra={'volumes': vols, 'securityContext': {'runAsUser': 999, 'fsGroup': 999}, 'hostname': 'harbor-database-0', 'subdomain': 'harbor-database'})
    set_status(p, [clbo(p, 'database', img, 7, term(1, 'Error', 170, 166, seed='hdb-7'))], created,
               init_statuses=[done_init('data-migrator', img, created - 20, created - 19, 'hdb-i1'), done_init('data-permissions-ensurer', img, created - 18, created - 17, 'hdb-i2')])
    log = ['init DB, DB version:14',
           'The files belonging to this database system will be owned by user "postgres".',
           'This user must also own the server process.',
           '',
           'The database cluster will be initialized with locale "en_US.UTF-8".',
           'The default database encoding has accordingly been set to "UTF8".',
           'The default text search configuration will be set to "english".',
           '',
           'Data page checksums are disabled.',
           '',
           'fixing permissions on existing directory /var/lib/postgresql/data/pgdata/pg14 ... ok',
           'creating subdirectories ... ok',
           'selecting dynamic shared memory implementation ... posix',
           'selecting default max_connections ... 20',
           'selecting default shared_buffers ... 400kB',
           'selecting default time zone ... Etc/UTC',
           'creating configuration files ... ok',
           'running bootstrap script ... child process was terminated by signal 7: Bus error',
           'initdb: removing data directory "/var/lib/postgresql/data/pgdata/pg14"']
    io_img = 'docker.io/openebs/mayastor-io-engine:v2.7.1'
    io_pods = []
    for n in nodes:
        nm = n['metadata']['name']
        ip_ = mkpod('openebs-io-engine-' + hexid('io' + nm, 5), 'openebs', nm,
                    [{'name': 'io-engine', 'image': io_img, 'resources': {'limits': {'cpu': '2', 'memory': '1Gi', 'hugepages-2Mi': '2Gi'}, 'requests': {'cpu': '2', 'memory': '1Gi', 'hugepages-2Mi': '2Gi'}}}],
                    [running('io-engine', io_img, 86400 * 9)], 86400 * 9, owner=('DaemonSet', 'openebs-io-engine'), labels={'app': 'io-engine'}, spec_extra={'hostNetwork': True})
        io_pods.append(ip_)
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'data-migrator', created - 5, size=120411993, init=True) + \
          started(p, nn, img, 'data-permissions-ensurer', created - 17, present=True, init=True) + started(p, nn, img, 'database', created - 19, present=True) + \
          restarted(p, nn, img, 'database', 7, created - 80, 170) + [backoff(p, nn, 'database', 33, created - 120, 9)]
    pv_name = 'pvc-' + uid('hdb-pv')
    objs = [ns(ns_), ns('openebs')] + nodes + [ss, p, claim('database-data-harbor-database-0', ns_, 'mayastor-3', 'Bound', '10Gi', volume=pv_name, provisioner='io.openebs.csi-mayastor', created=1800),
            secret('harbor-database', ns_, ['POSTGRES_PASSWORD']), service('harbor-database', ns_, labels, ports=((5432, 5432),))] + io_pods + evs + \
           [podlog(ns_, 'harbor-database-0', 'database', log)] + noise(nodes[:2], kv)
    case('f5a-harbor-db-initdb-hugepages-sigbus', "Harbor's Postgres crash-loops in initdb with SIGBUS: the nodes reserve huge pages for SPDK storage and the pod has no hugepages limit",
         'https://github.com/goharbor/harbor-helm/issues/1657', 'running bootstrap script ... child process was terminated by signal 7: Bus error',
         '%s/harbor-database-0' % ns_, 'any', objs, decisive='child process was terminated by signal 7: Bus error', playbook=None,
         terms=[['huge page', 'hugepage', 'huge_pages', 'HugePages'], ['huge_pages', 'hugepages-2Mi', 'hugepages-1Gi', 'nr_hugepages']])


# =====================================================================================
# M2. mechanism: execve refused (EPERM): the caddy binary carries the file capability
#     cap_net_bind_service=ep and the restricted securityContext drops every capability
# =====================================================================================
@reg
def caddy_file_caps():
    ns_ = 'caddy-system'
    kv = 'v1.31.2'
    n1 = mknode('k8s-w1', kubelet=kv, runtime='containerd://2.0.0', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    n2 = mknode('k8s-w2', kubelet=kv, runtime='containerd://2.0.0', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'ghcr.io/caddyserver/gateway:caddy-2.8.4'
    gw_img = 'ghcr.io/caddyserver/gateway:v0.1.0'
    labels = {'app.kubernetes.io/name': 'caddy', 'app.kubernetes.io/instance': 'caddy-gateway'}
    sc = {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 1000, 'runAsGroup': 1000,
          'seccompProfile': {'type': 'RuntimeDefault'}}
    c = {'name': 'caddy', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['run', '--resume'],
         'ports': [{'containerPort': 8080, 'name': 'http'}, {'containerPort': 8443, 'name': 'https'}, {'containerPort': 2021, 'name': 'admin'}],
         'securityContext': copy.deepcopy(sc), 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '256Mi'}},
         'volumeMounts': [{'name': 'config', 'mountPath': '/config'}, {'name': 'data', 'mountPath': '/data'}, {'name': 'tls', 'mountPath': '/var/run/tls', 'readOnly': True}]}
    containers, vols = with_api([c], [{'name': 'config', 'emptyDir': {}}, {'name': 'data', 'emptyDir': {}}, {'name': 'tls', 'secret': {'secretName': 'caddy-gateway-mtls'}}], 'caddy')
    spec = {'serviceAccountName': 'caddy', 'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'runAsNonRoot': True, 'fsGroup': 1000}}
    d, rs = deploy('caddy', ns_, labels, 1, '5d8f7c9b64', spec, ready=0, created=1500, generation=1)
    created = 1400
    p = mkpod('caddy-5d8f7c9b64-x2kqz', ns_, 'k8s-w2', containers, [running('caddy', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5d8f7c9b64'}, sa='caddy', spec_extra={'volumes': vols, 'securityContext': {'runAsNonRoot': True, 'fsGroup': 1000}})
    set_status(p, [clbo(p, 'caddy', img, 7, term(1, 'Error', 154, 154, seed='caddy-7'))], created)
    gsc = copy.deepcopy(sc)
    gw = mkpod('caddy-gateway-6f9c8d7b5-8wvtn', ns_, 'k8s-w1', [{'name': 'gateway', 'image': gw_img, 'securityContext': gsc}], [running('gateway', gw_img, 1480)], 1490,
               owner=('ReplicaSet', 'caddy-gateway-6f9c8d7b5'), labels={'app.kubernetes.io/name': 'caddy-gateway', 'pod-template-hash': '6f9c8d7b5'}, sa='caddy-gateway')
    gw_log = ['{"level":"info","ts":"%s","logger":"setup","msg":"starting manager"}' % ts(1478),
              '{"level":"info","ts":"%s","msg":"Starting EventSource","controller":"gateway","source":"kind source: *v1.Gateway"}' % ts(1477),
              '{"level":"error","ts":"%s","msg":"Reconciler error","controller":"gateway","Gateway":{"name":"caddy","namespace":"caddy-system"},"error":"failed to program caddy: no ready caddy pods found"}' % ts(40)]
    nn = 'k8s-w2'
    ns_obj = ns(ns_, meta={'labels': {'kubernetes.io/metadata.name': ns_, 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest'}})
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'caddy', created - 4, size=19842117) + restarted(p, nn, img, 'caddy', 7, created - 50, 154) + \
          [backoff(p, nn, 'caddy', 30, created - 80, 14)]
    objs = [ns_obj, n1, n2, d, rs, p, gw, serviceaccount('caddy', ns_), serviceaccount('caddy-gateway', ns_), secret('caddy-gateway-mtls', ns_, ['tls.crt', 'tls.key', 'ca.crt'], type_='kubernetes.io/tls'),
            service('caddy', ns_, labels, ports=((80, 8080), (443, 8443)))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'caddy', ['exec /usr/bin/caddy: operation not permitted']), podlog(ns_, gw['metadata']['name'], 'gateway', gw_log, previous=False)] + noise([n1, n2], kv)
    case('f5a-caddy-file-capability-drop-all', 'Caddy crash-loops before it runs a line: its binary has the file capability cap_net_bind_service=ep and the restricted spec drops ALL capabilities',
         'https://github.com/caddyserver/gateway/issues/7', 'exec /usr/bin/caddy: operation not permitted',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='exec /usr/bin/caddy: operation not permitted', playbook=None,
         terms=[['file capabilit', 'setcap', 'cap_net_bind_service', 'NET_BIND_SERVICE'], ['drop', 'capabilities.add', 'bounding set']])


# =====================================================================================
# M3. mechanism: Node 17+ ships OpenSSL 3, which refuses webpack 4's md4 hash: the image moved off Node 16
# =====================================================================================
@reg
def node_openssl3_md4():
    ns_ = 'dapp'
    kv = 'v1.30.4'
    rt = 'cri-o://1.30.6'
    n1 = crio_node = mknode('worker-a.ocp.lab', kubelet=kv, runtime=rt, kernel='5.14.0-427.40.1.el9_4.x86_64', os_image='Red Hat Enterprise Linux CoreOS 417.94')
    n2 = mknode('worker-b.ocp.lab', kubelet=kv, runtime=rt, kernel='5.14.0-427.40.1.el9_4.x86_64', os_image='Red Hat Enterprise Linux CoreOS 417.94')
    img = 'quay.io/acme-dapp/boilerplate-web:2022-01-19'
    labels = {'app': 'boilerplate-web'}
    c = {'name': 'web', 'image': img, 'imagePullPolicy': 'Always', 'command': ['yarn', 'start'], 'workingDir': '/app',
         'env': [{'name': 'PORT', 'value': '3000'}, {'name': 'REACT_APP_MORALIS_SERVER_URL', 'value': 'https://xyz123.usemoralis.com:2053/server'}, {'name': 'BROWSER', 'value': 'none'}],
         'ports': [{'containerPort': 3000, 'name': 'http'}], 'readinessProbe': {'httpGet': {'path': '/', 'port': 3000}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '2Gi'}}}
    containers, vols = with_api([c], [], 'dapp-web')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('boilerplate-web', ns_, labels, 1, '84f6d5c9b7', spec, ready=0, created=86400 * 20, generation=6)
    old = replicaset(d, '6b7c9d8f55', 1, 1, spec, created=86400 * 12, revision=5)
    created = 1300
    p = mkpod('boilerplate-web-84f6d5c9b7-mz7tq', ns_, 'worker-b.ocp.lab', containers, [running('web', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '84f6d5c9b7'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'web', img, 6, term(1, 'Error', 176, 161, seed='web-6'))], created)
    crio(p)
    oldp = mkpod('boilerplate-web-6b7c9d8f55-8jq2d', ns_, 'worker-a.ocp.lab', containers, [running('web', 'quay.io/acme-dapp/boilerplate-web:2021-12-02', 86400 * 12 - 60)], 86400 * 12,
                 owner=('ReplicaSet', old['metadata']['name']), labels={**labels, 'pod-template-hash': '6b7c9d8f55'}, spec_extra={'volumes': vols})
    crio(oldp)
    log = ['yarn run v1.22.17',
           '$ react-scripts start',
           'ℹ ｢wds｣: Project is running at http://%s/' % p['status']['podIP'],
           'ℹ ｢wds｣: webpack output is served from ',
           'ℹ ｢wds｣: Content not from webpack is served from /app/public',
           'ℹ ｢wds｣: 404s will fallback to /',
           'Starting the development server...',
           '',
           '/app/node_modules/react-scripts/scripts/start.js:19',
           '  throw err;',
           '  ^',
           '',
           'Error: error:0308010C:digital envelope routines::unsupported',
           '    at new Hash (node:internal/crypto/hash:67:19)',
           '    at Object.createHash (node:crypto:130:10)',
           '    at module.exports (/app/node_modules/webpack/lib/util/createHash.js:135:53)',
           '    at NormalModule._initBuildHash (/app/node_modules/webpack/lib/NormalModule.js:417:16)',
           '    at /app/node_modules/webpack/lib/NormalModule.js:452:10',
           '    at /app/node_modules/webpack/lib/NormalModule.js:323:13',
           '    at /app/node_modules/loader-runner/lib/LoaderRunner.js:367:11',
           '    at /app/node_modules/loader-runner/lib/LoaderRunner.js:233:18 {',
           "  opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],",
           "  library: 'digital envelope routines',",
           "  reason: 'unsupported',",
           "  code: 'ERR_OSSL_EVP_UNSUPPORTED'",
           '}',
           '',
           'Node.js v17.2.0',
           'error Command failed with exit code 1.',
           'info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.']
    nn = 'worker-b.ocp.lab'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'web', created - 3, pulled_in='14.2s', size=412877312) + \
          [ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=7, first=created - 60, last=170, host=nn, fieldPath=fp('web')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 612ms (612ms including waiting). Image size: 412877312 bytes.' % img, 'Normal', count=6, first=created - 60, last=169, host=nn, fieldPath=fp('web')),
           backoff(p, nn, 'web', 27, created - 90, 10),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set boilerplate-web-84f6d5c9b7 to 1', 'deployment-controller', last=created + 2)]
    objs = [ns(ns_), n1, n2, d, rs, old, p, oldp, service('boilerplate-web', ns_, labels, ports=((80, 3000),)),
            endpoints('boilerplate-web', ns_, ready=[(oldp['status']['podIP'], oldp['metadata']['name'], 'worker-a.ocp.lab')], port=3000)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'web', log)] + noise([n1, n2], kv, proxy=False)
    case('f5a-node17-openssl3-webpack-md4', 'React dev-server pod crash-loops after its image moved to Node 17: OpenSSL 3 no longer offers the md4 hash webpack 4 uses',
         'https://github.com/ethereum-boilerplate/ethereum-boilerplate/issues/48', 'Error: error:0308010C:digital envelope routines::unsupported',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='Error: error:0308010C:digital envelope routines::unsupported', playbook=None,
         terms=[['OpenSSL'], ['openssl-legacy-provider', 'legacy provider', 'Node 16', 'Node.js 16', 'node:16', 'Node version', 'Node.js version']])


# =====================================================================================
# M4. mechanism: rootless dockerd needs unprivileged user namespaces; the node's kernel has
#     kernel.unprivileged_userns_clone=0 (Debian 10). The dind sidecar of a Kestra worker crash-loops.
# =====================================================================================
@reg
def kestra_dind_rootless_userns():
    ns_ = 'kestra'
    kv = 'v1.28.14'
    n1 = mknode('kube-node-01', kubelet=kv, runtime='containerd://1.7.20', kernel='4.19.0-27-amd64', os_image='Debian GNU/Linux 10 (buster)')
    n2 = mknode('kube-node-02', kubelet=kv, runtime='containerd://1.7.20', kernel='4.19.0-27-amd64', os_image='Debian GNU/Linux 10 (buster)')
    img, dind_img = 'kestra/kestra:v0.11.1-full', 'docker:dind-rootless'
    labels = {'app.kubernetes.io/name': 'kestra', 'app.kubernetes.io/instance': 'kestra', 'app.kubernetes.io/component': 'worker'}
    worker = {'name': 'kestra-worker', 'image': img, 'imagePullPolicy': 'Always', 'command': ['sh', '-c', 'exec /app/kestra server worker --concurrency=64'],
              'env': [{'name': 'DOCKER_HOST', 'value': 'unix:///dind/docker.sock'}, {'name': 'KESTRA_CONFIGURATION_PATH', 'value': '/app/secrets/'}],
              'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}},
              'volumeMounts': [{'name': 'docker-dind-socket', 'mountPath': '/dind'}, {'name': 'secrets', 'mountPath': '/app/secrets'}, {'name': 'tmp', 'mountPath': '/tmp'}]}
    dind = {'name': 'kestra-worker-docker-dind', 'image': dind_img, 'imagePullPolicy': 'IfNotPresent',
            'args': ['--log-level=fatal', '--group=1000', '--host=unix:///dind/docker.sock'],
            'env': [{'name': 'DOCKER_HOST', 'value': 'unix:///dind/docker.sock'}],
            'securityContext': {'privileged': True, 'runAsUser': 1000, 'runAsGroup': 1000},
            'volumeMounts': [{'name': 'docker-dind-socket', 'mountPath': '/dind'}, {'name': 'tmp', 'mountPath': '/tmp'}]}
    containers, vols = with_api([worker, dind], [{'name': 'docker-dind-socket', 'emptyDir': {}}, {'name': 'tmp', 'emptyDir': {}},
                                                 {'name': 'secrets', 'secret': {'secretName': 'kestra-secrets'}}], 'kestra-w')
    spec = {'serviceAccountName': 'kestra', 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('kestra-worker', ns_, labels, 1, '7bd4f6c58d', spec, ready=0, created=2400, generation=1)
    created = 2300
    p = mkpod('kestra-worker-7bd4f6c58d-4hxkp', ns_, 'kube-node-01', containers, [running('kestra-worker', img, created - 30)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7bd4f6c58d'}, sa='kestra', spec_extra={'volumes': vols})
    set_status(p, [running('kestra-worker', img, created - 30),
                   clbo(p, 'kestra-worker-docker-dind', dind_img, 9, term(1, 'Error', 222, 221, seed='dind-9'))], created)
    dind_log = ['Device "ip_tables" does not exist.',
                'ip_tables              24576  4 iptable_raw,iptable_mangle,iptable_nat,iptable_filter',
                "modprobe: can't change directory to '/lib/modules': No such file or directory",
                "error: attempting to run rootless dockerd but need 'kernel.unprivileged_userns_clone' (/proc/sys/kernel/unprivileged_userns_clone) set to 1"]
    w_log = ['%s INFO  main         io.kestra.cli.AbstractCommand Starting Kestra with environments [k8s, cli]' % T(2260, '%Y-%m-%d %H:%M:%S.000'),
             '%s INFO  main         io.kestra.core.plugins.PluginScanner Registered 412 core plugins (scan done in 5412ms)' % T(2250, '%Y-%m-%d %H:%M:%S.000'),
             '%s INFO  main         io.kestra.cli.commands.servers.WorkerCommand Worker started with a thread count of 64' % T(2240, '%Y-%m-%d %H:%M:%S.000'),
             '%s WARN  worker_1     io.kestra.plugin.scripts.runner.docker.Docker Unable to connect to Docker: java.io.IOException: com.sun.jna.LastErrorException: [2] No such file or directory' % T(600, '%Y-%m-%d %H:%M:%S.000'),
             '%s ERROR worker_1     flow.etl-daily.extract [namespace: prod] [flow: etl-daily] [task: extract] Task failed: Failed to connect to unix:///dind/docker.sock' % T(598, '%Y-%m-%d %H:%M:%S.000')]
    nn = 'kube-node-01'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'kestra-worker', created - 6, size=1532117331) + started(p, nn, dind_img, 'kestra-worker-docker-dind', created - 28, size=119224011) + \
          restarted(p, nn, dind_img, 'kestra-worker-docker-dind', 9, created - 80, 222) + [backoff(p, nn, 'kestra-worker-docker-dind', 46, created - 110, 7)]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('kestra', ns_), secret('kestra-secrets', ns_, ['application-secrets.yml'])] + evs + \
           [podlog(ns_, p['metadata']['name'], 'kestra-worker-docker-dind', dind_log), podlog(ns_, p['metadata']['name'], 'kestra-worker', w_log, previous=False)] + noise([n1, n2], kv)
    case('f5a-kestra-dind-rootless-userns-disabled', 'Docker-in-Docker sidecar of a Kestra worker crash-loops: rootless dockerd needs unprivileged user namespaces, disabled on the Debian 10 nodes',
         'https://github.com/kestra-io/docs/issues/430',
         "error: attempting to run rootless dockerd but need 'kernel.unprivileged_userns_clone' (/proc/sys/kernel/unprivileged_userns_clone) set to 1",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="attempting to run rootless dockerd but need 'kernel.unprivileged_userns_clone'", playbook=None,
         terms=[['user namespace', 'userns', 'unprivileged_userns_clone'], ['runAsUser', 'root', 'sysctl']])


# =====================================================================================
# M5. mechanism: Erlang refuses a cookie file readable by others; the chart's init container copies
#     it from the Secret without chmod 600 (RabbitMQ StatefulSet on k3s)
# =====================================================================================
@reg
def rabbitmq_cookie_mode():
    ns_ = 'messaging'
    kv = 'v1.32.5+k3s1'
    n1 = mknode('k3s-1', kubelet=kv, runtime='containerd://2.0.5-k3s1', kernel='6.1.0-37-amd64', os_image='Debian GNU/Linux 12 (bookworm)',
                labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
    n2 = mknode('k3s-2', kubelet=kv, runtime='containerd://2.0.5-k3s1', kernel='6.1.0-37-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'docker.io/library/rabbitmq:4.2.4-management'
    labels = {'app.kubernetes.io/name': 'rabbitmq', 'app.kubernetes.io/instance': 'rabbitmq'}
    init = [{'name': 'setup-erlang-cookie', 'image': 'docker.io/library/busybox:1.37', 'command': ['sh', '-c', 'cp /tmp/erlang-cookie/.erlang.cookie /var/lib/rabbitmq/.erlang.cookie && chown 999:999 /var/lib/rabbitmq/.erlang.cookie'],
             'volumeMounts': [{'name': 'erlang-cookie', 'mountPath': '/tmp/erlang-cookie'}, {'name': 'data', 'mountPath': '/var/lib/rabbitmq'}]}]
    c = {'name': 'rabbitmq', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'RABBITMQ_DEFAULT_USER', 'value': 'admin'}, {'name': 'RABBITMQ_DEFAULT_PASS', 'valueFrom': {'secretKeyRef': {'name': 'rabbitmq', 'key': 'password'}}},
                 {'name': 'RABBITMQ_NODENAME', 'value': 'rabbit@$(MY_POD_NAME).rabbitmq-headless.messaging.svc.cluster.local'}, {'name': 'RABBITMQ_USE_LONGNAME', 'value': 'true'}],
         'ports': [{'containerPort': 5672, 'name': 'amqp'}, {'containerPort': 15672, 'name': 'management'}, {'containerPort': 25672, 'name': 'dist'}],
         'readinessProbe': {'exec': {'command': ['rabbitmq-diagnostics', '-q', 'check_running']}, 'initialDelaySeconds': 10, 'periodSeconds': 30, 'timeoutSeconds': 20},
         'livenessProbe': {'exec': {'command': ['rabbitmq-diagnostics', '-q', 'ping']}, 'initialDelaySeconds': 120, 'periodSeconds': 30, 'timeoutSeconds': 20},
         'securityContext': {'runAsUser': 999, 'runAsGroup': 999, 'runAsNonRoot': True, 'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/rabbitmq'}, {'name': 'config', 'mountPath': '/etc/rabbitmq/rabbitmq.conf', 'subPath': 'rabbitmq.conf'}]}
    containers, vols = with_api([c], [{'name': 'erlang-cookie', 'secret': {'secretName': 'rabbitmq-erlang-cookie'}}, {'name': 'config', 'configMap': {'name': 'rabbitmq-config'}}], 'rmq0')
    vols_pod = vols + [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-rabbitmq-0'}}]
    spec = {'serviceAccountName': 'rabbitmq', 'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'fsGroup': 999}}
    ss = sts('rabbitmq', ns_, labels, 1, spec, ready=0, created=1600, service='rabbitmq-headless')
    ss['spec']['volumeClaimTemplates'] = [{'metadata': {'name': 'data'}, 'spec': {'accessModes': ['ReadWriteOnce'], 'resources': {'requests': {'storage': '8Gi'}}}}]
    created = 1550
    p = mkpod('rabbitmq-0', ns_, 'k3s-2', containers, [running('rabbitmq', img, 60)], created, owner=('StatefulSet', 'rabbitmq'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'rabbitmq-0'}, sa='rabbitmq', init=init,
              spec_extra={'volumes': vols_pod, 'securityContext': {'fsGroup': 999}, 'hostname': 'rabbitmq-0', 'subdomain': 'rabbitmq-headless'})
    set_status(p, [clbo(p, 'rabbitmq', img, 7, term(1, 'Error', 131, 124, seed='rmq-7'))], created,
               init_statuses=[done_init('setup-erlang-cookie', 'docker.io/library/busybox:1.37', created - 10, created - 9, 'rmq-i')])
    R = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f+00:00')
    pid = '<0.153.0>'
    log = ['%s [notice] <0.45.0> Application syslog exited with reason: stopped' % R(130),
           '%s [notice] <0.150.0> Logging: switching to configured handler(s); following messages may not be visible in this log output' % R(130),
           '%s [error] %s ** Generic server auth terminating' % (R(126), pid),
           '%s [error] %s   crasher:' % (R(126), pid),
           '%s [error] %s     initial call: auth:init/1' % (R(126), pid),
           '%s [error] %s     exception exit: "Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only"' % (R(126), pid),
           '%s [error] %s       in function  auth:init_no_setcookie/0 (auth.erl, line 360)' % (R(126), pid),
           '%s [error] <0.151.0>     supervisor: {local,net_sup}' % R(126),
           '%s [error] <0.151.0>     errorContext: start_error' % R(126),
           '%s [error] <0.151.0>     reason: {"Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only",' % R(126),
           '%s [error] <0.151.0>              [{auth,init_no_setcookie,0,[{file,"auth.erl"},{line,360}]},' % R(126),
           '',
           'BOOT FAILED',
           '===========',
           'Error during startup: {error,{"Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only",',
           '                              [{auth,init_no_setcookie,0,[{file,"auth.erl"},{line,360}]}]}}',
           '',
           'Runtime terminating during boot (terminating)']
    nn = 'k3s-2'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, 'docker.io/library/busybox:1.37', 'setup-erlang-cookie', created - 4, present=True, init=True) + \
          started(p, nn, img, 'rabbitmq', created - 8, size=134228981) + restarted(p, nn, img, 'rabbitmq', 7, created - 60, 131) + [backoff(p, nn, 'rabbitmq', 31, created - 90, 13)]
    objs = [ns(ns_), n1, n2, ss, p, serviceaccount('rabbitmq', ns_), secret('rabbitmq', ns_, ['password']), secret('rabbitmq-erlang-cookie', ns_, ['.erlang.cookie']),
            configmap('rabbitmq-config', ns_, {'rabbitmq.conf': 'cluster_formation.peer_discovery_backend = rabbit_peer_discovery_k8s\ncluster_formation.k8s.host = kubernetes.default.svc.cluster.local\nloopback_users.guest = false\n'}),
            claim('data-rabbitmq-0', ns_, 'local-path', 'Bound', '8Gi', volume='pvc-' + uid('rmq0'), provisioner='rancher.io/local-path', selected_node=nn, created=1600),
            service('rabbitmq-headless', ns_, labels, ports=((4369, 4369), (25672, 25672)))] + evs + \
           [podlog(ns_, 'rabbitmq-0', 'rabbitmq', log)] + noise([n1, n2], kv, proxy=False, dns_image='rancher/mirrored-coredns-coredns:1.12.1')
    case('f5a-rabbitmq-erlang-cookie-mode', 'RabbitMQ fails to boot: the init container copies the Erlang cookie from its Secret without chmod 600, and Erlang refuses a cookie others can read',
         'https://github.com/CloudPirates-io/helm-charts/issues/1141', '.erlang.cookie must be accessible by owner only',
         '%s/rabbitmq-0' % ns_, 'any', objs, decisive='Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only', playbook=None,
         terms=[['cookie'], ['chmod', '0600', '0400', '600', '400', 'defaultMode', 'file mode', 'permission']])


# =====================================================================================
# M6. mechanism: after a kubelet restart the volume is re-chowned for fsGroup (g+rwx, setgid) and
#     Postgres refuses a group-writable data directory: Running, never Ready (Patroni keeps retrying)
# =====================================================================================
@reg
def kubeblocks_pg_fsgroup_perms():
    ns_ = 'default'
    kv = 'v1.27.16'
    n1 = mknode('kb-node-1', kubelet=kv, runtime='containerd://1.7.13', kernel='5.10.0-28-amd64', os_image='Debian GNU/Linux 11 (bullseye)')
    n2 = mknode('kb-node-2', kubelet=kv, runtime='containerd://1.7.13', kernel='5.10.0-28-amd64', os_image='Debian GNU/Linux 11 (bullseye)')
    for cnd in n2['status']['conditions']:
        if cnd['type'] == 'Ready': cnd['lastTransitionTime'] = ago(1900)
    img = 'apecloud-registry.cn-zhangjiakou.cr.aliyuncs.com/apecloud/spilo:14.8.0'
    labels = {'app.kubernetes.io/instance': 'pg-cluster', 'app.kubernetes.io/managed-by': 'kubeblocks', 'apps.kubeblocks.io/component-name': 'postgresql'}
    c = {'name': 'postgresql', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['/kb-scripts/postgres-pre-setup.sh'],
         'env': [{'name': 'PGROOT', 'value': '/home/postgres/pgdata/pgroot'}, {'name': 'PGDATA', 'value': '/home/postgres/pgdata/pgroot/data'}, {'name': 'ALLOW_NOSSL', 'value': 'true'}],
         'ports': [{'containerPort': 5432, 'name': 'tcp-postgresql'}, {'containerPort': 8008, 'name': 'patroni'}],
         'readinessProbe': {'exec': {'command': ['/bin/sh', '-c', 'pg_isready -U postgres -h 127.0.0.1 -p 5432']}, 'periodSeconds': 5, 'timeoutSeconds': 5, 'failureThreshold': 3},
         'securityContext': {'runAsUser': 0}, 'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'cpu': '1', 'memory': '1Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/home/postgres/pgdata'}, {'name': 'dshm', 'mountPath': '/dev/shm'}, {'name': 'scripts', 'mountPath': '/kb-scripts'}]}
    containers, vols = with_api([c], [{'name': 'dshm', 'emptyDir': {'medium': 'Memory'}}, {'name': 'scripts', 'configMap': {'name': 'pg-cluster-postgresql-scripts', 'defaultMode': 365}}], 'kbpg1')
    vols_pod = vols + [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-pg-cluster-postgresql-1'}}]
    psc = {'fsGroup': 103, 'runAsGroup': 103, 'runAsUser': 0}
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': psc}
    ss = sts('pg-cluster-postgresql', ns_, labels, 2, spec, ready=1, created=86400 * 75, service='pg-cluster-postgresql-headless')
    created = 86400 * 75 - 300
    p = mkpod('pg-cluster-postgresql-1', ns_, 'kb-node-2', containers, [running('postgresql', img, 1850, ready=False)], created, owner=('StatefulSet', 'pg-cluster-postgresql'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'pg-cluster-postgresql-1', 'kubeblocks.io/role': 'secondary'}, spec_extra={'volumes': vols_pod, 'securityContext': psc})
    set_status(p, [running('postgresql', img, 1850, restarts=1, ready=False,
                           last=term(255, 'Unknown', 86400 * 75 - 320, 1905, seed='kbpg1-0'))], created, ready=False, since=1855)
    pg = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S GMT')
    P = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S,%f')[:-3]
    log = ['%s INFO: No PostgreSQL configuration items changed, nothing to reload.' % P(1840),
           '%s INFO: Lock owner: pg-cluster-postgresql-0; I am pg-cluster-postgresql-1' % P(1836),
           '%s INFO: starting as a secondary' % P(1835),
           '%s [1247198]: [1-1] 65a74f18.1307de 0     FATAL:  data directory "/home/postgres/pgdata/pgroot/data" has invalid permissions' % pg(1834),
           '%s [1247198]: [2-1] 65a74f18.1307de 0     DETAIL:  Permissions should be u=rwx (0700) or u=rwx,g=rx (0750).' % pg(1834),
           '%s INFO: postmaster pid=1247198' % P(1834),
           '/var/run/postgresql:5432 - no response',
           '%s INFO: Lock owner: pg-cluster-postgresql-0; I am pg-cluster-postgresql-1' % P(1825),
           '%s INFO: failed to start postgres' % P(1825),
           '%s INFO: Lock owner: pg-cluster-postgresql-0; I am pg-cluster-postgresql-1' % P(15),
           '%s INFO: starting as a secondary' % P(15),
           '%s [1301877]: [1-1] 65a78ad1.13dd75 0     FATAL:  data directory "/home/postgres/pgdata/pgroot/data" has invalid permissions' % pg(14),
           '%s [1301877]: [2-1] 65a78ad1.13dd75 0     DETAIL:  Permissions should be u=rwx (0700) or u=rwx,g=rx (0750).' % pg(14),
           '%s INFO: failed to start postgres' % P(5)]
    nn = 'kb-node-2'
    primary = mkpod('pg-cluster-postgresql-0', ns_, 'kb-node-1', containers, [running('postgresql', img, 86400 * 75 - 20)], 86400 * 75, owner=('StatefulSet', 'pg-cluster-postgresql'),
                    labels={**labels, 'statefulset.kubernetes.io/pod-name': 'pg-cluster-postgresql-0', 'kubeblocks.io/role': 'primary'}, spec_extra={'volumes': vols_pod, 'securityContext': psc})
    evs = [node_event(n2, 'Starting', 'Starting kubelet.', last=1900), node_event(n2, 'NodeReady', 'Node kb-node-2 status is now: NodeReady', last=1890),
           node_event(n2, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', last=1899),
           ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=1870, host=nn),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=1860, host=nn, fieldPath=fp('postgresql')),
           ev(p, 'Created', 'Created container postgresql', 'Normal', last=1855, host=nn, fieldPath=fp('postgresql')),
           ev(p, 'Started', 'Started container postgresql', 'Normal', last=1855, host=nn, fieldPath=fp('postgresql')),
           unhealthy(p, nn, 'postgresql', '127.0.0.1:5432 - no response', 368, 1820, 4)]
    objs = [ns(ns_), n1, n2, ss, p, primary,
            claim('data-pg-cluster-postgresql-1', ns_, 'standard', 'Bound', '20Gi', volume='pvc-' + uid('kbpg1'), provisioner='rancher.io/local-path', selected_node=nn, created=86400 * 75),
            configmap('pg-cluster-postgresql-scripts', ns_, {'postgres-pre-setup.sh': '#!/bin/sh\nset -e\nexec /launch.sh init\n'})] + evs + \
           [podlog(ns_, p['metadata']['name'], 'postgresql', log, previous=False)] + noise([n1, n2], kv)
    case('f5a-kubeblocks-pg-fsgroup-data-dir-perms', 'Postgres secondary Running but never Ready after a kubelet restart: fsGroup re-applied group permissions to the data directory, which Postgres refuses',
         'https://github.com/apecloud/kubeblocks/issues/6471', 'FATAL:  data directory "/home/postgres/pgdata/pgroot/data" has invalid permissions',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='DETAIL:  Permissions should be u=rwx (0700) or u=rwx,g=rx (0750).', playbook=None,
         terms=[['fsGroup'], ['fsGroupChangePolicy', 'OnRootMismatch', 'permission', '0700', '0750']])


# =====================================================================================
# K1. security.read-only-rootfs: the .NET host cannot create CoreCLR on a read-only root (it needs /tmp)
# =====================================================================================
@reg
def dotnet_coreclr_readonly_root():
    ns_ = 'shop'
    kv = 'v1.30.5'
    n1 = mknode('aks-nodepool1-31718369-vmss000000', kubelet=kv, runtime='containerd://1.7.22-1', kernel='5.15.0-1073-azure', os_image='Ubuntu 22.04.5 LTS',
                labels={'kubernetes.azure.com/agentpool': 'nodepool1', 'topology.kubernetes.io/zone': 'westeurope-1'})
    n2 = mknode('aks-nodepool1-31718369-vmss000001', kubelet=kv, runtime='containerd://1.7.22-1', kernel='5.15.0-1073-azure', os_image='Ubuntu 22.04.5 LTS',
                labels={'kubernetes.azure.com/agentpool': 'nodepool1', 'topology.kubernetes.io/zone': 'westeurope-2'})
    img = 'acmeshop.azurecr.io/catalog-api:3.1.22-r41'
    labels = {'app': 'catalog-api'}
    c = {'name': 'catalog-api', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'ASPNETCORE_URLS', 'value': 'http://+:8080'}, {'name': 'ASPNETCORE_ENVIRONMENT', 'value': 'Production'}],
         'ports': [{'containerPort': 8080, 'name': 'http'}],
         'readinessProbe': {'httpGet': {'path': '/health/ready', 'port': 8080}, 'periodSeconds': 10}, 'livenessProbe': {'httpGet': {'path': '/health/live', 'port': 8080}, 'initialDelaySeconds': 20},
         'securityContext': {'allowPrivilegeEscalation': False, 'privileged': False, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 1000, 'runAsGroup': 3000},
         'resources': {'requests': {'cpu': '100m', 'memory': '64Mi'}, 'limits': {'cpu': '200m', 'memory': '256Mi'}},
         'volumeMounts': [{'name': 'certs', 'mountPath': '/app/certs', 'readOnly': True}]}
    containers, vols = with_api([c], [{'name': 'certs', 'secret': {'secretName': 'catalog-api-cert'}}], 'catalog')
    psc = {'fsGroup': 2000, 'runAsGroup': 3000, 'runAsUser': 1000, 'runAsNonRoot': True, 'supplementalGroups': [4000]}
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': psc}
    d, rs = deploy('catalog-api', ns_, labels, 2, '58c7b9f4d6', spec, ready=1, updated=1, created=86400 * 60, generation=12)
    old = replicaset(d, '7f5d6c8b49', 1, 1, {**spec, 'containers': [{**copy.deepcopy(containers[0]), 'securityContext': {'runAsNonRoot': True, 'runAsUser': 1000}}]}, created=86400 * 9, revision=11)
    created = 1100
    p = mkpod('catalog-api-58c7b9f4d6-vw8hs', ns_, n2['metadata']['name'], containers, [running('catalog-api', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '58c7b9f4d6'}, spec_extra={'volumes': vols, 'securityContext': psc})
    set_status(p, [clbo(p, 'catalog-api', img, 6, term(137, 'Error', 168, 168, seed='cat-6'))], created)
    oldp = mkpod('catalog-api-7f5d6c8b49-2xpl9', ns_, n1['metadata']['name'], containers, [running('catalog-api', img, 86400 * 9 - 40)], 86400 * 9,
                 owner=('ReplicaSet', old['metadata']['name']), labels={**labels, 'pod-template-hash': '7f5d6c8b49'}, spec_extra={'volumes': vols, 'securityContext': psc})
    nn = n2['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'catalog-api', created - 3, size=88120331) + restarted(p, nn, img, 'catalog-api', 6, created - 50, 168) + \
          [backoff(p, nn, 'catalog-api', 25, created - 80, 6),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set catalog-api-58c7b9f4d6 to 1', 'deployment-controller', last=created + 3)]
    objs = [ns(ns_), n1, n2, d, rs, old, p, oldp, secret('catalog-api-cert', ns_, ['tls.pfx']), service('catalog-api', ns_, labels, ports=((80, 8080),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'catalog-api', ['Failed to create CoreCLR, HRESULT: 0x80004005'])] + noise([n1, n2], kv)
    case('f5a-dotnet-coreclr-readonly-rootfs', 'ASP.NET Core pod crash-loops right after readOnlyRootFilesystem was switched on: the .NET host cannot create CoreCLR without a writable /tmp',
         'https://github.com/Lybecker/k8s-friendly-aspnetcore/issues/2', 'Failed to create CoreCLR, HRESULT: 0x80004005',
         '%s/%s' % (ns_, p['metadata']['name']), 'security.read-only-rootfs', objs, decisive='Failed to create CoreCLR, HRESULT: 0x80004005')


# =====================================================================================
# K2. crash.probe-failing: a native gRPC liveness probe on the same health service as readiness:
#     NOT_SERVING while a dependency is down makes the kubelet restart the container
# =====================================================================================
@reg
def grpc_liveness_not_serving():
    ns_ = 'payments'
    kv = 'v1.27.13'
    n1 = mknode('ip-10-1-12-40.eu-west-1.compute.internal', kubelet='v1.27.13-eks-3af4770', runtime='containerd://1.7.11', kernel='5.10.215-203.850.amzn2.x86_64', os_image='Amazon Linux 2', ip='10.1.12.40')
    n2 = mknode('ip-10-1-44-91.eu-west-1.compute.internal', kubelet='v1.27.13-eks-3af4770', runtime='containerd://1.7.11', kernel='5.10.215-203.850.amzn2.x86_64', os_image='Amazon Linux 2', ip='10.1.44.91')
    img = '111122223333.dkr.ecr.eu-west-1.amazonaws.com/ledger-grpc:1.18.0'
    labels = {'app': 'ledger'}
    probe = {'grpc': {'port': 9090, 'service': ''}, 'periodSeconds': 10, 'timeoutSeconds': 1, 'failureThreshold': 3}
    c = {'name': 'ledger', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 9090, 'name': 'grpc'}],
         'env': [{'name': 'LEDGER_DB_ADDR', 'value': 'ledger-db.payments.svc:5432'}],
         'readinessProbe': copy.deepcopy(probe), 'livenessProbe': {**copy.deepcopy(probe), 'initialDelaySeconds': 10},
         'resources': {'requests': {'cpu': '200m', 'memory': '128Mi'}, 'limits': {'memory': '512Mi'}}}
    containers, vols = with_api([c], [], 'ledger')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('ledger', ns_, labels, 2, '6c9f7b8d54', spec, ready=0, created=86400 * 30, generation=9)
    created = 86400 * 2
    n1n, n2n = n1['metadata']['name'], n2['metadata']['name']
    pods = []
    for i, (pn, nn) in enumerate((('ledger-6c9f7b8d54-k7q2m', n1n), ('ledger-6c9f7b8d54-zt5rw', n2n))):
        q = mkpod(pn, ns_, nn, containers, [running('ledger', img, 25, restarts=0, ready=False)], created - i * 100, owner=('ReplicaSet', rs['metadata']['name']),
                  labels={**labels, 'pod-template-hash': '6c9f7b8d54'}, spec_extra={'volumes': vols})
        set_status(q, [running('ledger', img, 25 + i * 7, restarts=14 - i * 2, ready=False, last=term(2, 'Error', 70 + i * 7, 27 + i * 7, seed='ledger-%d' % i))], created - i * 100, ready=False, since=900)
        pods.append(q)
    p = pods[0]
    log = ['{"level":"info","ts":"%s","msg":"starting ledger","version":"1.18.0","grpc_addr":":9090"}' % ts(24),
           '{"level":"info","ts":"%s","msg":"health: ledger set to NOT_SERVING until the database answers"}' % ts(24),
           '{"level":"warn","ts":"%s","msg":"database not reachable, retrying","addr":"ledger-db.payments.svc:5432","error":"dial tcp 10.100.41.7:5432: connect: connection refused"}' % ts(19),
           '{"level":"warn","ts":"%s","msg":"database not reachable, retrying","addr":"ledger-db.payments.svc:5432","error":"dial tcp 10.100.41.7:5432: connect: connection refused"}' % ts(9)]
    prev = ['{"level":"info","ts":"%s","msg":"starting ledger","version":"1.18.0","grpc_addr":":9090"}' % ts(70),
            '{"level":"warn","ts":"%s","msg":"database not reachable, retrying","addr":"ledger-db.payments.svc:5432","error":"dial tcp 10.100.41.7:5432: connect: connection refused"}' % ts(55),
            '{"level":"info","ts":"%s","msg":"received terminated, shutting down gRPC server"}' % ts(28)]
    msg = 'Liveness probe failed: service unhealthy (responded with "NOT_SERVING")'
    evs = []
    for i, q in enumerate(pods):
        nn = q['spec']['nodeName']
        evs += [ev(q, 'Unhealthy', 'Readiness probe failed: service unhealthy (responded with "NOT_SERVING")', count=268 - i * 30, first=900, last=4 + i, host=nn, fieldPath=fp('ledger')),
                ev(q, 'Unhealthy', msg, count=42 - i * 6, first=880, last=8 + i, host=nn, fieldPath=fp('ledger')),
                killing(q, nn, 'ledger', 'Container ledger failed liveness probe, will be restarted', 14 - i * 2, 860, 30 + i * 7),
                ev(q, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=14 - i * 2, first=850, last=26 + i * 7, host=nn, fieldPath=fp('ledger')),
                backoff(q, nn, 'ledger', 5, 600, 120)]
    db_img = 'postgres:15.6'
    db = mkpod('ledger-db-0', ns_, n2n, [{'name': 'postgres', 'image': db_img}], [waiting('postgres', db_img, 'ContainerCreating')], 950, owner=('StatefulSet', 'ledger-db'),
               labels={'app': 'ledger-db', 'statefulset.kubernetes.io/pod-name': 'ledger-db-0'}, phase='Pending',
               conditions=conds(950, False, msg='containers with unready status: [postgres]'))
    db['status']['containerStatuses'][0]['started'] = False
    evs += [ev(db, 'FailedAttachVolume', 'AttachVolume.Attach failed for volume "pvc-%s" : rpc error: code = Internal desc = Could not attach volume "vol-0f3a9c1d2b4e56789" to node "i-0c1d2e3f4a5b6c7d8": attachment of disk "vol-0f3a9c1d2b4e56789" failed, expected device to be attached but was detaching' % uid('ldb'),
               count=9, first=930, last=60, component='attachdetach-controller')]
    objs = [ns(ns_), n1, n2, d, rs] + pods + [db, service('ledger', ns_, labels, ports=((9090, 9090),)), endpoints('ledger', ns_, not_ready=[(q['status']['podIP'], q['metadata']['name'], q['spec']['nodeName']) for q in pods], port=9090)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'ledger', log, previous=False), podlog(ns_, p['metadata']['name'], 'ledger', prev)] + noise([n1, n2], kv)
    case('f5a-grpc-liveness-not-serving-restarts', 'gRPC service restarted every minute: its native gRPC liveness probe checks the same health service that reports NOT_SERVING while the database is away',
         'https://github.com/kubernetes/kubernetes/issues/115651', 'Liveness probe failed: service unhealthy (responded with "NOT_SERVING")',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.probe-failing', objs, decisive=msg)


# =====================================================================================
# K3. image.untrusted-ca: kind 0.27 ships containerd 2.x, which ignores the old registry.configs TLS
#     section; the private registry's CA is no longer trusted (containerd 2.x pull wording)
# =====================================================================================
@reg
def kind_containerd2_registry_ca():
    ns_ = 'default'
    kv = 'v1.32.2'
    n1 = mknode('dev-control-plane', kubelet=kv, runtime='containerd://2.0.2', kernel='6.8.0-52-generic', os_image='Debian GNU/Linux 12 (bookworm)',
                labels={'node-role.kubernetes.io/control-plane': '', 'ingress-ready': 'true'})
    n2 = mknode('dev-worker', kubelet=kv, runtime='containerd://2.0.2', kernel='6.8.0-52-generic', os_image='Debian GNU/Linux 12 (bookworm)')
    reg_ = 'registry.dev.lan:5000'
    img = '%s/team/orders:0.9.3' % reg_
    labels = {'app': 'orders'}
    c = {'name': 'orders', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8080}], 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}
    containers, vols = with_api([c], [], 'orders')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'imagePullSecrets': [{'name': 'regcred'}]}
    d, rs = deploy('orders', ns_, labels, 1, '7d9b6f5c48', spec, ready=0, created=900, generation=1)
    created = 880
    p = mkpod('orders-7d9b6f5c48-hq4nd', ns_, 'dev-worker', containers, [waiting('orders', img, 'ImagePullBackOff', 'Back-off pulling image "%s"' % img, pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7d9b6f5c48'}, spec_extra={'volumes': vols, 'imagePullSecrets': [{'name': 'regcred'}]})
    set_status(p, p['status']['containerStatuses'], created)
    err = ('failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: Head "https://%s/v2/team/orders/manifests/0.9.3": '
           'tls: failed to verify certificate: x509: certificate signed by unknown authority') % (img, img, reg_)
    nn = 'dev-worker'
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=7, first=created - 3, last=190, host=nn, fieldPath=fp('orders')),
           ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err), count=7, first=created - 4, last=189, host=nn, fieldPath=fp('orders')),
           ev(p, 'Failed', 'Error: ErrImagePull', count=7, first=created - 4, last=189, host=nn, fieldPath=fp('orders')),
           ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=31, first=created - 20, last=14, host=nn, fieldPath=fp('orders')),
           ev(p, 'Failed', 'Error: ImagePullBackOff', count=31, first=created - 20, last=14, host=nn, fieldPath=fp('orders'))]
    lpp_img = 'docker.io/kindest/local-path-provisioner:v20250214-acbabc1a'
    lpp = mkpod('local-path-provisioner-7dc846544d-9xk2f', 'local-path-storage', 'dev-control-plane', [{'name': 'local-path-provisioner', 'image': lpp_img}],
                [running('local-path-provisioner', lpp_img, 2000)], 2010, owner=('ReplicaSet', 'local-path-provisioner-7dc846544d'), labels={'app': 'local-path-provisioner'})
    objs = [ns(ns_), ns('local-path-storage'), n1, n2, d, rs, p, lpp, secret('regcred', ns_, ['.dockerconfigjson'], type_='kubernetes.io/dockerconfigjson'),
            ev(lpp, 'FailedMount', 'MountVolume.SetUp failed for volume "config-volume" : failed to sync configmap cache: timed out waiting for the condition', count=1, first=2005, last=2005, host='dev-control-plane')] + evs + \
           noise([n1, n2], kv, created=2100, dns_image='registry.k8s.io/coredns/coredns:v1.11.3')
    case('f5a-kind-containerd2-registry-ca-untrusted', 'Pulls from the private registry fail after moving to kind 0.27: its containerd 2.x no longer reads the registry.configs TLS section, so the CA is not trusted',
         'https://github.com/kubernetes-sigs/kind/issues/3884', 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
         '%s/%s' % (ns_, p['metadata']['name']), 'image.untrusted-ca', objs, decisive='tls: failed to verify certificate: x509: certificate signed by unknown authority')


# =====================================================================================
# K4. pending.taint: nodes keep node.cloudprovider.kubernetes.io/uninitialized because the external
#     OpenStack cloud controller never initializes them
# =====================================================================================
@reg
def occm_uninitialized_taint():
    ns_ = 'test'
    kv = 'v1.26.3'
    unini = {'key': 'node.cloudprovider.kubernetes.io/uninitialized', 'value': 'true', 'effect': 'NoSchedule'}
    cp = mknode('k8s-master-0', kubelet=kv, runtime='containerd://1.6.20', kernel='5.15.0-69-generic', os_image='Ubuntu 22.04.2 LTS',
                labels={'node-role.kubernetes.io/control-plane': ''}, taints=[{'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}])
    ws = [mknode('k8s-worker-%d' % i, kubelet=kv, runtime='containerd://1.6.20', kernel='5.15.0-69-generic', os_image='Ubuntu 22.04.2 LTS', taints=[dict(unini)]) for i in (0, 1)]
    img = 'nginx:1.14.2'
    labels = {'app': 'nginx'}
    c = {'name': 'nginx', 'image': img, 'ports': [{'containerPort': 80}]}
    containers, vols = with_api([c], [], 'nginx-occm')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('nginx-deployment', ns_, labels, 3, '85996f8dbd', spec, ready=0, created=3000, generation=1)
    created = 2990
    msg = ('0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) had untolerated taint '
           '{node.cloudprovider.kubernetes.io/uninitialized: true}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..')
    pods = []
    for sfx in ('95rsm', 'kx8v2', 'tq6wd'):
        q = mkpod('nginx-deployment-85996f8dbd-' + sfx, ns_, None, containers, [], created, owner=('ReplicaSet', rs['metadata']['name']),
                  labels={**labels, 'pod-template-hash': '85996f8dbd'}, phase='Pending', spec_extra={'volumes': vols},
                  conditions=[{'type': 'PodScheduled', 'status': 'False', 'reason': 'Unschedulable', 'message': msg, 'lastTransitionTime': ago(created - 1)}])
        q['status'] = {'phase': 'Pending', 'conditions': q['status']['conditions'], 'qosClass': 'BestEffort'}
        pods.append(q)
    p = pods[0]
    evs = [failed_scheduling(q, msg, 12, 40, created - 1) for q in pods]
    occm_img = 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.26.2'
    occm = mkpod('openstack-cloud-controller-manager-2v7fd', 'kube-system', 'k8s-master-0', [{'name': 'openstack-cloud-controller-manager', 'image': occm_img}],
                 [running('openstack-cloud-controller-manager', occm_img, 3550)], 3560, owner=('DaemonSet', 'openstack-cloud-controller-manager'),
                 labels={'k8s-app': 'openstack-cloud-controller-manager'}, spec_extra={'hostNetwork': True, 'nodeSelector': {'node-role.kubernetes.io/control-plane': ''}})
    occm_log = klog_lines(3540, [('I', 'serving.go:348', 'Generated self-signed cert in-memory'),
                                 ('I', 'openstack.go:331', 'openstack.Initialize() called'),
                                 ('I', 'node_controller.go:108', 'Sending events to api server.'),
                                 ('I', 'controllermanager.go:317', 'Started "cloud-node"'),
                                 ('E', 'node_controller.go:229', 'error syncing \'k8s-worker-0\': failed to get instance metadata for node k8s-worker-0: failed to find object, requeuing'),
                                 ('E', 'node_controller.go:229', 'error syncing \'k8s-worker-1\': failed to get instance metadata for node k8s-worker-1: failed to find object, requeuing')], step=5)
    objs = [ns(ns_), cp] + ws + [d, rs] + pods + [occm] + evs + [podlog('kube-system', occm['metadata']['name'], 'openstack-cloud-controller-manager', occm_log, previous=False)] + \
           noise([cp], kv, dns_image='registry.k8s.io/coredns/coredns:v1.9.3')
    case('f5a-occm-uninitialized-taint-pending', 'Every workload Pending on a new OpenStack cluster: the workers keep the cloud-provider "uninitialized" taint because the external cloud controller never initializes them',
         'https://github.com/kubernetes/cloud-provider-openstack/issues/2200', 'untolerated taint {node.cloudprovider.kubernetes.io/uninitialized: true}',
         '%s/%s' % (ns_, p['metadata']['name']), 'pending.taint', objs, decisive='untolerated taint {node.cloudprovider.kubernetes.io/uninitialized: true}', playbook=None)


# =====================================================================================
# K5. crash.port-in-use: the daprd sidecar cannot bind its internal gRPC port 50002: a Redis client
#     connection of a component loaded just before took it as its ephemeral source port
# =====================================================================================
@reg
def daprd_50002_in_use():
    ns_ = 'orders'
    kv = 'v1.25.6'
    n1 = mknode('k8s-node-a', kubelet=kv, runtime='containerd://1.6.18', kernel='5.15.0-67-generic', os_image='Ubuntu 22.04.2 LTS')
    n2 = mknode('k8s-node-b', kubelet=kv, runtime='containerd://1.6.18', kernel='5.15.0-67-generic', os_image='Ubuntu 22.04.2 LTS')
    img, dimg = 'registry.acme.io/orders/processor:2.4.1', 'docker.io/daprio/daprd:1.9.0'
    labels = {'app': 'order-processor'}
    app = {'name': 'order-processor', 'image': img, 'ports': [{'containerPort': 6001, 'name': 'http'}], 'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}}}
    daprd = {'name': 'daprd', 'image': dimg, 'command': ['/daprd'],
             'args': ['--mode', 'kubernetes', '--dapr-http-port', '3500', '--dapr-grpc-port', '50001', '--dapr-internal-grpc-port', '50002', '--dapr-listen-addresses', '[::1],127.0.0.1',
                      '--dapr-public-port', '3501', '--app-port', '6001', '--app-id', 'order-processor', '--control-plane-address', 'dapr-api.dapr-system.svc.cluster.local:80',
                      '--app-protocol', 'http', '--placement-host-address', 'dapr-placement-server.dapr-system.svc.cluster.local:50005', '--log-level', 'info', '--enable-mtls'],
             'ports': [{'containerPort': 3500, 'name': 'dapr-http'}, {'containerPort': 50001, 'name': 'dapr-grpc'}, {'containerPort': 50002, 'name': 'dapr-internal'}, {'containerPort': 9090, 'name': 'dapr-metrics'}],
             'readinessProbe': {'httpGet': {'path': '/v1.0/healthz', 'port': 3501}, 'initialDelaySeconds': 1, 'periodSeconds': 6, 'timeoutSeconds': 3, 'failureThreshold': 3},
             'livenessProbe': {'httpGet': {'path': '/v1.0/healthz', 'port': 3501}, 'initialDelaySeconds': 3, 'periodSeconds': 6, 'timeoutSeconds': 3, 'failureThreshold': 3}}
    containers, vols = with_api([app, daprd], [], 'order-proc')
    spec = {'containers': [copy.deepcopy(app)], 'volumes': []}
    d, rs = deploy('order-processor', ns_, labels, 3, '5f7b8c9d6e', spec, ready=2, created=86400 * 40, generation=17)
    created = 900
    p = mkpod('order-processor-5f7b8c9d6e-jw4rt', ns_, 'k8s-node-a', containers, [running('order-processor', img, created - 20)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5f7b8c9d6e', 'dapr.io/app-id': 'order-processor', 'dapr.io/sidecar-injected': 'true'},
              spec_extra={'volumes': vols})
    p['metadata']['annotations'] = {'dapr.io/enabled': 'true', 'dapr.io/app-id': 'order-processor', 'dapr.io/app-port': '6001'}
    set_status(p, [running('order-processor', img, created - 20),
                   clbo(p, 'daprd', dimg, 5, term(1, 'Error', 190, 188, seed='daprd-5'))], created)
    L = lambda s_, lvl, m, scope: 'time="%s" level=%s msg="%s" app_id=order-processor instance=%s scope=%s type=log ver=1.9.0' % (ts(s_), lvl, m, p['metadata']['name'], scope)
    log = [L(190, 'info', 'starting Dapr Runtime -- version 1.9.0 -- commit fdce5f1f1b76012291c888113169aee845f25ef8', 'dapr.runtime'),
           L(190, 'info', 'log level set to: info', 'dapr.runtime'),
           L(190, 'info', 'metrics server started on :9090/', 'dapr.metrics'),
           L(190, 'info', 'Initializing the operator client (config: daprsystem)', 'dapr.runtime'),
           L(189, 'info', 'kubernetes mode configured', 'dapr.runtime'),
           L(189, 'info', 'app id: order-processor', 'dapr.runtime'),
           L(189, 'info', 'mTLS enabled. creating sidecar authenticator', 'dapr.runtime'),
           L(189, 'info', 'trust anchors and cert chain extracted successfully', 'dapr.runtime.security'),
           L(189, 'info', 'loading components', 'dapr.runtime'),
           L(189, 'info', 'component loaded. name: statestore, type: state.redis/v1', 'dapr.runtime'),
           L(189, 'info', 'component loaded. name: orderpubsub, type: pubsub.redis/v1', 'dapr.runtime'),
           L(189, 'info', 'all outstanding components processed', 'dapr.runtime'),
           L(188, 'info', 'starting workload cert expiry watcher. current cert expires on: %s' % ts(-86400, '%Y-%m-%d %H:%M:%S +0000 UTC'), 'dapr.runtime.grpc.internal'),
           L(188, 'fatal', 'failed to start internal gRPC server: Failed to listen on :50002 with error: listen tcp :50002: bind: address already in use', 'dapr.runtime')]
    nn = 'k8s-node-a'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'order-processor', created - 4, present=True) + started(p, nn, dimg, 'daprd', created - 6, present=True) + \
          restarted(p, nn, dimg, 'daprd', 5, created - 40, 190) + [backoff(p, nn, 'daprd', 19, created - 70, 10),
          ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:3501/v1.0/healthz": dial tcp %s:3501: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']),
             count=11, first=created - 10, last=185, host=nn, fieldPath=fp('daprd'))]
    redis = mkpod('redis-master-0', ns_, 'k8s-node-b', [{'name': 'redis', 'image': 'docker.io/bitnami/redis:7.0.8'}], [running('redis', 'docker.io/bitnami/redis:7.0.8', 86400 * 12)], 86400 * 12,
                  owner=('StatefulSet', 'redis-master'), labels={'app.kubernetes.io/name': 'redis', 'statefulset.kubernetes.io/pod-name': 'redis-master-0'})
    objs = [ns(ns_), n1, n2, d, rs, p, redis, service('order-processor-dapr', ns_, labels, ports=((80, 3500), (50001, 50001), (50002, 50002), (9090, 9090)))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'daprd', log), podlog(ns_, p['metadata']['name'], 'order-processor', ['%s INFO  order-processor listening on :6001' % T(880)], previous=False)] + noise([n1, n2], kv)
    case('f5a-daprd-internal-grpc-50002-in-use', "Dapr sidecar crash-loops: its internal gRPC port 50002 is already taken, by the ephemeral source port of a Redis connection opened by a component it loaded first",
         'https://github.com/dapr/dapr/issues/6023', 'Failed to listen on :50002 with error: listen tcp :50002: bind: address already in use',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.port-in-use', objs, decisive='listen tcp :50002: bind: address already in use', playbook=None)


# =====================================================================================
# N1. negative: MySQL 8 Ready for days; its log repeats "mbind: Operation not permitted" (NUMA syscall
#     refused by the runtime's default seccomp profile): harmless, per the image maintainers
# =====================================================================================
@reg
def neg_mysql_mbind():
    ns_ = 'wordpress'
    kv = 'v1.31.4'
    n1 = mknode('wp-node-1', kubelet=kv, runtime='containerd://1.7.24', kernel='6.1.0-28-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'mysql:8.0.40'
    labels = {'app': 'mysql'}
    c = {'name': 'mysql', 'image': img, 'ports': [{'containerPort': 3306, 'name': 'mysql'}],
         'env': [{'name': 'MYSQL_ROOT_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'mysql', 'key': 'root-password'}}}, {'name': 'MYSQL_DATABASE', 'value': 'wordpress'}],
         'readinessProbe': {'exec': {'command': ['mysqladmin', 'ping', '-h', '127.0.0.1']}, 'periodSeconds': 10},
         'securityContext': {'seccompProfile': {'type': 'RuntimeDefault'}},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}, 'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/mysql'}]}
    containers, vols = with_api([c], [], 'mysql0')
    vols_pod = vols + [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-mysql-0'}}]
    ss = sts('mysql', ns_, labels, 1, {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, created=86400 * 30)
    created = 86400 * 5
    p = mkpod('mysql-0', ns_, 'wp-node-1', containers, [running('mysql', img, created - 15)], created, owner=('StatefulSet', 'mysql'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'mysql-0'}, spec_extra={'volumes': vols_pod})
    M = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%S.%fZ')
    log = ['%s+00:00 [Note] [Entrypoint]: Entrypoint script for MySQL Server 8.0.40-1.el9 started.' % T(created - 14),
           '%s+00:00 [Note] [Entrypoint]: Switching to dedicated user \'mysql\'' % T(created - 14),
           '%s 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld 8.0.40) starting as process 1' % M(created - 13),
           '%s 1 [System] [MY-013576] [InnoDB] InnoDB initialization has started.' % M(created - 13),
           'mbind: Operation not permitted', 'mbind: Operation not permitted', 'mbind: Operation not permitted', 'mbind: Operation not permitted',
           '%s 1 [System] [MY-013577] [InnoDB] InnoDB initialization has ended.' % M(created - 12),
           '%s 0 [Warning] [MY-010068] [Server] CA certificate ca.pem is self signed.' % M(created - 11),
           '%s 0 [System] [MY-013602] [Server] Channel mysql_main configured to support TLS. Encrypted connections are now supported for this channel.' % M(created - 11),
           '%s 0 [Warning] [MY-011810] [Server] Insecure configuration for --pid-file: Location \'/var/run/mysqld\' in the path is accessible to all OS users. Consider choosing a different directory.' % M(created - 11),
           '%s 0 [System] [MY-011323] [Server] X Plugin ready for connections. Bind-address: \'::\' port: 33060, socket: /var/run/mysqld/mysqlx.sock' % M(created - 11),
           "%s 0 [System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '8.0.40'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL." % M(created - 11)] + \
          ['mbind: Operation not permitted'] * 12
    wp_img = 'wordpress:6.6.2-apache'
    wp = mkpod('wordpress-6d8f9b7c5-qx2lm', ns_, 'wp-node-1', [{'name': 'wordpress', 'image': wp_img}], [running('wordpress', wp_img, created - 40)], created,
               owner=('ReplicaSet', 'wordpress-6d8f9b7c5'), labels={'app': 'wordpress', 'pod-template-hash': '6d8f9b7c5'})
    objs = [ns(ns_), n1, ss, p, wp, secret('mysql', ns_, ['root-password']),
            claim('data-mysql-0', ns_, 'local-path', 'Bound', '20Gi', volume='pvc-' + uid('mysql0'), provisioner='rancher.io/local-path', selected_node='wp-node-1', created=86400 * 30),
            service('mysql', ns_, labels, ports=((3306, 3306),)), endpoints('mysql', ns_, ready=[(p['status']['podIP'], 'mysql-0', 'wp-node-1')], port=3306),
            podlog(ns_, 'mysql-0', 'mysql', log, previous=False)] + noise([n1], kv)
    case('f5a-neg-mysql8-mbind-seccomp-noise', 'Healthy: MySQL 8 Ready for five days; its log repeats "mbind: Operation not permitted" (NUMA memory policy refused by the default seccomp profile), which is harmless',
         'https://github.com/docker-library/mysql/issues/303', 'The mbind message is a warning. It is harmless, and should not cause any issues except performance.',
         '%s/mysql-0' % ns_, None, objs)


# =====================================================================================
# N2. negative: Istio sidecar logs "gRPC config stream closed: 13" every 30 minutes: istiod closes
#     the xDS stream on purpose; the pod is healthy
# =====================================================================================
@reg
def neg_istio_xds_stream_closed():
    ns_ = 'bookinfo'
    kv = 'v1.19.9-gke.1900'
    n1 = mknode('gke-prod-pool-1-9c2d7a10-5k2j', kubelet=kv, runtime='containerd://1.4.3', kernel='5.4.89+', os_image='Container-Optimized OS from Google')
    n2 = mknode('gke-prod-pool-1-9c2d7a10-q8vn', kubelet=kv, runtime='containerd://1.4.3', kernel='5.4.89+', os_image='Container-Optimized OS from Google')
    img, pimg, iimg = 'docker.io/istio/examples-bookinfo-reviews-v1:1.16.2', 'docker.io/istio/proxyv2:1.7.2', 'docker.io/istio/proxyv2:1.7.2'
    labels = {'app': 'reviews', 'version': 'v1'}
    init = [{'name': 'istio-init', 'image': iimg, 'args': ['istio-iptables', '-p', '15001', '-z', '15006', '-u', '1337', '-m', 'REDIRECT', '-i', '*', '-x', '', '-b', '*', '-d', '15090,15021,15020'],
             'securityContext': {'capabilities': {'add': ['NET_ADMIN', 'NET_RAW'], 'drop': ['ALL']}, 'runAsUser': 0, 'runAsNonRoot': False}}]
    app = {'name': 'reviews', 'image': img, 'ports': [{'containerPort': 9080}]}
    proxy = {'name': 'istio-proxy', 'image': pimg, 'args': ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local', '--serviceCluster', 'reviews.$(POD_NAMESPACE)'],
             'ports': [{'containerPort': 15090, 'name': 'http-envoy-prom'}], 'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 15021}, 'periodSeconds': 2, 'failureThreshold': 30},
             'securityContext': {'runAsUser': 1337, 'runAsGroup': 1337, 'readOnlyRootFilesystem': True}}
    containers, vols = with_api([app, proxy], [{'name': 'istio-envoy', 'emptyDir': {'medium': 'Memory'}}], 'reviews')
    spec = {'containers': [copy.deepcopy(app)], 'volumes': []}
    d, rs = deploy('reviews-v1', ns_, labels, 1, '545db77b95', spec, ready=1, created=86400 * 20, generation=3)
    created = 6 * 3600 + 200
    p = mkpod('reviews-v1-545db77b95-v44zk', ns_, n1['metadata']['name'], containers, [running('reviews', img, created - 10), running('istio-proxy', pimg, created - 10)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '545db77b95', 'security.istio.io/tlsMode': 'istio', 'service.istio.io/canonical-name': 'reviews'},
              init=init, init_statuses=[done_init('istio-init', iimg, created - 6, created - 5, 'rev-init')], spec_extra={'volumes': vols})
    p['metadata']['annotations'] = {'sidecar.istio.io/status': '{"version":"1.7.2","initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["istio-envoy","istio-data","istio-podinfo","istiod-ca-cert"]}'}
    plog = ['%s\tinfo\tsds\tresource:default pushed key/cert pair to proxy' % ts(created - 8),
            '%s\tinfo\tEnvoy proxy is ready' % ts(created - 7)]
    for k in range(12):
        at = created - 1800 * (k + 1) + 15
        if at <= 0: break
        plog.append('%s\twarning\tenvoy config\tStreamAggregatedResources gRPC config stream closed: 13, ' % ts(at))
        plog.append('%s\tinfo\txdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012' % ts(at - 1))
    alog = ['[AUDIT   ] CWWKZ0001I: Application reviews-app started in 2.139 seconds.', '[AUDIT   ] CWWKF0011I: The defaultServer server is ready to run a smarter planet.']
    objs = [ns(ns_, meta={'labels': {'istio-injection': 'enabled'}}), n1, n2, d, rs, p, service('reviews', ns_, {'app': 'reviews'}, ports=((9080, 9080),)),
            endpoints('reviews', ns_, ready=[(p['status']['podIP'], p['metadata']['name'], n1['metadata']['name'])], port=9080),
            podlog(ns_, p['metadata']['name'], 'istio-proxy', plog, previous=False), podlog(ns_, p['metadata']['name'], 'reviews', alog, previous=False)] + noise([n1, n2], kv)
    case('f5a-neg-istio-xds-stream-closed-13', 'Healthy: reviews pod Ready for six hours; its Envoy sidecar logs "gRPC config stream closed: 13" every 30 minutes, when istiod rebalances the xDS connection on purpose',
         'https://github.com/istio/istio/issues/27532', 'This is expected: https://github.com/istio/istio/wiki/Troubleshooting-Istio#common-issues',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# =====================================================================================
# N3. negative: pods of a Helm release started after a few FailedMount "failed to sync configmap
#     cache" retries while the API server was slow; Running and Ready since
# =====================================================================================
@reg
def neg_configmap_cache_sync():
    ns_ = 'spm'
    kv = 'v1.19.4'
    n1 = mknode('minikube', kubelet=kv, runtime='docker://19.3.13', kernel='4.19.150', os_image='Buildroot 2020.02.7', labels={'minikube.k8s.io/name': 'minikube', 'node-role.kubernetes.io/master': ''})
    img = 'spm-registry.local:5000/spm/producer:8.0.0.0'
    labels = {'app': 'spm-producer', 'release': 'spm'}
    cms = ['ejb-bindings', 'jms-config', 'server-config', 'logging-config']
    c = {'name': 'producer', 'image': img, 'ports': [{'containerPort': 9443}], 'readinessProbe': {'httpGet': {'path': '/health', 'port': 9443, 'scheme': 'HTTPS'}, 'periodSeconds': 10},
         'volumeMounts': [{'name': n_, 'mountPath': '/config/%s' % n_} for n_ in cms]}
    containers, vols = with_api([c], [{'name': n_, 'configMap': {'name': 'spm-%s' % n_}} for n_ in cms], 'spm-prod')
    d, rs = deploy('spm-producer', ns_, labels, 1, '6cb58f7d49', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, created=3600, generation=1)
    created = 3500
    p = mkpod('spm-producer-6cb58f7d49-hx7pn', ns_, 'minikube', containers, [running('producer', img, created - 130)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6cb58f7d49'}, spec_extra={'volumes': vols}, conditions=conds(created, True, since=created - 260))
    p['status']['containerStatuses'][0]['containerID'] = p['status']['containerStatuses'][0]['containerID'].replace('containerd://', 'docker://')
    evs = [scheduled(p, 'minikube', created - 1)]
    for n_ in cms:
        evs.append(ev(p, 'FailedMount', 'MountVolume.SetUp failed for volume "%s" : failed to sync configmap cache: timed out waiting for the condition' % n_, count=2, first=created - 4, last=created - 70, host='minikube'))
    evs += [ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=created - 125, host='minikube', fieldPath=fp('producer')),
            ev(p, 'Created', 'Created container producer', 'Normal', last=created - 128, host='minikube', fieldPath=fp('producer')),
            ev(p, 'Started', 'Started container producer', 'Normal', last=created - 129, host='minikube', fieldPath=fp('producer')),
            unhealthy(p, 'minikube', 'producer', 'Get "https://%s:9443/health": dial tcp %s:9443: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), 9, created - 140, created - 250)]
    log = ['[AUDIT   ] CWWKE0001I: The server spmServer has been launched.', '[AUDIT   ] CWWKZ0001I: Application Curam started in 98.412 seconds.',
           '[AUDIT   ] CWWKF0011I: The spmServer server is ready to run a smarter planet. The spmServer server started in 121.733 seconds.']
    objs = [ns(ns_), n1, d, rs, p] + [configmap('spm-%s' % n_, ns_, {'%s.xml' % n_: '<server/>'}, created=3600) for n_ in cms] + evs + \
           [podlog(ns_, p['metadata']['name'], 'producer', log, previous=False)] + noise([n1], kv, dns_image='k8s.gcr.io/coredns:1.7.0')
    case('f5a-neg-configmap-cache-sync-timeout-at-start', 'Healthy: SPM producer Ready for 55 minutes; at its start the kubelet retried its ConfigMap volumes ("failed to sync configmap cache") while the API server was still busy',
         'https://github.com/merative/curam-kubernetes/issues/64',
         'MountVolume.SetUp failed for volume "ejb-bindings" : failed to sync configmap cache: timed out waiting for the condition',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# =====================================================================================
# N4. negative: a controller manager logs "Waited for ... due to client-side throttling" endlessly;
#     its own client rate limiter, not a failure (Ready, serving)
# =====================================================================================
@reg
def neg_client_side_throttling():
    ns_ = 'kubermatic'
    kv = 'v1.22.9-gke.1300'
    n1 = mknode('gke-kkp-master-pool-7f1a2c3d-h8qz', kubelet=kv, runtime='containerd://1.5.11', kernel='5.10.109+', os_image='Container-Optimized OS from Google')
    n2 = mknode('gke-kkp-master-pool-7f1a2c3d-x2lp', kubelet=kv, runtime='containerd://1.5.11', kernel='5.10.109+', os_image='Container-Optimized OS from Google')
    img = 'quay.io/kubermatic/kubermatic:v2.20.4'
    labels = {'app.kubernetes.io/name': 'kubermatic-master-controller-manager'}
    c = {'name': 'controller-manager', 'image': img, 'command': ['master-controller-manager'], 'args': ['-internal-address=0.0.0.0:8085', '-worker-count=20', '-log-format=Console'],
         'ports': [{'containerPort': 8085, 'name': 'metrics'}], 'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8085}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '50m', 'memory': '128Mi'}, 'limits': {'cpu': '500m', 'memory': '1Gi'}}}
    containers, vols = with_api([c], [], 'kkp-mcm')
    d, rs = deploy('kubermatic-master-controller-manager', ns_, labels, 2, '7d8b9c6f54', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 50, generation=8)
    created = 86400 * 3
    p = mkpod('kubermatic-master-controller-manager-7d8b9c6f54-r2w8k', ns_, n1['metadata']['name'], containers, [running('controller-manager', img, created - 20)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7d8b9c6f54'}, sa='kubermatic-master-controller-manager', spec_extra={'volumes': vols})
    q = mkpod('kubermatic-master-controller-manager-7d8b9c6f54-b5mzt', ns_, n2['metadata']['name'], containers, [running('controller-manager', img, created - 30)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7d8b9c6f54'}, sa='kubermatic-master-controller-manager', spec_extra={'volumes': vols})
    projects = ['khl9dl5ww6', 'fdq97nnpkt', 'bhjxf2rkkq', 'rqqgjn8krd', 'w7xk2m4bq9', 'p3z8v6t1sd']
    log = ['{"level":"info","time":"%s","logger":"kkp-master-ctrl-mgr","msg":"starting the master-controller-manager"}' % ts(created - 18),
           '{"level":"info","time":"%s","msg":"Starting workers","controller":"project-label-synchronizer","worker count":20}' % ts(created - 12)]
    for k in range(30):
        t = NOW_MINUS(300 - k * 10 + 0.05 * k)
        log.append('I%s %s       1 request.go:533] Waited for %dms due to client-side throttling, not priority and fairness, request: GET:https://10.47.240.1:443/apis/kubermatic.k8c.io/v1/projects/%s'
                   % (t.strftime('%m%d'), t.strftime('%H:%M:%S.%f'), 990 + (k * 7) % 9, projects[k % len(projects)]))
    objs = [ns(ns_), n1, n2, d, rs, p, q, serviceaccount('kubermatic-master-controller-manager', ns_), podlog(ns_, p['metadata']['name'], 'controller-manager', log, previous=False)] + noise([n1, n2], kv)
    case('f5a-neg-controller-client-side-throttling-logs', 'Healthy: master controller manager Ready for three days; it logs "Waited for ...ms due to client-side throttling" several times a second, its own client rate limiter at work',
         'https://github.com/kubermatic/kubermatic/issues/10238',
         'I0704 11:00:40.162187       1 request.go:533] Waited for 994.826141ms due to client-side throttling, not priority and fairness',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# =====================================================================================
# N5. negative: aws-node restarted once at node start (IPAMD not reachable in time); every run since
#     is fine: Ready for hours (DaemonSet)
# =====================================================================================
@reg
def neg_aws_node_restart_at_boot():
    ns_ = 'kube-system'
    kv = 'v1.29.8-eks-a737599'
    n1 = mknode('ip-192-168-12-201.eu-central-1.compute.internal', kubelet=kv, runtime='containerd://1.7.20', kernel='5.10.225-213.878.amzn2.x86_64', os_image='Amazon Linux 2',
                ip='192.168.12.201', created=7 * 3600, labels={'eks.amazonaws.com/nodegroup': 'ng-general'})
    n2 = mknode('ip-192-168-40-17.eu-central-1.compute.internal', kubelet=kv, runtime='containerd://1.7.20', kernel='5.10.225-213.878.amzn2.x86_64', os_image='Amazon Linux 2',
                ip='192.168.40.17', labels={'eks.amazonaws.com/nodegroup': 'ng-general'})
    img, iimg = '602401143452.dkr.ecr.eu-central-1.amazonaws.com/amazon-k8s-cni:v1.18.3-eksbuild.2', '602401143452.dkr.ecr.eu-central-1.amazonaws.com/amazon-k8s-cni-init:v1.18.3-eksbuild.2'
    labels = {'k8s-app': 'aws-node'}
    probe = {'exec': {'command': ['/app/grpc-health-probe', '-addr=:50051', '-connect-timeout=5s', '-rpc-timeout=5s']}, 'timeoutSeconds': 10}
    c = {'name': 'aws-node', 'image': img, 'readinessProbe': {**probe, 'initialDelaySeconds': 1}, 'livenessProbe': {**probe, 'initialDelaySeconds': 60},
         'securityContext': {'capabilities': {'add': ['NET_ADMIN', 'NET_RAW']}}, 'resources': {'requests': {'cpu': '25m'}}}
    init = [{'name': 'aws-vpc-cni-init', 'image': iimg, 'securityContext': {'privileged': True}}]
    ds = daemonset('aws-node', ns_, labels, 2, 2, {'hostNetwork': True, 'initContainers': copy.deepcopy(init), 'containers': [copy.deepcopy(c)]}, created=86400 * 120)
    created = 7 * 3600 - 40
    last = term(1, 'Error', created - 20, created - 75, seed='awsnode-0')
    p = mkpod('aws-node-7xk4p', ns_, n1['metadata']['name'], [c], [running('aws-node', img, created - 80, restarts=1, last=last)], created, owner=('DaemonSet', 'aws-node'),
              labels=dict(labels), init=init, init_statuses=[done_init('aws-vpc-cni-init', iimg, created - 8, created - 6, 'awsnode-init')],
              spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'aws-node'}, sa='aws-node')
    p['status']['conditions'] = conds(created, True, since=created - 95)
    J = lambda s_, m: '{"level":"info","ts":"%s","caller":"entrypoint.sh","msg":"%s"}' % (ts(s_, '%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z', m)
    prev = [J(created - 20, 'Validating env variables ...'), J(created - 20, 'Install CNI binaries..'), J(created - 21, 'Starting IPAM daemon in the background ... '),
            J(created - 21, 'Checking for IPAM connectivity ... ')] + [J(created - 23 - 2 * k, 'Retrying waiting for IPAM-D') for k in range(26)] + \
           ['{"level":"error","ts":"%s","caller":"entrypoint.sh","msg":"timed out waiting for IPAM daemon to start"}' % (ts(created - 76, '%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z')]
    cur = [J(created - 81, 'Validating env variables ...'), J(created - 81, 'Install CNI binaries..'), J(created - 82, 'Starting IPAM daemon in the background ... '),
           J(created - 82, 'Checking for IPAM connectivity ... '), J(created - 88, 'Copying config file ... '), J(created - 88, 'Successfully copied CNI plugin binary and config file.'),
           J(created - 89, 'Foregrounding IPAM daemon ...')]
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1), node_event(n1, 'Starting', 'Starting kubelet.', last=created + 10), node_event(n1, 'NodeReady', 'Node %s status is now: NodeReady' % nn, last=created - 100),
           ev(p, 'Unhealthy', 'Readiness probe failed: {"level":"info","ts":"%s","caller":"/root/sdk/go1.22.5/src/runtime/proc.go:271","msg":"timeout: failed to connect service \\":50051\\" within 5s"}' % (ts(created - 30, '%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z'),
              count=6, first=created - 25, last=created - 75, host=nn, fieldPath=fp('aws-node')),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=2, first=created - 15, last=created - 78, host=nn, fieldPath=fp('aws-node')),
           ev(p, 'Started', 'Started container aws-node', 'Normal', count=2, first=created - 18, last=created - 80, host=nn, fieldPath=fp('aws-node'))]
    q = mkpod('aws-node-m9d2c', ns_, n2['metadata']['name'], [c], [running('aws-node', img, 86400 * 20)], 86400 * 20, owner=('DaemonSet', 'aws-node'), labels=dict(labels),
              spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'}, sa='aws-node')
    objs = [ns(ns_), n1, n2, ds, p, q, serviceaccount('aws-node', ns_)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'aws-node', prev), podlog(ns_, p['metadata']['name'], 'aws-node', cur, previous=False)] + noise([n1, n2], 'v1.29.7-eksbuild.5', proxy=True)
    case('f5a-neg-aws-node-restart-at-node-start', 'Healthy: aws-node Ready for seven hours; its first run at node start timed out waiting for IPAMD and restarted once, every run since is fine',
         'https://github.com/aws/amazon-vpc-cni-k8s/issues/1049', 'the initial `aws-node` Pod startup is failing ... The subsequent runs are always successful.',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


if __name__ == '__main__':
    for f in CASES5:
        f()
    print('wrote %d cases' % len(CASES5))
