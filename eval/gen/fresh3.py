# Evaluation corpus, FRESH3 split (slug prefix f3-): public incidents written a session after the
# mechanism work of issue 32 by an author who saw only that issue's text, the case format, the
# authoring helpers and the list of rule ids and titles: never the rules, the mechanism catalogue,
# their tests or the other cases. Nine positives are classes no rule names (expect.first: any, with
# the mechanism terms taken from each report's own resolution: the knob that fixes it); eight are
# named classes in shapes not seen before; seven are healthy or finished pods with the noise their
# reports asked about. Each dump's wording comes from its report; the expectation was decided from
# the report before any run and is never changed to change a verdict.
# Run: python3 eval/gen/fresh3.py (writes eval/corpus/f3-*/)
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, conds, deploy, ...)
from fresh import _strings
from fresh2 import set_status, with_api, noise, sts, unhealthy
from blind import make_case

SPLIT = 'fresh3'


case = make_case('f3-', SPLIT)


CASES3 = []
def reg(f):
    CASES3.append(f)
    return f


# ---------------------------------------------------------------- helpers (this file only)
def rs_pod(d, rs, hash_, suffix, node_name, containers, statuses, created, vols=(), labels=None, sa='default', spec_extra=None, **kw):
    """A pod of a Deployment's ReplicaSet, with the template's volumes."""
    lab = {**(labels or d['spec']['selector']['matchLabels']), 'pod-template-hash': hash_}
    extra = {'volumes': list(vols), **(spec_extra or {})}
    return mkpod('%s-%s-%s' % (d['metadata']['name'], hash_, suffix), d['metadata']['namespace'], node_name, containers, statuses, created,
                 owner=('ReplicaSet', rs['metadata']['name']), labels=lab, sa=sa, spec_extra=extra, **kw)


def crashloop_events(p, node_name, image, cname, created, restarts, last_start, backoffs, size=48213392, init=False):
    """Scheduled, first pull/start, the restarts and the back-off of a crash-looping container."""
    return [scheduled(p, node_name, created - 1)] + started(p, node_name, image, cname, created - 4, size=size, init=init) + \
        restarted(p, node_name, image, cname, restarts, created - 60, last_start, init=init) + [backoff(p, node_name, cname, backoffs, created - 90, 9,
            init=init)]


def L(s_, fmt='%Y-%m-%dT%H:%M:%S.%fZ', cut=0):
    out = ts(s_, fmt)
    return out[:-cut] if cut else out


def clusterrole(name, rules, created=86400 * 30):
    return obj('ClusterRole', 'rbac.authorization.k8s.io/v1', name, None, created, rules=rules)


def clusterrolebinding(name, role, sa_name, sa_ns, created=86400 * 30):
    return obj('ClusterRoleBinding', 'rbac.authorization.k8s.io/v1', name, None, created,
               roleRef={'apiGroup': 'rbac.authorization.k8s.io', 'kind': 'ClusterRole', 'name': role},
               subjects=[{'kind': 'ServiceAccount', 'name': sa_name, 'namespace': sa_ns}])


EKS_OS = 'Amazon Linux 2'


# =====================================================================================
# 1. mechanism: PostgreSQL refuses its TLS key: the Secret volume's default mode 0644 gives the
#    group and others read access (Running, not Ready: Patroni keeps restarting the postmaster)
# =====================================================================================
@reg
def pg_tls_key_mode():
    ns_ = 'orang'
    kv = 'v1.28.9'
    n1 = mknode('worker-b-01', kubelet=kv, runtime='containerd://1.7.13', kernel='5.15.0-105-generic', os_image='Ubuntu 22.04.4 LTS')
    n2 = mknode('worker-b-02', kubelet=kv, runtime='containerd://1.7.13', kernel='5.15.0-105-generic', os_image='Ubuntu 22.04.4 LTS')
    cl = 'orang-5f9bbdfd77'
    img, bouncer_img, lorry_img = 'apecloud/spilo:14.8.0-pgvector-v0.6.1', 'bitnami/pgbouncer:1.19.0', 'apecloud/kubeblocks-tools:0.8.2'
    labels = {'app.kubernetes.io/instance': cl, 'app.kubernetes.io/managed-by': 'kubeblocks', 'apps.kubeblocks.io/component-name': 'postgresql'}
    pg = {'name': 'postgresql', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['/kb-scripts/postgres-pre-setup.sh'],
          'env': [{'name': 'ALLOW_NOSSL', 'value': 'false'}, {'name': 'PGROOT', 'value': '/home/postgres/pgdata'}, {'name': 'PGUSER_SUPERUSER',
              'value': 'postgres'},
                  {'name': 'KUBERNETES_USE_CONFIGMAPS', 'value': 'true'}, {'name': 'SCOPE', 'value': cl + '-postgresql'}, {'name': 'SPILO_CONFIGURATION',
                      'value': 'bootstrap:\n  initdb:\n  - '
                          'auth-host: md5\n  - auth-local: trust\n'},
                  {'name': 'SSL_CERTIFICATE_FILE', 'value': '/etc/pki/tls/tls.crt'}, {'name': 'SSL_PRIVATE_KEY_FILE', 'value': '/etc/pki/tls/tls.key'},
                      {'name': 'SSL_CA_FILE', 'value': '/etc/pki/tls/ca.crt'}],
          'ports': [{'containerPort': 5432, 'name': 'tcp-postgresql'}, {'containerPort': 8008, 'name': 'patroni'}],
          'readinessProbe': {'exec': {'command': ['/bin/sh', '-c', '-ee', 'exec pg_isready -U "postgres" -h 127.0.0.1 -p 5432\n[ -f '
                                                                          '/postgresql/tmp/.initialized ] || [ -f /postgresql/.initialized ]']},
                             'initialDelaySeconds': 10, 'periodSeconds': 30, 'timeoutSeconds': 5, 'failureThreshold': 3},
          'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'cpu': '1', 'memory': '2Gi'}},
          'securityContext': {'runAsUser': 0},
          'volumeMounts': [{'name': 'data', 'mountPath': '/home/postgres/pgdata'}, {'name': 'dshm', 'mountPath': '/dev/shm'},
                           {'name': 'tls', 'mountPath': '/etc/pki/tls'}, {'name': 'scripts', 'mountPath': '/kb-scripts'}]}
    pb = {'name': 'pgbouncer', 'image': bouncer_img, 'ports': [{'containerPort': 6432, 'name': 'tcp-pgbouncer'}],
          'env': [{'name': 'PGBOUNCER_DATABASE', 'value': 'postgres'}, {'name': 'POSTGRESQL_HOST', 'value': '127.0.0.1'}],
          'readinessProbe': {'tcpSocket': {'port': 6432}, 'periodSeconds': 10}, 'resources': {'limits': {'cpu': '100m', 'memory': '128Mi'}}}
    lo = {'name': 'lorry', 'image': lorry_img, 'command': ['lorry', '--port', '3501', '--grpcport', '50001'], 'ports': [{'containerPort': 3501,
        'name': 'lorry-http-port'}],
          'resources': {'limits': {'cpu': '0', 'memory': '0'}}}
    vols = [{'name': 'dshm', 'emptyDir': {'medium': 'Memory', 'sizeLimit': '1Gi'}},
            {'name': 'tls', 'secret': {'secretName': cl + '-postgresql-tls-certs', 'defaultMode': 420, 'items': [
                {'key': 'ca.crt', 'path': 'ca.crt'}, {'key': 'tls.crt', 'path': 'tls.crt'}, {'key': 'tls.key', 'path': 'tls.key'}]}},
            {'name': 'scripts', 'configMap': {'name': cl + '-postgresql-scripts', 'defaultMode': 365}},
            {'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-%s-postgresql-1' % cl}}]
    containers, vols = with_api([pg, pb, lo], vols, 'orang-pg-1')
    sec = {'fsGroup': 103, 'runAsGroup': 103, 'runAsUser': 0}
    spec = {'serviceAccountName': 'kb-' + cl, 'securityContext': sec, 'containers': copy.deepcopy(containers), 'volumes': vols}
    ss = sts(cl + '-postgresql', ns_, labels, 2, spec, ready=1, service=cl + '-postgresql-headless')
    created = 2400
    pname = cl + '-postgresql-1'
    p = mkpod(pname, ns_, 'worker-b-02', containers, [running('postgresql', img, created - 30, ready=False), running('pgbouncer', bouncer_img, created - 30),
                                                     running('lorry', lorry_img, created - 30)], created, owner=('StatefulSet', cl + '-postgresql'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': pname, 'apps.kubernetes.io/pod-index': '1', 'kubeblocks.io/role': 'secondary'},
                  sa='kb-' + cl,
              spec_extra={'volumes': vols, 'securityContext': sec, 'hostname': pname, 'subdomain': cl + '-postgresql-headless'})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    P = lambda s_: L(s_, '%Y-%m-%d %H:%M:%S,%f', 3)
    G = lambda s_: L(s_, '%Y-%m-%d %H:%M:%S GMT')
    logs = ['%s INFO: Selected new K8s API server endpoint https://10.96.0.1:443' % P(2350),
            '%s INFO: No PostgreSQL configuration items changed, nothing to reload.' % P(2349)]
    for k, at in enumerate((2300, 1500, 640, 38)):
        pid = 213 + k * 97
        logs += ['%s INFO: Lock owner: %s-postgresql-0; I am %s' % (P(at), cl, pname),
                 '%s INFO: Local timeline=1 lsn=0/3000060' % P(at), '%s INFO: primary_timeline=1' % P(at),
                 '%s INFO: Lock owner: %s-postgresql-0; I am %s' % (P(at), cl, pname), '%s INFO: starting as a secondary' % P(at),
                 '%s [%d]: [1-1] 6628c906.d5 0     LOG:  Auto detecting pg_stat_kcache.linux_hz parameter...' % (G(at), pid),
                 '%s [%d]: [2-1] 6628c906.d5 0     LOG:  pg_stat_kcache.linux_hz is set to 500000' % (G(at), pid),
                 '%s [%d]: [3-1] 6628c906.d5 0     LOG:  pgaudit extension initialized' % (G(at), pid),
                 '%s [%d]: [4-1] 6628c906.d5 0     FATAL:  private key file "/etc/pki/tls/tls.key" has group or world access' % (G(at), pid),
                 '%s [%d]: [5-1] 6628c906.d5 0     DETAIL:  File must have permissions u=rw (0600) or less if owned by the database user, or permissions '
                 'u=rw,g=r (0640) or less if owned by root.' % (G(at), pid),
                 '%s [%d]: [6-1] 6628c906.d5 0     LOG:  database system is shut down' % (G(at), pid),
                 '%s INFO: postmaster pid=%d' % (P(at - 1), pid), '/var/run/postgresql:5432 - no response',
                 '%s ERROR: postmaster is not running' % P(at - 2)]
    nn = 'worker-b-02'
    ip = p['status']['podIP']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'postgresql', created - 8, size=612004112) + started(p, nn, bouncer_img, 'pgbouncer',
        created - 12, present=True) + \
          started(p, nn, lorry_img, 'lorry', created - 14, present=True) + \
          [unhealthy(p, nn, 'postgresql', '127.0.0.1:5432 - no response\n', 77, created - 60, 25)]
    leader = mkpod(cl + '-postgresql-0', ns_, 'worker-b-01', containers, [running('postgresql', img, 86400 * 3), running('pgbouncer', bouncer_img, 86400 * 3),
                   running('lorry', lorry_img, 86400 * 3)], 86400 * 3, owner=('StatefulSet', cl + '-postgresql'),
                   labels={**labels, 'statefulset.kubernetes.io/pod-name': cl + '-postgresql-0', 'kubeblocks.io/role': 'primary'}, sa='kb-' + cl,
                       spec_extra={'volumes': vols, 'securityContext': sec})
    objs = [ns(ns_), n1, n2, ss, p, leader, serviceaccount('kb-' + cl, ns_), secret(cl + '-postgresql-tls-certs', ns_, ['ca.crt', 'tls.crt', 'tls.key'],
                                                                                    type_='kubernetes.io/tls'),
            configmap(cl + '-postgresql-scripts', ns_, {'postgres-pre-setup.sh': '#!/bin/bash\nset -o errexit\nexec /launch.sh init\n'}),
            claim('data-%s-postgresql-1' % cl, ns_, 'local-path', 'Bound', '20Gi', volume='pvc-' + uid('orang1'), provisioner='rancher.io/local-path',
                  selected_node=nn, created=created),
            service(cl + '-postgresql', ns_, {**labels, 'kubeblocks.io/role': 'primary'}, ports=((5432, 5432), (6432, 6432)))] + evs + \
           [podlog(ns_, pname, 'postgresql', logs, previous=False),
            podlog(ns_, pname, 'lorry', ['%s INFO  DB startup ready' % P(2390), '%s INFO  send event: map[event:Success operation:checkRole originalRole: '
                                                                                'role:secondary]' % P(2380)], previous=False)] + \
           noise([n1, n2], kv)
    case('f3-postgres-tls-key-secret-mode-not-ready', 'PostgreSQL replica of a KubeBlocks cluster Running but never Ready: the TLS key mounted from a Secret '
                                                      '(mode 0644) is refused',
         'https://github.com/apecloud/kubeblocks/issues/7157',
         'FATAL:  private key file "/etc/pki/tls/tls.key" has group or world access',
         '%s/%s' % (ns_, pname), 'any', objs, decisive='private key file "/etc/pki/tls/tls.key" has group or world access', playbook=None,
         terms=[['defaultMode', '0600', '0640']])


# =====================================================================================
# 2. mechanism: Click refuses to run under an ASCII locale: the image sets no LANG/LC_ALL
# =====================================================================================
@reg
def click_ascii():
    ns_ = 'concept-to-clinic'
    kv = 'v1.29.8'
    n1 = mknode('pool-ml-1', kubelet=kv, runtime='containerd://1.7.20', kernel='6.1.0-25-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('pool-ml-2', kubelet=kv, runtime='containerd://1.7.20', kernel='6.1.0-25-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'registry.example.org/concept-to-clinic/prediction:0.7.2'
    labels = {'app': 'prediction'}
    c = {'name': 'prediction', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['flask'], 'args': ['run', '--host=0.0.0.0', '--port=8001'],
         'env': [{'name': 'FLASK_APP', 'value': 'src/factory.py'}, {'name': 'FLASK_DEBUG', 'value': '0'},
                 {'name': 'PYTHONPATH', 'value': '/usr/src/app'}, {'name': 'DATA_DIR', 'value': '/images'}],
         'ports': [{'containerPort': 8001, 'name': 'http'}],
         'readinessProbe': {'httpGet': {'path': '/', 'port': 8001}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '4Gi'}},
         'volumeMounts': [{'name': 'images', 'mountPath': '/images', 'readOnly': True}]}
    containers, vols = with_api([c], [{'name': 'images', 'persistentVolumeClaim': {'claimName': 'lidc-images', 'readOnly': True}}], 'c2c-pred')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('prediction', ns_, labels, 1, '7d9b6f5c48', spec, ready=0, created=86400 * 4, generation=6)
    created = 1700
    p = rs_pod(d, rs, '7d9b6f5c48', 'q8wzt', 'pool-ml-2', containers, [running('prediction', img, 60)], created, vols)
    set_status(p, [clbo(p, 'prediction', img, 8, term(1, 'Error', 330, 329, seed='pred-8'))], created)
    logs = ['Traceback (most recent call last):',
            '  File "/usr/local/bin/flask", line 11, in <module>', '    sys.exit(main())',
            '  File "/usr/local/lib/python3.6/dist-packages/flask/cli.py", line 513, in main', '    cli.main(args=args, prog_name=name)',
            '  File "/usr/local/lib/python3.6/dist-packages/flask/cli.py", line 380, in main', '    return AppGroup.main(self, *args, **kwargs)',
            '  File "/usr/local/lib/python3.6/dist-packages/click/core.py", line 676, in main', '    _verify_python3_env()',
            '  File "/usr/local/lib/python3.6/dist-packages/click/_unicodefun.py", line 118, in _verify_python3_env', "    'for mitigation steps.' + extra)",
            'RuntimeError: Click will abort further execution because Python 3 was configured to use ASCII as encoding for the environment.  Consult '
            'http://click.pocoo.org/python3/for mitigation steps.',
            '', 'This system supports the C.UTF-8 locale which is recommended.', 'You might be able to resolve your issue by exporting the',
                'following environment variables:', '',
            '    export LC_ALL=C.UTF-8', '    export LANG=C.UTF-8']
    nn = 'pool-ml-2'
    evs = crashloop_events(p, nn, img, 'prediction', created, 8, 330, 36, size=1840220311)
    ui_img = 'registry.example.org/concept-to-clinic/interface:0.7.2'
    ud, urs = deploy('interface', ns_, {'app': 'interface'}, 1, '5b8c7f9d6', {'containers': [{'name': 'interface', 'image': ui_img}]}, created=86400 * 4,
                     generation=6)
    up = rs_pod(ud, urs, '5b8c7f9d6', 'mx4kd', 'pool-ml-1', [{'name': 'interface', 'image': ui_img}], [running('interface', ui_img, 1690)], 1700)
    ulog = ['[%s] [1] [INFO] Starting gunicorn 19.7.1' % L(1690, '%Y-%m-%d %H:%M:%S +0000'),
            '[%s] [9] [ERROR] Prediction service unavailable: HTTPConnectionPool(host=\'prediction\', port=8001): Max retries exceeded with url: '
            '/classify/predict/ (Caused by NewConnectionError(\'<urllib3.connection.HTTPConnection object at 0x7f3a1c2b5f98>: Failed to establish a new '
            'connection: [Errno 111] Connection refused\',))' % L(120, '%Y-%m-%d %H:%M:%S +0000')]
    objs = [ns(ns_), n1, n2, d, rs, p, ud, urs, up, claim('lidc-images', ns_, 'nfs-client', 'Bound', '120Gi', volume='pvc-' + uid('lidc'),
                                                          provisioner='cluster.local/nfs-subdir-external-provisioner', access=('ReadOnlyMany',),
                                                              created=86400 * 30),
            service('prediction', ns_, labels, ports=((8001, 8001),)), endpoints('prediction', ns_, not_ready=[(p['status']['podIP'], p['metadata']['name'],
                nn)], port=8001)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'prediction', logs), podlog(ns_, up['metadata']['name'], 'interface', ulog, previous=False)] + noise([n1, n2],
               kv)
    case('f3-flask-click-ascii-locale', 'A Flask service crash-loops at start: Click aborts because the container runs with an ASCII locale (no LANG/LC_ALL '
                                        'set)',
         'https://github.com/drivendataorg/concept-to-clinic/issues/152',
         'RuntimeError: Click will abort further execution because Python 3 was configured to use ASCII as encoding for the environment.  Consult '
         'http://click.pocoo.org/python3/for mitigation steps.',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='Python 3 was configured to use ASCII as encoding for the environment', playbook=None,
         terms=[['LC_ALL', 'LANG', 'locale']])


# =====================================================================================
# 3. mechanism: V8's default old-space ceiling, not the cgroup: langfuse-web dies with a heap
#    OOM (exit 134) far under its 1Gi limit; NODE_OPTIONS sets no --max-old-space-size
# =====================================================================================
@reg
def langfuse_heap():
    ns_ = 'langfuse'
    kv = 'v1.31.4+k3s1'
    n1 = mknode('k3s-a', kubelet=kv, runtime='containerd://1.7.23-k3s2', kernel='6.8.0-49-generic', os_image='Ubuntu 24.04.1 LTS',
                labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
    n2 = mknode('k3s-b', kubelet=kv, runtime='containerd://1.7.23-k3s2', kernel='6.8.0-49-generic', os_image='Ubuntu 24.04.1 LTS')
    img, wimg = 'langfuse/langfuse:3.63.0', 'langfuse/langfuse-worker:3.63.0'
    labels = {'app.kubernetes.io/name': 'langfuse', 'app.kubernetes.io/instance': 'langfuse', 'app': 'web'}
    env = [{'name': 'DATABASE_URL', 'valueFrom': {'secretKeyRef': {'name': 'langfuse-postgres', 'key': 'url'}}}, {'name': 'NEXTAUTH_URL',
        'value': 'https://langfuse.home.example'},
           {'name': 'CLICKHOUSE_URL', 'value': 'http://langfuse-clickhouse:8123'}, {'name': 'REDIS_HOST', 'value': 'langfuse-redis-primary'},
           {'name': 'LANGFUSE_S3_EVENT_UPLOAD_BUCKET', 'value': 'langfuse'}, {'name': 'HOSTNAME', 'value': '0.0.0.0'}, {'name': 'PORT', 'value': '3000'}]
    c = {'name': 'langfuse-web', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'env': env, 'ports': [{'containerPort': 3000, 'name': 'http'}],
         'livenessProbe': {'httpGet': {'path': '/api/public/health', 'port': 'http'}, 'initialDelaySeconds': 20, 'periodSeconds': 10, 'timeoutSeconds': 5,
                           'failureThreshold': 3},
         'readinessProbe': {'httpGet': {'path': '/api/public/ready', 'port': 'http'}, 'initialDelaySeconds': 20, 'periodSeconds': 10, 'timeoutSeconds': 5},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 1001}}
    containers, vols = with_api([c], [], 'langfuse-web')
    spec = {'serviceAccountName': 'langfuse', 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('langfuse-web', ns_, {'app.kubernetes.io/name': 'langfuse', 'app': 'web'}, 1, '6f7d9c8b5d', spec, ready=0, created=86400 * 20, generation=11)
    created = 86400 * 2
    p = rs_pod(d, rs, '6f7d9c8b5d', 'vk2tq', 'k3s-b', containers, [running('langfuse-web', img, 60)], created, vols, labels=dict(labels), sa='langfuse')
    set_status(p, [clbo(p, 'langfuse-web', img, 24, term(134, 'Error', 210, 187, seed='lf-24'))], created)
    logs = ['Script executed successfully.', 'Prisma schema loaded from packages/shared/prisma/schema.prisma',
            'Datasource "db": PostgreSQL database "langfuse", schema "public" at "langfuse-postgresql:5432"', '', '243 migrations found in prisma/migrations',
                '',
            'No pending migrations to apply.', 'Running init scripts...', '',
            '<--- Last few GCs --->', '',
            '[1:0x6f4a0c0]    21884 ms: Mark-Compact 506.8 (521.3) -> 503.9 (522.8) MB, pooled: 0 MB, 412.17 / 0.00 ms  (average mu = 0.172, current mu = '
            '0.061) allocation failure; scavenge might not succeed',
            '[1:0x6f4a0c0]    22391 ms: Mark-Compact 507.2 (523.1) -> 505.0 (524.6) MB, pooled: 0 MB, 481.66 / 0.00 ms  (average mu = 0.109, current mu = '
            '0.050) allocation failure; scavenge might not succeed',
            '', '', '<--- JS stacktrace --->', '',
            'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
            '----- Native stack trace -----', '',
            ' 1: 0xe1a5d6 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [next-server (v15.5.9)]',
            ' 2: 0x11e7860 v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [next-server (v15.5.9)]',
            ' 3: 0x11e7b37 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [next-server (v15.5.9)]',
            ' 4: 0x1415605  [next-server (v15.5.9)]',
            ' 5: 0x142f3f9 v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason, v8::GCCallbackFlags) '
            '[next-server (v15.5.9)]']
    nn = 'k3s-b'
    evs = crashloop_events(p, nn, img, 'langfuse-web', created, 24, 210, 391, size=412558001) + \
          [unhealthy(p, nn, 'langfuse-web', 'Get "http://%s:3000/api/public/ready": dial tcp %s:3000: connect: connection refused' % (p['status']['podIP'],
              p['status']['podIP']), 52, created - 30, 195)]
    wd, wrs = deploy('langfuse-worker', ns_, {'app.kubernetes.io/name': 'langfuse', 'app': 'worker'}, 1, '58c9d7f6b4',
                     {'containers': [{'name': 'langfuse-worker', 'image': wimg}]}, created=86400 * 20, generation=11)
    wp = rs_pod(wd, wrs, '58c9d7f6b4', 'p7xnc', 'k3s-a', [{'name': 'langfuse-worker', 'image': wimg, 'resources': {'limits': {'memory': '1Gi'}}}],
                [running('langfuse-worker', wimg, created - 20)], created,
                labels={'app.kubernetes.io/name': 'langfuse', 'app': 'worker'}, sa='langfuse')
    wlog = ['%s info     Listening: http://%s:3030' % (L(created - 18), wp['status']['podIP']),
            '%s info     Starting ClickhouseWriter. Max interval: 1000 ms, Max batch size: 1000' % L(created - 17),
            '%s warn     Redis connection to langfuse-redis-primary:6379 lost, retrying' % L(86400 + 300)]
    objs = [ns(ns_), n1, n2, d, rs, p, wd, wrs, wp, serviceaccount('langfuse', ns_), secret('langfuse-postgres', ns_, ['url']),
            service('langfuse-web', ns_, {'app.kubernetes.io/name': 'langfuse', 'app': 'web'}, ports=((3000, 3000),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'langfuse-web', logs), podlog(ns_, wp['metadata']['name'], 'langfuse-worker', wlog,
                                                                             previous=False)] + noise([n1, n2], kv, proxy=False,
                                                                                 dns_image='rancher/mirrored-coredns-coredns:1.11.3')
    case('f3-langfuse-web-v8-heap-limit', 'langfuse-web (Next.js) crash-loops with exit 134: V8 runs out of its default heap (~500 MB) during init scripts, '
                                          'well under the 1Gi limit',
         'https://github.com/rwlove/home-ops/pull/12561', 'Reached heap limit Allocation failed - JavaScript heap out of memory',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='Reached heap limit Allocation failed - JavaScript heap out of memory', playbook=None,
         terms=[['max-old-space-size', 'NODE_OPTIONS']])


# =====================================================================================
# 4. mechanism: chronyd must adjust the clock and the container has no CAP_SYS_TIME
# =====================================================================================
@reg
def chrony_sys_time():
    ns_ = 'ntp'
    kv = 'v1.30.5'
    nodes = [mknode('edge-%02d' % i, kubelet=kv, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)',
                    labels={'node-role.example.com/edge': 'true'}) for i in (1, 2, 3)]
    img = 'cturra/ntp:latest'
    labels = {'app': 'ntp'}
    c = {'name': 'ntp', 'image': img, 'imagePullPolicy': 'Always',
         'env': [{'name': 'NTP_SERVERS', 'value': 'time.cloudflare.com,0.pool.ntp.org'}, {'name': 'LOG_LEVEL', 'value': '0'}, {'name': 'TZ', 'value': 'UTC'}],
         'ports': [{'containerPort': 123, 'hostPort': 123, 'name': 'ntp', 'protocol': 'UDP'}],
         'livenessProbe': {'exec': {'command': ['chronyc', 'tracking']}, 'initialDelaySeconds': 10, 'periodSeconds': 60},
         'resources': {'requests': {'cpu': '10m', 'memory': '16Mi'}, 'limits': {'memory': '64Mi'}},
         'securityContext': {'readOnlyRootFilesystem': False, 'allowPrivilegeEscalation': False}}
    spec = {'containers': [copy.deepcopy(c)], 'nodeSelector': {'node-role.example.com/edge': 'true'}}
    ds = daemonset('ntp', ns_, labels, 3, 0, spec, created=86400 * 2)
    created = 1300
    pods, evs = [], []
    for i, n in enumerate(nodes):
        nn = n['metadata']['name']
        pn = 'ntp-' + ['4xk2p', 'b9q7m', 'tz6rw'][i]
        p = mkpod(pn, ns_, nn, [copy.deepcopy(c)], [running('ntp', img, 60)], created - i * 3, owner=('DaemonSet', 'ntp'), labels={**labels,
            'controller-revision-hash': '6d5f8b9c7', 'pod-template-generation': '1'},
                  spec_extra={'nodeSelector': {'node-role.example.com/edge': 'true'}})
        set_status(p, [clbo(p, 'ntp', img, 7 - i % 2, term(1, 'Error', 250 + i * 5, 250 + i * 5, seed=pn))], created - i * 3)
        pods.append(p)
        evs += [scheduled(p, nn, created - i * 3 - 1)] + started(p, nn, img, 'ntp', created - i * 3 - 4, size=5233101) + [backoff(p, nn, 'ntp', 30 - i,
            created - 90, 11 + i)]
        evs += [ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=7, first=created - 70, last=255 + i * 5, host=nn, fieldPath=fp('ntp'))]
    target = pods[1]
    logs = ['%s chronyd version 3.5.1 starting (+CMDMON +NTP +REFCLOCK +RTC +PRIVDROP -SCFILTER +SIGND +ASYNCDNS -SECHASH +IPV6 -DEBUG)' % L(255,
        '%Y-%m-%dT%H:%M:%SZ'),
            '%s Fatal error : adjtimex(0x8001) failed : Operation not permitted' % L(255, '%Y-%m-%dT%H:%M:%SZ')]
    objs = [ns(ns_)] + nodes + [ds] + pods + evs + [podlog(ns_, target['metadata']['name'], 'ntp', logs)] + noise(nodes[:2], kv)
    case('f3-chrony-daemonset-adjtimex-no-sys-time', 'An NTP DaemonSet (chrony) crash-loops on every edge node: chronyd may not adjust the clock, the '
                                                     'container lacks CAP_SYS_TIME',
         'https://github.com/cturra/docker-ntp/issues/28', 'ntp    | 2020-12-27T09:09:51Z Fatal error : adjtimex(0x8001) failed : Operation not permitted',
         '%s/%s' % (ns_, target['metadata']['name']), 'any', objs, decisive='Fatal error : adjtimex(0x8001) failed : Operation not permitted', playbook=None,
         terms=[['SYS_TIME', 'system clock']])


# =====================================================================================
# 5. mechanism: Spilo's start script raises the core-file limit; without CAP_SYS_RESOURCE the
#    hard limit cannot be raised (postgres-operator, spilo_privileged: false)
# =====================================================================================
@reg
def spilo_ulimit():
    ns_ = 'db'
    kv = 'v1.27.4'
    n1 = mknode('k8s-node-04', kubelet=kv, runtime='containerd://1.6.21', kernel='3.10.0-1160.90.1.el7.x86_64', os_image='CentOS Linux 7 (Core)')
    n2 = mknode('k8s-node-05', kubelet=kv, runtime='containerd://1.6.21', kernel='3.10.0-1160.90.1.el7.x86_64', os_image='CentOS Linux 7 (Core)')
    img = 'registry.opensource.zalan.do/acid/spilo-14:2.1-p6'
    cl = 'acid-pg-orders'
    labels = {'application': 'spilo', 'cluster-name': cl, 'team': 'acid'}
    c = {'name': 'postgres', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'SCOPE', 'value': cl}, {'name': 'PGROOT', 'value': '/home/postgres/pgdata/pgroot'}, {'name': 'POD_IP',
             'valueFrom': {'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'status.podIP'}}},
                 {'name': 'PGUSER_SUPERUSER', 'value': 'postgres'}, {'name': 'PGPASSWORD_SUPERUSER',
                                                                     'valueFrom': {'secretKeyRef': {'name': 'postgres.%s.credentials.postgr'
                         'esql.acid.zalan.do' % cl, 'key': 'password'}}},
                 {'name': 'PGVERSION', 'value': '14'}, {'name': 'KUBERNETES_SCOPE_LABEL', 'value': 'cluster-name'}, {'name': 'KUBERNETES_ROLE_LABEL',
                     'value': 'spilo-role'}],
         'ports': [{'containerPort': 8008, 'name': 'patroni'}, {'containerPort': 5432, 'name': 'postgresql'}, {'containerPort': 8080, 'name': 'pod-health'}],
         'resources': {'requests': {'cpu': '100m', 'memory': '100Mi'}, 'limits': {'cpu': '1', 'memory': '500Mi'}},
         'securityContext': {'allowPrivilegeEscalation': True, 'privileged': False, 'readOnlyRootFilesystem': False},
         'volumeMounts': [{'name': 'pgdata', 'mountPath': '/home/postgres/pgdata'}, {'name': 'dshm', 'mountPath': '/dev/shm'}]}
    vols = [{'name': 'pgdata', 'persistentVolumeClaim': {'claimName': 'pgdata-%s-0' % cl}}, {'name': 'dshm', 'emptyDir': {'medium': 'Memory'}}]
    containers, vols = with_api([c], vols, 'spilo-orders')
    spec = {'serviceAccountName': 'postgres-pod', 'containers': copy.deepcopy(containers), 'volumes': vols, 'terminationGracePeriodSeconds': 300}
    ss = sts(cl, ns_, labels, 1, spec, ready=0, service=cl)
    created = 900
    pname = cl + '-0'
    p = mkpod(pname, ns_, 'k8s-node-05', containers, [running('postgres', img, 60)], created, owner=('StatefulSet', cl),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': pname}, sa='postgres-pod', spec_extra={'volumes': vols,
                  'terminationGracePeriodSeconds': 300})
    set_status(p, [clbo(p, 'postgres', img, 6, term(2, 'Error', 160, 160, seed='spilo-6'))], created)
    logs = ['./run: 21: ulimit: error setting limit (Operation not permitted)']
    nn = 'k8s-node-05'
    evs = crashloop_events(p, nn, img, 'postgres', created, 6, 160, 21, size=402233990)
    op_img = 'registry.opensource.zalan.do/acid/postgres-operator:v1.10.0'
    od, ors = deploy('postgres-operator', ns_, {'name': 'postgres-operator'}, 1, '7c6f94d8b9', {'containers': [{'name': 'postgres-operator',
        'image': op_img}]}, created=86400 * 15)
    op = rs_pod(od, ors, '7c6f94d8b9', 'n5kgh', 'k8s-node-04', [{'name': 'postgres-operator', 'image': op_img}], [running('postgres-operator', op_img,
        86400 * 15 - 20)], 86400 * 15)
    olog = ['time="%s" level=info msg="syncing statefulsets" cluster-name=%s/%s pkg=cluster' % (L(880, '%Y-%m-%dT%H:%M:%SZ'), ns_, cl),
            'time="%s" level=warning msg="error while syncing cluster state: could not sync roles: could not init db connection: could not init db '
            'connection: still failing after 8 retries" cluster-name=%s/%s pkg=cluster' % (L(300, '%Y-%m-%dT%H:%M:%SZ'), ns_, cl)]
    objs = [ns(ns_), n1, n2, ss, p, od, ors, op, serviceaccount('postgres-pod', ns_), secret('postgres.%s.credentials.postgresql.acid.zalan.do' % cl, ns_,
        ['username', 'password']),
            configmap('postgres-operator', ns_, {'spilo_privileged': 'false', 'spilo_allow_privilege_escalation': 'true', 'enable_pod_antiaffinity': 'false',
                                                 'docker_image': img}),
            claim('pgdata-%s-0' % cl, ns_, 'longhorn', 'Bound', '10Gi', volume='pvc-' + uid('orders'), provisioner='driver.longhorn.io', created=created),
            service(cl, ns_, {**labels, 'spilo-role': 'master'}, ports=((5432, 5432),))] + evs + \
           [podlog(ns_, pname, 'postgres', logs), podlog(ns_, op['metadata']['name'], 'postgres-operator', olog, previous=False)] + noise([n1, n2], kv)
    case('f3-spilo-ulimit-core-no-sys-resource', 'A postgres-operator (Spilo) pod crash-loops at its first line: raising the core-file ulimit needs '
                                                 'CAP_SYS_RESOURCE, which the pod lacks',
         'https://github.com/zalando/spilo/issues/881', './run: 21: ulimit: error setting limit (Operation not permitted)',
         '%s/%s' % (ns_, pname), 'any', objs, decisive='ulimit: error setting limit (Operation not permitted)', playbook=None,
         terms=[['SYS_RESOURCE']])


# =====================================================================================
# 6. mechanism: each ZooKeeper member binds its election port to its own server.N name, which
#    resolves to a Service's cluster IP, not an address of the pod (Running, not Ready)
# =====================================================================================
@reg
def zookeeper_bind():
    ns_ = 'messaging'
    kv = 'v1.29.10'
    nodes = [mknode('k8s-wrk-%d' % i, kubelet=kv, runtime='containerd://1.7.22', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS') for i in (1, 2, 3)]
    img = 'zookeeper:3.4.14'
    servers = 'server.1=zookeeper-1:2888:3888 server.2=zookeeper-2:2888:3888 server.3=zookeeper-3:2888:3888'
    objs_extra, pods, svcs = [], [], {}
    for i in (1, 2, 3):
        svc = service('zookeeper-%d' % i, ns_, {'app': 'zookeeper', 'server-id': str(i)}, ports=((2181, 2181), (2888, 2888), (3888, 3888)))
        svcs[i] = svc
        objs_extra.append(svc)
    target = None
    for i in (1, 2, 3):
        labels = {'app': 'zookeeper', 'server-id': str(i)}
        c = {'name': 'zookeeper', 'image': img, 'imagePullPolicy': 'IfNotPresent',
             'env': [{'name': 'ZOO_MY_ID', 'value': str(i)}, {'name': 'ZOO_SERVERS', 'value': servers}, {'name': 'ZOO_TICK_TIME', 'value': '2000'}],
             'ports': [{'containerPort': 2181, 'name': 'client'}, {'containerPort': 2888, 'name': 'followers'}, {'containerPort': 3888, 'name': 'election'}],
             'readinessProbe': {'exec': {'command': ['sh', '-c', 'echo srvr | nc 127.0.0.1 2181 | grep -q Mode']}, 'initialDelaySeconds': 10,
                                'periodSeconds': 10, 'timeoutSeconds': 5},
             'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
             'volumeMounts': [{'name': 'data', 'mountPath': '/data'}, {'name': 'datalog', 'mountPath': '/datalog'}]}
        vols = [{'name': 'data', 'emptyDir': {}}, {'name': 'datalog', 'emptyDir': {}}]
        h = ['6c9f7d8b54', '84b6d5f9c7', '5d7c9b6f88'][i - 1]
        d, rs = deploy('zookeeper-%d' % i, ns_, labels, 1, h, {'containers': [copy.deepcopy(c)], 'volumes': vols}, ready=0, created=3000, generation=1)
        created = 2950
        p = rs_pod(d, rs, h, ['x7k2m', 'q4w9z', 'h2n6c'][i - 1], nodes[i - 1]['metadata']['name'],
                   [copy.deepcopy(c)], [running('zookeeper', img, created - 15, ready=False)], created, vols, labels=labels)
        set_status(p, p['status']['containerStatuses'], created, ready=False)
        nn = nodes[i - 1]['metadata']['name']
        pods += [d, rs, p]
        objs_extra += [scheduled(p, nn, created - 1)] + started(p, nn, img, 'zookeeper', created - 5, size=90233011) + \
                      [unhealthy(p, nn, 'zookeeper', '', 290, created - 40, 6)]
        if i == 1: target = p
    sip = svcs[1]['spec']['clusterIP']
    Z = lambda s_: L(s_, '%Y-%m-%d %H:%M:%S,%f', 3)
    logs = ['ZooKeeper JMX enabled by default', 'Using config: /conf/zoo.cfg',
            '%s [myid:] - INFO  [main:QuorumPeerConfig@136] - Reading configuration from: /conf/zoo.cfg' % Z(2930),
            '%s [myid:1] - INFO  [main:QuorumPeerMain@130] - Starting quorum peer' % Z(2929),
            '%s [myid:1] - INFO  [main:NIOServerCnxnFactory@89] - binding to port 0.0.0.0/0.0.0.0:2181' % Z(2929),
            '%s [myid:1] - INFO  [main:QuorumPeer@1158] - tickTime set to 2000' % Z(2929),
            '%s [myid:1] - INFO  [zookeeper-1/%s:3888:QuorumCnxManager$Listener@736] - My election bind port: zookeeper-1/%s:3888' % (Z(2928), sip, sip),
            '%s [myid:1] - ERROR [zookeeper-1/%s:3888:QuorumCnxManager$Listener@757] - Exception while listening' % (Z(2928), sip),
            'java.net.BindException: Cannot assign requested address (Bind failed)',
            '\tat java.net.PlainSocketImpl.socketBind(Native Method)',
            '\tat java.net.AbstractPlainSocketImpl.bind(AbstractPlainSocketImpl.java:387)',
            '\tat java.net.ServerSocket.bind(ServerSocket.java:375)',
            '\tat java.net.ServerSocket.bind(ServerSocket.java:329)',
            '\tat org.apache.zookeeper.server.quorum.QuorumCnxManager$Listener.run(QuorumCnxManager.java:739)',
            '%s [myid:1] - ERROR [zookeeper-1/%s:3888:QuorumCnxManager$Listener@781] - As I\'m leaving the listener thread, I won\'t be able to participate '
            'in leader election any longer: zookeeper-1/%s:3888' % (Z(2919), sip, sip),
            '%s [myid:1] - INFO  [QuorumPeer[myid=1]/0.0.0.0:2181:QuorumPeer@909] - LOOKING' % Z(2918),
            '%s [myid:1] - WARN  [WorkerSender[myid=1]:QuorumCnxManager@584] - Cannot open channel to 2 at election address zookeeper-2/%s:3888' % (Z(2917),
                svcs[2]['spec']['clusterIP']),
            'java.net.ConnectException: Connection refused (Connection refused)',
            '%s [myid:1] - INFO  [QuorumPeer[myid=1]/0.0.0.0:2181:FastLeaderElection@919] - Notification time out: 60000' % Z(40)]
    kafka_img = 'confluentinc/cp-kafka:7.6.1'
    kp = mkpod('kafka-0', ns_, 'k8s-wrk-2', [{'name': 'kafka', 'image': kafka_img}], [running('kafka', kafka_img, 20, restarts=41, ready=False,
               last=term(1, 'Error', 330, 25, seed='kafka-41'))], 2950, owner=('StatefulSet', 'kafka'), labels={'app': 'kafka'})
    klog = ['[%s] ERROR Timed out waiting for connection to Zookeeper server [zookeeper-1:2181,zookeeper-2:2181,zookeeper-3:2181]. '
            '(io.confluent.admin.utils.ClusterStatus)' % L(30, '%Y-%m-%d %H:%M:%S,%f', 3)]
    objs = [ns(ns_)] + nodes + pods + [kp] + objs_extra + [podlog(ns_, target['metadata']['name'], 'zookeeper', logs, previous=False),
                                                           podlog(ns_, 'kafka-0', 'kafka', klog)] + noise(nodes[:2], kv)
    case('f3-zookeeper-election-bind-service-ip', 'ZooKeeper ensemble never forms: each member binds its election port to its server.N name, a Service '
                                                  'cluster IP no pod owns',
         'https://github.com/fabric8io/fabric8-zookeeper-docker/pull/6', 'java.net.BindException: Cannot assign requested address',
         '%s/%s' % (ns_, target['metadata']['name']), 'any', objs, decisive='java.net.BindException: Cannot assign requested address', playbook=None,
         terms=[['quorumListenOnAllIPs', '0.0.0.0', 'all interfaces', 'all addresses']])


# =====================================================================================
# 7. mechanism: the node's kernel has no WireGuard module (Amazon Linux 2, 4.14): creating the
#    wg0 link is not supported whatever the pod's privileges
# =====================================================================================
@reg
def wireguard_module():
    ns_ = 'kubewire'
    kv = 'v1.29.8-eks-a737599'
    kern = '4.14.352-267.564.amzn2.x86_64'
    n1 = mknode('ip-192-168-12-41.ec2.internal', kubelet=kv, runtime='containerd://1.7.22', kernel=kern, os_image=EKS_OS, ip='192.168.12.41',
                labels={'eks.amazonaws.com/nodegroup': 'ng-1', 'topology.kubernetes.io/zone': 'us-east-1a', 'node.kubernetes.io/instance-type': 'm5.large'})
    n2 = mknode('ip-192-168-44-7.ec2.internal', kubelet=kv, runtime='containerd://1.7.22', kernel=kern, os_image=EKS_OS, ip='192.168.44.7',
                labels={'eks.amazonaws.com/nodegroup': 'ng-1', 'topology.kubernetes.io/zone': 'us-east-1b', 'node.kubernetes.io/instance-type': 'm5.large'})
    img = 'antoniaklja/kubewire:latest'
    labels = {'app': 'kubewire'}
    c = {'name': 'kubewire', 'image': img, 'imagePullPolicy': 'Always',
         'env': [{'name': 'WG_PORT', 'value': '51820'}, {'name': 'WG_SUBNET', 'value': '10.200.0.0/24'}, {'name': 'WG_PEERS', 'value': '3'}],
         'ports': [{'containerPort': 51820, 'name': 'wireguard', 'protocol': 'UDP'}],
         'resources': {'requests': {'cpu': '50m', 'memory': '32Mi'}},
         'securityContext': {'privileged': True, 'capabilities': {'add': ['NET_ADMIN', 'SYS_MODULE']}},
         'volumeMounts': [{'name': 'config', 'mountPath': '/etc/wireguard'}, {'name': 'lib-modules', 'mountPath': '/lib/modules', 'readOnly': True}]}
    vols = [{'name': 'config', 'emptyDir': {}}, {'name': 'lib-modules', 'hostPath': {'path': '/lib/modules', 'type': 'Directory'}}]
    containers, vols = with_api([c], vols, 'kubewire')
    d, rs = deploy('kubewire', ns_, labels, 1, '8656c7d9f4', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=1200, generation=1)
    created = 1150
    p = rs_pod(d, rs, '8656c7d9f4', 'jw5tr', 'ip-192-168-44-7.ec2.internal', containers, [running('kubewire', img, 60)], created, vols)
    set_status(p, [clbo(p, 'kubewire', img, 6, term(2, 'Error', 170, 169, seed='kw-6'))], created)
    logs = ['Enabling IPv4 Forwarding', 'net.ipv4.conf.all.forwarding = 1', 'Generating server keys', '40UDXqB3skeHwpZZnfymLncNCGRjMMe3MfZdHGX7FVE=',
            'Configuring wireguard', 'ip: RTNETLINK answers: Not supported']
    nn = 'ip-192-168-44-7.ec2.internal'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'kubewire', created - 4, size=13200552) + \
          [ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=7, first=created - 60, last=172, host=nn, fieldPath=fp('kubewire')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 412ms (412ms including waiting). Image size: 13200552 bytes.' % img, 'Normal', count=6,
              first=created - 58, last=171, host=nn, fieldPath=fp('kubewire')),
           backoff(p, nn, 'kubewire', 26, created - 90, 8)]
    aws_img = '602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.3-eksbuild.2'
    ads = daemonset('aws-node', 'kube-system', {'k8s-app': 'aws-node'}, 2, 2, {'containers': [{'name': 'aws-node', 'image': aws_img}]}, created=86400 * 60)
    anodes = [ds_pod(ads, n['metadata']['name'], aws_img, 'aws-node', 86400 * 30) for n in (n1, n2)]
    objs = [ns(ns_), n1, n2, d, rs, p, ads] + anodes + [service('kubewire', ns_, labels, ports=((51820, 51820),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'kubewire', logs)] + noise([n1, n2], 'v1.29.7-eksbuild.2', dns_image='602401143452.dkr.ecr.us-east-1.amazonaws.'
                   'com/eks/coredns:v1.11.1-eksbuild.9')
    case('f3-wireguard-eks-kernel-module-missing', 'A WireGuard VPN pod on EKS fails to create its interface: the Amazon Linux 2 kernel (4.14) has no '
                                                   'wireguard module',
         'https://github.com/antoniaklja/kubewire/issues/2', 'ip: RTNETLINK answers: Not supported',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='ip: RTNETLINK answers: Not supported', playbook=None,
         terms=[['kernel module', 'wireguard module', 'wireguard-dkms', 'modprobe']])


# =====================================================================================
# 8. mechanism: external-dns >= 0.7.1 also watches nodes; its ClusterRole (from the rfc2136
#    tutorial) does not grant list/watch on nodes, the informer never syncs and it exits
# =====================================================================================
@reg
def external_dns_rbac():
    ns_ = 'external-dns'
    kv = 'v1.30.6'
    n1 = mknode('node-a1', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('node-a2', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'registry.k8s.io/external-dns/external-dns:v0.7.4'
    labels = {'app': 'external-dns'}
    c = {'name': 'external-dns', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'args': ['--registry=txt', '--txt-prefix=external-dns-', '--txt-owner-id=k8s', '--provider=rfc2136', '--rfc2136-host=192.168.0.1', '--rfc2136-port=53',
                  '--rfc2136-zone=k8s.example.org', '--rfc2136-tsig-secret=$(TSIG_SECRET)', '--rfc2136-tsig-secret-alg=hmac-sha256',
                      '--rfc2136-tsig-keyname=externaldns-key',
                  '--rfc2136-tsig-axfr', '--source=ingress', '--source=service', '--domain-filter=k8s.example.org'],
         'env': [{'name': 'TSIG_SECRET', 'valueFrom': {'secretKeyRef': {'name': 'externaldns-tsig', 'key': 'secret'}}}],
         'resources': {'requests': {'cpu': '10m', 'memory': '32Mi'}, 'limits': {'memory': '128Mi'}}}
    containers, vols = with_api([c], [], 'external-dns')
    spec = {'serviceAccountName': 'external-dns', 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('external-dns', ns_, labels, 1, '77f8c6d5b9', spec, ready=0, created=86400 * 200, generation=5)
    created = 1900
    p = rs_pod(d, rs, '77f8c6d5b9', 'r2vzl', 'node-a2', containers, [running('external-dns', img, 40)], created, vols, sa='external-dns')
    set_status(p, [clbo(p, 'external-dns', img, 7, term(1, 'Error', 420, 359, seed='edns-7'))], created)
    T = lambda s_: L(s_, '%Y-%m-%dT%H:%M:%SZ')
    logs = ['time="%s" level=info msg="config: {APIServerURL: KubeConfig: RequestTimeout:30s ContourLoadBalancerService:heptio-contour/contour '
            'SkipperRouteGroupVersion:zalando.org/v1 Sources:[ingress service] Namespace: AnnotationFilter: LabelFilter: FQDNTemplate: '
            'CombineFQDNAndAnnotation:false IgnoreHostnameAnnotation:false IgnoreIngressTLSSpec:false Compatibility: PublishInternal:false '
            'PublishHostIP:false AlwaysPublishNotReadyAddresses:false ConnectorSourceServer:localhost:8080 Provider:rfc2136 DomainFilter:[k8s.example.org] '
            'Policy:sync Registry:txt TXTOwnerID:k8s TXTPrefix:external-dns- Interval:1m0s Once:false DryRun:false LogFormat:text MetricsAddress::7979 '
            'LogLevel:info RFC2136Host:192.168.0.1 RFC2136Port:53 RFC2136Zone:k8s.example.org RFC2136Insecure:false RFC2136TSIGKeyName:externaldns-key '
            'RFC2136TSIGSecret:****** RFC2136TSIGSecretAlg:hmac-sha256 RFC2136TAXFR:true}"' % T(420),
            'time="%s" level=info msg="Instantiating new Kubernetes client"' % T(420),
            'time="%s" level=info msg="Using inCluster-config based on serviceaccount-token"' % T(420),
            'time="%s" level=info msg="Created Kubernetes client https://10.96.0.1:443"' % T(420),
            'time="%s" level=fatal msg="failed to sync cache: timed out waiting for the condition"' % T(360)]
    nn = 'node-a2'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'external-dns', created - 4, size=21822044) + restarted(p, nn, img, 'external-dns', 7,
        created - 70, 420) + \
          [backoff(p, nn, 'external-dns', 19, created - 200, 15)] + \
          [ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set external-dns-77f8c6d5b9 to 1', 'deployment-controller', last=created + 2),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set external-dns-6b9d4c5f7c to 0 from 1', 'deployment-controller', last=created - 120)]
    role = clusterrole('external-dns', [{'apiGroups': [''], 'resources': ['services', 'endpoints', 'pods'], 'verbs': ['get', 'watch', 'list']},
                                        {'apiGroups': ['extensions', 'networking.k8s.io'], 'resources': ['ingresses'], 'verbs': ['get', 'list', 'watch']}])
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('external-dns', ns_, created=86400 * 200), role, clusterrolebinding('external-dns-viewer',
        'external-dns', 'external-dns', ns_),
            secret('externaldns-tsig', ns_, ['secret'])] + evs + [podlog(ns_, p['metadata']['name'], 'external-dns', logs)] + noise([n1, n2], kv)
    case('f3-external-dns-rbac-nodes-cache-sync', 'external-dns 0.7.4 exits after a minute, every time: its ClusterRole does not let it list and watch nodes, '
                                                  'so its informers never sync',
         'https://github.com/kubernetes-sigs/external-dns/issues/961', 'failed to sync cache: timed out waiting for the condition',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='failed to sync cache: timed out waiting for the condition', playbook=None,
         terms=[['ClusterRole', 'RBAC']])


# =====================================================================================
# 9. mechanism: ndots:5 plus a wildcard record in the nodes' search domain: github.com is tried
#    as github.com.appsdomain.com first and resolves to the master; git then sees the wrong cert
# =====================================================================================
@reg
def ndots_wildcard():
    ns_ = 'myproject'
    kv = 'v1.6.1+5115d708d7'
    mk = lambda n, role: mknode(n, kubelet=kv, runtime='docker://1.12.6', kernel='3.10.0-693.2.2.el7.x86_64', os_image='CentOS Linux 7 (Core)',
                                labels={'region': 'primary' if role == 'node' else 'infra', 'zone': 'default', 'node-role.kubernetes.io/%s' % role: 'true'})
    m = mk('master.appsdomain.com', 'master')
    n1 = mk('n1.appsdomain.com', 'node')
    n2 = mk('n2.appsdomain.com', 'node')
    img = 'openshift/origin-sti-builder:v3.6.0'
    pname = 'django-ex-1-build'
    c = {'name': 'sti-build', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['--loglevel=0'],
         'env': [{'name': 'BUILD', 'value': '{"kind":"Build","apiVersion":"v1","metadata":{"name":"django-ex-1","namespace":"myproject"},"spec":{"source":{"ty'
                                            'pe":"Git","git":{"uri":"https://github.com/openshift/django-ex.git"}},"strategy":{"type":"Source","sourceStrate'
                                            'gy":{"from":{"kind":"DockerImage","name":"centos/python-35-centos7"}}}}}'},
                 {'name': 'SOURCE_REPOSITORY', 'value': 'https://github.com/openshift/django-ex.git'}, {'name': 'SOURCE_URI',
                     'value': 'https://github.com/openshift/django-ex.git'},
                 {'name': 'ORIGIN_VERSION', 'value': 'v3.6.0+c4dd4cf'}, {'name': 'ALLOWED_UIDS', 'value': '1-'}, {'name': 'DROP_CAPS',
                     'value': 'KILL,MKNOD,SETGID,SETUID,SYS_CHROOT'}],
         'resources': {}, 'securityContext': {'privileged': True},
         'volumeMounts': [{'name': 'docker-socket', 'mountPath': '/var/run/docker.sock'}, {'name': 'builder-dockercfg-7xk2q-push',
             'mountPath': '/var/run/secrets/openshift.io/push', 'readOnly': True}]}
    vols = [{'name': 'docker-socket', 'hostPath': {'path': '/var/run/docker.sock'}}, {'name': 'builder-dockercfg-7xk2q-push',
                                                                                      'secret': {'secretName': 'builder-dockercfg-7xk2q', 'defaultMode': 384}}]
    containers, vols = with_api([c], vols, 'django-build')
    created = 900
    st = {'name': 'sti-build', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(pname),
          'state': {'terminated': {'exitCode': 1, 'reason': 'Error', 'startedAt': ago(880), 'finishedAt': ago(874), 'containerID': cid(pname)}}}
    p = mkpod(pname, ns_, 'n2.appsdomain.com', containers, [st], created, labels={'openshift.io/build.name': 'django-ex-1'}, phase='Failed', sa='builder',
              spec_extra={'volumes': vols, 'restartPolicy': 'Never', 'activeDeadlineSeconds': 3600})
    p['metadata']['annotations'] = {'openshift.io/build.name': 'django-ex-1', 'openshift.io/scc': 'privileged'}
    p['metadata']['ownerReferences'] = [{'apiVersion': 'build.openshift.io/v1', 'kind': 'Build', 'name': 'django-ex-1',
                                         'uid': uid('Build' + ns_ + 'django-ex-1'), 'controller': True}]
    set_status(p, [st], created, ready=False, phase='Failed')
    p['status']['conditions'][2]['reason'] = 'PodFailed'; p['status']['conditions'][3]['reason'] = 'PodFailed'
    p['status']['conditions'] = [x for x in p['status']['conditions'] if x['type'] != 'PodReadyToStartContainers']
    for s in p['status']['containerStatuses']:
        s['containerID'] = s['containerID'].replace('containerd://', 'docker://'); s['imageID'] = 'docker-pullable://' + s['imageID']
        s['state']['terminated']['containerID'] = s['containerID']
    logs = ['Cloning "https://github.com/openshift/django-ex.git" ...',
            "error: build error: fatal: unable to access 'https://github.com/openshift/django-ex.git/': Peer's certificate issuer has been marked as not "
            "trusted by the user."]
    nn = 'n2.appsdomain.com'
    evs = [scheduled(p, nn, created - 1), ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=created - 3, host=nn,
                                             fieldPath=fp('sti-build')),
           ev(p, 'Created', 'Created container', 'Normal', last=created - 4, host=nn, fieldPath=fp('sti-build')),
           ev(p, 'Started', 'Started container', 'Normal', last=created - 5, host=nn, fieldPath=fp('sti-build'))]
    router_img = 'openshift/origin-haproxy-router:v3.6.0'
    rt = mkpod('router-1-8xq2d', 'default', 'master.appsdomain.com', [{'name': 'router', 'image': router_img}], [running('router', router_img, 86400 * 12)],
               86400 * 12,
               owner=('ReplicationController', 'router-1'), labels={'router': 'router', 'deploymentconfig': 'router'}, spec_extra={'hostNetwork': True})
    objs = [ns(ns_), ns('default'), m, n1, n2, p, rt, serviceaccount('builder', ns_)] + evs + [podlog(ns_, pname, 'sti-build', logs, previous=False)]
    case('f3-build-git-clone-ndots-wildcard-search', 'A source build fails to clone from GitHub: with ndots:5 the name is first tried under the nodes\' '
                                                     'wildcard search domain and reaches the master',
         'https://github.com/openshift/origin/issues/16992',
         "error: build error: fatal: unable to access 'https://github.com/openshift/django-ex.git/': Peer's certificate issuer has been marked as not trusted "
         "by the user.",
         '%s/%s' % (ns_, pname), 'any', objs, decisive="Peer's certificate issuer has been marked as not trusted by the user.", playbook=None,
         terms=[['ndots', 'search domain', 'wildcard']])


# =====================================================================================
# 10. admission.rejected: the namespace enforces PodSecurity "restricted"; the operator's
#     Deployment (manager + kube-rbac-proxy) never gets a pod
# =====================================================================================
@reg
def podsecurity_restricted():
    ns_ = 'cloudflare-operator-system'
    kv = 'v1.31.2'
    n1 = mknode('talos-w1', kubelet=kv, runtime='containerd://2.0.0', kernel='6.6.58-talos', os_image='Talos (v1.8.2)')
    n2 = mknode('talos-w2', kubelet=kv, runtime='containerd://2.0.0', kernel='6.6.58-talos', os_image='Talos (v1.8.2)')
    img, proxy_img = 'ghcr.io/adyanth/cloudflare-operator:v0.10.1', 'gcr.io/kubebuilder/kube-rbac-proxy:v0.13.1'
    labels = {'control-plane': 'controller-manager'}
    spec = {'serviceAccountName': 'cloudflare-operator-controller-manager', 'terminationGracePeriodSeconds': 10, 'securityContext': {'runAsNonRoot': True},
            'containers': [{'name': 'kube-rbac-proxy', 'image': proxy_img, 'args': ['--secure-listen-address=0.0.0.0:8443',
                                                                                    '--upstream=http://127.0.0.1:8080/', '--logtostderr=true', '--v=0'],
                            'ports': [{'containerPort': 8443, 'name': 'https', 'protocol': 'TCP'}], 'resources': {'limits': {'cpu': '500m', 'memory': '128Mi'},
                                'requests': {'cpu': '5m', 'memory': '64Mi'}}},
                           {'name': 'manager', 'image': img, 'command': ['/manager'], 'args': ['--health-probe-bind-address=:8081',
                               '--metrics-bind-address=127.0.0.1:8080', '--leader-elect'],
                            'securityContext': {'allowPrivilegeEscalation': False},
                            'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 8081}, 'initialDelaySeconds': 15, 'periodSeconds': 20},
                            'readinessProbe': {'httpGet': {'path': '/readyz', 'port': 8081}, 'initialDelaySeconds': 5, 'periodSeconds': 10},
                            'resources': {'limits': {'cpu': '500m', 'memory': '128Mi'}, 'requests': {'cpu': '10m', 'memory': '64Mi'}}}]}
    msg = ('pods "cloudflare-operator-controller-manager-6c69d7595-%s" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != '
           'false '
           '(container "kube-rbac-proxy" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "kube-rbac-proxy", '
           '"manager" must set '
           'securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or containers "kube-rbac-proxy", "manager" must set '
           'securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")')
    conds_ = [{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.',
               'lastUpdateTime': ago(1500), 'lastTransitionTime': ago(1500)},
              {'type': 'ReplicaFailure', 'status': 'True', 'reason': 'FailedCreate', 'message': msg % 'fvqr5', 'lastUpdateTime': ago(1499),
               'lastTransitionTime': ago(1499)},
              {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "cloudflare-operator-controller-manager-'
                      '6c69d7595" has timed out progressing.',
               'lastUpdateTime': ago(900), 'lastTransitionTime': ago(900)}]
    d, rs = deploy('cloudflare-operator-controller-manager', ns_, labels, 1, '6c69d7595', spec, ready=0, updated=0, conditions=conds_, created=1500,
                   generation=1)
    d['status'] = {'observedGeneration': 1, 'unavailableReplicas': 1, 'conditions': conds_}
    rs['status'] = {'replicas': 0, 'fullyLabeledReplicas': 0, 'observedGeneration': 1,
                    'conditions': [{'type': 'ReplicaFailure', 'status': 'True', 'reason': 'FailedCreate', 'message': msg % 'fvqr5',
                                    'lastTransitionTime': ago(1499)}]}
    nsobj = ns(ns_, meta={'labels': {'kubernetes.io/metadata.name': ns_, 'pod-security.kubernetes.io/enforce': 'restricted',
                                     'pod-security.kubernetes.io/enforce-version': 'latest',
                                     'control-plane': 'controller-manager'}})
    evs = [ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set cloudflare-operator-controller-manager-6c69d7595 to 1', 'deployment-controller', last=1499),
           ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg % 'fvqr5', 'replicaset-controller', type_='Warning', last=1498),
           ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg % 'kx9tb', 'replicaset-controller', type_='Warning', last=1497),
           ctrl_ev(rs, 'FailedCreate', '(combined from similar events): Error creating: ' + msg % 'h7d2w', 'replicaset-controller', type_='Warning', count=9,
                   first=1490, last=280)]
    # a tunnel created by hand in another namespace, running fine
    cf_img = 'cloudflare/cloudflared:2024.10.1'
    td, trs = deploy('homelab-tunnel', 'cloudflare', {'app': 'homelab-tunnel'}, 1, '5f8d7c6b9a', {'containers': [{'name': 'cloudflared', 'image': cf_img}]},
                     created=86400 * 40)
    tp = rs_pod(td, trs, '5f8d7c6b9a', 'lq2xw', 'talos-w1', [{'name': 'cloudflared', 'image': cf_img}], [running('cloudflared', cf_img, 86400 * 40 - 20)],
                86400 * 40)
    objs = [nsobj, ns('cloudflare'), n1, n2, d, rs, td, trs, tp, serviceaccount('cloudflare-operator-controller-manager', ns_)] + evs + noise([n1, n2], kv,
        proxy=False)
    case('f3-podsecurity-restricted-operator-no-pods', 'cloudflare-operator never gets a pod: its namespace enforces PodSecurity "restricted" and neither '
                                                       'container sets the required securityContext',
         'https://github.com/adyanth/cloudflare-operator/issues/110',
         'Error creating: pods "cloudflare-operator-controller-manager-6c69d7595-fvqr5" is forbidden: violates PodSecurity "restricted:latest": '
         'allowPrivilegeEscalation != false (container "kube-rbac-proxy" must set securityContext.allowPrivilegeEscalation=false)',
         '%s/cloudflare-operator-controller-manager' % ns_, 'admission.rejected', objs, decisive='is forbidden: violates PodSecurity "restricted:latest"',
             playbook=None)


# =====================================================================================
# 11. admission.kubelet-rejected: net.core.somaxconn is an unsafe sysctl the kubelet was not
#     told to allow; the pod is scheduled and then refused by the kubelet (SysctlForbidden)
# =====================================================================================
@reg
def sysctl_forbidden():
    ns_ = 'default'
    kv = 'v1.18.8'
    n1 = mknode('k8s-node1', kubelet=kv, runtime='docker://19.3.12', kernel='3.10.0-1127.19.1.el7.x86_64', os_image='CentOS Linux 7 (Core)')
    n2 = mknode('k8s-node2', kubelet=kv, runtime='docker://19.3.12', kernel='3.10.0-1127.19.1.el7.x86_64', os_image='CentOS Linux 7 (Core)')
    img = 'tomcat'
    c = {'name': 'tomcat', 'image': img, 'imagePullPolicy': 'Always', 'resources': {}}
    created = 600
    p = mkpod('sysctl-example', ns_, 'k8s-node2', [c], [], created, spec_extra={'securityContext': {'sysctls': [{'name': 'net.core.somaxconn',
        'value': '65535'}]}},
              phase='Failed', conditions=[])
    p['status'] = {'phase': 'Failed', 'reason': 'SysctlForbidden', 'message': 'Pod forbidden sysctl: "net.core.somaxconn" not whitelisted',
                   'startTime': ago(created - 1),
                   'hostIP': node_ip(n2), 'qosClass': 'BestEffort', 'conditions': [{'type': 'PodScheduled', 'status': 'True',
                                                                                    'lastTransitionTime': ago(created - 1)}]}
    del p['metadata']['labels']
    evs = [scheduled(p, 'k8s-node2', created - 1),
           ev(p, 'SysctlForbidden', 'forbidden sysctl: "net.core.somaxconn" not whitelisted', count=1, first=created - 2, last=created - 2, host='k8s-node2')]
    # noise: the kubelet on that node was restarted three days ago
    kubelet_warn = node_event(n2, 'Starting', 'Starting kubelet.', 'Normal', last=86400 * 3)
    objs = [ns(ns_), n1, n2, p, kubelet_warn] + evs + noise([n1, n2], kv, dns_image='k8s.gcr.io/coredns:1.6.7')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system':
            for s_ in o['status']['containerStatuses']:
                s_['containerID'] = s_['containerID'].replace('containerd://', 'docker://')
    case('f3-sysctl-somaxconn-kubelet-forbidden', 'A pod asking for net.core.somaxconn is refused by the kubelet after scheduling: an unsafe sysctl that is '
                                                  'not in --allowed-unsafe-sysctls',
         'https://github.com/kubernetes/kubernetes/issues/94249', 'forbidden sysctl: "net.core.somaxconn" not whitelisted',
         '%s/sysctl-example' % ns_, 'admission.kubelet-rejected', objs, decisive='forbidden sysctl: "net.core.somaxconn" not whitelisted', playbook=None)


# =====================================================================================
# 12. crash.port-in-use: a new k8s-sidecar release listens on 8080 inside the kube-state-metrics
#     pod; kube-state-metrics cannot bind its metrics port
# =====================================================================================
@reg
def sidecar_port_conflict():
    ns_ = 'kof'
    kv = 'v1.32.5+k0s'
    n1 = mknode('kof-worker-0', kubelet=kv, runtime='containerd://1.7.27', kernel='6.8.0-85-generic', os_image='Ubuntu 24.04.3 LTS')
    n2 = mknode('kof-worker-1', kubelet=kv, runtime='containerd://1.7.27', kernel='6.8.0-85-generic', os_image='Ubuntu 24.04.3 LTS')
    img, side_img = 'registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.16.0', 'quay.io/kiwigrid/k8s-sidecar:1.30.10'
    labels = {'app.kubernetes.io/name': 'kube-state-metrics', 'app.kubernetes.io/instance': 'kof-mothership'}
    ksm = {'name': 'kube-state-metrics', 'image': img, 'args': ['--port=8080', '--resources=certificatesigningrequests,configmaps,cronjobs,daemonsets,deployme'
                                                                               'nts,nodes,pods',
                                                               '--custom-resource-state-config-file=/etc/customresourcestate/config.yaml'],
           'ports': [{'containerPort': 8080, 'name': 'http'}],
           'livenessProbe': {'httpGet': {'path': '/livez', 'port': 8080}, 'initialDelaySeconds': 5, 'timeoutSeconds': 5},
           'readinessProbe': {'httpGet': {'path': '/readyz', 'port': 8081}, 'initialDelaySeconds': 5, 'timeoutSeconds': 5},
           'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True},
           'volumeMounts': [{'name': 'customresourcestate-config', 'mountPath': '/etc/customresourcestate'}]}
    side = {'name': 'k8s-sidecar', 'image': side_img, 'env': [{'name': 'LABEL', 'value': 'k0rdent.mirantis.com/kof-ksm-crs'}, {'name': 'FOLDER',
        'value': '/etc/customresourcestate'},
                                                              {'name': 'RESOURCE', 'value': 'configmap'}, {'name': 'METHOD', 'value': 'WATCH'}],
            'volumeMounts': [{'name': 'customresourcestate-config', 'mountPath': '/etc/customresourcestate'}]}
    vols = [{'name': 'customresourcestate-config', 'emptyDir': {}}]
    containers, vols = with_api([ksm, side], vols, 'kof-ksm')
    spec = {'serviceAccountName': 'kof-mothership-kube-state-metrics', 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('kof-mothership-kube-state-metrics', ns_, labels, 1, '5b7d9f8c6d', spec, ready=0, created=3600, generation=3)
    created = 1400
    p = rs_pod(d, rs, '5b7d9f8c6d', 'w9d4k', 'kof-worker-1', containers, [running('kube-state-metrics', img, 60), running('k8s-sidecar', side_img,
        created - 20)], created, vols,
               labels=dict(labels), sa='kof-mothership-kube-state-metrics')
    set_status(p, [clbo(p, 'kube-state-metrics', img, 7, term(1, 'Error', 255, 254, seed='ksm-7')), running('k8s-sidecar', side_img, created - 20)], created)
    K = lambda s_: L(s_, '%m%d %H:%M:%S.%f')
    logs = ['I%s       1 wrapper.go:120] "Starting kube-state-metrics"' % K(255),
            'I%s       1 server.go:200] "Used resources" resources=["certificatesigningrequests","configmaps","cronjobs","daemonsets","deployments","nodes","p'
            'ods"]' % K(255),
            'I%s       1 types.go:227] "Using all namespaces"' % K(255),
            'I%s       1 server.go:239] "Started metrics server" metricsServerAddress="[::]:8080"' % K(255),
            'I%s       1 server.go:228] "Started kube-state-metrics self metrics server" telemetryAddress="[::]:8081"' % K(255),
            'E%s       1 server.go:297] "Failed to run kube-state-metrics" err="run server group error: listen tcp 0.0.0.0:8080: bind: address already in use"'
                % K(254)]
    slog = ['{"time": "%s", "level": "INFO", "msg": "Starting collector"}' % L(created - 19),
            '{"time": "%s", "level": "INFO", "msg": "Uvicorn running on http://0.0.0.0:8080 (Press CTRL+C to quit)"}' % L(created - 19),
            '{"time": "%s", "level": "INFO", "msg": "Working on ADDED configmap kof/kof-mothership-ksm-crs"}' % L(created - 17)]
    nn = 'kof-worker-1'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'kube-state-metrics', created - 4, size=17554112) + started(p, nn, side_img, 'k8s-sidecar',
        created - 6, size=49881207) + \
          restarted(p, nn, img, 'kube-state-metrics', 7, created - 60, 256) + [backoff(p, nn, 'kube-state-metrics', 29, created - 120, 7),
          unhealthy(p, nn, 'kube-state-metrics', 'Get "http://%s:8081/readyz": dial tcp %s:8081: connect: connection refused' % (p['status']['podIP'],
              p['status']['podIP']), 14, created - 30, 250)]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('kof-mothership-kube-state-metrics', ns_), service('kof-mothership-kube-state-metrics', ns_, labels,
        ports=((8080, 8080),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'kube-state-metrics', logs), podlog(ns_, p['metadata']['name'], 'k8s-sidecar', slog,
                                                                                   previous=False)] + noise([n1, n2], kv, proxy=False)
    case('f3-ksm-sidecar-takes-port-8080', 'kube-state-metrics crash-loops after a chart bump: the new k8s-sidecar in the same pod now serves on 8080, the '
                                           'port kube-state-metrics binds',
         'https://github.com/k0rdent/kof/pull/604',
         '"Failed to run kube-state-metrics" err="run server group error:\nlisten tcp 0.0.0.0:8080: bind: address already in use"',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.port-in-use', objs, decisive='listen tcp 0.0.0.0:8080: bind: address already in use', playbook=None)


# =====================================================================================
# 13. volume.mount-failed: a Longhorn RWX volume is served over NFS; the node has no NFS client
#     (no /sbin/mount.nfs), so every mount attempt fails with "bad option"
# =====================================================================================
@reg
def nfs_helper_missing():
    ns_ = 'media'
    kv = 'v1.19.2'
    n1 = mknode('kube-01', kubelet=kv, runtime='containerd://1.4.0', kernel='5.4.0-47-generic', os_image='Ubuntu 20.04.1 LTS')
    n2 = mknode('kube-02', kubelet=kv, runtime='containerd://1.4.0', kernel='5.4.0-47-generic', os_image='Ubuntu 20.04.1 LTS')
    img = 'nextcloud:19.0.3-apache'
    labels = {'app': 'nextcloud'}
    pvname = 'pvc-b3f8d754-bdee-4409-96b7-77daec7d22d0'
    c = {'name': 'nextcloud', 'image': img, 'ports': [{'containerPort': 80, 'name': 'http'}], 'resources': {},
         'volumeMounts': [{'name': 'data', 'mountPath': '/var/www/html/data'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'nextcloud-data'}}], 'nc')
    d, rs = deploy('nextcloud', ns_, labels, 2, '6d4f8b7c9d', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=1300, generation=1)
    created = 1250
    ws = waiting('nextcloud', img, 'ContainerCreating', pulled=False)
    p = rs_pod(d, rs, '6d4f8b7c9d', 'sxk2n', 'kube-02', containers, [ws], created, vols, phase='Pending')
    p['status']['conditions'] = conds(created, False, msg='containers with unready status: [nextcloud]', sandbox=False)
    del p['status']['podIP']; del p['status']['podIPs']
    share_ip = '10.43.19.244'
    pod_uid = p['metadata']['uid']
    target_dir = '/var/lib/kubelet/pods/%s/volumes/kubernetes.io~nfs/%s' % (pod_uid, pvname)
    mount_msg = ('MountVolume.SetUp failed for volume "%s" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs -o vers=4.1 '
                 '%s:/%s %s\n'
                 'Output: mount: %s: bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.\n') % (pvname,
                     share_ip, pvname, target_dir, target_dir)
    nn = 'kube-02'
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'FailedMount', mount_msg, count=17, first=created - 3, last=40, host=nn),
           ev(p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data %s]: timed out waiting for the '
                                'condition' % vols[-1]['name'],
              count=5, first=created - 130, last=95, host=nn)]
    pvc_ = claim('nextcloud-data', ns_, 'longhorn-nfs', 'Bound', '20Gi', volume=pvname, provisioner='nfs.longhorn.io', access=('ReadWriteMany',), created=1300)
    pv_ = obj('PersistentVolume', 'v1', pvname, None, 1290,
              spec={'accessModes': ['ReadWriteMany'], 'capacity': {'storage': '20Gi'}, 'persistentVolumeReclaimPolicy': 'Delete',
                    'storageClassName': 'longhorn-nfs', 'volumeMode': 'Filesystem',
                    'mountOptions': ['vers=4.1'], 'nfs': {'server': share_ip, 'path': '/' + pvname},
                    'claimRef': {'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'name': 'nextcloud-data', 'namespace': ns_,
                                 'uid': pvc_['metadata']['uid']}},
              status={'phase': 'Bound'})
    pv_['metadata']['annotations'] = {'pv.kubernetes.io/provisioned-by': 'nfs.longhorn.io'}
    sc = storageclass('longhorn-nfs', provisioner='nfs.longhorn.io', binding='Immediate', params={'numberOfReplicas': '2', 'staleReplicaTimeout': '2880'})
    nfs_img = 'longhornio/longhorn-nfs-provisioner:v1.0.1'
    np_ = mkpod('longhorn-nfs-provisioner-0', 'longhorn-system', 'kube-01', [{'name': 'longhorn-nfs-provisioner', 'image': nfs_img}],
                [running('longhorn-nfs-provisioner', nfs_img, 86400 * 5)],
                86400 * 5, owner=('StatefulSet', 'longhorn-nfs-provisioner'), labels={'app': 'longhorn-nfs-provisioner'})
    nsvc = service('longhorn-nfs-provisioner', 'longhorn-system', {'app': 'longhorn-nfs-provisioner'}, ports=((2049, 2049), (20048, 20048), (111, 111)))
    nsvc['spec']['clusterIP'] = share_ip
    objs = [ns(ns_), ns('longhorn-system'), n1, n2, d, rs, p, pvc_, pv_, sc, np_, nsvc] + evs + noise([n1, n2], kv, dns_image='k8s.gcr.io/coredns:1.7.0')
    case('f3-longhorn-rwx-nfs-client-missing-on-node', 'Nextcloud pods stuck in ContainerCreating: the RWX volume is NFS and the node lacks the NFS mount '
                                                       'helper (nfs-common)',
         'https://github.com/longhorn/longhorn/issues/1799',
         'bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.',
         '%s/%s' % (ns_, p['metadata']['name']), 'volume.mount-failed', objs, decisive='you might need a /sbin/mount.<type> helper program', playbook=None)


# =====================================================================================
# 14. sandbox.create-failed: the AWS VPC CNI has no IP left to give on a Karpenter node
# =====================================================================================
@reg
def aws_cni_no_ip():
    ns_ = 'test'
    kv = 'v1.26.4-eks-0a21954'
    n1 = mknode('ip-10-1-6-216.eu-west-1.compute.internal', kubelet=kv, runtime='containerd://1.6.19', kernel='5.10.178-162.673.amzn2.x86_64', os_image=EKS_OS,
                ip='10.1.6.216',
                labels={'karpenter.sh/provisioner-name': 'default', 'karpenter.k8s.aws/instance-family': 't3', 'node.kubernetes.io/instance-type': 't3.small',
                        'topology.kubernetes.io/zone': 'eu-west-1a', 'karpenter.sh/capacity-type': 'spot'}, alloc={'cpu': '1930m', 'memory': '1419Mi',
                            'pods': '11', 'ephemeral-storage': '18Gi'})
    n1['status']['capacity'].update({'cpu': '2', 'memory': '1970Mi', 'pods': '11'})
    n2 = mknode('ip-10-1-21-87.eu-west-1.compute.internal', kubelet=kv, runtime='containerd://1.6.19', kernel='5.10.178-162.673.amzn2.x86_64', os_image=EKS_OS,
                ip='10.1.21.87',
                labels={'eks.amazonaws.com/nodegroup': 'system', 'node.kubernetes.io/instance-type': 'm5.large', 'topology.kubernetes.io/zone': 'eu-west-1b'})
    img = 'nginxdemos/hello:0.3'
    labels = {'app.kubernetes.io/name': 'hello-world', 'app.kubernetes.io/instance': 'ahoy'}
    c = {'name': 'hello-world', 'image': img, 'ports': [{'containerPort': 80, 'name': 'http'}], 'resources': {'requests': {'cpu': '50m', 'memory': '32Mi'}},
         'livenessProbe': {'httpGet': {'path': '/', 'port': 'http'}}, 'readinessProbe': {'httpGet': {'path': '/', 'port': 'http'}}}
    containers, vols = with_api([c], [], 'ahoy')
    d, rs = deploy('ahoy-hello-world', ns_, labels, 3, '79f545d68', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, created=1000,
                   generation=1)
    created = 920
    nn = n1['metadata']['name']
    p = rs_pod(d, rs, '79f545d68', 'ztz4r', nn, containers, [waiting('hello-world', img, 'ContainerCreating', pulled=False)], created, vols, phase='Pending',
               labels=dict(labels))
    p['status']['conditions'] = conds(created, False, msg='containers with unready status: [hello-world]', sandbox=False)
    del p['status']['podIP']; del p['status']['podIPs']
    sandbox = lambda seed: ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="aws-cni" '
                            'name="aws-cni" '
                            'failed (add): add cmd: failed to assign an IP address to container') % hexid(seed)
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'FailedCreatePodSandBox', sandbox('s1'), count=1, first=created - 4, last=created - 4, host=nn),
           ev(p, 'FailedCreatePodSandBox', sandbox('s2'), count=1, first=created - 20, last=created - 20, host=nn),
           ev(p, 'FailedCreatePodSandBox', '(combined from similar events): ' + sandbox('s3'), count=41, first=created - 40, last=22, host=nn)]
    aws_img = '602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.12.6-eksbuild.2'
    ads = daemonset('aws-node', 'kube-system', {'k8s-app': 'aws-node'}, 2, 2, {'containers': [{'name': 'aws-node', 'image': aws_img}]}, created=86400 * 60)
    anodes = [ds_pod(ads, n['metadata']['name'], aws_img, 'aws-node', 3600 if n is n1 else 86400 * 30) for n in (n1, n2)]
    # the other pods already running on that node
    others = []
    for k, (nm, im) in enumerate([('ahoy-hello-world-79f545d68-4bqlm', img), ('ebs-csi-node-7xk9d', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.19.0'),
                                  ('metrics-consumer-6d8f9c7b5-2lwqp', 'busybox:1.36'), ('log-shipper-8ksm2', 'fluent/fluent-bit:2.1.4')]):
        pp = mkpod(nm, ns_ if nm.startswith('ahoy') else 'kube-system', nn, [{'name': 'c', 'image': im}], [running('c', im, 3000 - k * 10)], 3000 - k * 10,
                   labels={'app': nm.rsplit('-', 2)[0]})
        others.append(pp)
    objs = [ns(ns_), n1, n2, d, rs, p, ads] + anodes + others + evs + \
           noise([n2], 'v1.26.4-eksbuild.1', dns_image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.9.3-eksbuild.3')
    case('f3-aws-cni-no-ip-on-karpenter-node', 'Pods landed by Karpenter on a t3.small stay in ContainerCreating: the AWS VPC CNI cannot assign them an IP '
                                               'address',
         'https://github.com/aws/karpenter-provider-aws/issues/3989',
         'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox '
         '"2585244756197a04982514cc97947f5b7f702492df9776871fa3d7d3b3cba718": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign '
         'an IP address to container',
         '%s/%s' % (ns_, p['metadata']['name']), 'sandbox.create-failed', objs, decisive='add cmd: failed to assign an IP address to container', playbook=None)


# =====================================================================================
# 15. job.deadline-exceeded: a nightly dump runs past activeDeadlineSeconds; the Job controller
#     stops it (its pod is deleted, only the Job's condition and events remain)
# =====================================================================================
@reg
def job_deadline():
    ns_ = 'backup'
    kv = 'v1.30.4'
    n1 = mknode('worker-1', kubelet=kv, runtime='containerd://1.7.20', kernel='6.1.0-23-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('worker-2', kubelet=kv, runtime='containerd://1.7.20', kernel='6.1.0-23-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'postgres:16.4'
    c = {'name': 'pgdump', 'image': img, 'command': ['/bin/sh', '-c', 'pg_dump -Fc -h main-db.db.svc -U backup app > /backup/app-$(date +%F).dump'],
         'env': [{'name': 'PGPASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'backup-db', 'key': 'password'}}}],
         'resources': {'requests': {'cpu': '250m', 'memory': '256Mi'}}, 'volumeMounts': [{'name': 'backup', 'mountPath': '/backup'}]}
    vols = [{'name': 'backup', 'persistentVolumeClaim': {'claimName': 'db-backups'}}]
    tmpl = {'restartPolicy': 'Never', 'containers': [copy.deepcopy(c)], 'volumes': vols}
    cj = obj('CronJob', 'batch/v1', 'pgdump-nightly', ns_, 86400 * 90, spec={'schedule': '0 2 * * *', 'concurrencyPolicy': 'Forbid',
                                                                             'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
             'jobTemplate': {'spec': {'activeDeadlineSeconds': 3600, 'backoffLimit': 4, 'template': {'spec': copy.deepcopy(tmpl)}}}},
             status={'lastScheduleTime': ago(8 * 3600), 'lastSuccessfulTime': ago(86400 + 7 * 3600)})
    jname = 'pgdump-nightly-29394840'
    ju = uid('Job' + ns_ + jname)
    jl = {'batch.kubernetes.io/controller-uid': ju, 'batch.kubernetes.io/job-name': jname, 'controller-uid': ju, 'job-name': jname}
    job = workload('Job', jname, ns_, {'batch.kubernetes.io/controller-uid': ju}, template_spec=copy.deepcopy(tmpl))
    job['metadata'].update({'creationTimestamp': ago(8 * 3600), 'labels': jl})
    job['metadata']['ownerReferences'] = [{'apiVersion': 'batch/v1', 'kind': 'CronJob', 'name': 'pgdump-nightly', 'uid': cj['metadata']['uid'],
                                           'controller': True, 'blockOwnerDeletion': True}]
    job['spec'].update({'activeDeadlineSeconds': 3600, 'backoffLimit': 4, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False,
                        'podReplacementPolicy': 'TerminatingOrFailed'})
    job['spec']['template']['metadata']['labels'] = dict(jl)
    t_end = 7 * 3600
    job['status'] = {'startTime': ago(8 * 3600), 'failed': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
                     'conditions': [{'type': 'FailureTarget', 'status': 'True', 'reason': 'DeadlineExceeded',
                                     'message': 'Job was active longer than specified deadline', 'lastProbeTime': ago(t_end), 'lastTransitionTime': ago(t_end)},
                                    {'type': 'Failed', 'status': 'True', 'reason': 'DeadlineExceeded',
                                     'message': 'Job was active longer than specified deadline', 'lastProbeTime': ago(t_end - 31),
                                         'lastTransitionTime': ago(t_end - 31)}]}
    pname = jname + '-vq6bn'
    evs = [ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jname, 'cronjob-controller', last=8 * 3600),
           ctrl_ev(job, 'SuccessfulCreate', 'Created pod: %s' % pname, 'job-controller', last=8 * 3600 - 1),
           ctrl_ev(job, 'SuccessfulDelete', 'Deleted pod: %s' % pname, 'job-controller', last=t_end),
           ctrl_ev(job, 'DeadlineExceeded', 'Job was active longer than specified deadline', 'job-controller', type_='Warning', last=t_end - 31),
           ctrl_ev(cj, 'SawCompletedJob', 'Saw completed job: %s, status: Failed' % jname, 'cronjob-controller', last=t_end - 30)]
    # yesterday's run, which finished in 48 minutes
    prev = 'pgdump-nightly-29393400'
    pu = uid('Job' + ns_ + prev)
    pjob = workload('Job', prev, ns_, {'batch.kubernetes.io/controller-uid': pu}, template_spec=copy.deepcopy(tmpl))
    pjob['metadata'].update({'creationTimestamp': ago(86400 + 8 * 3600), 'labels': {'batch.kubernetes.io/job-name': prev, 'job-name': prev}})
    pjob['spec'].update({'activeDeadlineSeconds': 3600, 'backoffLimit': 4, 'completions': 1, 'parallelism': 1})
    pjob['status'] = {'startTime': ago(86400 + 8 * 3600), 'completionTime': ago(86400 + 7 * 3600 + 720), 'succeeded': 1, 'ready': 0, 'terminating': 0,
                      'uncountedTerminatedPods': {},
                      'conditions': [{'type': 'Complete', 'status': 'True', 'lastProbeTime': ago(86400 + 7 * 3600 + 720),
                                      'lastTransitionTime': ago(86400 + 7 * 3600 + 720)}]}
    pst = {'name': 'pgdump', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(prev),
           'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(86400 + 8 * 3600 - 5), 'finishedAt': ago(86400 + 7 * 3600 + 725),
                                    'containerID': cid(prev)}}}
    pp = mkpod(prev + '-8k2xw', ns_, 'worker-1', [copy.deepcopy(c)], [pst], 86400 + 8 * 3600, owner=('Job', prev),
               labels={'batch.kubernetes.io/job-name': prev, 'job-name': prev},
               phase='Succeeded', spec_extra={'volumes': vols, 'restartPolicy': 'Never'})
    set_status(pp, [pst], 86400 + 8 * 3600, ready=False, phase='Succeeded')
    pp['status']['conditions'][2]['reason'] = 'PodCompleted'; pp['status']['conditions'][3]['reason'] = 'PodCompleted'
    objs = [ns(ns_), n1, n2, cj, job, pjob, pp, secret('backup-db', ns_, ['password']),
            claim('db-backups', ns_, 'nfs-client', 'Bound', '500Gi', volume='pvc-' + uid('dbb'), provisioner='cluster.local/nfs-subdir-external-provisioner',
                  access=('ReadWriteMany',), created=86400 * 90)] + \
           evs + noise([n1, n2], kv)
    case('f3-pgdump-job-active-deadline', 'Last night\'s database dump was stopped after an hour: the Job ran past its activeDeadlineSeconds and its pod was '
                                          'deleted',
         'https://github.com/kubernetes/kubernetes/issues/62134', "type: 'Warning' reason: 'DeadlineExceeded' Job was active longer than specified deadline",
         '%s/%s' % (ns_, jname), 'job.deadline-exceeded', objs, decisive='Job was active longer than specified deadline', playbook=None)


# =====================================================================================
# 16. security.read-only-rootfs: OpenObserve (Rust) panics creating its cache directory once
#     the chart's readOnlyRootFilesystem is set
# =====================================================================================
@reg
def rust_readonly_root():
    ns_ = 'openobserve'
    kv = 'v1.29.3'
    n1 = mknode('obs-1', kubelet=kv, runtime='containerd://1.7.14', kernel='6.5.0-26-generic', os_image='Ubuntu 22.04.4 LTS')
    n2 = mknode('obs-2', kubelet=kv, runtime='containerd://1.7.14', kernel='6.5.0-26-generic', os_image='Ubuntu 22.04.4 LTS')
    img = 'public.ecr.aws/zinclabs/openobserve:v0.9.1'
    labels = {'app.kubernetes.io/name': 'openobserve', 'app.kubernetes.io/instance': 'o2', 'role': 'querier'}
    c = {'name': 'openobserve', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'ZO_NODE_ROLE', 'value': 'querier'}, {'name': 'ZO_DATA_DIR', 'value': '/data'}, {'name': 'ZO_META_STORE', 'value': 'postgres'},
                 {'name': 'ZO_S3_BUCKET_NAME', 'value': 'o2-data'}, {'name': 'ZO_ROOT_USER_EMAIL', 'valueFrom': {'secretKeyRef': {'name': 'o2-openobserve',
                     'key': 'ZO_ROOT_USER_EMAIL'}}}],
         'ports': [{'containerPort': 5080, 'name': 'http'}, {'containerPort': 5081, 'name': 'grpc'}],
         'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 5080}, 'initialDelaySeconds': 10, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}, 'limits': {'cpu': '2', 'memory': '4Gi'}},
         'securityContext': {'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 10001, 'runAsGroup': 3000, 'allowPrivilegeEscalation': False,
                             'capabilities': {'drop': ['ALL']}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/data'}]}
    containers, vols = with_api([c], [{'name': 'data', 'emptyDir': {}}], 'o2q')
    spec = {'serviceAccountName': 'o2-openobserve', 'securityContext': {'fsGroup': 2000, 'runAsGroup': 3000, 'runAsNonRoot': True, 'runAsUser': 10001},
            'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('o2-openobserve-querier', ns_, {'app.kubernetes.io/name': 'openobserve', 'role': 'querier'}, 2, '6cbbf94d7f', spec, ready=0, created=2400,
                   generation=2)
    created = 2300
    p = rs_pod(d, rs, '6cbbf94d7f', 'h4x8w', 'obs-2', containers, [running('openobserve', img, 60)], created, vols, labels=dict(labels), sa='o2-openobserve',
               spec_extra={'securityContext': spec['securityContext']})
    set_status(p, [clbo(p, 'openobserve', img, 9, term(101, 'Error', 300, 300, seed='o2-9'))], created)
    logs = ["thread 'main' panicked at src/config/src/config.rs:1066:57:",
            'create cache dir success: Os { code: 30, kind: ReadOnlyFilesystem, message: "Read-only file system" }',
            'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace']
    nn = 'obs-2'
    evs = crashloop_events(p, nn, img, 'openobserve', created, 9, 300, 44, size=58822107) + \
          [ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set o2-openobserve-querier-6cbbf94d7f to 1', 'deployment-controller', last=created + 1)]
    old_img = img
    ord_ = mkpod('o2-openobserve-querier-74d8b5c9f6-zk9mq', ns_, 'obs-1', [dict(c, securityContext={'runAsNonRoot': True, 'runAsUser': 10001})],
                 [running('openobserve', old_img, 86400 * 6)], 86400 * 6,
                 owner=('ReplicaSet', 'o2-openobserve-querier-74d8b5c9f6'), labels={**labels, 'pod-template-hash': '74d8b5c9f6'})
    objs = [ns(ns_), n1, n2, d, rs, p, ord_, serviceaccount('o2-openobserve', ns_), secret('o2-openobserve', ns_, ['ZO_ROOT_USER_EMAIL',
        'ZO_ROOT_USER_PASSWORD'])] + evs + \
           [podlog(ns_, p['metadata']['name'], 'openobserve', logs)] + noise([n1, n2], kv)
    case('f3-openobserve-rust-panic-readonly-root', 'OpenObserve querier (Rust) panics at start after readOnlyRootFilesystem was turned on: it creates its '
                                                    'cache directory outside /data',
         'https://github.com/openobserve/openobserve-helm-chart/issues/54',
         'create cache dir success: Os { code: 30, kind: ReadOnlyFilesystem, message: "Read-only file system" }',
         '%s/%s' % (ns_, p['metadata']['name']), 'security.read-only-rootfs', objs, decisive='kind: ReadOnlyFilesystem, message: "Read-only file system"',
             playbook=None)


# =====================================================================================
# 17. pending.topology-spread: a burst of replicas of a zone-spread Deployment; most nodes are
#     ruled out by the spread constraint, the others by taints, affinity and anti-affinity
# =====================================================================================
@reg
def topology_spread_mixed():
    ns_ = 'testapp'
    kv = 'v1.29.4-eks-036c24b'
    kern = '5.10.217-205.860.amzn2.x86_64'
    zones = ['eu-central-1a', 'eu-central-1b', 'eu-central-1c']
    nodes = []
    def add(name, labels, taints=None, os_image=EKS_OS):
        n = mknode(name, kubelet=kv, runtime='containerd://1.7.11', kernel=kern, os_image=os_image, labels=labels, taints=taints)
        nodes.append(n)
        return n
    add('ip-10-20-1-15.eu-central-1.compute.internal', {'kubernetes.io/os': 'windows', 'topology.kubernetes.io/zone': zones[0]},
        taints=[{'key': 'windowsContainers', 'value': 'true', 'effect': 'NoSchedule'}], os_image='Windows Server 2022 Datacenter')
    for k in range(2):
        add('fargate-ip-10-20-%d-%d.eu-central-1.compute.internal' % (10 + k, 40 + k), {'eks.amazonaws.com/compute-type': 'fargate',
                                                                                        'topology.kubernetes.io/zone': zones[k]},
            taints=[{'key': 'eks.amazonaws.com/compute-type', 'value': 'fargate', 'effect': 'NoSchedule'}])
    for k in range(4):
        add('ip-10-20-%d-%d.eu-central-1.compute.internal' % (30 + k, 100 + k), {'karpenter.sh/nodepool': 'system',
                                                                                 'topology.kubernetes.io/zone': zones[k % 3]})
    app_nodes = []
    for k in range(13):
        app_nodes.append(add('ip-10-20-%d-%d.eu-central-1.compute.internal' % (60 + k, 10 + k),
                             {'karpenter.sh/nodepool': 'apps', 'karpenter.sh/capacity-type': 'spot',
                              'topology.kubernetes.io/zone': zones[0] if k < 9 else zones[1 + (k % 2)]}))
    img = 'registry.example.com/testapp:2.8.1'
    labels = {'app': 'testapp'}
    c = {'name': 'testapp', 'image': img, 'ports': [{'containerPort': 8080}], 'resources': {'requests': {'cpu': '1', 'memory': '1Gi'},
        'limits': {'memory': '1Gi'}}}
    aff = {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'karpenter.sh/nodepool',
        'operator': 'In', 'values': ['apps']}]}]}},
           'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchLabels': labels},
                                                                                   'topologyKey': 'kubernetes.io/hostname'}]}}
    tsc = [{'maxSkew': 1, 'topologyKey': 'topology.kubernetes.io/zone', 'whenUnsatisfiable': 'DoNotSchedule', 'labelSelector': {'matchLabels': labels}}]
    spec = {'containers': [copy.deepcopy(c)], 'affinity': aff, 'topologySpreadConstraints': tsc}
    d, rs = deploy('testapp', ns_, labels, 12, '5f8b56c8fc', spec, ready=7, created=86400 * 9, generation=14)
    objs = [ns(ns_)] + nodes + [d, rs]
    # seven running replicas: three in zone a (nine nodes), two in each of b and c (two nodes each)
    hosts = app_nodes[9:13] + app_nodes[0:3]
    for k, n in enumerate(hosts):
        objs.append(rs_pod(d, rs, '5f8b56c8fc', ['q2w8r', 'm4n7c', 'b8x2k', 'z9d5t', 'k3p6h', 'r7v2n', 't5y8u'][k], n['metadata']['name'], [copy.deepcopy(c)],
                           [running('testapp', img, 86400 * 2)], 86400 * 2, spec_extra={'affinity': aff, 'topologySpreadConstraints': tsc}))
    msg = ("0/20 nodes are available: 1 node(s) had untolerated taint {windowsContainers: true}, 2 node(s) had untolerated taint "
           "{eks.amazonaws.com/compute-type: fargate}, "
           "4 node(s) didn't match Pod's node affinity/selector, 4 node(s) didn't match pod anti-affinity rules, 9 node(s) didn't match pod topology spread "
           "constraints. "
           "preemption: 0/20 nodes are available: 13 No preemption victims found for incoming pod, 7 Preemption is not helpful for scheduling.")
    pend = []
    for k, sfx in enumerate(['6xcjp', 'w9kgn', '6296k', 'v8ltz', 'p2q9m']):
        p = rs_pod(d, rs, '5f8b56c8fc', sfx, None, [copy.deepcopy(c)], [], 240 - k, phase='Pending', conditions=[
            {'type': 'PodScheduled', 'status': 'False', 'reason': 'Unschedulable', 'message': msg, 'lastProbeTime': None, 'lastTransitionTime': ago(239 - k)}],
            spec_extra={'affinity': aff, 'topologySpreadConstraints': tsc})
        p['status'] = {'phase': 'Pending', 'qosClass': 'Burstable', 'conditions': p['status']['conditions']}
        pend.append(p)
        objs += [p, failed_scheduling(p, msg, 4, 10 + k, 239 - k)]
    target = pend[0]
    objs += [ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set testapp-5f8b56c8fc to 12 from 7', 'deployment-controller', last=241)]
    kp = 'karpenter-7d4b9c8f6-hx2lq'
    kimg = 'public.ecr.aws/karpenter/controller:0.37.0'
    objs.append(mkpod(kp, 'karpenter', nodes[3]['metadata']['name'], [{'name': 'controller', 'image': kimg}], [running('controller', kimg, 86400 * 20)],
                      86400 * 20,
                      owner=('ReplicaSet', 'karpenter-7d4b9c8f6'), labels={'app.kubernetes.io/name': 'karpenter'}))
    objs += [ns('karpenter'), podlog('karpenter', kp, 'controller', [
        '{"level":"INFO","time":"%s","logger":"controller","message":"found provisionable '
        'pod(s)","commit":"490ef94","controller":"provisioner","Pods":"testapp/testapp-5f8b56c8fc-6xcjp, testapp/testapp-5f8b56c8fc-w9kgn, '
        'testapp/testapp-5f8b56c8fc-6296k, testapp/testapp-5f8b56c8fc-v8ltz, testapp/testapp-5f8b56c8fc-p2q9m","duration":"41.2ms"}' % L(230),
        '{"level":"INFO","time":"%s","logger":"controller","message":"computed new nodeclaim(s) to fit '
        'pod(s)","commit":"490ef94","controller":"provisioner","nodeclaims":1,"pods":1}' % L(229)], previous=False)]
    objs += noise(nodes[3:5], 'v1.29.3-eksbuild.2', dns_image='602401143452.dkr.ecr.eu-central-1.amazonaws.com/eks/coredns:v1.11.1-eksbuild.4')
    case('f3-topology-spread-burst-mixed-reasons', 'A scaled-up Deployment leaves replicas Pending: nine nodes break the zone spread constraint, the rest are '
                                                   'excluded by taints, affinity and anti-affinity',
         'https://github.com/aws/karpenter-provider-aws/issues/6447',
         "0/20 nodes are available: 1 node(s) had untolerated taint {windowsContainers: true}, 2 node(s) had untolerated taint "
         "{eks.amazonaws.com/compute-type: fargate}, 4 node(s) didn't match Pod's node affinity/selector, 4 node(s) didn't match pod anti-affinity rules, 9 "
         "node(s) didn't match pod topology spread constraints.",
         '%s/%s' % (ns_, target['metadata']['name']), 'pending.topology-spread', objs, decisive="9 node(s) didn't match pod topology spread constraints",
         acceptable=['pending.pod-affinity'], playbook=None)


# =====================================================================================
# negatives: healthy or finished pods with the noise their reports asked about
# =====================================================================================


# N1. metrics-server healthy for a day; the kubelet warns at every sync that the node's
#     resolv.conf has more than three nameservers (DNSConfigForming)
@reg
def neg_dns_config_forming():
    ns_ = 'kube-system'
    kv = 'v1.19.2'
    n1 = mknode('hetzner-ax41-01', kubelet=kv, runtime='docker://19.3.13', kernel='5.4.0-48-generic', os_image='Ubuntu 20.04.1 LTS', ip='95.216.14.7')
    img = 'k8s.gcr.io/metrics-server/metrics-server:v0.3.7'
    c = {'name': 'metrics-server', 'image': img, 'args': ['--cert-dir=/tmp', '--secure-port=4443', '--kubelet-insecure-tls',
                                                          '--kubelet-preferred-address-types=InternalIP'],
         'ports': [{'containerPort': 4443, 'name': 'main-port'}], 'securityContext': {'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 1000},
         'volumeMounts': [{'name': 'tmp-dir', 'mountPath': '/tmp'}]}
    containers, vols = with_api([c], [{'name': 'tmp-dir', 'emptyDir': {}}], 'ms')
    d, rs = deploy('metrics-server', ns_, {'k8s-app': 'metrics-server'}, 1, '697746ff48', {'containers': copy.deepcopy(containers), 'volumes': vols},
                   created=86400 * 3)
    created = 83000
    p = rs_pod(d, rs, '697746ff48', 'krmpt', 'hetzner-ax41-01', containers, [running('metrics-server', img, created - 10)], created, vols, sa='metrics-server',
               spec_extra={'priorityClassName': 'system-cluster-critical'})
    for s_ in p['status']['containerStatuses']: s_['containerID'] = s_['containerID'].replace('containerd://', 'docker://')
    nn = 'hetzner-ax41-01'
    evs = [ev(p, 'DNSConfigForming', 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 213.133.100.100 '
                                     '213.133.99.99 213.133.98.98',
              count=1138, first=created - 5, last=83, host=nn)]
    logs = ['I%s       1 serving.go:312] Generated self-signed cert (/tmp/apiserver.crt, /tmp/apiserver.key)' % L(created - 9, '%m%d %H:%M:%S.%f'),
            'I%s       1 secure_serving.go:197] Serving securely on [::]:4443' % L(created - 8, '%m%d %H:%M:%S.%f')]
    pinger_img = 'kubeovn/kube-ovn:v1.4.0'
    pg = mkpod('kube-ovn-pinger-kf7xw', 'kube-ovn', nn, [{'name': 'pinger', 'image': pinger_img}], [running('pinger', pinger_img, 86400 - 10)], 86400,
               owner=('DaemonSet', 'kube-ovn-pinger'), labels={'app': 'kube-ovn-pinger', 'component': 'network', 'type': 'infra'})
    objs = [ns(ns_), ns('kube-ovn'), n1, d, rs, p, pg, serviceaccount('metrics-server', ns_)] + evs + \
           [ev(pg, 'DNSConfigForming', 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 213.133.100.100 '
                                       '213.133.99.99 213.133.98.98',
               count=1131, first=86400 - 5, last=600, host=nn), podlog(ns_, p['metadata']['name'], 'metrics-server', logs, previous=False)]
    for o in noise([n1], kv, dns_image='k8s.gcr.io/coredns:1.7.0'):
        for s_ in o['status']['containerStatuses']: s_['containerID'] = s_['containerID'].replace('containerd://', 'docker://')
        objs.append(o)
    case('f3-neg-dnsconfigforming-nameserver-limit', 'metrics-server Ready for a day; every pod on the node carries a DNSConfigForming warning (the host '
                                                     'lists more than three nameservers) and runs fine',
         'https://github.com/kubeovn/kube-ovn/issues/497',
         'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 213.133.100.100 213.133.99.99 213.133.98.98',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N2. ingress-nginx controller up for days; its log opens with client-go's in-cluster config warning
@reg
def neg_client_go_incluster():
    ns_ = 'ingress-nginx'
    kv = 'v1.24.4'
    n1 = mknode('lb-node-1', kubelet=kv, runtime='containerd://1.6.8', kernel='5.15.0-46-generic', os_image='Ubuntu 22.04.1 LTS')
    n2 = mknode('lb-node-2', kubelet=kv, runtime='containerd://1.6.8', kernel='5.15.0-46-generic', os_image='Ubuntu 22.04.1 LTS')
    img = 'registry.k8s.io/ingress-nginx/controller:v1.3.0@sha256:d1707ca76d3b044ab8a28277a2466a02100ee9f58a86af1535a3edf9323ea1b5'
    labels = {'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/instance': 'ingress-nginx', 'app.kubernetes.io/component': 'controller'}
    c = {'name': 'controller', 'image': img, 'args': ['/nginx-ingress-controller', '--publish-service=$(POD_NAMESPACE)/ingress-nginx-controller',
                                                      '--election-id=ingress-controller-leader',
                                                     '--controller-class=k8s.io/ingress-nginx', '--ingress-class=nginx', '--configmap=$(POD_NAMESPACE)/ingress'
                                                             '-nginx-controller'],
         'ports': [{'containerPort': 80, 'name': 'http'}, {'containerPort': 443, 'name': 'https'}, {'containerPort': 8443, 'name': 'webhook'}],
         'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 10254}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'failureThreshold': 5},
         'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 10254}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'failureThreshold': 3},
         'resources': {'requests': {'cpu': '100m', 'memory': '90Mi'}},
         'securityContext': {'allowPrivilegeEscalation': True, 'capabilities': {'add': ['NET_BIND_SERVICE'], 'drop': ['ALL']}, 'runAsUser': 101}}
    containers, vols = with_api([c], [], 'ingn')
    d, rs = deploy('ingress-nginx-controller', ns_, labels, 1, '7c7b9d6c5f', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 5)
    created = 86400 * 5
    p = rs_pod(d, rs, '7c7b9d6c5f', 'xz8kq', 'lb-node-2', containers, [running('controller', img, created - 12)], created, vols, labels=dict(labels),
               sa='ingress-nginx')
    I = lambda s_: L(s_, '%m%d %H:%M:%S.%f')
    logs = ['-------------------------------------------------------------------------------', 'NGINX Ingress controller', '  Release:       v1.3.0',
            '  Build:         '
            '2b7b74854d90ad9b4b96a5011b9e8b67d20bfb8f',
            '  Repository:    https://github.com/kubernetes/ingress-nginx', '  nginx version: nginx/1.19.10', '', '-------------------------------------------'
                    '------------------------------------', '',
            'W%s       7 client_config.go:617] Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.'
                % I(created - 11),
            'I%s       7 main.go:230] "Creating API client" host="https://10.96.0.1:443"' % I(created - 11),
            'I%s       7 main.go:274] "Running in Kubernetes cluster" major="1" minor="24" git="v1.24.4" state="clean" '
            'commit="95ee5ab382d64cfe6c28967f36b53970b8374491" platform="linux/amd64"' % I(created - 11),
            'I%s       7 main.go:104] "SSL fake certificate created" file="/etc/ingress-controller/ssl/default-fake-certificate.pem"' % I(created - 10),
            'I%s       7 nginx.go:258] "Starting NGINX Ingress controller"' % I(created - 10),
            'I%s       7 leaderelection.go:258] successfully acquired lease ingress-nginx/ingress-controller-leader' % I(created - 8),
            'I%s       7 controller.go:168] "Backend successfully reloaded"' % I(3600),
            '10.0.0.14 - - [%s] "GET /api/health HTTP/1.1" 200 2 "-" "kube-probe/1.24" 117 0.002 [shop-web-80] [] 10.244.1.22:8080 2 0.002 200 '
            '4c9f1b2a3d8e7f60' % L(12, '%d/%b/%Y:%H:%M:%S +0000')]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('ingress-nginx', ns_), service('ingress-nginx-controller', ns_, labels, ports=((80, 80), (443, 443))),
            endpoints('ingress-nginx-controller', ns_, ready=[(p['status']['podIP'], p['metadata']['name'], 'lb-node-2')], port=80),
            podlog(ns_, p['metadata']['name'], 'controller', logs, previous=False)] + noise([n1, n2], kv)
    case('f3-neg-client-go-inclusterconfig-warning', 'ingress-nginx controller serving for five days; its log opens with client-go\'s "This might not work" '
                                                     'warning (a warning you can ignore, say the maintainers)',
         'https://github.com/kubernetes/ingress-nginx/issues/8962',
         'W0823 06:26:02.902688       7 client_config.go:617] Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not '
         'work.',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N3. MySQL 8 running for a week with its insecure --pid-file and self-signed CA warnings
@reg
def neg_mysql_pid_file():
    ns_ = 'wordpress'
    kv = 'v1.30.6'
    n1 = mknode('wp-node-1', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'mysql:8.0.40'
    labels = {'app': 'mysql'}
    c = {'name': 'mysql', 'image': img, 'env': [{'name': 'MYSQL_ROOT_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'mysql-root', 'key': 'password'}}},
                                                {'name': 'MYSQL_DATABASE', 'value': 'wordpress'}],
         'ports': [{'containerPort': 3306, 'name': 'mysql'}], 'readinessProbe': {'exec': {'command': ['mysqladmin', 'ping', '-h', '127.0.0.1']},
                                                                                 'periodSeconds': 10, 'timeoutSeconds': 5},
         'livenessProbe': {'tcpSocket': {'port': 3306}, 'initialDelaySeconds': 30, 'periodSeconds': 20},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}, 'volumeMounts': [{'name': 'data',
             'mountPath': '/var/lib/mysql'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-mysql-0'}}], 'wpmysql')
    ss = sts('mysql', ns_, labels, 1, {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, service='mysql')
    created = 86400 * 7
    p = mkpod('mysql-0', ns_, 'wp-node-1', containers, [running('mysql', img, created - 14)], created, owner=('StatefulSet', 'mysql'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'mysql-0'}, spec_extra={'volumes': vols})
    M = lambda s_: L(s_, '%Y-%m-%dT%H:%M:%S.%fZ')
    logs = ['%s+00:00 [Note] [Entrypoint]: Entrypoint script for MySQL Server 8.0.40-1.el9 started.' % L(created - 13, '%Y-%m-%d %H:%M:%S'),
            '%s+00:00 [Note] [Entrypoint]: Switching to dedicated user \'mysql\'' % L(created - 13, '%Y-%m-%d %H:%M:%S'),
            "'/var/lib/mysql/mysql.sock' -> '/var/run/mysqld/mysqld.sock'",
            '%s 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld 8.0.40) starting as process 1' % M(created - 12),
            '%s 1 [System] [MY-013576] [InnoDB] InnoDB initialization has started.' % M(created - 12),
            '%s 1 [System] [MY-013577] [InnoDB] InnoDB initialization has ended.' % M(created - 11),
            '%s 0 [Warning] [MY-010068] [Server] CA certificate ca.pem is self signed.' % M(created - 11),
            '%s 0 [System] [MY-013602] [Server] Channel mysql_main configured to support TLS. Encrypted connections are now supported for this channel.'
                % M(created - 11),
            "%s 0 [Warning] [MY-011810] [Server] Insecure configuration for --pid-file: Location '/var/run/mysqld' in the path is accessible to all OS users. "
            "Consider choosing a different directory." % M(created - 11),
            "%s 0 [System] [MY-011323] [Server] X Plugin ready for connections. Bind-address: '::' port: 33060, socket: /var/run/mysqld/mysqlx.sock"
                % M(created - 11),
            "%s 0 [System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '8.0.40'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306 "
            " MySQL Community Server - GPL." % M(created - 11)]
    wimg = 'wordpress:6.6.2-apache'
    wd, wrs = deploy('wordpress', ns_, {'app': 'wordpress'}, 1, '85f6c9d7b4', {'containers': [{'name': 'wordpress', 'image': wimg}]}, created=86400 * 7)
    wp = rs_pod(wd, wrs, '85f6c9d7b4', 'p9c2x', 'wp-node-1', [{'name': 'wordpress', 'image': wimg}], [running('wordpress', wimg, created - 30)], created)
    objs = [ns(ns_), n1, ss, p, wd, wrs, wp, secret('mysql-root', ns_, ['password']),
            claim('data-mysql-0', ns_, 'local-path', 'Bound', '10Gi', volume='pvc-' + uid('wpm'), provisioner='rancher.io/local-path', created=created),
            service('mysql', ns_, labels, ports=((3306, 3306),)), podlog(ns_, 'mysql-0', 'mysql', logs, previous=False)] + noise([n1], kv)
    case('f3-neg-mysql-insecure-pid-file-warning', 'MySQL 8 serving WordPress for a week; its start-up log carries the insecure --pid-file and self-signed CA '
                                                   'warnings (harmless, say the image maintainers)',
         'https://github.com/docker-library/mysql/pull/758',
         "[Warning] [MY-011810] [Server] Insecure configuration for --pid-file: Location '/var/run/mysqld' in the path is accessible to all OS users. "
         "Consider choosing a different directory.",
         '%s/mysql-0' % ns_, None, objs)


# N4. kadalu operator running on k3s; urllib3 warns about every unverified request to the API server
@reg
def neg_urllib3_insecure():
    ns_ = 'kadalu'
    kv = 'v1.18.3+k3s1'
    n1 = mknode('k3s-storage-1', kubelet=kv, runtime='containerd://1.3.3-k3s2', kernel='5.4.0-37-generic', os_image='Ubuntu 20.04 LTS',
                labels={'node-role.kubernetes.io/master': 'true'})
    n2 = mknode('k3s-storage-2', kubelet=kv, runtime='containerd://1.3.3-k3s2', kernel='5.4.0-37-generic', os_image='Ubuntu 20.04 LTS')
    img = 'docker.io/kadalu/kadalu-operator:0.7.0'
    c = {'name': 'kadalu-operator', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'WATCH_NAMESPACE', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.namespace'}}}, {'name': 'K8S_DIST', 'value': 'kubernetes'},
                 {'name': 'KADALU_VERSION', 'value': '0.7.0'}, {'name': 'VERBOSE', 'value': 'no'}]}
    containers, vols = with_api([c], [], 'kadalu-op')
    d, rs = deploy('operator', ns_, {'name': 'kadalu'}, 1, '7f4d8b6c9c', {'serviceAccountName': 'kadalu-operator', 'containers': copy.deepcopy(containers),
                                                                          'volumes': vols}, created=86400 * 2)
    created = 86400 * 2
    p = rs_pod(d, rs, '7f4d8b6c9c', 'w2hxl', 'k3s-storage-1', containers, [running('kadalu-operator', img, created - 12)], created, vols, sa='kadalu-operator')
    warn = ("/usr/local/lib/python3.7/site-packages/urllib3/connectionpool.py:986: InsecureRequestWarning: Unverified HTTPS request is being made to host "
            "'10.43.0.1'. "
            "Adding certificate verification is strongly advised. See: https://urllib3.readthedocs.io/en/latest/advanced-usage.html#ssl-warning")
    logs = ['[%s] INFO [main - 395:main] - Started' % L(created - 10, '%Y-%m-%d %H:%M:%S,%f', 3),
            '[%s] INFO [main - 362:deploy_csi_pods] - Deployed CSI Pods {"manifest": "/kadalu/templates/csi.yaml"}' % L(created - 8, '%Y-%m-%d %H:%M:%S,%f', 3)]
    for k in range(40):
        logs += [warn, '  InsecureRequestWarning,']
    logs += ['[%s] INFO [main - 233:handle_added] - Deployed Server pod {"volname": "storage-pool-1", "manifest": "/kadalu/templates/server.yaml", "node": '
             '"k3s-storage-2"}' % L(86400, '%Y-%m-%d %H:%M:%S,%f', 3)]
    logs += [warn, '  InsecureRequestWarning,'] * 10
    srv_img = 'docker.io/kadalu/kadalu-server:0.7.0'
    sp = mkpod('server-storage-pool-1-0-k3s-storage-2-0', ns_, 'k3s-storage-2', [{'name': 'server', 'image': srv_img}], [running('server', srv_img,
        86400 - 30)], 86400,
               owner=('StatefulSet', 'server-storage-pool-1-0-k3s-storage-2'), labels={'app.kubernetes.io/name': 'kadalu',
                                                                                       'app.kubernetes.io/component': 'server'})
    objs = [ns(ns_), n1, n2, d, rs, p, sp, serviceaccount('kadalu-operator', ns_), podlog(ns_, p['metadata']['name'], 'kadalu-operator', logs,
                                                                                          previous=False)] + \
           noise([n1, n2], kv, proxy=False, dns_image='rancher/coredns-coredns:1.6.9')
    case('f3-neg-kadalu-urllib3-insecure-request-warning', 'kadalu operator working for two days while urllib3 warns about every unverified HTTPS request to '
                                                           'the API server (log volume, not a failure)',
         'https://github.com/kadalu/kadalu/issues/272',
         "/usr/local/lib/python3.7/site-packages/urllib3/connectionpool.py:986: InsecureRequestWarning: Unverified HTTPS request is being made to host "
         "'10.43.0.1'. Adding certificate verification is strongly advised. See: https://urllib3.readthedocs.io/en/latest/advanced-usage.html#ssl-warning",
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N5. Scoold (Java 11) serving; the JVM prints its illegal reflective access warning on a request
@reg
def neg_java_illegal_reflective():
    ns_ = 'scoold'
    kv = 'v1.20.5'
    n1 = mknode('qa-node-1', kubelet=kv, runtime='containerd://1.4.4', kernel='5.4.0-70-generic', os_image='Ubuntu 20.04.2 LTS')
    n2 = mknode('qa-node-2', kubelet=kv, runtime='containerd://1.4.4', kernel='5.4.0-70-generic', os_image='Ubuntu 20.04.2 LTS')
    img = 'erudikaltd/scoold:1.42.2'
    labels = {'app': 'scoold'}
    c = {'name': 'scoold', 'image': img, 'env': [{'name': 'JAVA_OPTS', 'value': '-Dconfig.file=/scoold/application.conf -Xmx512m'}],
         'ports': [{'containerPort': 8000, 'name': 'http'}], 'readinessProbe': {'httpGet': {'path': '/', 'port': 8000}, 'periodSeconds': 15,
                                                                                'timeoutSeconds': 5},
         'resources': {'requests': {'cpu': '250m', 'memory': '768Mi'}, 'limits': {'memory': '1Gi'}}, 'volumeMounts': [{'name': 'config',
             'mountPath': '/scoold/application.conf', 'subPath': 'application.conf'}]}
    containers, vols = with_api([c], [{'name': 'config', 'configMap': {'name': 'scoold-config'}}], 'scoold')
    d, rs = deploy('scoold', ns_, labels, 1, '6b8f7d9c5b', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 3)
    created = 86400 * 3
    p = rs_pod(d, rs, '6b8f7d9c5b', 'tg4vz', 'qa-node-2', containers, [running('scoold', img, created - 40)], created, vols)
    S = lambda s_: L(s_, '%Y-%m-%d %H:%M:%S', 0)
    logs = ['%s [INFO ] Starting ScooldServer v1.42.2 using Java 11.0.10 on %s with PID 1 (/scoold/scoold.jar started by root in /scoold)' % (S(created - 38),
        p['metadata']['name']),
            '%s [INFO ] Tomcat initialized with port(s): 8000 (http)' % S(created - 30),
            '%s [INFO ] Started ScooldServer in 14.207 seconds (JVM running for 15.981)' % S(created - 22),
            'WARNING: An illegal reflective access operation has occurred',
            'WARNING: Illegal reflective access by org.glassfish.jersey.client.internal.HttpUrlConnector$3 '
            '(jar:file:/scoold/scoold.jar!/BOOT-INF/lib/jersey-client-2.32.jar!/) to field java.net.HttpURLConnection.method',
            'WARNING: Please consider reporting this to the maintainers of org.glassfish.jersey.client.internal.HttpUrlConnector$3',
            'WARNING: Use --illegal-access=warn to enable warnings of further illegal reflective access operations',
            'WARNING: All illegal access operations will be denied in a future release',
            '%s [INFO ] Para client initialized with endpoint https://paraio.com/v1/' % S(86400),
            '%s [INFO ] GET /questions 200 42ms' % S(60)]
    objs = [ns(ns_), n1, n2, d, rs, p, configmap('scoold-config', ns_, {'application.conf': 'para.app_name = "Scoold"\npara.port = 8000\npara.env = '
            '"production"\n'}),
            service('scoold', ns_, labels, ports=((80, 8000),)), podlog(ns_, p['metadata']['name'], 'scoold', logs, previous=False)] + noise([n1, n2], kv,
                dns_image='k8s.gcr.io/coredns:1.7.0')
    case('f3-neg-java-illegal-reflective-access', 'Scoold (Java 11) serving for three days; its log holds the JVM\'s "illegal reflective access" warning '
                                                  'block (ignore it, says the maintainer)',
         'https://github.com/Erudika/scoold/issues/236', 'WARNING: An illegal reflective access operation has occurred',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N6. Verdaccio (Node) registry serving; Node prints the DEP0005 Buffer() deprecation once
@reg
def neg_node_buffer_deprecation():
    ns_ = 'npm'
    kv = 'v1.28.11'
    n1 = mknode('build-node-1', kubelet=kv, runtime='containerd://1.7.13', kernel='6.1.0-18-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'verdaccio/verdaccio:4.0.0'
    labels = {'app': 'verdaccio'}
    c = {'name': 'verdaccio', 'image': img, 'ports': [{'containerPort': 4873, 'name': 'http'}],
         'livenessProbe': {'httpGet': {'path': '/-/ping', 'port': 'http'}, 'initialDelaySeconds': 5}, 'readinessProbe': {'httpGet': {'path': '/-/ping',
             'port': 'http'}, 'initialDelaySeconds': 5},
         'resources': {}, 'volumeMounts': [{'name': 'storage', 'mountPath': '/verdaccio/storage'}, {'name': 'config', 'mountPath': '/verdaccio/conf'}]}
    containers, vols = with_api([c], [{'name': 'storage', 'persistentVolumeClaim': {'claimName': 'verdaccio'}}, {'name': 'config',
        'configMap': {'name': 'verdaccio'}}], 'verd')
    d, rs = deploy('verdaccio', ns_, labels, 1, '84c5f7d96b', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 12)
    created = 86400 * 4
    p = rs_pod(d, rs, '84c5f7d96b', 'jr8nc', 'build-node-1', containers, [running('verdaccio', img, created - 9)], created, vols)
    logs = [' warn --- config file  - /verdaccio/conf/config.yaml', ' warn --- Verdaccio started', ' warn --- Plugin successfully loaded: htpasswd',
            ' warn --- Plugin successfully loaded: audit',
            ' warn --- http address - http://0.0.0.0:4873/ - verdaccio/4.0.0',
            ' http <-- 201, user: null(10.244.0.1), req: \'PUT /-/user/org.couchdb.user:ci\', bytes: 70/73',
            '(node:1) [DEP0005] DeprecationWarning: Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), '
            'Buffer.allocUnsafe(), or Buffer.from() methods instead.',
            ' http <-- 200, user: ci(10.244.0.17), req: \'GET /lodash\', bytes: 0/164421',
            ' http <-- 200, user: ci(10.244.0.17), req: \'GET /react\', bytes: 0/98322']
    objs = [ns(ns_), n1, d, rs, p, configmap('verdaccio', ns_, {'config.yaml': 'storage: /verdaccio/storage\nauth:\n  htpasswd:\n    file: '
                                                                               '/verdaccio/storage/htpasswd\n'}),
            claim('verdaccio', ns_, 'local-path', 'Bound', '20Gi', volume='pvc-' + uid('verd'), provisioner='rancher.io/local-path', created=86400 * 12),
            service('verdaccio', ns_, labels, ports=((4873, 4873),)), podlog(ns_, p['metadata']['name'], 'verdaccio', logs, previous=False)] + noise([n1], kv)
    case('f3-neg-node-buffer-deprecation-warning', 'Verdaccio serving an npm registry for four days; Node printed its DEP0005 Buffer() deprecation warning '
                                                   'when a user was added',
         'https://github.com/verdaccio/verdaccio/issues/1285',
         'DeprecationWarning: Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), Buffer.allocUnsafe(), or '
         'Buffer.from() methods instead.',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N7. A SchemaHero plan pod that completed; on its way the kubelet re-created its sandbox
#     (SandboxChanged, a Normal event) and it paused for a while
@reg
def neg_sandbox_changed_completed():
    ns_ = 'default'
    kv = 'v1.17.3'
    n1 = mknode('marc', kubelet=kv, runtime='containerd://1.2.5', kernel='5.3.0-40-generic', os_image='Ubuntu 19.10')
    img = 'localhost:32000/schemahero/schemahero'
    c = {'name': 'users', 'image': img, 'imagePullPolicy': 'Always',
         'args': ['plan', '--driver', 'postgres', '--uri', '$(URI)', '--spec-file', '/specs/users.yaml'],
         'env': [{'name': 'URI', 'valueFrom': {'secretKeyRef': {'name': 'postgresql', 'key': 'uri'}}}], 'volumeMounts': [{'name': 'specs',
             'mountPath': '/specs'}]}
    containers, vols = with_api([c], [{'name': 'specs', 'configMap': {'name': 'users'}}], 'users-plan')
    created = 1500
    st = {'name': 'users', 'ready': False, 'started': False, 'restartCount': 0, 'image': img + ':latest', 'imageID': imgid(img),
          'containerID': cid('users-plan'),
          'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(1418), 'finishedAt': ago(1290), 'containerID': cid('users-plan')}}}
    p = mkpod('users-plan', ns_, 'marc', containers, [st], created, labels={'schemahero-name': 'users', 'schemahero-namespace': 'default',
                                                                            'schemahero-role': 'plan'},
              phase='Succeeded', spec_extra={'volumes': vols, 'restartPolicy': 'Never'})
    set_status(p, [st], created, ready=False, phase='Succeeded')
    p['status']['conditions'][2]['reason'] = 'PodCompleted'; p['status']['conditions'][3]['reason'] = 'PodCompleted'
    p['metadata']['ownerReferences'] = [{'apiVersion': 'schemas.schemahero.io/v1alpha3', 'kind': 'Table', 'name': 'users', 'uid': uid('Tableusers'),
                                         'controller': True, 'blockOwnerDeletion': True}]
    nn = 'marc'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'users', created - 3, pulled_in='1.2s', size=51220180) + \
          [ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=created - 62, host=nn)]
    logs = ['create table "users" ("id" integer, "login" text, "name" text, primary key ("id"))']
    op_img = 'schemahero/schemahero-manager:0.8.0'
    mgr = mkpod('schemahero-0', 'schemahero-system', nn, [{'name': 'manager', 'image': op_img}], [running('manager', op_img, 86400 * 2)], 86400 * 2,
                owner=('StatefulSet', 'schemahero'), labels={'control-plane': 'schemahero'})
    objs = [ns(ns_), ns('schemahero-system'), n1, p, mgr, configmap('users', ns_, {'users.yaml': 'database: schemahero\nname: users\nschema:\n  postgres:\n   '
            ' primaryKey: [id]\n'}),
            secret('postgresql', ns_, ['uri'])] + evs + [podlog(ns_, 'users-plan', 'users', logs, previous=False)] + noise([n1], kv,
                dns_image='coredns/coredns:1.6.6')
    case('f3-neg-sandbox-changed-plan-pod-completed', 'A SchemaHero plan pod that finished (exit 0); while it ran the kubelet re-created its sandbox '
                                                      '(SandboxChanged) and it paused, then completed',
         'https://github.com/schemahero/schemahero/issues/128', 'Normal  SandboxChanged  80s        kubelet, marc      Pod sandbox changed, it will be killed '
                                                                'and re-created.',
         '%s/users-plan' % ns_, None, objs)


if __name__ == '__main__':
    for f in CASES3:
        f()
    print('wrote %d cases' % len(CASES3))
