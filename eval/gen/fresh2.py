# Evaluation corpus, FRESH2 split (slug prefix f2-): public incidents written after the mechanism
# work of issue 32 by an author who saw only that issue's text, never the rules or their tests.
# About half of the positive cases are classes no rule names (expect.first: any, with the mechanism
# terms taken from each report's own resolution); the others are named classes in shapes not seen
# before (CRI-O and containerd 2.x wording, sidecars, init containers, Jobs, DaemonSets); the
# negatives are healthy or recovered pods with the noise their reports asked about.
# Each dump's wording comes from its report; the expectation was decided from the report before any
# run and is never changed to change a verdict. Run: python3 eval/gen/fresh2.py (writes eval/corpus/f2-*/)
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, conds, deploy, ...)
from fresh import _strings
from blind import make_case

SPLIT = 'fresh2'
sev2 = make_sev('f2sev', 130363, 41)


case = make_case('f2-', SPLIT)


CASES2 = []
def reg(f):
    CASES2.append(f)
    return f


# ---------------------------------------------------------------- helpers (this file only)
def set_status(p, statuses, created, ready=None, init_statuses=None, phase=None, initialized=True, since=None):
    """Replace a pod's container statuses (made after the pod, since clbo() needs its uid) and its conditions."""
    p['status']['containerStatuses'] = statuses
    if init_statuses is not None: p['status']['initContainerStatuses'] = init_statuses
    ready = all(s.get('ready') for s in statuses) if ready is None else ready
    msg = None
    if not ready:
        pend = [s['name'] for s in statuses if not s.get('ready')]
        msg = 'containers with unready status: [%s]' % ' '.join(pend)
    if not initialized:
        pend = [s['name'] for s in (init_statuses or []) if not s.get('ready')]
        msg = 'containers with incomplete status: [%s]' % ' '.join(pend)
    p['status']['conditions'] = conds(created, ready, since=since, msg=msg, initialized=initialized,
                                      reason='ContainersNotInitialized' if not initialized else 'ContainersNotReady')
    if phase: p['status']['phase'] = phase
    return p


def api_volume(seed):
    name = 'kube-api-access-' + hexid(seed, 5).replace('0', 'x').replace('1', 'r')
    vol = {'name': name, 'projected': {'defaultMode': 420, 'sources': [
        {'serviceAccountToken': {'expirationSeconds': 3607, 'path': 'token'}},
        {'configMap': {'name': 'kube-root-ca.crt', 'items': [{'key': 'ca.crt', 'path': 'ca.crt'}]}},
        {'downwardAPI': {'items': [{'path': 'namespace', 'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'metadata.namespace'}}]}}]}}
    mount = {'name': name, 'mountPath': '/var/run/secrets/kubernetes.io/serviceaccount', 'readOnly': True}
    return vol, mount


def with_api(containers, volumes, seed):
    vol, mount = api_volume(seed)
    for c in containers:
        c.setdefault('volumeMounts', []).append(dict(mount))
    return containers, list(volumes) + [vol]


def noise(nodes, kp_version='v1.30.6', created=86400 * 40, proxy=True, dns_image='registry.k8s.io/coredns/coredns:v1.11.3'):
    """kube-system as a real cluster shows it: kube-proxy on every node (not on k3s, where it is
    embedded), two CoreDNS replicas."""
    out = [kube_proxy(n['metadata']['name'], created=created, version=kp_version) for n in nodes] if proxy else []
    out += coredns([n['metadata']['name'] for n in nodes] * 2, created=created, image=dns_image)
    return out


def sts(name, namespace, labels, replicas, spec, ready, created=86400 * 20, service=None):
    o = workload('StatefulSet', name, namespace, labels, replicas=replicas, template_spec=spec)
    o['metadata']['creationTimestamp'] = ago(created)
    o['spec'].update({'serviceName': service or name, 'podManagementPolicy': 'OrderedReady', 'updateStrategy': {'type': 'RollingUpdate', 'rollingUpdate': {'partition': 0}}})
    o['status'] = {'observedGeneration': 3, 'replicas': replicas, 'readyReplicas': ready, 'currentReplicas': replicas, 'updatedReplicas': replicas,
                   'availableReplicas': ready, 'currentRevision': '%s-%s' % (name, hexid(name, 10)), 'updateRevision': '%s-%s' % (name, hexid(name, 10)), 'collisionCount': 0}
    return o


def unhealthy(p, node_name, cname, msg, count, first, last, probe='Readiness'):
    return ev(p, 'Unhealthy', '%s probe failed: %s' % (probe, msg), count=count, first=first, last=last, host=node_name, fieldPath=fp(cname))


def crio(p):
    """Rewrite container ids for a CRI-O node."""
    for key in ('containerStatuses', 'initContainerStatuses'):
        for s in p['status'].get(key, []):
            if 'containerID' in s: s['containerID'] = s['containerID'].replace('containerd://', 'cri-o://')
            for st in ('state', 'lastState'):
                t = (s.get(st) or {}).get('terminated')
                if t and 'containerID' in t: t['containerID'] = t['containerID'].replace('containerd://', 'cri-o://')
    return p


GKE_OS = 'Container-Optimized OS from Google'


# =====================================================================================
# 1. mechanism: Vault cannot mlock(2) without CAP_IPC_LOCK (capabilities dropped by the hardened spec)
# =====================================================================================
@reg
def vault_mlock():
    ns_ = 'vault'
    n1 = mknode('gke-vault-default-pool-3f9c2a1e-x7kq', kubelet='v1.30.5-gke.1014001', runtime='containerd://1.7.22', kernel='6.1.100+', os_image=GKE_OS,
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'us-west1-b'})
    n2 = mknode('gke-vault-default-pool-3f9c2a1e-m2d8', kubelet='v1.30.5-gke.1014001', runtime='containerd://1.7.22', kernel='6.1.100+', os_image=GKE_OS,
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'us-west1-a'})
    img, init_img = 'hashicorp/vault:1.17.2', 'registry.hub.docker.com/sethvargo/vault-init:1.0.0'
    labels = {'app': 'vault'}
    containers = [
        {'name': 'vault-init', 'image': init_img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'CHECK_INTERVAL', 'value': '10'}, {'name': 'GCS_BUCKET_NAME', 'value': 'vault-prod-storage-8f31'}, {'name': 'KMS_KEY_ID', 'value': 'projects/acme-vault/locations/global/keyRings/vault/cryptoKeys/vault-init'}],
         'resources': {'requests': {'cpu': '100m', 'memory': '64Mi'}}},
        {'name': 'vault', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['server'],
         'env': [{'name': 'SKIP_SETCAP', 'value': 'true'}, {'name': 'VAULT_ADDR', 'value': 'https://127.0.0.1:8200'},
                 {'name': 'VAULT_LOCAL_CONFIG', 'value': 'api_addr = "https://vault.acme.internal"\ncluster_addr = "https://$(POD_IP):8201"\nlistener "tcp" { address = "0.0.0.0:8200" tls_cert_file = "/etc/vault/tls/vault.pem" tls_key_file = "/etc/vault/tls/vault-key.pem" }\nstorage "gcs" { bucket = "vault-prod-storage-8f31" ha_enabled = "true" }\nui = true\n'}],
         'ports': [{'containerPort': 8200, 'name': 'vault-port', 'protocol': 'TCP'}, {'containerPort': 8201, 'name': 'cluster-port', 'protocol': 'TCP'}],
         'readinessProbe': {'httpGet': {'path': '/v1/sys/health?standbyok=true', 'port': 8200, 'scheme': 'HTTPS'}, 'initialDelaySeconds': 5, 'periodSeconds': 5},
         'resources': {'requests': {'cpu': '500m', 'memory': '256Mi'}, 'limits': {'memory': '1Gi'}},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 100, 'runAsGroup': 1000},
         'volumeMounts': [{'name': 'vault-tls', 'mountPath': '/etc/vault/tls'}]}]
    vols = [{'name': 'vault-tls', 'secret': {'secretName': 'vault-tls', 'defaultMode': 420}}]
    containers, vols = with_api(containers, vols, 'vault-0')
    spec = {'serviceAccountName': 'vault-server', 'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'fsGroup': 1000}}
    ss = sts('vault', ns_, labels, 3, spec, ready=0, service='vault')
    created = 1500
    p = mkpod('vault-0', ns_, n1['metadata']['name'], containers, [running('vault', img, 60)], created, owner=('StatefulSet', 'vault'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'vault-0', 'apps.kubernetes.io/pod-index': '0'}, sa='vault-server',
              spec_extra={'volumes': vols, 'hostname': 'vault-0', 'subdomain': 'vault', 'securityContext': {'fsGroup': 1000}})
    set_status(p, [running('vault-init', init_img, created - 40),
                   clbo(p, 'vault', img, 7, term(1, 'Error', 318, 317, seed='vault-0-7'))], created)
    logs = ['==> Vault server configuration:',
            '',
            'Error initializing core: Failed to lock memory: cannot allocate memory',
            '',
            'This usually means that the mlock syscall is not available.',
            'Vault uses mlock to prevent memory from being swapped to',
            'disk. This requires root privileges as well as a machine',
            'that supports mlock. Please enable mlock on your system or',
            'disable Vault from using it. To disable Vault from using it,',
            'set the `disable_mlock` configuration option in your configuration',
            'file.']
    init_logs = ['%s Starting the vault-init service...' % ts(1450, '%Y/%m/%d %H:%M:%S'),
                 '%s Head https://127.0.0.1:8200/v1/sys/health: dial tcp 127.0.0.1:8200: connect: connection refused' % ts(1440, '%Y/%m/%d %H:%M:%S'),
                 '%s Next check in 10s' % ts(1440, '%Y/%m/%d %H:%M:%S'),
                 '%s Head https://127.0.0.1:8200/v1/sys/health: dial tcp 127.0.0.1:8200: connect: connection refused' % ts(20, '%Y/%m/%d %H:%M:%S'),
                 '%s Next check in 10s' % ts(20, '%Y/%m/%d %H:%M:%S')]
    node_name = n1['metadata']['name']
    evs = [scheduled(p, node_name, created - 1)] + started(p, node_name, init_img, 'vault-init', created - 5, size=9821334) + started(p, node_name, img, 'vault', created - 12, size=168520112) + \
          restarted(p, node_name, img, 'vault', 7, created - 60, 318) + [backoff(p, node_name, 'vault', 31, created - 90, 9)] + \
          [unhealthy(p, node_name, 'vault', 'Get "https://%s:8200/v1/sys/health?standbyok=true": dial tcp %s:8200: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), 12, created - 30, 340)]
    objs = [ns(ns_), n1, n2, ss, p, serviceaccount('vault-server', ns_), secret('vault-tls', ns_, ['vault.pem', 'vault-key.pem'], type_='kubernetes.io/tls'),
            service('vault', ns_, labels, ports=((8200, 8200), (8201, 8201)))] + evs + \
           [podlog(ns_, 'vault-0', 'vault', logs), podlog(ns_, 'vault-0', 'vault-init', init_logs, previous=False)] + noise([n1, n2], 'v1.30.5-gke.1014001')
    case('f2-vault-mlock-capabilities-dropped', 'Vault server exits at start: mlock refused, the hardened spec drops every capability (no IPC_LOCK)',
         'https://github.com/kelseyhightower/vault-on-google-kubernetes-engine/issues/15',
         'Error initializing core: Failed to lock memory: cannot allocate memory', '%s/vault-0' % ns_, 'any', objs,
         decisive='Failed to lock memory: cannot allocate memory', playbook=None,
         terms=[['mlock', 'memory lock', 'memlock', 'lock memory'], ['IPC_LOCK', 'disable_mlock']])


# =====================================================================================
# 2. mechanism: the redis image's entrypoint chowns its data dir; a policy dropped CAP_CHOWN
# =====================================================================================
@reg
def awx_redis_chown():
    ns_ = 'awx'
    kv = 'v1.30.6+k3s1'
    n1 = mknode('k3s-agent-01', kubelet=kv, runtime='containerd://1.7.22-k3s1', kernel='5.15.0-122-generic', os_image='Ubuntu 22.04.5 LTS')
    n2 = mknode('k3s-server-01', kubelet=kv, runtime='containerd://1.7.22-k3s1', kernel='5.15.0-122-generic', os_image='Ubuntu 22.04.5 LTS',
                labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
    awx_img, redis_img, ee_img = 'quay.io/ansible/awx:24.6.1', 'docker.io/redis:7', 'quay.io/ansible/awx-ee:24.6.1'
    labels = {'app.kubernetes.io/name': 'awx-demo-task', 'app.kubernetes.io/part-of': 'awx-demo', 'app.kubernetes.io/managed-by': 'awx-operator', 'app.kubernetes.io/component': 'awx'}
    drop = {'capabilities': {'drop': ['ALL'], 'add': ['NET_BIND_SERVICE']}, 'allowPrivilegeEscalation': False}
    redis_c = {'name': 'redis', 'image': redis_img, 'imagePullPolicy': 'IfNotPresent', 'args': ['redis-server', '/etc/redis.conf'],
               'securityContext': copy.deepcopy(drop), 'resources': {'requests': {'cpu': '50m', 'memory': '64M'}},
               'volumeMounts': [{'name': 'awx-demo-redis-config', 'mountPath': '/etc/redis.conf', 'subPath': 'redis.conf', 'readOnly': True},
                                {'name': 'awx-demo-redis-socket', 'mountPath': '/var/run/redis'}, {'name': 'awx-demo-redis-data', 'mountPath': '/data'}]}
    task_c = {'name': 'awx-demo-task', 'image': awx_img, 'imagePullPolicy': 'IfNotPresent', 'args': ['/usr/bin/launch_awx_task.sh'],
              'env': [{'name': 'SUPERVISOR_CONFIG_PATH', 'value': '/etc/supervisord_task.conf'}, {'name': 'AWX_COMPONENT', 'value': 'task'}],
              'securityContext': copy.deepcopy(drop), 'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}},
              'volumeMounts': [{'name': 'awx-demo-redis-socket', 'mountPath': '/var/run/redis'}]}
    ee_c = {'name': 'awx-demo-ee', 'image': ee_img, 'imagePullPolicy': 'IfNotPresent', 'args': ['/bin/sh', '-c', 'if [ ! -f /etc/receptor/receptor.conf ]; then cp /etc/receptor/receptor-default.conf /etc/receptor/receptor.conf; fi; exec receptor --config /etc/receptor/receptor.conf'],
            'securityContext': copy.deepcopy(drop), 'resources': {'requests': {'cpu': '100m', 'memory': '64Mi'}}}
    containers = [redis_c, task_c, ee_c]
    vols = [{'name': 'awx-demo-redis-config', 'configMap': {'name': 'awx-demo-awx-configmap', 'items': [{'key': 'redis_conf', 'path': 'redis.conf'}]}},
            {'name': 'awx-demo-redis-socket', 'emptyDir': {}}, {'name': 'awx-demo-redis-data', 'emptyDir': {}}]
    containers, vols = with_api(containers, vols, 'awx-task')
    spec = {'serviceAccountName': 'awx-demo', 'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'fsGroup': 1000}}
    d, rs = deploy('awx-demo-task', ns_, labels, 1, '6b4d8c7f9d', spec, ready=0, created=3600, generation=1)
    created = 2400
    p = mkpod('awx-demo-task-6b4d8c7f9d-q2wlz', ns_, 'k3s-agent-01', containers, [running('redis', redis_img, 60)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6b4d8c7f9d'}, sa='awx-demo',
              spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 1000}})
    p['metadata']['annotations'] = {'policies.kyverno.io/last-applied-patches': 'drop-all-capabilities.require-drop-all.kyverno.io: replaced /spec/containers/0/securityContext/capabilities\n'}
    set_status(p, [clbo(p, 'redis', redis_img, 9, term(1, 'Error', 262, 262, seed='redis-9')),
                   running('awx-demo-task', awx_img, created - 60), running('awx-demo-ee', ee_img, created - 60)], created)
    redis_logs = ["chown: changing ownership of '.': Operation not permitted"]
    task_logs = ['%s,123 INFO     [-] awx.main.dispatch Running worker dispatcher listening to queues [\'tower_broadcast_all\', \'awx-demo-task-6b4d8c7f9d-q2wlz\']' % ts(2300, '%Y-%m-%d %H:%M:%S'),
                 '%s,508 ERROR    [-] awx.main.wsrelay Error 2 connecting to unix socket: /var/run/redis/redis.sock. No such file or directory.' % ts(2280, '%Y-%m-%d %H:%M:%S'),
                 'redis.exceptions.ConnectionError: Error 2 connecting to unix socket: /var/run/redis/redis.sock. No such file or directory.',
                 '%s,771 WARNING  [-] awx.main.dispatch.periodic Redis not available yet, retrying in 10s' % ts(30, '%Y-%m-%d %H:%M:%S')]
    nn = 'k3s-agent-01'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, redis_img, 'redis', created - 5, size=45128821) + started(p, nn, awx_img, 'awx-demo-task', created - 40, size=712309551) + \
          started(p, nn, ee_img, 'awx-demo-ee', created - 45, size=530117422) + restarted(p, nn, redis_img, 'redis', 9, created - 70, 262) + [backoff(p, nn, 'redis', 48, created - 100, 11)]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('awx-demo', ns_),
            configmap('awx-demo-awx-configmap', ns_, {'redis_conf': 'unixsocket /var/run/redis/redis.sock\nunixsocketperm 777\nport 0\nbind 127.0.0.1\n'})] + evs + \
           [podlog(ns_, p['metadata']['name'], 'redis', redis_logs), podlog(ns_, p['metadata']['name'], 'awx-demo-task', task_logs, previous=False)] + noise([n1, n2], proxy=False, dns_image='rancher/mirrored-coredns-coredns:1.11.3')
    case('f2-awx-redis-chown-capability-dropped', "Redis sidecar of AWX crash-loops: its entrypoint's chown is refused once every capability but NET_BIND_SERVICE is dropped",
         'https://github.com/ansible/awx-operator/issues/560', "chown: changing ownership of '.': Operation not permitted",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="chown: changing ownership of '.': Operation not permitted", playbook=None,
         terms=[['CHOWN'], ['capabilities', 'capability', 'SETUID', 'SETGID']])


# =====================================================================================
# 3. mechanism: Seastar cannot reserve its AIO contexts: the node's fs.aio-max-nr is too low
#    (Running, not Ready: supervisord keeps respawning scylla; the line is in the current log)
# =====================================================================================
@reg
def scylla_aio():
    ns_ = 'scylla'
    n1 = mknode('k8s-worker-07', kubelet='v1.29.6', runtime='containerd://1.7.12', kernel='5.4.0-187-generic', os_image='Ubuntu 20.04.6 LTS')
    n2 = mknode('k8s-worker-08', kubelet='v1.29.6', runtime='containerd://1.7.12', kernel='5.4.0-187-generic', os_image='Ubuntu 20.04.6 LTS')
    img = 'docker.io/scylladb/scylla:5.4.6'
    labels = {'app': 'scylla', 'scylla/cluster': 'scylla-pod-1'}
    c = {'name': 'scylla', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'args': ['--smp', '2', '--memory', '6G', '--overprovisioned', '1', '--seeds', 'scylla-pod-1-0.scylla-pod-1.scylla.svc.cluster.local'],
         'ports': [{'containerPort': 9042, 'name': 'cql'}, {'containerPort': 7000, 'name': 'intra-node'}, {'containerPort': 10000, 'name': 'api'}],
         'readinessProbe': {'tcpSocket': {'port': 9042}, 'initialDelaySeconds': 15, 'periodSeconds': 10, 'timeoutSeconds': 5},
         'resources': {'requests': {'cpu': '2', 'memory': '8Gi'}, 'limits': {'cpu': '2', 'memory': '8Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/scylla'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-scylla-pod-1-5'}}], 'scylla5')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    ss = sts('scylla-pod-1', ns_, labels, 6, spec, ready=5, service='scylla-pod-1')
    created = 1900
    p = mkpod('scylla-pod-1-5', ns_, 'k8s-worker-07', containers, [running('scylla', img, created - 25, ready=False)], created, owner=('StatefulSet', 'scylla-pod-1'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'scylla-pod-1-5'}, spec_extra={'volumes': vols, 'hostname': 'scylla-pod-1-5', 'subdomain': 'scylla-pod-1'})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    p['status']['qosClass'] = 'Guaranteed'
    ip = p['status']['podIP']
    fatal = 'FATAL: Exception during startup, aborting: std::runtime_error (Could not setup Async I/O: Resource temporarily unavailable. The most common cause is not enough request capacity in /proc/sys/fs/aio-max-nr. Try increasing that number or reducing the amount of logical CPUs available for your application)'
    err = '[shard 1] seastar - Could not setup Async I/O: Resource temporarily unavailable. The most common cause is not enough request capacity in /proc/sys/fs/aio-max-nr. Try increasing that number or reducing the amount of logical CPUs available for your application'
    logs = ['%s INFO Set uid to user 0 succeeded' % ts(1870, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '%s INFO supervisord started with pid 1' % ts(1870, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '%s INFO spawned: \'scylla\' with pid 23' % ts(1868, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '%s INFO spawned: \'scylla-housekeeping\' with pid 24' % ts(1868, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            'Scylla version 5.4.6-0.20240418.10f137e367e3 with build-id 6c4b1f4d6e0e52bd82b0a0f5e2f4c8d3b9d7a1c2 starting ...',
            'command used: "/usr/bin/scylla --log-to-syslog 0 --log-to-stdout 1 --default-log-level info --network-stack posix --developer-mode=0 --smp 2 --memory 6G --overprovisioned --listen-address %s --rpc-address %s --seed-provider-parameters seeds=scylla-pod-1-0.scylla-pod-1.scylla.svc.cluster.local"' % (ip, ip),
            'parsed command line options: [log-to-syslog, (positional) 0, log-to-stdout, (positional) 1, default-log-level, (positional) info, network-stack, (positional) posix, developer-mode: 0, smp, (positional) 2, memory, (positional) 6G, overprovisioned]',
            'ERROR %s %s' % (ts(1866, '%Y-%m-%d %H:%M:%S,%f')[:-3], err),
            fatal,
            '%s INFO exited: scylla (exit status 7; not expected)' % ts(1865, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            'Traceback (most recent call last):',
            '  File "/opt/scylladb/scripts/libexec/scylla-housekeeping", line 196, in <module>',
            '    args.func(args)',
            '  File "/opt/scylladb/scripts/libexec/scylla-housekeeping", line 122, in check_version',
            "    current_version = sanitize_version(get_api('/storage_service/scylla_release_version'))",
            'urllib.error.URLError: <urlopen error [Errno 111] Connection refused>',
            '%s INFO spawned: \'scylla\' with pid 139' % ts(1863, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            'ERROR %s %s' % (ts(31, '%Y-%m-%d %H:%M:%S,%f')[:-3], err),
            fatal,
            '%s INFO exited: scylla (exit status 7; not expected)' % ts(30, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '%s INFO gave up: scylla entered FATAL state, too many start retries too quickly' % ts(29, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '%s INFO success: scylla-housekeeping entered RUNNING state, process has stayed up for > than 1 seconds (startsecs)' % ts(28, '%Y-%m-%d %H:%M:%S,%f')[:-3]]
    nn = 'k8s-worker-07'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'scylla', created - 6, present=True) + \
          [unhealthy(p, nn, 'scylla', 'dial tcp %s:9042: connect: connection refused' % ip, 182, created - 40, 8)]
    pvc_ = claim('data-scylla-pod-1-5', ns_, 'local-path', 'Bound', '200Gi', volume='pvc-' + uid('scy5'), provisioner='rancher.io/local-path', selected_node=nn)
    objs = [ns(ns_), n1, n2, ss, p, pvc_, service('scylla-pod-1', ns_, labels, ports=((9042, 9042),))] + evs + \
           [podlog(ns_, 'scylla-pod-1-5', 'scylla', logs, previous=False)] + noise([n1, n2], 'v1.29.6')
    case('f2-scylla-aio-max-nr-not-ready', 'ScyllaDB pod Running but never Ready: Seastar cannot set up Linux AIO, the node has too little fs.aio-max-nr',
         'https://github.com/scylladb/scylladb/issues/19664',
         'ERROR 2024-06-05 21:44:04,777 [shard 6] seastar - Could not setup Async I/O: Resource temporarily unavailable. The most common cause is not enough request capacity in /proc/sys/fs/aio-max-nr. Try increasing that number or reducing the amount of logical CPUs available for your application',
         '%s/scylla-pod-1-5' % ns_, 'any', objs, decisive='Could not setup Async I/O: Resource temporarily unavailable', playbook=None,
         terms=[['aio-max-nr', 'asynchronous I/O', 'AIO'], ['sysctl', '--smp', 'kernel parameter']])



def docker_ids(p):
    """Rewrite container ids for a dockershim-era node."""
    for key in ('containerStatuses', 'initContainerStatuses'):
        for s in p['status'].get(key, []):
            if 'containerID' in s: s['containerID'] = s['containerID'].replace('containerd://', 'docker://')
            if s.get('imageID'): s['imageID'] = 'docker-pullable://' + s['imageID']
            for st in ('state', 'lastState'):
                t = (s.get(st) or {}).get('terminated')
                if t and 'containerID' in t: t['containerID'] = t['containerID'].replace('containerd://', 'docker://')
    return p


# =====================================================================================
# 4. mechanism: execve E2BIG: the service-link variables of ~2,000 Services overflow the exec limit
#    (dockershim era, as reported: the runc line itself)
# =====================================================================================
@reg
def service_links_e2big():
    ns_ = 'preview-envs'
    kv = 'v1.16.3'
    n1 = mknode('ip-10-20-31-144.ec2.internal', kubelet=kv, runtime='docker://19.3.5', kernel='4.14.154-128.181.amzn2.x86_64', os_image='Amazon Linux 2',
                labels={'eks.amazonaws.com/nodegroup': 'workers', 'topology.kubernetes.io/zone': 'us-east-1a'}, ip='10.20.31.144')
    n2 = mknode('ip-10-20-47-9.ec2.internal', kubelet=kv, runtime='docker://19.3.5', kernel='4.14.154-128.181.amzn2.x86_64', os_image='Amazon Linux 2',
                labels={'eks.amazonaws.com/nodegroup': 'workers', 'topology.kubernetes.io/zone': 'us-east-1b'}, ip='10.20.47.9')
    img = '123456789012.dkr.ecr.us-east-1.amazonaws.com/review-app:pr-4821'
    labels = {'app': 'review-app-pr-4821'}
    c = {'name': 'web', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['/docker-entrypoint.sh'], 'args': ['bundle', 'exec', 'puma', '-C', 'config/puma.rb'],
         'env': [{'name': 'RAILS_ENV', 'value': 'review'}, {'name': 'DATABASE_URL', 'valueFrom': {'secretKeyRef': {'name': 'review-app-pr-4821-db', 'key': 'url'}}}],
         'ports': [{'containerPort': 3000, 'name': 'http'}], 'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}
    containers, vols = with_api([c], [], 'pr4821')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'enableServiceLinks': True}
    d, rs = deploy('review-app-pr-4821', ns_, labels, 1, '5d9f7c6b8', spec, ready=0, created=1200, generation=1)
    created = 1150
    p = mkpod('review-app-pr-4821-5d9f7c6b8-vx2pl', ns_, n1['metadata']['name'], containers, [running('web', img, 60)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5d9f7c6b8'}, spec_extra={'volumes': vols})
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    set_status(p, [clbo(p, 'web', img, 6, term(1, 'Error', 182, 182, seed='pr4821-6'))], created)
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    docker_ids(p)
    logs = ['standard_init_linux.go:211: exec user process caused "argument list too long"']
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'web', created - 4, size=412880311) + restarted(p, nn, img, 'web', 6, created - 40, 182) + \
          [backoff(p, nn, 'web', 27, created - 60, 6)]
    # the namespace holds a review environment per pull request: every one of them a Service
    svcs = [service('review-app-pr-%d' % k, ns_, {'app': 'review-app-pr-%d' % k}, ports=((80, 3000),), created=86400 * (k % 60 + 1)) for k in range(4790, 4821)]
    svcs += [service('review-app-pr-%d-postgres' % k, ns_, {'app': 'review-app-pr-%d-postgres' % k}, ports=((5432, 5432),), created=86400 * (k % 60 + 1)) for k in range(4790, 4821)]
    objs = [ns(ns_), n1, n2, d, rs, p, secret('review-app-pr-4821-db', ns_, ['url'])] + svcs + evs + [podlog(ns_, p['metadata']['name'], 'web', logs)] + \
           noise([n1, n2], kv, dns_image='602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.6.6-eksbuild.1')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system':
            docker_ids(o)
    case('f2-service-links-argument-list-too-long', 'Every new pod of a crowded namespace dies at exec: the injected service-link variables exceed the kernel exec limit',
         'https://github.com/kubernetes/kubernetes/issues/84539', 'standard_init_linux.go:211: exec user process caused "argument list too long"',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='exec user process caused "argument list too long"', playbook=None,
         terms=[['ARG_MAX', 'E2BIG', 'environment variable', 'environment'], ['enableServiceLinks']])


# =====================================================================================
# 5. mechanism: a policy mutates automountServiceAccountToken: false; the app's in-cluster
#    registry client then finds no token file
# =====================================================================================
@reg
def ocis_automount():
    ns_ = 'ocis'
    kv = 'v1.27.13+rke2r1'
    n1 = mknode('rke2-worker-a1', kubelet=kv, runtime='containerd://1.7.11-k3s2', kernel='5.14.0-362.24.1.el9_3.x86_64', os_image='Rocky Linux 9.3 (Blue Onyx)')
    n2 = mknode('rke2-worker-a2', kubelet=kv, runtime='containerd://1.7.11-k3s2', kernel='5.14.0-362.24.1.el9_3.x86_64', os_image='Rocky Linux 9.3 (Blue Onyx)')
    img = 'owncloud/ocis:5.0.6'
    labels = {'app': 'gateway', 'app.kubernetes.io/instance': 'ocis', 'app.kubernetes.io/name': 'ocis'}
    c = {'name': 'gateway', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['ocis'], 'args': ['gateway', 'server'],
         'env': [{'name': 'MICRO_REGISTRY', 'value': 'kubernetes'}, {'name': 'OCIS_LOG_LEVEL', 'value': 'info'}, {'name': 'OCIS_LOG_PRETTY', 'value': 'false'},
                 {'name': 'GATEWAY_GRPC_ADDR', 'value': '0.0.0.0:9142'}, {'name': 'OCIS_JWT_SECRET', 'valueFrom': {'secretKeyRef': {'name': 'jwt-secret', 'key': 'jwt-secret'}}}],
         'ports': [{'containerPort': 9142, 'name': 'grpc'}, {'containerPort': 9143, 'name': 'metrics-debug'}],
         'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 'metrics-debug'}, 'periodSeconds': 20, 'timeoutSeconds': 10},
         'resources': {}, 'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True,
                                               'runAsUser': 1000, 'runAsGroup': 1000, 'seccompProfile': {'type': 'RuntimeDefault'}}}
    spec = {'containers': [copy.deepcopy(c)], 'automountServiceAccountToken': False, 'securityContext': {'fsGroup': 1000, 'fsGroupChangePolicy': 'OnRootMismatch'}}
    d, rs = deploy('gateway', ns_, labels, 1, '7c9d5f8b64', spec, ready=0, created=2000, generation=2)
    created = 1900
    p = mkpod('gateway-7c9d5f8b64-2kq9n', ns_, 'rke2-worker-a1', [c], [running('gateway', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7c9d5f8b64'},
              spec_extra={'automountServiceAccountToken': False, 'securityContext': {'fsGroup': 1000, 'fsGroupChangePolicy': 'OnRootMismatch'}})
    p['metadata']['annotations'] = {'policies.kyverno.io/last-applied-patches': 'disable-automountserviceaccounttoken.disable-automountserviceaccounttoken.kyverno.io: added /spec/automountServiceAccountToken\n'}
    set_status(p, [clbo(p, 'gateway', img, 8, term(1, 'Error', 240, 239, seed='gw-8'))], created)
    t = lambda s: ts(s, '%Y-%m-%dT%H:%M:%SZ')
    logs = ['{"level":"info","service":"gateway","time":"%s","message":"starting service"}' % t(241),
            '{"level":"info","service":"gateway","registry":"kubernetes","time":"%s","message":"using service registry"}' % t(241),
            '{"level":"fatal","service":"gateway","error":"open /var/run/secrets/kubernetes.io/serviceaccount/token: no such file or directory","time":"%s","message":"could not create kubernetes registry client"}' % t(240)]
    nn = 'rke2-worker-a1'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'gateway', created - 4, size=101233876) + restarted(p, nn, img, 'gateway', 8, created - 40, 240) + \
          [backoff(p, nn, 'gateway', 36, created - 70, 14)]
    kpol = obj('ClusterPolicy', 'kyverno.io/v1', 'disable-automountserviceaccounttoken', None, 86400 * 50,
               spec={'background': True, 'rules': [{'name': 'disable-automountserviceaccounttoken', 'match': {'any': [{'resources': {'kinds': ['Pod']}}]},
                                                      'mutate': {'patchStrategicMerge': {'spec': {'automountServiceAccountToken': False}}}}]})
    kpol['metadata']['annotations'] = {'policies.kyverno.io/title': 'Disable automountServiceAccountToken', 'policies.kyverno.io/category': 'Other, EKS Best Practices'}
    role = obj('Role', 'rbac.authorization.k8s.io/v1', 'ocis-registry', ns_, 86400 * 2, rules=[{'apiGroups': [''], 'resources': ['pods'], 'verbs': ['get', 'list', 'watch', 'patch']}])
    rb = obj('RoleBinding', 'rbac.authorization.k8s.io/v1', 'ocis-registry', ns_, 86400 * 2, roleRef={'apiGroup': 'rbac.authorization.k8s.io', 'kind': 'Role', 'name': 'ocis-registry'},
             subjects=[{'kind': 'ServiceAccount', 'name': 'default', 'namespace': ns_}])
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('default', ns_), role, rb, kpol, secret('jwt-secret', ns_, ['jwt-secret'])] + evs + \
           [podlog(ns_, p['metadata']['name'], 'gateway', logs)] + noise([n1, n2], proxy=False, dns_image='rancher/hardened-coredns:v1.11.1-build20240305')
    case('f2-ocis-automount-token-disabled', 'oCIS services crash-loop after a Kyverno policy sets automountServiceAccountToken: false: no token for the Kubernetes service registry',
         'https://github.com/owncloud/ocis-charts/issues/274', 'var/run/secrets/kubernetes.io/serviceaccount/token: No such file or directory',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='var/run/secrets/kubernetes.io/serviceaccount/token', playbook=None,
         terms=[['token', 'credentials'], ['automountServiceAccountToken']])


# =====================================================================================
# 6. mechanism: Chrome's zygote cannot create its sandbox namespaces (no unprivileged user
#    namespaces for the container: seccomp RuntimeDefault, no SYS_ADMIN)
# =====================================================================================
@reg
def chrome_sandbox():
    ns_ = 'default'
    n1 = mknode('worker-2', kubelet='v1.30.4', runtime='containerd://1.7.20', kernel='6.1.0-23-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'geneticool/renderer:chrome'
    c = {'name': 'render', 'image': img, 'imagePullPolicy': 'Always', 'env': [{'name': 'RENDERFARM_URL', 'value': 'https://geneticool.com/'}],
         'resources': {'requests': {'cpu': '500m', 'memory': '512Mi'}, 'limits': {'memory': '2Gi'}}}
    containers, vols = with_api([c], [], 'geneticool')
    created = 2600
    p = mkpod('geneticool', ns_, 'worker-2', containers, [running('render', img, 60)], created, labels={'run': 'geneticool'},
              spec_extra={'volumes': vols, 'imagePullSecrets': [{'name': 'some-secret'}], 'securityContext': {'seccompProfile': {'type': 'RuntimeDefault'}}})
    set_status(p, [clbo(p, 'render', img, 9, term(1, 'Error', 150, 147, seed='render-9'))], created)
    logs = ['> renderer@1.4.0 start /usr/src/app',
            '> node server.js',
            '',
            'Renderer listening on :8080, farm https://geneticool.com/',
            'Launching headless Chrome...',
            'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted',
            '[%s:FATAL:zygote_host_impl_linux.cc(187)] Check failed: ReceiveFixedMessage(fds[0], kZygoteBootMessage, sizeof(kZygoteBootMessage), &boot_pid). ' % ts(148, '%m%d/%H%M%S.%f'),
            'Received signal 6',
            '  r8: 0000000000000078  r9: 00007f480e59114c r10: 0000000000000008 r11: 0000000000000246',
            ' r12: 00007ffd620a26d0 r13: 00000000000000a0 r14: 00007ffd620a26f0 r15: 00007ffd620a2c40',
            '[end of stack trace]',
            'Calling _exit(1). Core file will not be generated.',
            'Error: Failed to launch chrome!',
            '',
            'TROUBLESHOOTING: https://github.com/GoogleChrome/puppeteer/blob/master/docs/troubleshooting.md',
            '    at onClose (/usr/src/app/node_modules/puppeteer/lib/Launcher.js:342:14)',
            '    at Interface.helper.addEventListener (/usr/src/app/node_modules/puppeteer/lib/Launcher.js:331:50)',
            'npm ERR! code ELIFECYCLE',
            'npm ERR! errno 1',
            'npm ERR! renderer@1.4.0 start: `node server.js`',
            'npm ERR! Exit status 1']
    evs = [scheduled(p, 'worker-2', created - 1)] + started(p, 'worker-2', img, 'render', created - 6, size=402118833) + \
          [ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=10, first=created - 60, last=150, host='worker-2', fieldPath=fp('render')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 812ms (812ms including waiting). Image size: 402118833 bytes.' % img, 'Normal', count=9, first=created - 58, last=149, host='worker-2', fieldPath=fp('render')),
           backoff(p, 'worker-2', 'render', 44, created - 80, 20)]
    objs = [ns(ns_), n1, p, secret('some-secret', ns_, ['.dockerconfigjson'], type_='kubernetes.io/dockerconfigjson')] + evs + \
           [podlog(ns_, 'geneticool', 'render', logs)] + noise([n1], 'v1.30.4')
    case('f2-chrome-sandbox-namespace-refused', 'Headless Chrome aborts in a pod: its sandbox cannot create user/PID namespaces under the RuntimeDefault seccomp profile',
         'https://github.com/jessfraz/dockerfiles/issues/350',
         'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted',
         'default/geneticool', 'any', objs, decisive='Network namespace supported, but failed: errno = Operation not permitted', playbook=None,
         terms=[['sandbox', 'user namespace', 'userns', 'CLONE_NEWUSER'], ['SYS_ADMIN', 'privileged', 'seccomp', 'no-sandbox', 'unprivileged_userns_clone']])


# =====================================================================================
# 7. mechanism: a UID without a passwd entry gets HOME=/; npm's cache /.npm cannot be created
# =====================================================================================
@reg
def npm_home():
    ns_ = 'web3'
    kv = 'v1.29.8-eks-a737599'
    n1 = mknode('ip-192-168-12-201.us-west-2.compute.internal', kubelet=kv, runtime='containerd://1.7.22', kernel='5.10.225-213.878.amzn2.x86_64', os_image='Amazon Linux 2',
                labels={'eks.amazonaws.com/nodegroup': 'ng-general', 'topology.kubernetes.io/zone': 'us-west-2a'}, ip='192.168.12.201')
    n2 = mknode('ip-192-168-44-17.us-west-2.compute.internal', kubelet=kv, runtime='containerd://1.7.22', kernel='5.10.225-213.878.amzn2.x86_64', os_image='Amazon Linux 2',
                labels={'eks.amazonaws.com/nodegroup': 'ng-general', 'topology.kubernetes.io/zone': 'us-west-2b'}, ip='192.168.44.17')
    img = 'thirdweb/engine:v1.0.4'
    labels = {'app.kubernetes.io/name': 'engine', 'app.kubernetes.io/instance': 'engine'}
    c = {'name': 'engine', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'ENCRYPTION_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'engine-env', 'key': 'ENCRYPTION_PASSWORD'}}},
                 {'name': 'POSTGRES_CONNECTION_URL', 'valueFrom': {'secretKeyRef': {'name': 'engine-env', 'key': 'POSTGRES_CONNECTION_URL'}}},
                 {'name': 'REDIS_URL', 'value': 'redis://engine-redis-master:6379/0'}],
         'ports': [{'containerPort': 3005, 'name': 'http'}],
         'readinessProbe': {'httpGet': {'path': '/system/health', 'port': 'http'}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
         'securityContext': {'runAsNonRoot': True, 'runAsUser': 65534, 'runAsGroup': 65534, 'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}}}
    containers, vols = with_api([c], [], 'engine')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('engine', ns_, labels, 2, '8466fb5d9c', spec, ready=0, created=900, generation=1)
    created = 880
    p = mkpod('engine-8466fb5d9c-tbz5w', ns_, n1['metadata']['name'], containers, [running('engine', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '8466fb5d9c'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'engine', img, 5, term(1, 'Error', 160, 152, seed='engine-5'))], created)
    logs = ['yarn run v1.22.19',
            'warning Skipping preferred cache folder "/.cache/yarn" because it is not writable.',
            'warning Selected the next writable cache folder in the list, will be "/tmp/.yarn-cache-65534".',
            '$ yarn prisma:setup:prod && yarn start:run',
            'warning Cannot find a suitable global folder. Tried these: "/usr/local, /.yarn"',
            'warning Skipping preferred cache folder "/.cache/yarn" because it is not writable.',
            'warning Selected the next writable cache folder in the list, will be "/tmp/.yarn-cache-65534".',
            '$ npx tsx ./dist/scripts/setup-db.js',
            'warning Cannot find a suitable global folder. Tried these: "/usr/local, /.yarn"',
            'npm ERR! code EACCES',
            'npm ERR! syscall mkdir',
            'npm ERR! path /.npm',
            'npm ERR! errno -13',
            'npm ERR! ',
            'npm ERR! Your cache folder contains root-owned files, due to a bug in',
            'npm ERR! previous versions of npm which has since been addressed.',
            'npm ERR! ',
            'npm ERR! To permanently fix this problem, please run:',
            'npm ERR!   sudo chown -R 65534:65534 "/.npm"',
            'npm ERR! Log files were not written due to an error writing to the directory: /.npm/_logs',
            'npm ERR! You can rerun the command with `--loglevel=verbose` to see the logs in your terminal',
            'error Command failed with exit code 243.',
            'info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.',
            'error Command failed with exit code 243.',
            'info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.']
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'engine', created - 4, size=389221017) + restarted(p, nn, img, 'engine', 5, created - 50, 160) + \
          [backoff(p, nn, 'engine', 19, created - 80, 18)]
    objs = [ns(ns_), n1, n2, d, rs, p, secret('engine-env', ns_, ['ENCRYPTION_PASSWORD', 'POSTGRES_CONNECTION_URL'])] + evs + \
           [podlog(ns_, p['metadata']['name'], 'engine', logs)] + noise([n1, n2], 'v1.29.8-eksbuild.2')
    case('f2-npm-cache-home-root-unwritable', 'thirdweb engine crash-loops as UID 65534: with no home directory npm tries to create its cache at /.npm',
         'https://github.com/thirdweb-dev/engine/issues/422', 'npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /.npm',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='an error writing to the directory: /.npm/_logs', playbook=None,
         terms=[['HOME', 'home directory'], ['NPM_CONFIG_CACHE', 'emptyDir', 'runAsUser']])



AKS_OS = 'Ubuntu 22.04.4 LTS'


# =====================================================================================
# 8. mechanism: SQLite's byte-range locks over an Azure Files (SMB/CIFS) mount without nobrl
# =====================================================================================
@reg
def sqlite_azurefile():
    ns_ = 'notes'
    kv = 'v1.29.7'
    n1 = mknode('aks-nodepool1-41726335-vmss000000', kubelet=kv, runtime='containerd://1.7.15-1', kernel='5.15.0-1068-azure', os_image=AKS_OS,
                labels={'kubernetes.azure.com/agentpool': 'nodepool1', 'topology.kubernetes.io/zone': '0'}, ip='10.224.0.4')
    n2 = mknode('aks-nodepool1-41726335-vmss000001', kubelet=kv, runtime='containerd://1.7.15-1', kernel='5.15.0-1068-azure', os_image=AKS_OS,
                labels={'kubernetes.azure.com/agentpool': 'nodepool1', 'topology.kubernetes.io/zone': '0'}, ip='10.224.0.5')
    img = 'acrnotes.azurecr.io/notes-api:2.3.0'
    labels = {'app': 'notes-api'}
    c = {'name': 'notes-api', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'env': [{'name': 'DB_PATH', 'value': '/data/notes.sqlite'}, {'name': 'PORT', 'value': '8080'}],
         'ports': [{'containerPort': 8080, 'name': 'http'}], 'readinessProbe': {'httpGet': {'path': '/api/health', 'port': 8080}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '256Mi'}}, 'volumeMounts': [{'name': 'data', 'mountPath': '/data'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'notes-data'}}], 'notes')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('notes-api', ns_, labels, 1, '6f7d9c5b4', spec, ready=0, created=1800, generation=3)
    created = 1700
    p = mkpod('notes-api-6f7d9c5b4-hq8zt', ns_, n1['metadata']['name'], containers, [running('notes-api', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6f7d9c5b4'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'notes-api', img, 7, term(1, 'Error', 205, 194, seed='notes-7'))], created)
    logs = ['> notes-api@2.3.0 start',
            '> node dist/server.js',
            '',
            '%s info: Opening database /data/notes.sqlite' % ts(204, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z',
            '%s info: Running migrations (3 pending)' % ts(200, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z',
            'Trace: [Error: PRAGMA journal_mode = WAL - SQLITE_BUSY: database is locked] {',
            '  errno: 5,',
            "  code: 'SQLITE_BUSY'",
            '}',
            '    at process.<anonymous> (/app/dist/server.js:88:13)',
            '    at process.emit (node:events:519:28)',
            '    at process._fatalException (node:internal/process/execution:188:25)',
            'npm notice',
            'npm notice New minor version of npm available! 10.5.0 -> 10.8.3',
            'npm notice Run `npm install -g npm@10.8.3` to update!',
            'npm notice']
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'notes-api', created - 30, size=61822391) + restarted(p, nn, img, 'notes-api', 7, created - 70, 205) + \
          [backoff(p, nn, 'notes-api', 30, created - 100, 16)]
    sc = storageclass('azurefile-csi', provisioner='file.csi.azure.com', binding='Immediate', params={'skuName': 'Standard_LRS'})
    sc['mountOptions'] = ['mfsymlinks', 'actimeo=30', 'nosharesock', 'dir_mode=0777', 'file_mode=0777', 'uid=0', 'gid=0']
    pvname = 'pvc-' + uid('notes-data')
    c_ = claim('notes-data', ns_, 'azurefile-csi', 'Bound', '5Gi', volume=pvname, provisioner='file.csi.azure.com', access=('ReadWriteMany',))
    v = pv(pvname, c_, driver='file.csi.azure.com', handle='mc_notes_aks_eastus#f8d2a1c3b9e04a7d#pvc-notes-data###notes', size='5Gi', storage_class='azurefile-csi')
    v['spec']['accessModes'] = ['ReadWriteMany']
    del v['spec']['csi']['fsType']
    v['spec']['mountOptions'] = list(sc['mountOptions'])
    objs = [ns(ns_), n1, n2, d, rs, p, c_, v, sc] + evs + [podlog(ns_, p['metadata']['name'], 'notes-api', logs)] + \
           noise([n1, n2], kv, dns_image='mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4-hotfix.20240704')
    case('f2-sqlite-azurefile-database-locked', 'A SQLite app on an Azure Files claim crash-loops with SQLITE_BUSY: CIFS byte-range locks without the nobrl mount option',
         'https://github.com/kubernetes/kubernetes/issues/59755', 'Unable to connect to SQL-lite db mounted on AzureFile/AzureDisks [SQLITE_BUSY: database is locked]',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='SQLITE_BUSY: database is locked', playbook=None,
         terms=[['lock', 'locking', 'byte-range', 'byte range'], ['nobrl', 'mountOptions', 'mount option']])


# =====================================================================================
# 9. mechanism: an unprivileged init container cannot write /proc/sys (vm.max_map_count is a
#    node-wide sysctl); the pod stays in Init:CrashLoopBackOff
# =====================================================================================
@reg
def sysctl_init_readonly():
    ns_ = 'sample-domain1-ns'
    n1 = mknode('wls-k8s-node1', kubelet='v1.30.4', runtime='containerd://1.7.20', kernel='5.15.0-206.153.7.el8uek.x86_64', os_image='Oracle Linux Server 8.10')
    n2 = mknode('wls-k8s-node2', kubelet='v1.30.4', runtime='containerd://1.7.20', kernel='5.15.0-206.153.7.el8uek.x86_64', os_image='Oracle Linux Server 8.10')
    es_img, bb = 'docker.elastic.co/elasticsearch/elasticsearch:6.8.23', 'busybox:1.36'
    labels = {'app': 'elasticsearch'}
    init = [{'name': 'set-vm-max-map-count', 'image': bb, 'imagePullPolicy': 'IfNotPresent', 'command': ['sysctl', '-w', 'vm.max_map_count=262144'],
             'resources': {}, 'securityContext': {'allowPrivilegeEscalation': False}}]
    c = {'name': 'elasticsearch', 'image': es_img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'discovery.type', 'value': 'single-node'}, {'name': 'ES_JAVA_OPTS', 'value': '-Xms1024m -Xmx1024m'}],
         'ports': [{'containerPort': 9200, 'name': 'http'}, {'containerPort': 9300, 'name': 'transport'}],
         'resources': {'requests': {'cpu': '500m', 'memory': '2Gi'}, 'limits': {'memory': '2Gi'}}}
    containers, vols = with_api([c], [], 'es-wls')
    vols = list(vols)
    init[0]['volumeMounts'] = list(containers[0]['volumeMounts'])
    spec = {'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('elasticsearch', ns_, labels, 1, '7fc6f9b9bb', spec, ready=0, created=1300, generation=1)
    created = 1260
    p = mkpod('elasticsearch-7fc6f9b9bb-8ffgg', ns_, 'wls-k8s-node2', containers, [waiting('elasticsearch', es_img, 'PodInitializing', pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7fc6f9b9bb'}, phase='Pending', spec_extra={'volumes': vols}, init=init)
    init_st = waiting('set-vm-max-map-count', bb, 'CrashLoopBackOff', 'back-off 5m0s restarting failed container=set-vm-max-map-count pod=%s_%s(%s)' % (p['metadata']['name'], ns_, p['metadata']['uid']),
                      restarts=8, last=term(1, 'Error', 231, 231, seed='sysctl-8'))
    set_status(p, p['status']['containerStatuses'], created, ready=False, init_statuses=[init_st], initialized=False)
    init_logs = ["sysctl: error setting key 'vm.max_map_count': Read-only file system"]
    nn = 'wls-k8s-node2'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, bb, 'set-vm-max-map-count', created - 4, size=2167176, init=True) + \
          restarted(p, nn, bb, 'set-vm-max-map-count', 8, created - 30, 231, init=True) + [backoff(p, nn, 'set-vm-max-map-count', 39, created - 60, 12, init=True)]
    kib_img = 'docker.elastic.co/kibana/kibana:6.8.23'
    kd, krs = deploy('kibana', ns_, {'app': 'kibana'}, 1, '5b7d6c9f48', {'containers': [{'name': 'kibana', 'image': kib_img}]}, created=1300, generation=1)
    kp = mkpod('kibana-5b7d6c9f48-wq7mn', ns_, 'wls-k8s-node1', [{'name': 'kibana', 'image': kib_img, 'env': [{'name': 'ELASTICSEARCH_URL', 'value': 'http://elasticsearch:9200'}]}],
               [running('kibana', kib_img, 1230)], 1260, owner=('ReplicaSet', krs['metadata']['name']), labels={'app': 'kibana', 'pod-template-hash': '5b7d6c9f48'})
    kib_logs = ['{"type":"log","@timestamp":"%s","tags":["warning","elasticsearch","admin"],"pid":1,"message":"Unable to revive connection: http://elasticsearch:9200/"}' % ts(40, '%Y-%m-%dT%H:%M:%SZ'),
                '{"type":"log","@timestamp":"%s","tags":["warning","elasticsearch","admin"],"pid":1,"message":"No living connections"}' % ts(40, '%Y-%m-%dT%H:%M:%SZ')]
    objs = [ns(ns_), n1, n2, d, rs, p, kd, krs, kp, service('elasticsearch', ns_, labels, ports=((9200, 9200),)), service('kibana', ns_, {'app': 'kibana'}, ports=((5601, 5601),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'set-vm-max-map-count', init_logs), podlog(ns_, kp['metadata']['name'], 'kibana', kib_logs, previous=False)] + noise([n1, n2], 'v1.30.4')
    case('f2-sysctl-init-container-proc-readonly', 'Elasticsearch stuck in Init:CrashLoopBackOff: its unprivileged init container cannot set the node-wide vm.max_map_count',
         'https://github.com/oracle/weblogic-kubernetes-operator/issues/1539', "sysctl: error setting key 'vm.max_map_count': Read-only file system",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="error setting key 'vm.max_map_count': Read-only file system", playbook=None,
         terms=[['/proc/sys', 'procfs', 'node-level', 'node-wide', 'not namespaced', 'non-namespaced', 'host kernel'], ['privileged']])


# =====================================================================================
# 10. mechanism: istio-init runs as the UID a restrictive PSP assigned: NET_ADMIN is added but a
#     non-root process does not get it, so iptables is refused (dockershim era, as reported)
# =====================================================================================
@reg
def istio_init_iptables():
    ns_ = 'icam'
    kv = 'v1.11.3+icp-ee'
    n1 = mknode('10.11.12.41', kubelet=kv, runtime='docker://18.3.1', kernel='3.10.0-957.el7.x86_64', os_image='Red Hat Enterprise Linux Server 7.6 (Maipo)', ip='10.11.12.41')
    n2 = mknode('10.11.12.42', kubelet=kv, runtime='docker://18.3.1', kernel='3.10.0-957.el7.x86_64', os_image='Red Hat Enterprise Linux Server 7.6 (Maipo)', ip='10.11.12.42')
    app_img, proxy_img = 'mycluster.icp:8500/ibmcom/icam-redis:2018.4.1', 'ibmcom/istio-proxyv2:1.0.4'
    init_img = 'ibmcom/istio-proxy_init:1.0.4'
    labels = {'app': 'icam-redis-server', 'release': 'ibm-cloud-appmgmt-prod'}
    init = [{'name': 'istio-init', 'image': init_img, 'imagePullPolicy': 'IfNotPresent',
             'args': ['-p', '15001', '-u', '1337', '-m', 'REDIRECT', '-i', '*', '-x', '', '-b', '6379', '-d', ''],
             'resources': {}, 'securityContext': {'capabilities': {'add': ['NET_ADMIN']}, 'privileged': False, 'runAsUser': 1000100000}}]
    containers = [{'name': 'redis', 'image': app_img, 'ports': [{'containerPort': 6379, 'name': 'redis'}], 'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}},
                   'securityContext': {'runAsUser': 1000100000}},
                  {'name': 'istio-proxy', 'image': proxy_img, 'args': ['proxy', 'sidecar', '--configPath', '/etc/istio/proxy', '--binaryPath', '/usr/local/bin/envoy', '--serviceCluster', 'icam-redis-server'],
                   'resources': {'requests': {'cpu': '10m'}}, 'securityContext': {'readOnlyRootFilesystem': True, 'runAsUser': 1337}}]
    containers, vols = with_api(containers, [{'name': 'istio-envoy', 'emptyDir': {'medium': 'Memory'}}], 'icam')
    spec = {'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('icam-redis-server', ns_, labels, 1, '696bbcc4c', spec, ready=0, created=1700, generation=1)
    created = 1650
    p = mkpod('icam-redis-server-696bbcc4c-v9sph', ns_, '10.11.12.42', containers,
              [waiting('redis', app_img, 'PodInitializing', pulled=False), waiting('istio-proxy', proxy_img, 'PodInitializing', pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '696bbcc4c'}, phase='Pending', spec_extra={'volumes': vols}, init=init)
    p['metadata']['annotations'] = {'kubernetes.io/psp': 'ibm-restricted-psp', 'sidecar.istio.io/status': '{"version":"55ca84b79cb5036ec3e54a3aed83cd77973cdcbed6bf653ff7b4f82659d68b1e","initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["istio-envoy","istio-certs"]}'}
    init_st = waiting('istio-init', init_img, 'CrashLoopBackOff', 'Back-off 5m0s restarting failed container=istio-init pod=%s_%s(%s)' % (p['metadata']['name'], ns_, p['metadata']['uid']),
                      restarts=7, last=term(1, 'Error', 300, 300, seed='istio-init-7'))
    set_status(p, p['status']['containerStatuses'], created, ready=False, init_statuses=[init_st], initialized=False)
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    docker_ids(p)
    init_logs = ['Environment:', '------------', 'ENVOY_PORT=', 'ISTIO_INBOUND_INTERCEPTION_MODE=', 'ISTIO_INBOUND_TPROXY_MARK=', 'ISTIO_INBOUND_TPROXY_ROUTE_TABLE=',
                 'ISTIO_INBOUND_PORTS=', 'ISTIO_LOCAL_EXCLUDE_PORTS=', 'ISTIO_SERVICE_CIDR=', 'ISTIO_SERVICE_EXCLUDE_CIDR=', '',
                 'Variables:', '----------', 'PROXY_PORT=15001', 'INBOUND_CAPTURE_PORT=15001', 'PROXY_UID=1337', 'INBOUND_INTERCEPTION_MODE=REDIRECT',
                 'INBOUND_TPROXY_MARK=1337', 'INBOUND_TPROXY_ROUTE_TABLE=133', 'INBOUND_PORTS_INCLUDE=6379', 'INBOUND_PORTS_EXCLUDE=',
                 'OUTBOUND_IP_RANGES_INCLUDE=*', 'OUTBOUND_IP_RANGES_EXCLUDE=', '',
                 '+ iptables -t nat -N ISTIO_REDIRECT',
                 "iptables v1.6.0: can't initialize iptables table `nat': Permission denied (you must be root)",
                 'Perhaps iptables or your kernel needs to be upgraded.',
                 '+ dump', '+ iptables-save']
    nn = '10.11.12.42'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, init_img, 'istio-init', created - 4, present=True, init=True) + \
          restarted(p, nn, init_img, 'istio-init', 7, created - 30, 300, init=True) + [backoff(p, nn, 'istio-init', 33, created - 60, 25, init=True)]
    for e in evs:
        e.pop('reportingComponent', None); e.pop('reportingInstance', None)
    objs = [ns(ns_), n1, n2, d, rs, p] + evs + [podlog(ns_, p['metadata']['name'], 'istio-init', init_logs)] + \
           noise([n1, n2], 'v1.11.3', dns_image='mycluster.icp:8500/ibmcom/coredns:1.1.3')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system':
            docker_ids(o)
    case('f2-istio-init-iptables-non-root', 'istio-init crash-loops under a restricted PSP: it runs as a non-root UID, so the NET_ADMIN it asks for is not effective and iptables is refused',
         'https://github.com/istio/old_issues_repo/issues/316', "iptables v1.6.0: can't initialize iptables table `nat': Permission denied (you must be root)",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="can't initialize iptables table `nat': Permission denied (you must be root)", playbook=None,
         terms=[['NET_ADMIN'], ['runAsUser', 'root', 'PodSecurityPolicy', 'istio-cni', 'privileged']])


# =====================================================================================
# 11. mechanism: git refuses a worktree owned by another UID (the clone step runs as root on an
#     NFS workspace owned by 1000); the CI step pod fails once (restartPolicy Never)
# =====================================================================================
@reg
def git_dubious():
    ns_ = 'woodpecker'
    n1 = mknode('ci-worker-1', kubelet='v1.31.2', runtime='containerd://1.7.23', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    n2 = mknode('ci-worker-2', kubelet='v1.31.2', runtime='containerd://1.7.23', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'docker.io/woodpeckerci/plugin-git:2.0.3'
    step = 'wp-01gv6k7q4s5bx3a9d2e8r1t0zc'
    c = {'name': step, 'image': img, 'imagePullPolicy': 'IfNotPresent', 'workingDir': '/woodpecker/src/git.example.org/patrick/test2',
         'env': [{'name': 'CI_REPO', 'value': 'patrick/test2'}, {'name': 'CI_WORKSPACE', 'value': '/woodpecker/src/git.example.org/patrick/test2'},
                 {'name': 'CI_COMMIT_SHA', 'value': '9b2f0c1d7e4a3b5c6d8e9f0a1b2c3d4e5f6a7b8c'}, {'name': 'PLUGIN_DEPTH', 'value': '50'},
                 {'name': 'CI_NETRC_MACHINE', 'value': 'git.example.org'}, {'name': 'HOME', 'value': '/root'}],
         'resources': {}, 'volumeMounts': [{'name': 'wp-01gv6k7q4s5bx3a9d2e8r1t0zc-default', 'mountPath': '/woodpecker'}]}
    vols = [{'name': 'wp-01gv6k7q4s5bx3a9d2e8r1t0zc-default', 'persistentVolumeClaim': {'claimName': 'wp-01gv6k7q4s5bx3a9d2e8r1t0zc-default'}}]
    containers, vols = with_api([c], vols, step)
    created = 600
    st = {'name': step, 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(step),
          'state': {'terminated': {'exitCode': 1, 'reason': 'Error', 'startedAt': ago(590), 'finishedAt': ago(588), 'containerID': cid(step)}}}
    p = mkpod(step, ns_, 'ci-worker-2', containers, [st], created, labels={'step': 'clone', 'woodpecker-ci.org/step': 'clone'}, phase='Failed',
              spec_extra={'volumes': vols, 'restartPolicy': 'Never', 'securityContext': {'fsGroup': 1000}})
    set_status(p, [st], created, ready=False, phase='Failed')
    p['status']['conditions'][2]['reason'] = 'PodFailed'; p['status']['conditions'][3]['reason'] = 'PodFailed'
    p['status']['conditions'][0]['status'] = 'False'
    logs = ['+ git init -b main',
            'Initialized empty Git repository in /woodpecker/src/git.example.org/patrick/test2/.git/',
            '+ git remote add origin https://git.example.org/patrick/test2.git',
            "fatal: detected dubious ownership in repository at '/woodpecker/src/git.example.org/patrick/test2'",
            'To add an exception for this directory, call:',
            '',
            '\tgit config --global --add safe.directory /woodpecker/src/git.example.org/patrick/test2',
            'exit status 128']
    evs = [scheduled(p, 'ci-worker-2', created - 1)] + started(p, 'ci-worker-2', img, step, created - 5, present=True)
    sc = storageclass('nfs-client', provisioner='cluster.local/nfs-subdir-external-provisioner', binding='Immediate', params={'archiveOnDelete': 'false', 'pathPattern': '${.PVC.namespace}-${.PVC.name}'})
    pvname = 'pvc-' + uid('wp-clone')
    cl = claim('wp-01gv6k7q4s5bx3a9d2e8r1t0zc-default', ns_, 'nfs-client', 'Bound', '10G', volume=pvname, provisioner='cluster.local/nfs-subdir-external-provisioner', access=('ReadWriteMany',))
    v = pv(pvname, cl, storage_class='nfs-client', size='10G')
    del v['spec']['csi']
    v['spec']['nfs'] = {'server': '10.0.40.5', 'path': '/srv/nfs/k8s/woodpecker-wp-01gv6k7q4s5bx3a9d2e8r1t0zc-default'}
    v['spec']['accessModes'] = ['ReadWriteMany']
    objs = [ns(ns_), n1, n2, p, cl, v, sc] + evs + [podlog(ns_, step, step, logs, previous=False)] + noise([n1, n2], 'v1.31.2')
    case('f2-git-clone-dubious-ownership', 'CI clone step fails: git refuses a workspace on NFS owned by another UID than the root user the step runs as',
         'https://github.com/woodpecker-ci/plugin-git/issues/63', "fatal: detected dubious ownership in repository at '/woodpecker/src/<HOST>/patrick/test2'",
         '%s/%s' % (ns_, step), 'any', objs, decisive='detected dubious ownership in repository at', playbook=None,
         terms=[['owner', 'ownership', 'owned by'], ['safe.directory', 'runAsUser', 'fsGroup']])



# =====================================================================================
# 12. image.short-name: CRI-O refuses the unqualified image (minikube, registries.conf without
#     unqualified-search registries); the pod sits in ImageInspectError
# =====================================================================================
@reg
def crio_short_name():
    ns_ = 'default'
    n1 = mknode('minikube', kubelet='v1.30.0', runtime='cri-o://1.29.1', kernel='5.10.207', os_image='Buildroot 2023.02.9',
                labels={'minikube.k8s.io/name': 'minikube', 'minikube.k8s.io/primary': 'true', 'node-role.kubernetes.io/control-plane': ''}, ip='192.168.49.2')
    img = 'kicbase/echo-server:1.0'
    labels = {'app': 'hello-minikube'}
    containers, vols = with_api([{'name': 'echo-server', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'resources': {}}], [], 'hello-minikube')
    d, rs = deploy('hello-minikube', ns_, labels, 1, '5c898d8489', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=300, generation=1)
    created = 290
    msg = 'Failed to inspect image "kicbase/echo-server:1.0": rpc error: code = Unknown desc = short-name "kicbase/echo-server:1.0" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"'
    p = mkpod('hello-minikube-5c898d8489-8gh5t', ns_, 'minikube', containers, [waiting('echo-server', img, 'ImageInspectError', msg, pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5c898d8489'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    crio(p)
    evs = [scheduled(p, 'minikube', created - 1),
           ev(p, 'InspectFailed', msg, count=18, first=created - 2, last=8, host='minikube', fieldPath=fp('echo-server')),
           ev(p, 'Failed', 'Error: ImageInspectError', count=18, first=created - 2, last=8, host='minikube', fieldPath=fp('echo-server'))]
    objs = [ns(ns_), n1, d, rs, p] + evs + noise([n1], 'v1.30.0')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system': crio(o)
    case('f2-crio-short-name-image-inspect', 'Deployment on a CRI-O minikube stuck in ImageInspectError: the short image name resolves to no registry',
         'https://github.com/kubernetes/minikube/pull/19395', msg, 'default/%s' % p['metadata']['name'], 'image.short-name', objs,
         decisive='did not resolve to an alias and no unqualified-search registries are defined', playbook=None)


# =====================================================================================
# 13. crash.inotify-limit: a .NET config reload watcher cannot get an inotify instance
#     (fs.inotify.max_user_instances=128 on the node, shared by every root process)
# =====================================================================================
@reg
def dotnet_inotify():
    ns_ = 'otel-demo'
    n1 = mknode('demo-node-1', kubelet='v1.28.4', runtime='containerd://1.7.11', kernel='5.15.0-91-generic', os_image='Ubuntu 22.04.3 LTS')
    img = 'ghcr.io/open-telemetry/demo:1.7.0-cartservice'
    labels = {'app.kubernetes.io/component': 'cartservice', 'app.kubernetes.io/name': 'opentelemetry-demo-cartservice', 'opentelemetry.io/name': 'opentelemetry-demo-cartservice'}
    c = {'name': 'cartservice', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'CART_SERVICE_PORT', 'value': '8080'}, {'name': 'ASPNETCORE_URLS', 'value': 'http://*:8080'},
                 {'name': 'REDIS_ADDR', 'value': 'opentelemetry-demo-redis:6379'}, {'name': 'FLAGD_HOST', 'value': 'opentelemetry-demo-flagd'},
                 {'name': 'OTEL_EXPORTER_OTLP_ENDPOINT', 'value': 'http://opentelemetry-demo-otelcol:4317'}],
         'ports': [{'containerPort': 8080, 'name': 'service'}], 'resources': {'limits': {'memory': '160Mi'}}}
    containers, vols = with_api([c], [], 'cartservice')
    d, rs = deploy('opentelemetry-demo-cartservice', ns_, labels, 1, '86bc8d9c8b', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=5400, generation=1)
    created = 5300
    p = mkpod('opentelemetry-demo-cartservice-86bc8d9c8b-x7mlz', ns_, 'demo-node-1', containers, [running('cartservice', img, 60)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '86bc8d9c8b'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'cartservice', img, 18, term(134, 'Error', 290, 288, seed='cart-18'))], created)
    logs = ['Unhandled exception. System.IO.IOException: The configured user limit (128) on the number of inotify instances has been reached, or the per-process limit on the number of open file descriptors has been reached.',
            '   at System.IO.FileSystemWatcher.StartRaisingEvents()',
            '   at System.IO.FileSystemWatcher.StartRaisingEventsIfNotDisposed()',
            '   at System.IO.FileSystemWatcher.set_EnableRaisingEvents(Boolean value)',
            '   at Microsoft.Extensions.FileProviders.Physical.PhysicalFilesWatcher.TryEnableFileSystemWatcher()',
            '   at Microsoft.Extensions.FileProviders.Physical.PhysicalFilesWatcher.CreateFileChangeToken(String filter)',
            '   at Microsoft.Extensions.FileProviders.PhysicalFileProvider.Watch(String filter)',
            '   at Microsoft.Extensions.Configuration.FileConfigurationProvider.<.ctor>b__1_0()',
            '   at Microsoft.Extensions.Primitives.ChangeToken.OnChange(Func`1 changeTokenProducer, Action changeTokenConsumer)',
            '   at Microsoft.Extensions.Configuration.FileConfigurationProvider..ctor(FileConfigurationSource source)',
            '   at Microsoft.Extensions.Configuration.Json.JsonConfigurationSource.Build(IConfigurationBuilder builder)',
            '   at Microsoft.Extensions.Configuration.ConfigurationBuilder.Build()',
            '   at Microsoft.AspNetCore.Builder.WebApplicationBuilder..ctor(WebApplicationOptions options, Action`1 configureDefaults)',
            '   at Program.<Main>$(String[] args) in /usr/src/app/src/Program.cs:line 21']
    evs = [scheduled(p, 'demo-node-1', created - 1)] + started(p, 'demo-node-1', img, 'cartservice', created - 5, size=89012337) + \
          restarted(p, 'demo-node-1', img, 'cartservice', 18, created - 60, 290) + [backoff(p, 'demo-node-1', 'cartservice', 140, created - 120, 30)]
    objs = [ns(ns_), n1, d, rs, p] + evs + [podlog(ns_, p['metadata']['name'], 'cartservice', logs)] + noise([n1], 'v1.28.4')
    case('f2-dotnet-inotify-instances-exhausted', 'OpenTelemetry demo cartservice (.NET) crash-loops: its config file watcher finds the node out of inotify instances',
         'https://github.com/open-telemetry/opentelemetry-demo/issues/1310',
         'Unhandled exception. System.IO.IOException: The configured user limit (128) on the number of inotify instances has been reached, or the per-process limit on the number of open file',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.inotify-limit', objs, decisive='user limit (128) on the number of inotify instances has been reached', playbook=None)


# =====================================================================================
# 14. crash.ipv6-disabled: NGINX Ingress Controller 2.2+ listens on [::]:80 by default; the TKGi
#     nodes boot with ipv6.disable=1
# =====================================================================================
@reg
def nic_ipv6():
    ns_ = 'nginx-ingress'
    kv = 'v1.23.7+vmware.1'
    nodes = [mknode('8d2f4c1a-3b7e-4f90-a1c2-5e6d7f8a9b0%d' % k, kubelet=kv, runtime='containerd://1.6.6', kernel='4.15.0-191-generic', os_image='Ubuntu 16.04.7 LTS',
                    labels={'bosh.id': 'b3f1c2d4-%d' % k, 'pks-system/cluster.name': 'prod-tkgi-01'}) for k in (1, 2)]
    img = 'nginx/nginx-ingress:2.3.0'
    labels = {'app': 'nginx-ingress'}
    c = {'name': 'nginx-ingress', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'args': ['-nginx-configmaps=$(POD_NAMESPACE)/nginx-config', '-default-server-tls-secret=$(POD_NAMESPACE)/default-server-secret', '-enable-prometheus-metrics'],
         'env': [{'name': 'POD_NAMESPACE', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.namespace'}}}, {'name': 'POD_NAME', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}}],
         'ports': [{'containerPort': 80, 'name': 'http'}, {'containerPort': 443, 'name': 'https'}, {'containerPort': 8081, 'name': 'readiness-port'}, {'containerPort': 9113, 'name': 'prometheus'}],
         'readinessProbe': {'httpGet': {'path': '/nginx-ready', 'port': 'readiness-port'}, 'periodSeconds': 1},
         'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}},
         'securityContext': {'allowPrivilegeEscalation': True, 'capabilities': {'add': ['NET_BIND_SERVICE'], 'drop': ['ALL']}, 'runAsUser': 101}}
    containers, vols = with_api([c], [], 'nic')
    d, rs = deploy('nginx-ingress', ns_, labels, 2, '6d9f5b7c84', {'serviceAccountName': 'nginx-ingress', 'containers': copy.deepcopy(containers), 'volumes': vols},
                   ready=0, created=86400 * 200, generation=7)
    created = 1100
    nn = nodes[0]['metadata']['name']
    p = mkpod('nginx-ingress-6d9f5b7c84-lm4rd', ns_, nn, containers, [running('nginx-ingress', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6d9f5b7c84'}, sa='nginx-ingress', spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'nginx-ingress', img, 6, term(255, 'Error', 200, 199, seed='nic-6'))], created)
    kl = lambda s: ts(s, '%m%d %H:%M:%S.%f')
    logs = ['I%s       1 main.go:213] Starting NGINX Ingress Controller Version=2.3.0 GitCommit=979db22d8065b22fedb410c9b9c5875cf0a6dc66 Date=2022-07-12T08:51:24Z PlusFlag=false' % kl(201),
            'I%s       1 main.go:328] Kubernetes version: 1.23.7' % kl(201),
            'I%s       1 main.go:474] Using nginx version: nginx/1.23.0' % kl(201),
            '%s [emerg] 12#12: socket() [::]:80 failed (97: Address family not supported by protocol)' % ts(200, '%Y/%m/%d %H:%M:%S'),
            'nginx: [emerg] socket() [::]:80 failed (97: Address family not supported by protocol)',
            'F%s       1 main.go:389] nginx command exited with an error: exit status 1' % kl(199)]
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'nginx-ingress', created - 5, size=70124009) + restarted(p, nn, img, 'nginx-ingress', 6, created - 30, 200) + \
          [backoff(p, nn, 'nginx-ingress', 26, created - 60, 5)]
    old = replicaset(d, '58b7c9d6f5', 1, 1, {'containers': [{'name': 'nginx-ingress', 'image': 'nginx/nginx-ingress:2.1.1'}]}, created=86400 * 60, revision=6)
    oldp = mkpod('nginx-ingress-58b7c9d6f5-s8v2c', ns_, nodes[1]['metadata']['name'], [{'name': 'nginx-ingress', 'image': 'nginx/nginx-ingress:2.1.1'}],
                 [running('nginx-ingress', 'nginx/nginx-ingress:2.1.1', 86400 * 20)], 86400 * 20, owner=('ReplicaSet', old['metadata']['name']),
                 labels={**labels, 'pod-template-hash': '58b7c9d6f5'}, sa='nginx-ingress')
    objs = [ns(ns_), *nodes, d, rs, old, p, oldp, serviceaccount('nginx-ingress', ns_), configmap('nginx-config', ns_, {})] + evs + \
           [podlog(ns_, p['metadata']['name'], 'nginx-ingress', logs)] + noise(nodes, 'v1.23.7')
    case('f2-nginx-ingress-ipv6-listen-disabled', 'NGINX Ingress Controller 2.3 crash-loops after the upgrade: its new [::]:80 listener on nodes booted with IPv6 disabled',
         'https://github.com/nginx/kubernetes-ingress/issues/2970', '2022/08/25 12:58:31 [emerg] 12#12: socket() [::]:80 failed (97: Address family not supported by protocol)',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.ipv6-disabled', objs, decisive='socket() [::]:80 failed (97: Address family not supported by protocol)', playbook=None)


# =====================================================================================
# 15. security.run-as-non-root: a PSP-era runAsNonRoot meets an image whose USER is a name
# =====================================================================================
@reg
def kuard_nonroot():
    ns_ = 'default'
    n1 = mknode('pool-main-7f2k1', kubelet='v1.31.1', runtime='containerd://1.7.22', kernel='6.1.0-25-cloud-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'gcr.io/kuar-demo/kuard-amd64:blue'
    labels = {'app': 'kuard'}
    c = {'name': 'kuard', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8080, 'name': 'http'}], 'resources': {}}
    containers, vols = with_api([c], [], 'kuard')
    psc = {'runAsNonRoot': True, 'seccompProfile': {'type': 'RuntimeDefault'}}
    d, rs = deploy('kuard', ns_, labels, 1, '798585497b', {'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': psc}, ready=0, created=120, generation=1)
    created = 110
    msg = 'container has runAsNonRoot and image has non-numeric user (nobody), cannot verify user is non-root (pod: "kuard-798585497b-4lpqf_default(%s)", container: kuard)'
    p = mkpod('kuard-798585497b-4lpqf', ns_, n1['metadata']['name'], containers, [running('kuard', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '798585497b'}, spec_extra={'volumes': vols, 'securityContext': psc})
    msg = msg % p['metadata']['uid']
    set_status(p, [waiting('kuard', img, 'CreateContainerConfigError', msg)], created, ready=False)
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1), ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', last=created - 2, host=nn, fieldPath=fp('kuard')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 2.31s (2.31s including waiting). Image size: 11023817 bytes.' % img, 'Normal', last=created - 5, host=nn, fieldPath=fp('kuard')),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=8, first=created - 20, last=7, host=nn, fieldPath=fp('kuard')),
           ev(p, 'Failed', 'Error: ' + msg, count=9, first=created - 5, last=7, host=nn, fieldPath=fp('kuard'))]
    objs = [ns(ns_), n1, d, rs, p] + evs + noise([n1], 'v1.31.1')
    case('f2-kuard-runasnonroot-named-user', 'kuard never starts under runAsNonRoot: its image runs as the user "nobody" by name, which the kubelet cannot verify',
         'https://github.com/kubernetes-up-and-running/kuard/issues/43',
         'Error: container has runAsNonRoot and image has non-numeric user (nobody), cannot verify user is non-root (pod: "kuard-798585497b-4lpqf_default(6e554b4c-4f39-4fae-97c6-b147436639f4)", container: kuard)',
         'default/kuard-798585497b-4lpqf', 'security.run-as-non-root', objs, decisive='image has non-numeric user (nobody), cannot verify user is non-root', playbook=None)



# =====================================================================================
# 16. container.mount-type-mismatch: a ConfigMap volume (a directory) mounted onto the image's
#     /etc/config.toml file (dockershim era, as reported)
# =====================================================================================
@reg
def influxdb_mount_file():
    ns_ = 'kube-system'
    kv = 'v1.10.0'
    n1 = mknode('node1', kubelet=kv, runtime='docker://1.13.1', kernel='3.10.0-693.21.1.el7.x86_64', os_image='CentOS Linux 7 (Core)', ip='192.168.56.11')
    n2 = mknode('node2', kubelet=kv, runtime='docker://1.13.1', kernel='3.10.0-693.21.1.el7.x86_64', os_image='CentOS Linux 7 (Core)', ip='192.168.56.12')
    img = 'k8s.gcr.io/heapster-influxdb-amd64:v1.3.3'
    labels = {'task': 'monitoring', 'k8s-app': 'influxdb'}
    c = {'name': 'influxdb', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8086, 'name': 'http'}],
         'volumeMounts': [{'name': 'influxdb-storage', 'mountPath': '/data'}, {'name': 'influxdb-config', 'mountPath': '/etc/config.toml'}]}
    vols = [{'name': 'influxdb-storage', 'emptyDir': {}}, {'name': 'influxdb-config', 'configMap': {'name': 'influxdb-config', 'defaultMode': 420}}]
    containers, vols = with_api([c], vols, 'influx')
    d, rs = deploy('monitoring-influxdb', ns_, labels, 1, '848b9b66f6', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=900, generation=1)
    created = 880
    p = mkpod('monitoring-influxdb-848b9b66f6-ks69q', ns_, 'node2', containers, [running('influxdb', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '848b9b66f6'}, spec_extra={'volumes': vols})
    pod_uid = p['metadata']['uid']
    ovl = hexid('influx-overlay')
    err = ('oci runtime error: container_linux.go:247: starting container process caused "process_linux.go:364: container init caused \\"rootfs_linux.go:54: mounting '
           '\\\\\\"/var/lib/kubelet/pods/%s/volumes/kubernetes.io~configmap/influxdb-config\\\\\\" to rootfs \\\\\\"/var/lib/docker/overlay2/%s/merged\\\\\\" at '
           '\\\\\\"/var/lib/docker/overlay2/%s/merged/etc/config.toml\\\\\\" caused \\\\\\"not a directory\\\\\\"\\""\n'
           ': Are you trying to mount a directory onto a file (or vice-versa)? Check if the specified host path exists and is the expected type') % (pod_uid, ovl, ovl)
    last = term(128, 'ContainerCannotRun', 75, 75, message=err, seed='influx-6')
    set_status(p, [clbo(p, 'influxdb', img, 6, last)], created)
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    docker_ids(p)
    evs = [scheduled(p, 'node2', created - 1)] + started(p, 'node2', img, 'influxdb', created - 4, size=12612432)[:2] + \
          [ev(p, 'Created', 'Created container', 'Normal', count=7, first=created - 6, last=75, host='node2', fieldPath=fp('influxdb')),
           ev(p, 'Failed', 'Error: failed to start container "influxdb": Error response from daemon: ' + err, count=7, first=created - 6, last=75, host='node2', fieldPath=fp('influxdb')),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=6, first=created - 40, last=76, host='node2', fieldPath=fp('influxdb')),
           backoff(p, 'node2', 'influxdb', 29, created - 60, 13)]
    for e in evs:
        e.pop('reportingComponent', None); e.pop('reportingInstance', None)
    cm = configmap('influxdb-config', ns_, {'config.toml': 'reporting-disabled = true\nbind-address = ":8088"\n[meta]\n  dir = "/data/meta"\n[data]\n  dir = "/data/data"\n  wal-dir = "/data/wal"\n'})
    objs = [ns(ns_), n1, n2, d, rs, p, cm] + evs + noise([n1, n2], kv, dns_image='k8s.gcr.io/coredns:1.1.3')
    for o in objs:
        if o['kind'] == 'Pod' and o is not p: docker_ids(o)
    case('f2-influxdb-configmap-dir-onto-file', 'monitoring-influxdb cannot start: its ConfigMap volume (a directory) is mounted at /etc/config.toml, a file in the image',
         'https://github.com/rootsongjc/kubernetes-handbook/issues/218',
         'caused \\\\\\"not a directory\\\\\\"\\"" : Are you trying to mount a directory onto a file (or vice-versa)? Check if the specified host path exists and is the expected type',
         'kube-system/%s' % p['metadata']['name'], 'container.mount-type-mismatch', objs, decisive='Are you trying to mount a directory onto a file (or vice-versa)?', playbook=None)


# =====================================================================================
# 17. image.wrong-arch: the node-problem-detector DaemonSet lands on Graviton nodes; v0.8.14 is amd64 only
# =====================================================================================
@reg
def npd_arm64():
    ns_ = 'kube-system'
    kv = 'v1.27.4-eks-8ccc7ba'
    arm = {'kubernetes.io/arch': 'arm64', 'beta.kubernetes.io/arch': 'arm64', 'node.kubernetes.io/instance-type': 'm6g.large', 'eks.amazonaws.com/nodegroup': 'graviton'}
    nodes = []
    for k, ip in ((1, '10.40.11.52'), (2, '10.40.27.190')):
        n = mknode('ip-%s.eu-west-1.compute.internal' % ip.replace('.', '-'), kubelet=kv, runtime='containerd://1.6.19', kernel='5.10.186-179.751.amzn2.aarch64', os_image='Amazon Linux 2',
                   labels=arm, ip=ip)
        n['status']['nodeInfo']['architecture'] = 'arm64'
        nodes.append(n)
    img = 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.14'
    labels = {'app': 'node-problem-detector'}
    c = {'name': 'node-problem-detector', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'command': ['/node-problem-detector', '--logtostderr', '--enable-k8s-exporter', '--prometheus-address=0.0.0.0', '--prometheus-port=20257',
                     '--config.system-log-monitor=/config/kernel-monitor.json'],
         'env': [{'name': 'NODE_NAME', 'valueFrom': {'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'spec.nodeName'}}}],
         'resources': {'limits': {'cpu': '10m', 'memory': '80Mi'}, 'requests': {'cpu': '10m', 'memory': '80Mi'}},
         'securityContext': {'privileged': True}, 'volumeMounts': [{'name': 'log', 'mountPath': '/var/log', 'readOnly': True}, {'name': 'config', 'mountPath': '/config', 'readOnly': True}]}
    vols = [{'name': 'log', 'hostPath': {'path': '/var/log/', 'type': ''}}, {'name': 'config', 'configMap': {'name': 'node-problem-detector-config', 'defaultMode': 420}}]
    containers, vols = with_api([c], vols, 'npd')
    ds = daemonset('node-problem-detector', ns_, labels, 2, 0, {'serviceAccountName': 'node-problem-detector', 'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 3)
    nn = nodes[0]['metadata']['name']
    created = 2400
    p = mkpod('node-problem-detector-7z8x7', ns_, nn, containers, [running('node-problem-detector', img, 60)], created, owner=('DaemonSet', 'node-problem-detector'),
              labels={**labels, 'controller-revision-hash': '757d568cb6', 'pod-template-generation': '2'}, sa='node-problem-detector',
              spec_extra={'volumes': vols, 'affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [
                  {'matchFields': [{'key': 'metadata.name', 'operator': 'In', 'values': [nn]}]}]}}}, 'priorityClassName': 'system-node-critical'})
    p['status']['qosClass'] = 'Guaranteed'
    set_status(p, [clbo(p, 'node-problem-detector', img, 10, term(1, 'Error', 215, 215, seed='npd-10'))], created)
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'node-problem-detector', created - 4, size=38111093) + \
          restarted(p, nn, img, 'node-problem-detector', 10, created - 30, 215) + [backoff(p, nn, 'node-problem-detector', 58, created - 60, 19)]
    objs = [ns(ns_), *nodes, ds, p, serviceaccount('node-problem-detector', ns_), configmap('node-problem-detector-config', ns_, {'kernel-monitor.json': '{"plugin":"kmsg","logPath":"/dev/kmsg","lookback":"5m","bufferSize":10,"source":"kernel-monitor","conditions":[],"rules":[]}'})] + \
           evs + [podlog(ns_, p['metadata']['name'], 'node-problem-detector', ['exec /node-problem-detector: exec format error'])] + \
           noise(nodes, 'v1.27.4-minimal-eksbuild.2', dns_image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.10.1-eksbuild.2')
    case('f2-npd-daemonset-arm64-exec-format', 'node-problem-detector crash-loops on Graviton nodes: the v0.8.14 image holds an amd64 binary only',
         'https://github.com/kubernetes/node-problem-detector/issues/797', 'exec /node-problem-detector: exec format error',
         'kube-system/node-problem-detector-7z8x7', 'image.wrong-arch', objs, decisive='exec /node-problem-detector: exec format error', playbook=None)


# =====================================================================================
# 18. config.missing-reference: the chart asks for key postgresql-password; the newer Bitnami
#     PostgreSQL secret calls it password / postgres-password
# =====================================================================================
@reg
def sentry_secret_key():
    ns_ = 'test'
    n1 = mknode('k8s-node-03', kubelet='v1.30.3', runtime='containerd://1.7.19', kernel='6.1.0-22-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('k8s-node-04', kubelet='v1.30.3', runtime='containerd://1.7.19', kernel='6.1.0-22-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'getsentry/sentry:24.8.0'
    labels = {'app': 'sentry', 'release': 'sentry', 'role': 'web'}
    c = {'name': 'sentry-web', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['sentry'], 'args': ['run', 'web'],
         'env': [{'name': 'SNUBA', 'value': 'http://sentry-snuba:1218'}, {'name': 'C_FORCE_ROOT', 'value': 'true'},
                 {'name': 'POSTGRES_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'my-postgresql', 'key': 'postgresql-password'}}}],
         'ports': [{'containerPort': 9000}], 'resources': {}, 'volumeMounts': [{'name': 'config', 'mountPath': '/etc/sentry', 'readOnly': True}]}
    containers, vols = with_api([c], [{'name': 'config', 'configMap': {'name': 'sentry-sentry', 'defaultMode': 420}}], 'sentry-web')
    d, rs = deploy('sentry-web', ns_, labels, 1, '75dd588596', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=70, generation=1)
    created = 64
    msg = "couldn't find key postgresql-password in Secret test/my-postgresql"
    p = mkpod('sentry-web-75dd588596-q7sp8', ns_, 'k8s-node-04', containers, [waiting('sentry-web', img, 'CreateContainerConfigError', msg)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '75dd588596'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    evs = [scheduled(p, 'k8s-node-04', created - 1),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=6, first=created - 3, last=5, host='k8s-node-04', fieldPath=fp('sentry-web')),
           ev(p, 'Failed', 'Error: ' + msg, count=6, first=created - 3, last=5, host='k8s-node-04', fieldPath=fp('sentry-web'))]
    pg = secret('my-postgresql', ns_, ['postgres-password', 'password'], labels={'app.kubernetes.io/name': 'postgresql', 'app.kubernetes.io/instance': 'my-postgresql', 'helm.sh/chart': 'postgresql-15.5.20'})
    objs = [ns(ns_), n1, n2, d, rs, p, pg, configmap('sentry-sentry', ns_, {'config.yml': 'system.secret-key: "xxxx"\n', 'sentry.conf.py': 'DATABASES = {}\n'})] + evs + noise([n1, n2], 'v1.30.3')
    case('f2-sentry-secret-key-renamed', 'Sentry web pods in CreateContainerConfigError: the external PostgreSQL secret has no key postgresql-password',
         'https://github.com/sentry-kubernetes/charts/issues/1433', 'Error: couldn\'t find key postgresql-password in Secret test/my-postgresql',
         'test/sentry-web-75dd588596-q7sp8', 'config.missing-reference', objs, decisive=msg, playbook=None)


# =====================================================================================
# 19. lifecycle.poststart-failed: the 389-DS postStart runs dsconf, which prompts for a Bind DN
#     on a closed stdin; the hook fails and the kubelet kills the container
# =====================================================================================
@reg
def ds389_poststart():
    ns_ = 'aether-roc'
    n1 = mknode('aether-node-1', kubelet='v1.30.5', runtime='containerd://2.0.0', kernel='6.8.0-45-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'quay.io/389ds/dirsrv:2.4'
    labels = {'app': 'fedora389ds'}
    hook = "sleep 3 && (/usr/sbin/dsconf localhost monitor server || /usr/sbin/dsconf localhost backend create --suffix 'dc=opennetworking,dc=org' --be-name=aether --create-entries --create-suffix)"
    c = {'name': '389ds', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'DS_DM_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'fedora389ds', 'key': 'dm-password'}}}, {'name': 'DS_SUFFIX_NAME', 'value': 'dc=opennetworking,dc=org'}],
         'ports': [{'containerPort': 3389, 'name': 'ldap'}, {'containerPort': 3636, 'name': 'ldaps'}],
         'lifecycle': {'postStart': {'exec': {'command': ['/bin/sh', '-c', hook]}}},
         'resources': {}, 'volumeMounts': [{'name': 'data', 'mountPath': '/data'}]}
    containers, vols = with_api([c], [{'name': 'data', 'emptyDir': {}}], '389ds')
    d, rs = deploy('fedora389ds', ns_, labels, 1, '74fc7d99b6', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=400, generation=2)
    created = 390
    p = mkpod('fedora389ds-74fc7d99b6-t2zrl', ns_, 'aether-node-1', containers, [running('389ds', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '74fc7d99b6'}, spec_extra={'volumes': vols})
    st = waiting('389ds', img, 'PostStartHookError', None, restarts=4, last=term(0, 'Completed', 70, 60, seed='389ds-4'))
    set_status(p, [st], created)
    pod_ref = '%s_%s(%s)' % (p['metadata']['name'], ns_, p['metadata']['uid'])
    hook_msg = ('Exec lifecycle hook ([/bin/sh -c %s]) for Container "389ds" in Pod "%s" failed - error: command \'/bin/sh -c %s\' exited with 1: , '
                'message: "Enter Bind DN: Error: EOF when reading a line\\nEnter Bind DN: Error: EOF when reading a line\\n"') % (hook, pod_ref, hook)
    logs = ['INFO: The 389 Directory Server Container Bootstrap', 'INFO: Inspired by works of: ITS, The University of Adelaide',
            'INFO: 389 Directory Server Version: 2.4.5', 'INFO: Initialising 389-ds-container due to empty volume ...',
            'INFO: Completed installation for instance: slapd-localhost', 'INFO: Starting 389-ds-container ...',
            '[%s] - INFO - main - slapd started.  Listening on All Interfaces port 3389 for LDAP requests' % ts(66, '%d/%b/%Y:%H:%M:%S.%f'),
            'INFO: 389-ds-container started.', 'INFO: STOPPING: Shutting down 389-ds-container ...', 'INFO: STOPPED: Shut down 389-ds-container']
    evs = [scheduled(p, 'aether-node-1', created - 1)] + restarted(p, 'aether-node-1', img, '389ds', 4, created - 5, 70) + \
          [ev(p, 'FailedPostStartHook', hook_msg, count=5, first=created - 2, last=63, host='aether-node-1', fieldPath=fp('389ds')),
           ev(p, 'Killing', 'FailedPostStartHook', 'Normal', count=5, first=created - 2, last=63, host='aether-node-1', fieldPath=fp('389ds')),
           backoff(p, 'aether-node-1', '389ds', 9, created - 40, 20)]
    objs = [ns(ns_), n1, d, rs, p, secret('fedora389ds', ns_, ['dm-password'])] + evs + [podlog(ns_, p['metadata']['name'], '389ds', logs)] + \
           noise([n1], 'v1.30.5')
    case('f2-389ds-poststart-dsconf-prompt', '389 Directory Server pod keeps being killed: its postStart dsconf call prompts for a Bind DN and hits EOF',
         'https://github.com/onosproject/onos-helm-charts/pull/557',
         'message: "Enter Bind DN: Error: EOF when reading a line\\nEnter Bind DN: Error: EOF when reading a line\\n"',
         '%s/%s' % (ns_, p['metadata']['name']), 'lifecycle.poststart-failed', objs, decisive='Enter Bind DN: Error: EOF when reading a line', playbook=None)



# =====================================================================================
# 20. crash.oomkilled: the Envoy sidecar grows until the cgroup OOM killer takes it; pilot-agent
#     then exits 0, so the status reads OOMKilled with exit code 0
# =====================================================================================
@reg
def istio_sidecar_oom():
    ns_ = 'shop'
    kv = 'v1.14.10-gke.17'
    n1 = mknode('gke-prod-pool-2-8f1c3d5a-q9wz', kubelet=kv, runtime='containerd://1.2.8', kernel='4.19.76+', os_image=GKE_OS, labels={'cloud.google.com/gke-nodepool': 'pool-2'})
    n2 = mknode('gke-prod-pool-2-8f1c3d5a-t4mb', kubelet=kv, runtime='containerd://1.2.8', kernel='4.19.76+', os_image=GKE_OS, labels={'cloud.google.com/gke-nodepool': 'pool-2'})
    app_img, proxy_img = 'eu.gcr.io/acme-shop/orders:3.18.2', 'docker.io/istio/proxyv2:1.4.2'
    labels = {'app': 'orders', 'version': 'v3'}
    app = {'name': 'orders', 'image': app_img, 'ports': [{'containerPort': 8080, 'name': 'http'}], 'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
           'readinessProbe': {'httpGet': {'path': '/app-health/orders/readyz', 'port': 15020}, 'periodSeconds': 10}}
    proxy = {'name': 'istio-proxy', 'image': proxy_img, 'args': ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local', '--configPath', '/etc/istio/proxy',
                                                                 '--binaryPath', '/usr/local/bin/envoy', '--serviceCluster', 'orders.shop', '--concurrency', '2'],
             'ports': [{'containerPort': 15090, 'name': 'http-envoy-prom'}],
             'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 15020}, 'initialDelaySeconds': 1, 'periodSeconds': 2, 'failureThreshold': 30},
             'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'cpu': '2', 'memory': '256Mi'}},
             'securityContext': {'readOnlyRootFilesystem': True, 'runAsUser': 1337, 'runAsGroup': 1337}, 'terminationMessagePolicy': 'FallbackToLogsOnError'}
    containers, vols = with_api([app, proxy], [{'name': 'istio-envoy', 'emptyDir': {'medium': 'Memory'}}], 'orders')
    d, rs = deploy('orders', ns_, labels, 3, '7d9c8b6f5', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=2, created=86400 * 12, generation=9)
    created = 86400 * 5
    p = mkpod('orders-7d9c8b6f5-2xk4p', ns_, n1['metadata']['name'], containers, [running('orders', app_img, created - 20)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7d9c8b6f5', 'security.istio.io/tlsMode': 'istio'}, spec_extra={'volumes': vols})
    p['metadata']['annotations'] = {'sidecar.istio.io/status': '{"version":"8a4f3c1ab1df4e9ab5c7d3a3c6f2f1a1e8b0e4d0c3b2a1f0e9d8c7b6a5f4e3d2","initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["istio-envoy","istio-certs"]}'}
    last = term(0, 'OOMKilled', 86400 * 2 + 3600, 96, seed='proxy-4')
    set_status(p, [running('orders', app_img, created - 20), running('istio-proxy', proxy_img, 94, restarts=4, ready=False, last=last)], created)
    t = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%S.%fZ')
    prev = ['%s\tinfo\tEnvoy proxy is ready' % t(86400 * 2 + 3590),
            '%s\twarn\tEnvoy may have been out of memory killed. Check memory usage and limits.' % t(97),
            '%s\terror\tEpoch 0 exited with error: signal: killed' % t(97),
            '%s\tinfo\tNo more active epochs, terminating' % t(96)]
    cur = ['%s\tinfo\tEpoch 0 starting' % t(93),
           '%s\tinfo\tEnvoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: 0 successful, 0 rejected; lds updates: 0 successful, 0 rejected' % t(90),
           '%s\tinfo\tEnvoy proxy is NOT ready: config not received from Pilot (is Pilot running?): cds updates: 1 successful, 0 rejected; lds updates: 0 successful, 0 rejected' % t(4)]
    nn = n1['metadata']['name']
    evs = [ev(p, 'Pulled', 'Container image "%s" already present on machine' % proxy_img, 'Normal', count=4, first=86400 * 3, last=95, host=nn, fieldPath=fp('istio-proxy')),
           ev(p, 'Created', 'Created container istio-proxy', 'Normal', count=5, first=created - 10, last=95, host=nn, fieldPath=fp('istio-proxy')),
           ev(p, 'Started', 'Started container istio-proxy', 'Normal', count=5, first=created - 10, last=94, host=nn, fieldPath=fp('istio-proxy')),
           unhealthy(p, nn, 'istio-proxy', 'HTTP probe failed with statuscode: 503', 41, 86400 * 3, 3)]
    objs = [ns(ns_, meta={'labels': {'istio-injection': 'enabled'}}), n1, n2, d, rs, p] + evs + \
           [podlog(ns_, p['metadata']['name'], 'istio-proxy', prev), podlog(ns_, p['metadata']['name'], 'istio-proxy', cur, previous=False)] + \
           noise([n1, n2], 'v1.14.10-gke.17', dns_image='k8s.gcr.io/coredns:1.3.1')
    case('f2-istio-sidecar-envoy-oomkilled', 'Envoy sidecar of the orders service is OOM-killed every other day; pilot-agent exits 0 so the status shows OOMKilled with code 0',
         'https://github.com/istio/istio/issues/19925', 'Envoy may have been out of memory killed. Check memory usage and limits.',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.oomkilled', objs, decisive='Envoy may have been out of memory killed', playbook=None)


# =====================================================================================
# 21. sandbox.create-failed: CRI-O's bridge plugin cannot find the veth it created (CNI network
#     "crio"); the argocd-server pod stays in ContainerCreating
# =====================================================================================
@reg
def crio_sandbox_mac():
    ns_ = 'argo-cd'
    n1 = mknode('mule', kubelet='v1.27.1', runtime='cri-o://1.27.0', kernel='6.2.15-300.fc38.x86_64', os_image='Fedora Linux 38 (Server Edition)', ip='192.168.1.20',
                labels={'node-role.kubernetes.io/control-plane': ''})
    img = 'quay.io/argoproj/argocd:v2.7.2'
    labels = {'app.kubernetes.io/name': 'argocd-server'}
    c = {'name': 'argocd-server', 'image': img, 'args': ['/usr/local/bin/argocd-server'], 'ports': [{'containerPort': 8080}, {'containerPort': 8083}],
         'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 8080}, 'initialDelaySeconds': 3, 'periodSeconds': 30},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'seccompProfile': {'type': 'RuntimeDefault'}}}
    containers, vols = with_api([c], [{'name': 'tmp', 'emptyDir': {}}], 'argocd-server')
    d, rs = deploy('argocd-server', ns_, labels, 1, '67b55cf99f', {'serviceAccountName': 'argocd-server', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=300, generation=1)
    created = 251
    p = mkpod('argocd-server-67b55cf99f-pg4tn', ns_, 'mule', containers, [waiting('argocd-server', img, 'ContainerCreating', pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '67b55cf99f'}, phase='Pending', sa='argocd-server', spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    p['status']['conditions'][0]['status'] = 'False'
    for k in ('podIP', 'podIPs'): p['status'].pop(k, None)
    pid = '%s_%s_%s_0' % (p['metadata']['name'], ns_, p['metadata']['uid'])
    msg = lambda seed, iface, mac: ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get network status for pod sandbox k8s_%s(%s): error checking pod %s_%s '
                                    'for CNI network "crio": Interface %s Mac doesn\'t match: %s not found') % (pid, hexid(seed), ns_, p['metadata']['name'], iface, mac)
    evs = [scheduled(p, 'mule', created - 1),
           ev(p, 'FailedMount', 'MountVolume.SetUp failed for volume "%s" : failed to sync configmap cache: timed out waiting for the condition' % vols[-1]['name'], last=created - 3, host='mule'),
           ev(p, 'FailedCreatePodSandBox', msg('sb1', 'veth0f9a2c44', 'c2:5e:19:a4:70:3b'), last=created - 3, host='mule'),
           ev(p, 'FailedCreatePodSandBox', msg('sb2', 'veth8d1e7b20', '4a:91:c3:2f:de:06'), last=created - 16, host='mule'),
           ev(p, 'FailedCreatePodSandBox', msg('sb9', 'veth53193e1d', '7e:10:77:0b:8b:d5'), count=16, first=created - 30, last=11, host='mule'),
           ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', count=18, first=created - 4, last=10, host='mule')]
    repo_img = img
    rp = mkpod('argocd-repo-server-6c8f7d5b9-x2mqs', ns_, 'mule', [{'name': 'argocd-repo-server', 'image': repo_img}], [running('argocd-repo-server', repo_img, 86400 * 2)], 86400 * 2,
               owner=('ReplicaSet', 'argocd-repo-server-6c8f7d5b9'), labels={'app.kubernetes.io/name': 'argocd-repo-server', 'pod-template-hash': '6c8f7d5b9'})
    crio(rp)
    objs = [ns(ns_), n1, d, rs, p, rp, serviceaccount('argocd-server', ns_)] + evs + noise([n1], 'v1.27.1')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system': crio(o)
    case('f2-crio-bridge-veth-mac-mismatch', 'argocd-server stuck in ContainerCreating on a CRI-O node: every sandbox fails the CNI check, the bridge cannot find its veth by MAC',
         'https://github.com/cri-o/cri-o/issues/7008',
         'error checking pod argo-cd_argocd-server-67b55cf99f-pg4tn for CNI network "crio": Interface veth53193e1d Mac doesn\'t match: 7e:10:77:0b:8b:d5 not found',
         '%s/%s' % (ns_, p['metadata']['name']), 'sandbox.create-failed', objs, decisive='for CNI network "crio": Interface veth53193e1d Mac doesn\'t match', playbook=None)



# =====================================================================================
# 22. readiness.failing: a Spilo replica Running but never Ready; Patroni answers 503 on
#     /readiness while the replica is still bootstrapping from its leader
# =====================================================================================
@reg
def patroni_readiness():
    ns_ = 'default'
    n1 = mknode('ip-172-31-6-72.us-east-2.compute.internal', kubelet='v1.24.13', runtime='containerd://1.6.20', kernel='5.15.0-1036-aws', os_image='Ubuntu 20.04.6 LTS', ip='172.31.6.72')
    n2 = mknode('ip-172-31-20-154.us-east-2.compute.internal', kubelet='v1.24.13', runtime='containerd://1.6.20', kernel='5.15.0-1036-aws', os_image='Ubuntu 20.04.6 LTS', ip='172.31.20.154')
    img = 'registry.opensource.zalan.do/acid/spilo-14:2.1-p6'
    labels = {'application': 'spilo', 'cluster-name': 'acid-minimal-cluster', 'team': 'acid'}
    c = {'name': 'postgres', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'SCOPE', 'value': 'acid-minimal-cluster'}, {'name': 'PGROOT', 'value': '/home/postgres/pgdata/pgroot'},
                 {'name': 'POD_IP', 'valueFrom': {'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'status.podIP'}}},
                 {'name': 'PGUSER_SUPERUSER', 'value': 'postgres'}, {'name': 'KUBERNETES_USE_CONFIGMAPS', 'value': 'true'},
                 {'name': 'PGPASSWORD_SUPERUSER', 'valueFrom': {'secretKeyRef': {'name': 'postgres.acid-minimal-cluster.credentials.postgresql.acid.zalan.do', 'key': 'password'}}}],
         'ports': [{'containerPort': 8008, 'protocol': 'TCP'}, {'containerPort': 5432, 'protocol': 'TCP'}, {'containerPort': 8080, 'protocol': 'TCP'}],
         'readinessProbe': {'httpGet': {'path': '/readiness', 'port': 8008, 'scheme': 'HTTP'}, 'initialDelaySeconds': 6, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 3},
         'resources': {'requests': {'cpu': '10m', 'memory': '100Mi'}, 'limits': {'cpu': '500m', 'memory': '500Mi'}},
         'securityContext': {'allowPrivilegeEscalation': True, 'privileged': False, 'readOnlyRootFilesystem': False},
         'volumeMounts': [{'name': 'pgdata', 'mountPath': '/home/postgres/pgdata'}, {'name': 'dshm', 'mountPath': '/dev/shm'}]}
    containers, vols = with_api([c], [{'name': 'dshm', 'emptyDir': {'medium': 'Memory'}}, {'name': 'pgdata', 'persistentVolumeClaim': {'claimName': 'pgdata-acid-minimal-cluster-1'}}], 'acid1')
    ss = sts('acid-minimal-cluster', ns_, labels, 2, {'serviceAccountName': 'postgres-pod', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, created=900)
    created = 462
    p = mkpod('acid-minimal-cluster-1', ns_, 'ip-172-31-6-72.us-east-2.compute.internal', containers, [running('postgres', img, created - 2, ready=False)], created,
              owner=('StatefulSet', 'acid-minimal-cluster'), labels={**labels, 'statefulset.kubernetes.io/pod-name': 'acid-minimal-cluster-1'}, sa='postgres-pod',
              spec_extra={'volumes': vols, 'hostname': 'acid-minimal-cluster-1', 'subdomain': 'acid-minimal-cluster'})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    p0 = mkpod('acid-minimal-cluster-0', ns_, 'ip-172-31-20-154.us-east-2.compute.internal', containers, [running('postgres', img, 880)], 900, owner=('StatefulSet', 'acid-minimal-cluster'),
               labels={**labels, 'statefulset.kubernetes.io/pod-name': 'acid-minimal-cluster-0', 'spilo-role': 'master'}, sa='postgres-pod', spec_extra={'volumes': vols})
    T = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S,%f')[:-3]
    logs = ['%s - bootstrapping - INFO - Figuring out my environment (Google? AWS? Openstack? Local?)' % T(458),
            '%s - bootstrapping - INFO - Looks like your running aws' % T(456),
            '%s - bootstrapping - INFO - Configuring pgqd' % T(455), '%s - bootstrapping - INFO - Configuring wal-e' % T(455),
            '%s - bootstrapping - INFO - Configuring bootstrap' % T(455), '%s - bootstrapping - INFO - Configuring patroni' % T(455),
            '%s - bootstrapping - INFO - Writing to file /run/postgres.yml' % T(455), '%s - bootstrapping - INFO - Configuring pgbouncer' % T(455),
            '%s - bootstrapping - INFO - No PGBOUNCER_CONFIGURATION was specified, skipping' % T(455),
            '%s INFO: No PostgreSQL configuration items changed, nothing to reload.' % T(452),
            '%s INFO: Lock owner: acid-minimal-cluster-0; I am acid-minimal-cluster-1' % T(451),
            "%s INFO: trying to bootstrap from leader 'acid-minimal-cluster-0'" % T(451)]
    for k in range(440, 0, -60):
        logs += ['%s INFO: Lock owner: acid-minimal-cluster-0; I am acid-minimal-cluster-1' % T(k), "%s INFO: bootstrap from leader 'acid-minimal-cluster-0' in progress" % T(k)]
    nn = 'ip-172-31-6-72.us-east-2.compute.internal'
    evs = [scheduled(p, nn, created - 1), ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=created - 1, host=nn, fieldPath=fp('postgres')),
           ev(p, 'Created', 'Created container postgres', 'Normal', last=created - 1, host=nn, fieldPath=fp('postgres')),
           ev(p, 'Started', 'Started container postgres', 'Normal', last=created - 1, host=nn, fieldPath=fp('postgres')),
           unhealthy(p, nn, 'postgres', 'HTTP probe failed with statuscode: 503', 44, created - 60, 8)]
    pvc_ = claim('pgdata-acid-minimal-cluster-1', ns_, 'gp2', 'Bound', '1Gi', volume='pvc-' + uid('acid1'), provisioner='kubernetes.io/aws-ebs')
    objs = [ns(ns_), n1, n2, ss, p, p0, pvc_, serviceaccount('postgres-pod', ns_), secret('postgres.acid-minimal-cluster.credentials.postgresql.acid.zalan.do', ns_, ['username', 'password']),
            service('acid-minimal-cluster', ns_, {'application': 'spilo', 'cluster-name': 'acid-minimal-cluster', 'spilo-role': 'master'}, ports=((5432, 5432),)),
            endpoints('acid-minimal-cluster', ns_, ready=[(p0['status']['podIP'], 'acid-minimal-cluster-0', 'ip-172-31-20-154.us-east-2.compute.internal')], port=5432)] + evs + \
           [podlog(ns_, 'acid-minimal-cluster-1', 'postgres', logs, previous=False)] + noise([n1, n2], 'v1.24.13')
    case('f2-spilo-replica-readiness-503', 'Postgres-operator replica Running but not Ready: Patroni answers 503 on /readiness while the replica bootstraps from its leader',
         'https://github.com/zalando/postgres-operator/issues/1974', 'Warning  Unhealthy         2m52s (x13 over 6m42s)  kubelet            Readiness probe failed: HTTP probe failed with statuscode: 503',
         'default/acid-minimal-cluster-1', 'readiness.failing', objs, decisive='Readiness probe failed: HTTP probe failed with statuscode: 503', playbook=None)


# =====================================================================================
# 23. job.backoff-limit-exceeded: a manual run of the kube-backup CronJob fails once and the Job gives up
# =====================================================================================
@reg
def kube_backup_job():
    ns_ = 'kube-system'
    n1 = mknode('k8s-w1', kubelet='v1.31.3', runtime='containerd://1.7.24', kernel='6.1.0-28-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('k8s-w2', kubelet='v1.31.3', runtime='containerd://1.7.24', kernel='6.1.0-28-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'quay.io/plange/kube-backup:1.12.0-1'
    c = {'name': 'backup', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'GIT_REPO', 'value': 'git@github.com:acme-ops/cluster-state.git'}, {'name': 'GITCRYPT_ENABLE', 'value': 'true'}, {'name': 'GIT_BRANCH', 'value': 'master'},
                 {'name': 'RESOURCETYPES', 'value': 'ingress deployment configmap secret svc rc ds thirdpartyresource networkpolicy statefulset storageclass cronjob serviceaccounts persistentvolumes persistentvolumeclaims'}],
         'volumeMounts': [{'name': 'cache', 'mountPath': '/backup/'}, {'name': 'sshkey', 'mountPath': '/backup/.ssh'}, {'name': 'gpgkey', 'mountPath': '/secrets'}]}
    vols = [{'name': 'sshkey', 'secret': {'secretName': 'kube-backup-ssh', 'defaultMode': 420}}, {'name': 'gpgkey', 'secret': {'secretName': 'kube-backup-gpg', 'defaultMode': 420}},
            {'name': 'cache', 'emptyDir': {}}]
    containers, vols = with_api([c], vols, 'kube-backup')
    tmpl = {'serviceAccountName': 'kube-backup', 'restartPolicy': 'Never', 'containers': copy.deepcopy(containers), 'volumes': vols}
    cj = obj('CronJob', 'batch/v1', 'kube-state-backup', ns_, 86400 * 2, spec={'schedule': '*/10 * * * *', 'concurrencyPolicy': 'Replace', 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 3,
             'jobTemplate': {'spec': {'backoffLimit': 0, 'template': {'metadata': {'labels': {'app': 'kube-backup'}}, 'spec': copy.deepcopy(tmpl)}}}}, status={})
    jname = 'kube-state-backup-manual-ltt1y'
    job_uid = uid('Job' + ns_ + jname)
    jl = {'app': 'kube-backup', 'batch.kubernetes.io/controller-uid': job_uid, 'batch.kubernetes.io/job-name': jname, 'controller-uid': job_uid, 'job-name': jname}
    job = workload('Job', jname, ns_, {'batch.kubernetes.io/controller-uid': job_uid}, template_spec=copy.deepcopy(tmpl))
    job['metadata'].update({'creationTimestamp': ago(420), 'labels': jl, 'annotations': {'cronjob.kubernetes.io/instantiate': 'manual'}})
    job['spec'].update({'backoffLimit': 0, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False, 'manualSelector': False, 'podReplacementPolicy': 'TerminatingOrFailed'})
    job['spec']['template']['metadata']['labels'] = dict(jl)
    job['status'] = {'startTime': ago(420), 'failed': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
                     'conditions': [{'type': 'FailureTarget', 'status': 'True', 'reason': 'BackoffLimitExceeded', 'message': 'Job has reached the specified backoff limit', 'lastProbeTime': ago(402), 'lastTransitionTime': ago(402)},
                                    {'type': 'Failed', 'status': 'True', 'reason': 'BackoffLimitExceeded', 'message': 'Job has reached the specified backoff limit', 'lastProbeTime': ago(402), 'lastTransitionTime': ago(402)}]}
    pname = jname + '-8kq2n'
    st = {'name': 'backup', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(pname),
          'state': {'terminated': {'exitCode': 128, 'reason': 'Error', 'startedAt': ago(410), 'finishedAt': ago(404), 'containerID': cid(pname)}}}
    p = mkpod(pname, ns_, 'k8s-w2', containers, [st], 419, owner=('Job', jname), labels=dict(jl), phase='Failed', sa='kube-backup', spec_extra={'volumes': vols, 'restartPolicy': 'Never'})
    set_status(p, [st], 419, ready=False, phase='Failed')
    p['status']['conditions'][2]['reason'] = 'PodFailed'; p['status']['conditions'][3]['reason'] = 'PodFailed'; p['status']['conditions'][0]['status'] = 'False'
    logs = ["Cloning into '/backup/git'...", "Warning: Permanently added 'github.com,140.82.121.4' (ED25519) to the list of known hosts.",
            'git@github.com: Permission denied (publickey).', 'fatal: Could not read from remote repository.', '',
            'Please make sure you have the correct access rights', 'and the repository exists.']
    evs = [ctrl_ev(job, 'SuccessfulCreate', 'Created pod: %s' % pname, 'job-controller', last=420),
           ctrl_ev(job, 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', 'job-controller', type_='Warning', last=402),
           scheduled(p, 'k8s-w2', 419)] + started(p, 'k8s-w2', img, 'backup', 416, size=98221304)
    objs = [ns(ns_), n1, n2, cj, job, p, serviceaccount('kube-backup', ns_), secret('kube-backup-ssh', ns_, ['id_rsa', 'known_hosts']), secret('kube-backup-gpg', ns_, ['gpg-private.key'])] + \
           evs + [podlog(ns_, pname, 'backup', logs, previous=False)] + noise([n1, n2], 'v1.31.3')
    case('f2-kube-backup-job-backoff-limit', 'A manual run of the kube-backup CronJob fails at once: the Job reached its backoff limit after its only pod failed',
         'https://github.com/pieterlange/kube-backup/issues/71', 'Job has reached the specified backoff limit',
         '%s/%s' % (ns_, jname), 'job.backoff-limit-exceeded', objs, decisive='Job has reached the specified backoff limit', playbook=None)



# =====================================================================================
# negatives: healthy or recovered pods with the noise their reports asked about
# =====================================================================================

# N1. CoreDNS on k3s logs a warning for every empty import glob of coredns-custom: expected
@reg
def neg_coredns_glob():
    ns_ = 'kube-system'
    kv = 'v1.30.5+k3s1'
    n1 = mknode('homelab-k3s', kubelet=kv, runtime='containerd://1.7.21-k3s2', kernel='6.8.0-45-generic', os_image='Ubuntu 24.04.1 LTS',
                labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
    img = 'rancher/mirrored-coredns-coredns:1.11.3'
    labels = {'k8s-app': 'kube-dns'}
    c = {'name': 'coredns', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['-conf', '/etc/coredns/Corefile'],
         'ports': [{'containerPort': 53, 'name': 'dns', 'protocol': 'UDP'}, {'containerPort': 53, 'name': 'dns-tcp', 'protocol': 'TCP'}, {'containerPort': 9153, 'name': 'metrics', 'protocol': 'TCP'}],
         'livenessProbe': {'httpGet': {'path': '/health', 'port': 8080}, 'initialDelaySeconds': 60, 'periodSeconds': 10},
         'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8181}, 'periodSeconds': 2},
         'resources': {'limits': {'memory': '170Mi'}, 'requests': {'cpu': '100m', 'memory': '70Mi'}},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'add': ['NET_BIND_SERVICE'], 'drop': ['all']}, 'readOnlyRootFilesystem': True},
         'volumeMounts': [{'name': 'config-volume', 'mountPath': '/etc/coredns', 'readOnly': True}, {'name': 'custom-config-volume', 'mountPath': '/etc/coredns/custom', 'readOnly': True}]}
    vols = [{'name': 'config-volume', 'configMap': {'name': 'coredns', 'items': [{'key': 'Corefile', 'path': 'Corefile'}, {'key': 'NodeHosts', 'path': 'NodeHosts'}], 'defaultMode': 420}},
            {'name': 'custom-config-volume', 'configMap': {'name': 'coredns-custom', 'optional': True, 'defaultMode': 420}}]
    containers, vols = with_api([c], vols, 'k3s-coredns')
    d, rs = deploy('coredns', ns_, labels, 1, '7b98449c4', {'serviceAccountName': 'coredns', 'containers': copy.deepcopy(containers), 'volumes': vols, 'priorityClassName': 'system-cluster-critical'},
                   created=86400 * 30, generation=1)
    created = 86400 * 2 + 3000
    p = mkpod('coredns-7b98449c4-bq7xm', ns_, 'homelab-k3s', containers, [running('coredns', img, created - 10)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7b98449c4'}, sa='coredns', spec_extra={'volumes': vols, 'priorityClassName': 'system-cluster-critical', 'dnsPolicy': 'Default'})
    w = ['[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.override', '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.server']
    logs = w + ['.:53'] + w + ['[INFO] plugin/reload: Running configuration SHA512 = b941b080e5322f6519009bb49349462c7ddb6317425b0f6a83e5451175b720703949e3f3b454a24e77f3ffe57fd5e9c6130e528a5a1dd00d9000e4afd6c1108d',
                               'CoreDNS-1.11.3', 'linux/amd64, go1.22.7, a7ed346'] + w * 6
    corefile = ('.:53 {\n    errors\n    health\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n      pods insecure\n      fallthrough in-addr.arpa ip6.arpa\n    }\n'
                '    hosts /etc/coredns/NodeHosts {\n      ttl 60\n      reload 15s\n      fallthrough\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n'
                '    reload\n    loadbalance\n    import /etc/coredns/custom/*.override\n}\nimport /etc/coredns/custom/*.server\n')
    lp_img = 'rancher/local-path-provisioner:v0.0.28'
    lpp = mkpod('local-path-provisioner-6795b5f9d8-7tq2v', ns_, 'homelab-k3s', [{'name': 'local-path-provisioner', 'image': lp_img}], [running('local-path-provisioner', lp_img, 86400 * 2 + 2990)],
                86400 * 2 + 3000, owner=('ReplicaSet', 'local-path-provisioner-6795b5f9d8'), labels={'app': 'local-path-provisioner', 'pod-template-hash': '6795b5f9d8'})
    ms_img = 'rancher/mirrored-metrics-server:v0.7.2'
    ms = mkpod('metrics-server-557ff575fb-9zk4d', ns_, 'homelab-k3s', [{'name': 'metrics-server', 'image': ms_img}], [running('metrics-server', ms_img, 86400 * 2 + 2990)],
               86400 * 2 + 3000, owner=('ReplicaSet', 'metrics-server-557ff575fb'), labels={'k8s-app': 'metrics-server', 'pod-template-hash': '557ff575fb'})
    objs = [ns(ns_), n1, d, rs, p, lpp, ms, serviceaccount('coredns', ns_), configmap('coredns', ns_, {'Corefile': corefile, 'NodeHosts': '192.168.1.50 homelab-k3s\n'})] + \
           [scheduled(p, 'homelab-k3s', created - 1)] + started(p, 'homelab-k3s', img, 'coredns', created - 3, present=True) + [podlog(ns_, p['metadata']['name'], 'coredns', logs, previous=False)]
    case('f2-neg-coredns-empty-import-glob', 'Healthy CoreDNS on k3s that warns about every empty coredns-custom import glob (expected, says k3s)',
         'https://github.com/k3s-io/k3s/issues/4919', '[WARNING] No files matching import glob pattern: /etc/coredns/custom/*.server',
         'kube-system/coredns-7b98449c4-bq7xm', None, objs)


# N2. A CronJob pod that completed, with the kubelet's spurious kube-root-ca.crt "not registered" warning
@reg
def neg_root_ca_not_registered():
    ns_ = 'cluster-backup'
    n1 = mknode('k8s-worker-a', kubelet='v1.22.7', runtime='containerd://1.5.10', kernel='5.10.0-11-amd64', os_image='Debian GNU/Linux 11 (bullseye)')
    n2 = mknode('k8s-worker-b', kubelet='v1.22.7', runtime='containerd://1.5.10', kernel='5.10.0-11-amd64', os_image='Debian GNU/Linux 11 (bullseye)')
    img = 'ghcr.io/kiwix/cluster-backup:latest'
    c = {'name': 'cluster-backup', 'image': img, 'imagePullPolicy': 'Always', 'args': ['backup-all'],
         'env': [{'name': 'S3_URL', 'valueFrom': {'secretKeyRef': {'name': 'backup-credentials', 'key': 'S3_URL'}}}], 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}
    containers, vols = with_api([c], [], 'cluster-backup')
    tmpl = {'restartPolicy': 'OnFailure', 'containers': copy.deepcopy(containers), 'volumes': vols}
    cj = obj('CronJob', 'batch/v1', 'cluster-backup', ns_, 86400 * 40, spec={'schedule': '35 9 * * *', 'concurrencyPolicy': 'Forbid', 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
             'jobTemplate': {'spec': {'backoffLimit': 2, 'template': {'spec': copy.deepcopy(tmpl)}}}}, status={'lastScheduleTime': ago(1500), 'lastSuccessfulTime': ago(1140)})
    jname = 'cluster-backup-29920895'
    juid = uid('Job' + ns_ + jname)
    jl = {'controller-uid': juid, 'job-name': jname}
    job = workload('Job', jname, ns_, {'controller-uid': juid}, template_spec=copy.deepcopy(tmpl))
    job['metadata'].update({'creationTimestamp': ago(1500), 'labels': dict(jl)})
    job['metadata']['ownerReferences'] = [{'apiVersion': 'batch/v1', 'kind': 'CronJob', 'name': 'cluster-backup', 'uid': cj['metadata']['uid'], 'controller': True, 'blockOwnerDeletion': True}]
    job['spec'].update({'backoffLimit': 2, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False})
    job['status'] = {'startTime': ago(1500), 'completionTime': ago(1140), 'succeeded': 1,
                     'conditions': [{'type': 'Complete', 'status': 'True', 'lastProbeTime': ago(1140), 'lastTransitionTime': ago(1140)}]}
    pname = jname + '-tl6xw'
    st = {'name': 'cluster-backup', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(pname),
          'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(1490), 'finishedAt': ago(1142), 'containerID': cid(pname)}}}
    p = mkpod(pname, ns_, 'k8s-worker-b', containers, [st], 1500, owner=('Job', jname), labels=dict(jl), phase='Succeeded', spec_extra={'volumes': vols, 'restartPolicy': 'OnFailure'})
    set_status(p, [st], 1500, ready=False, phase='Succeeded')
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    p['status']['conditions'][1]['reason'] = 'PodCompleted'; p['status']['conditions'][2]['reason'] = 'PodCompleted'
    p['status']['conditions'][0]['reason'] = 'PodCompleted'
    logs = ['[%s] backing up namespace zim (41 objects)' % ts(1400, '%Y-%m-%d %H:%M:%S'), '[%s] backing up namespace mirrorbrain (17 objects)' % ts(1250, '%Y-%m-%d %H:%M:%S'),
            '[%s] uploaded cluster-backup-%s.tar.zst (18.2 MiB)' % (ts(1145, '%Y-%m-%d %H:%M:%S'), ts(1145, '%Y%m%d')), '[%s] done.' % ts(1143, '%Y-%m-%d %H:%M:%S')]
    evs = [ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jname, 'cronjob-controller', last=1500), ctrl_ev(cj, 'SawCompletedJob', 'Saw completed job: %s, status: Complete' % jname, 'cronjob-controller', last=1138),
           ctrl_ev(job, 'SuccessfulCreate', 'Created pod: %s' % pname, 'job-controller', last=1500), ctrl_ev(job, 'Completed', 'Job completed', 'job-controller', last=1140),
           scheduled(p, 'k8s-worker-b', 1499)] + started(p, 'k8s-worker-b', img, 'cluster-backup', 1496, size=48120331) + \
          [ev(p, 'FailedMount', 'MountVolume.SetUp failed for volume "%s" : object "%s"/"kube-root-ca.crt" not registered' % (vols[-1]['name'], ns_), count=2, first=1138, last=1136, host='k8s-worker-b')]
    objs = [ns(ns_), n1, n2, cj, job, p, secret('backup-credentials', ns_, ['S3_URL'])] + evs + [podlog(ns_, pname, 'cluster-backup', logs, previous=False)] + noise([n1, n2], 'v1.22.7', dns_image='k8s.gcr.io/coredns/coredns:v1.8.4')
    case('f2-neg-cronjob-root-ca-not-registered', 'A completed backup CronJob pod with the harmless kube-root-ca.crt "not registered" FailedMount warning after it finished',
         'https://github.com/kiwix/operations/issues/2', 'MountVolume.SetUp failed for volume "kube-api-access-xxxxx" : object "cluster-backup"/"kube-root-ca.crt" not registered',
         '%s/%s' % (ns_, pname), None, objs)


# N3. Redis running for days with its kernel-tuning warnings (somaxconn, overcommit, THP): ignorable
@reg
def neg_redis_warnings():
    ns_ = 'gitlab'
    n1 = mknode('gitlab-node-1', kubelet='v1.29.9', runtime='containerd://1.7.22', kernel='5.15.0-119-generic', os_image='Ubuntu 22.04.4 LTS')
    img = 'sameersbn/redis:4.0.9-3'
    labels = {'name': 'redis'}
    c = {'name': 'redis', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 6379, 'name': 'redis'}],
         'livenessProbe': {'exec': {'command': ['redis-cli', 'ping']}, 'initialDelaySeconds': 30, 'timeoutSeconds': 5},
         'readinessProbe': {'exec': {'command': ['redis-cli', 'ping']}, 'initialDelaySeconds': 5, 'timeoutSeconds': 1},
         'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '256Mi'}}, 'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/redis'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'redis-data'}}], 'gitlab-redis')
    d, rs = deploy('redis', ns_, labels, 1, '5f8c6d9b7', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 60, generation=2)
    created = 86400 * 9
    p = mkpod('redis-5f8c6d9b7-hw2k4', ns_, 'gitlab-node-1', containers, [running('redis', img, created - 15)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5f8c6d9b7'}, spec_extra={'volumes': vols})
    R = lambda s_, role='M': '1:%s %s' % (role, ts(s_, '%d %b %H:%M:%S.%f')[:-3])
    logs = ['Starting redis-server...', R(created - 14, 'C') + ' # oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo',
            R(created - 14, 'C') + ' # Redis version=4.0.9, bits=64, commit=00000000, modified=0, pid=1, just started', R(created - 14, 'C') + ' # Configuration loaded',
            R(created - 14) + ' * Running mode=standalone, port=6379.',
            R(created - 14) + ' # WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.',
            R(created - 14) + ' # Server initialized',
            R(created - 14) + " # WARNING overcommit_memory is set to 0! Background save may fail under low memory condition. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.",
            R(created - 14) + " # WARNING you have Transparent Huge Pages (THP) support enabled in your kernel. This will create latency and memory usage issues with Redis. To fix this issue run the command 'echo never > /sys/kernel/mm/transparent_hugepage/enabled' as root, and add it to your /etc/rc.local in order to retain the setting after a reboot. Redis must be restarted after THP is disabled.",
            R(created - 13) + ' * DB loaded from disk: 0.014 seconds', R(created - 13) + ' * Ready to accept connections']
    for k in (3700, 2000, 320):
        logs += [R(k) + ' * 10 changes in 300 seconds. Saving...', R(k) + ' * Background saving started by pid %d' % (k * 7 % 9000),
                 '%d:C %s * DB saved on disk' % (k * 7 % 9000, ts(k - 1, '%d %b %H:%M:%S.%f')[:-3]),
                 '%d:C %s * RDB: 0 MB of memory used by copy-on-write' % (k * 7 % 9000, ts(k - 1, '%d %b %H:%M:%S.%f')[:-3]), R(k - 1) + ' * Background saving terminated with success']
    objs = [ns(ns_), n1, d, rs, p, claim('redis-data', ns_, 'local-path', 'Bound', '8Gi', volume='pvc-' + uid('gl-redis'), provisioner='rancher.io/local-path', created=86400 * 60),
            service('redis', ns_, labels, ports=((6379, 6379),))] + [podlog(ns_, p['metadata']['name'], 'redis', logs, previous=False)] + noise([n1], 'v1.29.9')
    case('f2-neg-redis-kernel-tuning-warnings', "GitLab's Redis, up for nine days, still printing its somaxconn, overcommit_memory and THP warnings (ignorable, says the maintainer)",
         'https://github.com/sameersbn/docker-redis/issues/7', "WARNING overcommit_memory is set to 0! Background save may fail under low memory condition.",
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N4. Grafana up for days, logging lvl=eror for the provisioning directories it does not have
@reg
def neg_grafana_provisioning():
    ns_ = 'monitoring'
    n1 = mknode('mon-node-1', kubelet='v1.30.6', runtime='containerd://1.7.23', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('mon-node-2', kubelet='v1.30.6', runtime='containerd://1.7.23', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'grafana/grafana:7.2.1'
    labels = {'app': 'grafana'}
    c = {'name': 'grafana', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'env': [{'name': 'GF_SECURITY_ADMIN_USER', 'value': 'admin'},
         {'name': 'GF_SECURITY_ADMIN_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'grafana-admin', 'key': 'password'}}}, {'name': 'GF_USERS_ALLOW_SIGN_UP', 'value': 'false'}],
         'ports': [{'containerPort': 3000, 'name': 'http'}], 'readinessProbe': {'httpGet': {'path': '/api/health', 'port': 3000}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '512Mi'}},
         'volumeMounts': [{'name': 'grafana-data', 'mountPath': '/var/lib/grafana'}, {'name': 'dashboards', 'mountPath': '/etc/grafana/provisioning/dashboards'},
                          {'name': 'datasources', 'mountPath': '/etc/grafana/provisioning/datasources'}]}
    vols = [{'name': 'grafana-data', 'persistentVolumeClaim': {'claimName': 'grafana-data'}}, {'name': 'dashboards', 'configMap': {'name': 'grafana-dashboards'}},
            {'name': 'datasources', 'configMap': {'name': 'grafana-datasources'}}]
    containers, vols = with_api([c], vols, 'grafana')
    d, rs = deploy('grafana', ns_, labels, 1, '6cf8d9b475', {'securityContext': {'fsGroup': 472, 'runAsUser': 472}, 'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 20)
    created = 86400 * 6
    p = mkpod('grafana-6cf8d9b475-zx9rf', ns_, 'mon-node-2', containers, [running('grafana', img, created - 12)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6cf8d9b475'}, spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 472, 'runAsUser': 472}})
    G = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%S+0000')
    logs = ['t=%s lvl=info msg="Starting Grafana" logger=server version=7.2.1 commit=72a6c64532 branch=HEAD compiled=2020-10-08T12:40:59+0000' % G(created - 11),
            't=%s lvl=info msg="Connecting to DB" logger=sqlstore dbtype=sqlite3' % G(created - 11),
            't=%s lvl=info msg="Starting DB migration" logger=migrator' % G(created - 11),
            't=%s lvl=info msg="inserting datasource from configuration " logger=provisioning.datasources name=Prometheus uid=' % G(created - 9),
            't=%s lvl=eror msg="Failed to read plugin provisioning files from directory" logger=provisioning.plugins path=/etc/grafana/provisioning/plugins error="open /etc/grafana/provisioning/plugins: no such file or directory"' % G(created - 9),
            't=%s lvl=eror msg="Can\'t read alert notification provisioning files from directory" logger=provisioning.notifiers path=/etc/grafana/provisioning/notifiers error="open /etc/grafana/provisioning/notifiers: no such file or directory"' % G(created - 9),
            't=%s lvl=info msg="HTTP Server Listen" logger=http.server address=[::]:3000 protocol=http subUrl= socket=' % G(created - 9),
            't=%s lvl=info msg="Request Completed" logger=context userId=1 orgId=1 uname=admin method=GET path=/api/live/ws status=0 remote_addr=10.244.1.1 time_ms=1 size=0 referer=' % G(86400 * 2),
            't=%s lvl=info msg="Successful Login" logger=http.server User=admin@localhost' % G(4000)]
    objs = [ns(ns_), n1, n2, d, rs, p, secret('grafana-admin', ns_, ['password']), configmap('grafana-dashboards', ns_, {'dashboards.yml': 'apiVersion: 1\nproviders: []\n'}),
            configmap('grafana-datasources', ns_, {'datasource.yml': 'apiVersion: 1\ndatasources:\n- name: Prometheus\n  type: prometheus\n  url: http://prometheus:9090\n'}),
            claim('grafana-data', ns_, 'standard', 'Bound', '5Gi', volume='pvc-' + uid('graf'), provisioner='rancher.io/local-path', created=86400 * 20)] + \
           [podlog(ns_, p['metadata']['name'], 'grafana', logs, previous=False)] + noise([n1, n2], 'v1.30.6')
    case('f2-neg-grafana-missing-provisioning-dirs', 'Grafana serving normally while it logs lvl=eror for the plugins and notifiers provisioning directories it was not given',
         'https://github.com/stefanprodan/dockprom/issues/199',
         'lvl=eror msg="Failed to read plugin provisioning files from directory" logger=provisioning.plugins path=/etc/grafana/provisioning/plugins error="open /etc/grafana/provisioning/plugins: no such file or directory"',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)



# N5. NetBox Ready for 40 minutes; its only warnings are readiness timeouts from the first minute
@reg
def neg_netbox_startup_timeouts():
    ns_ = 'netbox'
    n1 = mknode('infra-1', kubelet='v1.31.2', runtime='containerd://1.7.23', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    n2 = mknode('infra-2', kubelet='v1.31.2', runtime='containerd://1.7.23', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'docker.io/netboxcommunity/netbox:v3.3.2'
    labels = {'app.kubernetes.io/name': 'netbox', 'app.kubernetes.io/instance': 'netbox', 'app.kubernetes.io/component': 'netbox'}
    c = {'name': 'netbox', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8080, 'name': 'http'}],
         'env': [{'name': 'SUPERUSER_NAME', 'value': 'admin'}, {'name': 'DB_WAIT_DEBUG', 'value': '1'}],
         'readinessProbe': {'httpGet': {'path': '/login/', 'port': 'http'}, 'periodSeconds': 10, 'timeoutSeconds': 1, 'failureThreshold': 3},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
         'volumeMounts': [{'name': 'config', 'mountPath': '/etc/netbox/config/configuration.py', 'subPath': 'configuration.py', 'readOnly': True}, {'name': 'media', 'mountPath': '/opt/netbox/netbox/media'}]}
    init = [{'name': 'init-dirs', 'image': 'busybox:1.36.1', 'command': ['/bin/sh', '-c', 'mkdir -p /opt/unit/state /opt/unit/tmp'], 'volumeMounts': [{'name': 'optunit', 'mountPath': '/opt/unit'}]}]
    vols = [{'name': 'config', 'configMap': {'name': 'netbox'}}, {'name': 'media', 'persistentVolumeClaim': {'claimName': 'netbox-media'}}, {'name': 'optunit', 'emptyDir': {'medium': 'Memory'}}]
    containers, vols = with_api([c], vols, 'netbox')
    d, rs = deploy('netbox', ns_, labels, 1, '6b8f9c7d5', {'serviceAccountName': 'netbox', 'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols},
                   created=86400 * 90, generation=12)
    created = 2420
    init_st = [{'name': 'init-dirs', 'ready': True, 'started': False, 'restartCount': 0, 'image': 'busybox:1.36.1', 'imageID': imgid('busybox:1.36.1'), 'containerID': cid('netbox-init'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 3), 'finishedAt': ago(created - 3), 'containerID': cid('netbox-init')}}}]
    p = mkpod('netbox-6b8f9c7d5-m8wq2', ns_, 'infra-1', containers, [running('netbox', img, created - 5)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6b8f9c7d5'}, sa='netbox', spec_extra={'volumes': vols}, init=init, init_statuses=init_st)
    set_status(p, p['status']['containerStatuses'], created, since=created - 75)
    ip = p['status']['podIP']
    logs = ['⏳ Waiting on DB... (0s / 30s)', '⏳ Waiting on DB... (3s / 30s)', 'Operations to perform:', '  Apply all migrations: admin, auth, circuits, contenttypes, dcim, extras, ipam, sessions, taggit, tenancy, users, virtualization, wireless',
            'Running migrations:', '  No migrations to apply.', '🧬 loaded config \'/etc/unit/nginx-unit.json\'', '🧬 Looks like unit is not running yet, wait for it to start up ...',
            '✅ Initialisation is done.', '%s [info] 7#7 unit 1.28.0 started' % ts(created - 70, '%Y/%m/%d %H:%M:%S'),
            '10.244.0.1 - - [%s] "GET /login/ HTTP/1.1" 200 5231 "-" "kube-probe/1.31"' % ts(created - 72, '%d/%b/%Y:%H:%M:%S +0000'),
            '10.244.0.1 - - [%s] "GET /login/ HTTP/1.1" 200 5231 "-" "kube-probe/1.31"' % ts(12, '%d/%b/%Y:%H:%M:%S +0000'),
            '10.244.0.1 - - [%s] "GET /login/ HTTP/1.1" 200 5231 "-" "kube-probe/1.31"' % ts(2, '%d/%b/%Y:%H:%M:%S +0000')]
    evs = [scheduled(p, 'infra-1', created - 1)] + started(p, 'infra-1', 'busybox:1.36.1', 'init-dirs', created - 2, present=True, init=True) + \
          started(p, 'infra-1', img, 'netbox', created - 4, present=True) + \
          [unhealthy(p, 'infra-1', 'netbox', 'Get "http://%s:8080/login/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' % ip, 6, created - 20, created - 70)]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('netbox', ns_), configmap('netbox', ns_, {'configuration.py': "ALLOWED_HOSTS = ['*']\n"}),
            claim('netbox-media', ns_, 'longhorn', 'Bound', '1Gi', volume='pvc-' + uid('netbox-media'), provisioner='driver.longhorn.io', created=86400 * 90)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'netbox', logs, previous=False)] + noise([n1, n2], 'v1.31.2')
    case('f2-neg-netbox-startup-readiness-timeouts', 'NetBox Ready for 40 minutes; the only warnings are readiness timeouts from its first minute (a leftover of the init phase)',
         'https://github.com/netbox-community/netbox-chart/issues/113',
         'Readiness probe failed: Get "http://p.o.d.ip:8080/login/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N6. MongoDB (community operator) healthy, with its startupWarnings: XFS, THP, vm.max_map_count
@reg
def neg_mongodb_startup_warnings():
    ns_ = 'mongodb'
    kv = 'v1.27.3+k3s1'
    n1 = mknode('k3s-db-1', kubelet=kv, runtime='containerd://1.7.1-k3s1', kernel='5.15.0-76-generic', os_image='Ubuntu 22.04.2 LTS')
    n2 = mknode('k3s-db-2', kubelet=kv, runtime='containerd://1.7.1-k3s1', kernel='5.15.0-76-generic', os_image='Ubuntu 22.04.2 LTS')
    mimg, aimg = 'docker.io/mongo:6.0.5', 'quay.io/mongodb/mongodb-agent:12.0.21.7698-1'
    labels = {'app': 'mongodb-svc'}
    mongod = {'name': 'mongod', 'image': mimg, 'command': ['/bin/sh', '-c', 'exec mongod -f /data/automation-mongod.conf'],
              'resources': {'limits': {'cpu': '1', 'memory': '500M'}, 'requests': {'cpu': '500m', 'memory': '400M'}},
              'securityContext': {'allowPrivilegeEscalation': False, 'readOnlyRootFilesystem': True},
              'volumeMounts': [{'name': 'data-volume', 'mountPath': '/data'}, {'name': 'logs-volume', 'mountPath': '/var/log/mongodb-mms-automation'}, {'name': 'tmp', 'mountPath': '/tmp'}]}
    agent = {'name': 'mongodb-agent', 'image': aimg, 'command': ['/bin/bash', '-c', 'agent/mongodb-agent -healthCheckFilePath=/var/log/mongodb-mms-automation/healthstatus/agent-health-status.json -serveStatusPort=5000 -cluster=/var/lib/automation/config/cluster-config.json -skipMongoStart -noDaemonize'],
             'readinessProbe': {'exec': {'command': ['/opt/scripts/readinessprobe']}, 'initialDelaySeconds': 5, 'periodSeconds': 10, 'failureThreshold': 40},
             'resources': {'limits': {'cpu': '1', 'memory': '500M'}, 'requests': {'cpu': '500m', 'memory': '400M'}},
             'volumeMounts': [{'name': 'data-volume', 'mountPath': '/data'}, {'name': 'logs-volume', 'mountPath': '/var/log/mongodb-mms-automation'}]}
    vols = [{'name': 'data-volume', 'persistentVolumeClaim': {'claimName': 'data-volume-mongodb-0'}}, {'name': 'logs-volume', 'persistentVolumeClaim': {'claimName': 'logs-volume-mongodb-0'}},
            {'name': 'tmp', 'emptyDir': {}}]
    containers, vols = with_api([mongod, agent], vols, 'mongo0')
    ss = sts('mongodb', ns_, labels, 3, {'serviceAccountName': 'mongodb-database', 'securityContext': {'fsGroup': 2000, 'runAsUser': 2000, 'runAsNonRoot': True},
                                         'containers': copy.deepcopy(containers), 'volumes': vols}, ready=3, created=86400 * 80, service='mongodb-svc')
    created = 86400 * 10
    p = mkpod('mongodb-0', ns_, 'k3s-db-1', containers, [running('mongod', mimg, created - 30), running('mongodb-agent', aimg, created - 30)], created, owner=('StatefulSet', 'mongodb'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'mongodb-0'}, sa='mongodb-database',
              spec_extra={'volumes': vols, 'hostname': 'mongodb-0', 'subdomain': 'mongodb-svc', 'securityContext': {'fsGroup': 2000, 'runAsUser': 2000, 'runAsNonRoot': True}})
    J = lambda s_, sev, comp, id_, ctx, msg, extra='': '{"t":{"$date":"%s"},"s":"%s",  "c":"%s", "id":%d, "ctx":"%s","msg":"%s"%s}' % (
        ts(s_, '%Y-%m-%dT%H:%M:%S.%f')[:-3] + '+00:00', sev, comp, id_, ctx, msg, extra)
    sw = ',"tags":["startupWarnings"]'
    logs = [J(created - 28, 'I', 'CONTROL', 23285, 'main', "Automatically disabling TLS 1.0, to force-enable TLS 1.0 specify --sslDisabledProtocols 'none'"),
            J(created - 28, 'I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting', ',"attr":{"pid":1,"port":27017,"dbPath":"/data","architecture":"64-bit","host":"mongodb-0"}'),
            J(created - 27, 'W', 'STORAGE', 22297, 'initandlisten', 'Using the XFS filesystem is strongly recommended with the WiredTiger storage engine. See http://dochub.mongodb.org/core/prodnotes-filesystem', sw),
            J(created - 25, 'W', 'CONTROL', 22178, 'initandlisten', "/sys/kernel/mm/transparent_hugepage/enabled is 'always'. We suggest setting it to 'never'", sw),
            J(created - 25, 'W', 'CONTROL', 5123300, 'initandlisten', 'vm.max_map_count is too low', ',"attr":{"currentValue":65530,"recommendedMinimum":1677720,"maxConns":838860}' + sw),
            J(created - 24, 'I', 'NETWORK', 23016, 'listener', 'Waiting for connections', ',"attr":{"port":27017,"ssl":"off"}'),
            J(created - 20, 'I', 'REPL', 21358, 'ReplCoord-0', 'Replica set state transition', ',"attr":{"newState":"SECONDARY","oldState":"STARTUP2"}'),
            J(3600, 'I', 'NETWORK', 22943, 'listener', 'Connection accepted', ',"attr":{"remote":"10.42.1.17:51824","connectionId":18213,"connectionCount":23}'),
            J(60, 'I', 'NETWORK', 51800, 'conn18213', 'client metadata', ',"attr":{"remote":"10.42.1.17:51824","client":"conn18213","doc":{"driver":{"name":"nodejs","version":"5.6.0"}}}')]
    cls = [claim('data-volume-mongodb-0', ns_, 'local-path', 'Bound', '10G', volume='pvc-' + uid('mdata0'), provisioner='rancher.io/local-path', created=86400 * 80),
           claim('logs-volume-mongodb-0', ns_, 'local-path', 'Bound', '2G', volume='pvc-' + uid('mlogs0'), provisioner='rancher.io/local-path', created=86400 * 80)]
    objs = [ns(ns_), n1, n2, ss, p, serviceaccount('mongodb-database', ns_)] + cls + [podlog(ns_, 'mongodb-0', 'mongod', logs, previous=False)] + \
           noise([n1, n2], proxy=False, dns_image='rancher/mirrored-coredns-coredns:1.10.1')
    case('f2-neg-mongodb-startup-warnings', 'MongoDB replica member healthy for ten days; its log carries the usual startupWarnings (XFS, THP, vm.max_map_count)',
         'https://github.com/mongodb/mongodb-kubernetes-operator/issues/1400', 'vm.max_map_count is too low', 'mongodb/mongodb-0', None, objs)



# N7. A Spring Boot service with the OpenTelemetry Java agent: the JVM's class-data-sharing warning is noise
@reg
def neg_otel_javaagent_cds():
    ns_ = 'payments'
    n1 = mknode('prod-apps-a-4c2k', kubelet='v1.30.6', runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('prod-apps-b-9m1x', kubelet='v1.30.6', runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img, agent_img = 'ghcr.io/acme/ledger-api:1.42.0', 'ghcr.io/open-telemetry/opentelemetry-operator/autoinstrumentation-java:1.3.1'
    labels = {'app': 'ledger-api'}
    init = [{'name': 'opentelemetry-auto-instrumentation', 'image': agent_img, 'command': ['cp', '/javaagent.jar', '/otel-auto-instrumentation/javaagent.jar'],
             'volumeMounts': [{'name': 'opentelemetry-auto-instrumentation', 'mountPath': '/otel-auto-instrumentation'}]}]
    c = {'name': 'ledger-api', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
         'env': [{'name': 'JAVA_TOOL_OPTIONS', 'value': ' -javaagent:/otel-auto-instrumentation/javaagent.jar'}, {'name': 'OTEL_SERVICE_NAME', 'value': 'ledger-api'},
                 {'name': 'OTEL_EXPORTER_OTLP_ENDPOINT', 'value': 'http://otel-collector.observability:4317'}, {'name': 'SPRING_PROFILES_ACTIVE', 'value': 'prod'}],
         'readinessProbe': {'httpGet': {'path': '/actuator/health/readiness', 'port': 8080}, 'initialDelaySeconds': 20, 'periodSeconds': 10},
         'livenessProbe': {'httpGet': {'path': '/actuator/health/liveness', 'port': 8080}, 'initialDelaySeconds': 60, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '500m', 'memory': '768Mi'}, 'limits': {'memory': '1Gi'}},
         'volumeMounts': [{'name': 'opentelemetry-auto-instrumentation', 'mountPath': '/otel-auto-instrumentation'}]}
    containers, vols = with_api([c], [{'name': 'opentelemetry-auto-instrumentation', 'emptyDir': {}}], 'ledger')
    init[0]['volumeMounts'].append(dict(containers[0]['volumeMounts'][-1]))
    d, rs = deploy('ledger-api', ns_, labels, 2, '84d6b7f9c5', {'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 15, generation=6)
    created = 86400 * 2 + 5000
    init_st = [{'name': 'opentelemetry-auto-instrumentation', 'ready': True, 'started': False, 'restartCount': 0, 'image': agent_img, 'imageID': imgid(agent_img), 'containerID': cid('otel-init'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 6), 'finishedAt': ago(created - 6), 'containerID': cid('otel-init')}}}]
    p = mkpod('ledger-api-84d6b7f9c5-w6tzn', ns_, 'prod-apps-b-9m1x', containers, [running('ledger-api', img, created - 8)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '84d6b7f9c5'}, spec_extra={'volumes': vols}, init=init, init_statuses=init_st)
    p['metadata']['annotations'] = {'instrumentation.opentelemetry.io/inject-java': 'true'}
    set_status(p, p['status']['containerStatuses'], created, since=created - 40)
    warn = 'OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes because bootstrap classpath has been appended'
    logs = ['Picked up JAVA_TOOL_OPTIONS:  -javaagent:/otel-auto-instrumentation/javaagent.jar',
            '[otel.javaagent %s] [main] INFO io.opentelemetry.javaagent.tooling.VersionLogger - opentelemetry-javaagent - version: 1.3.1' % ts(created - 8, '%Y-%m-%d %H:%M:%S:%f')[:-3] + ' +0000',
            warn, warn, warn,
            '', '  .   ____          _            __ _ _', ' /\\\\ / ___\'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\', '  :: Spring Boot ::                (v2.5.2)', '',
            '%s  INFO 1 --- [           main] c.a.ledger.LedgerApplication             : Starting LedgerApplication v1.42.0 using Java 11.0.11 with PID 1 (/app/app.jar started by app in /app)' % ts(created - 5, '%Y-%m-%d %H:%M:%S.%f')[:-3],
            '%s  INFO 1 --- [           main] c.a.ledger.LedgerApplication             : The following profiles are active: prod' % ts(created - 5, '%Y-%m-%d %H:%M:%S.%f')[:-3],
            '%s  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat started on port(s): 8080 (http) with context path \'\'' % ts(created - 25, '%Y-%m-%d %H:%M:%S.%f')[:-3],
            '%s  INFO 1 --- [           main] c.a.ledger.LedgerApplication             : Started LedgerApplication in 19.84 seconds (JVM running for 23.112)' % ts(created - 26, '%Y-%m-%d %H:%M:%S.%f')[:-3],
            '%s  INFO 1 --- [nio-8080-exec-4] c.a.ledger.api.PostingController         : posted batch 7f3c91 (218 entries)' % ts(90, '%Y-%m-%d %H:%M:%S.%f')[:-3]]
    objs = [ns(ns_), n1, n2, d, rs, p] + [podlog(ns_, p['metadata']['name'], 'ledger-api', logs, previous=False)] + noise([n1, n2], 'v1.30.6')
    case('f2-neg-otel-javaagent-cds-warning', 'A Java service running fine with the OpenTelemetry agent; the JVM prints its class-data-sharing warning at every start (unrelated, say the maintainers)',
         'https://github.com/open-telemetry/opentelemetry-java-instrumentation/issues/3658', warn, '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N8. A PGO v5 instance Ready again after a transient readiness 503 from Patroni 49 minutes ago
@reg
def neg_crunchy_transient_503():
    ns_ = 'postgres-operator'
    n1 = mknode('db-node-1', kubelet='v1.21.4', runtime='containerd://1.4.9', kernel='4.18.0-305.19.1.el8_4.x86_64', os_image='CentOS Linux 8')
    n2 = mknode('db-node-2', kubelet='v1.21.4', runtime='containerd://1.4.9', kernel='4.18.0-305.19.1.el8_4.x86_64', os_image='CentOS Linux 8')
    img, cimg = 'registry.developers.crunchydata.com/crunchydata/crunchy-postgres-ha:centos8-13.4-0', 'registry.developers.crunchydata.com/crunchydata/crunchy-postgres-ha:centos8-13.4-0'
    labels = {'postgres-operator.crunchydata.com/cluster': 'stars', 'postgres-operator.crunchydata.com/instance-set': 'instance3', 'postgres-operator.crunchydata.com/instance': 'stars-instance3-57ss'}
    db = {'name': 'database', 'image': img, 'command': ['patroni', '/etc/patroni'], 'ports': [{'containerPort': 5432, 'name': 'postgres'}],
          'readinessProbe': {'httpGet': {'path': '/readiness', 'port': 8008, 'scheme': 'HTTPS'}, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 3},
          'livenessProbe': {'httpGet': {'path': '/liveness', 'port': 8008, 'scheme': 'HTTPS'}, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 3},
          'securityContext': {'allowPrivilegeEscalation': False, 'privileged': False, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True},
          'volumeMounts': [{'name': 'postgres-data', 'mountPath': '/pgdata'}, {'name': 'tmp', 'mountPath': '/tmp'}]}
    cp = {'name': 'replication-cert-copy', 'image': cimg, 'command': ['bash', '-ceu', '--', 'monitor() { while read -r -t 5 -u "${fd}" || true; do sleep 10; done; }; monitor'],
          'securityContext': {'allowPrivilegeEscalation': False, 'privileged': False, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True}}
    containers, vols = with_api([db, cp], [{'name': 'postgres-data', 'persistentVolumeClaim': {'claimName': 'stars-instance3-57ss-pgdata'}}, {'name': 'tmp', 'emptyDir': {'sizeLimit': '16Mi'}}], 'stars3')
    ss = sts('stars-instance3-57ss', ns_, labels, 1, {'serviceAccountName': 'stars-instance', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, created=86400 * 4)
    created = 86400 * 4 - 200
    p = mkpod('stars-instance3-57ss-0', ns_, 'db-node-2', containers, [running('database', img, created - 10), running('replication-cert-copy', cimg, created - 10)], created,
              owner=('StatefulSet', 'stars-instance3-57ss'), labels={**labels, 'statefulset.kubernetes.io/pod-name': 'stars-instance3-57ss-0', 'postgres-operator.crunchydata.com/role': 'master'},
              sa='stars-instance', spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 26, 'runAsNonRoot': True}})
    set_status(p, p['status']['containerStatuses'], created, since=2900)
    P = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S,%f')[:-3]
    logs = ['%s INFO: no action. I am (stars-instance3-57ss-0), the leader with the lock' % P(3000),
            '%s ERROR: Request to server https://10.96.0.1:443 failed: ReadTimeoutError("HTTPSConnectionPool(host=\'10.96.0.1\', port=443): Read timed out. (read timeout=4.999...)")' % P(2975),
            '%s INFO: no action. I am (stars-instance3-57ss-0), the leader with the lock' % P(2930),
            '%s INFO: no action. I am (stars-instance3-57ss-0), the leader with the lock' % P(600),
            '%s INFO: no action. I am (stars-instance3-57ss-0), the leader with the lock' % P(10)]
    evs = [unhealthy(p, 'db-node-2', 'database', 'HTTP probe failed with statuscode: 503', 4, 2950, 2940)]
    objs = [ns(ns_), n1, n2, ss, p, serviceaccount('stars-instance', ns_),
            claim('stars-instance3-57ss-pgdata', ns_, 'standard', 'Bound', '1Gi', volume='pvc-' + uid('stars3'), provisioner='rancher.io/local-path', created=86400 * 4)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'database', logs, previous=False)] + noise([n1, n2], 'v1.21.4', dns_image='k8s.gcr.io/coredns/coredns:v1.8.0')
    case('f2-neg-pgo-transient-readiness-503', 'Postgres instance Ready and serving; four readiness 503s from Patroni 49 minutes ago, when the API server answered slowly (transient)',
         'https://github.com/CrunchyData/postgres-operator/issues/2736', 'Warning  Unhealthy  49m (x4 over 49m)  kubelet            Readiness probe failed: HTTP probe failed with statuscode: 503',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N9. A static site pod that restarted once, two days ago, when its node ran out of disk; fine since
@reg
def neg_old_restart_disk_full():
    ns_ = 'default'
    n1 = mknode('web-node-2', kubelet='v1.30.6', runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    for cnd in n1['status']['conditions']:
        if cnd['type'] == 'DiskPressure': cnd['lastTransitionTime'] = ago(86400 * 2 - 2400)
    img = 'localhost:5000/static:v1'
    labels = {'app': 'static'}
    c = {'name': 'static', 'image': img, 'ports': [{'containerPort': 80, 'name': 'http'}], 'resources': {'requests': {'cpu': '100m'}},
         'readinessProbe': {'httpGet': {'path': '/', 'port': 80}, 'periodSeconds': 10}}
    containers, vols = with_api([c], [], 'static')
    d, rs = deploy('static', ns_, labels, 1, '7c4f8d6b59', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 40)
    created = 86400 * 40
    last = term(2, 'Error', 86400 * 40 - 15, 86400 * 2 + 1800, seed='static-0')
    p = mkpod('static-7c4f8d6b59-xw2mp', ns_, 'web-node-2', containers, [running('static', img, 86400 * 2 - 2500, restarts=1, last=last)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7c4f8d6b59'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, since=86400 * 2 - 2510)
    logs = ['/docker-entrypoint.sh: Configuration complete; ready for start up',
            '%s [notice] 1#1: nginx/1.25.3' % ts(86400 * 2 - 2499, '%Y/%m/%d %H:%M:%S'), '%s [notice] 1#1: start worker processes' % ts(86400 * 2 - 2499, '%Y/%m/%d %H:%M:%S'),
            '10.244.1.1 - - [%s] "GET / HTTP/1.1" 200 4412 "-" "kube-probe/1.30" "-"' % ts(8, '%d/%b/%Y:%H:%M:%S +0000')]
    prev = ['%s [crit] 29#29: *918221 pwrite() "/var/cache/nginx/client_temp/0000118233" failed (28: No space left on device), client: 10.244.1.9, server: localhost, request: "POST /contact HTTP/1.1", host: "static.acme.test"' % ts(86400 * 2 + 1900, '%Y/%m/%d %H:%M:%S'),
            '%s [alert] 1#1: worker process 29 exited on signal 2' % ts(86400 * 2 + 1801, '%Y/%m/%d %H:%M:%S')]
    objs = [ns(ns_), n1, d, rs, p] + [podlog(ns_, p['metadata']['name'], 'static', logs, previous=False), podlog(ns_, p['metadata']['name'], 'static', prev)] + noise([n1], 'v1.30.6')
    case('f2-neg-old-restart-node-disk-full', 'Static site Ready for two days after its single restart, when the node briefly ran out of disk; nothing is wrong now',
         'https://github.com/kubernetes/kubernetes/issues/68286', 'Last State:     Terminated\n      Reason:       Error\n      Exit Code:    2',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


if __name__ == '__main__':
    for f in CASES2:
        f()
    print('wrote %d cases' % len(CASES2))
