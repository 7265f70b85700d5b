# Evaluation corpus, FRESH5 split, author b (slug prefix f5b-): public incidents written by a blind
# author who read only issue 32, the case schema, the authoring helpers and the rule list (ids and
# titles), never the rules, their tests or the other fresh3+/mechanism generators.
# Sixteen cases: six classes no rule names (expect.first: any, mechanism terms from each report's
# resolution), six named classes in shapes not seen before, four healthy pods with noise.
# Sources: public repositories whose owner starts with n-z. The expectation of every case was decided
# from its report before the dump was written and is never changed to change a verdict.
# Run: python3 eval/gen/fresh5b.py (writes eval/corpus/f5b-*/)
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, conds, deploy, ...)
from fresh import _strings
from fresh2 import set_status, with_api, noise, sts, unhealthy, crio
from blind import make_case

SPLIT = 'fresh5'
PREFIX = 'f5b-'


case = make_case(PREFIX, SPLIT)


CASES5B = []
def reg(f):
    CASES5B.append(f)
    return f


def arm64(n):
    n['metadata']['labels'].update({'kubernetes.io/arch': 'arm64', 'beta.kubernetes.io/arch': 'arm64'})
    n['status']['nodeInfo']['architecture'] = 'arm64'
    return n


GO = lambda s: ts(s, '%Y/%m/%d %H:%M:%S')


# =====================================================================================
# M1. mechanism: s3fs (FUSE) in an unprivileged container: no /dev/fuse, no CAP_SYS_ADMIN
# =====================================================================================
@reg
def s3fs_fuse_device():
    ns_ = 'data-sync'
    n1 = mknode('worker-pool-a-7k2fd', kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS')
    n2 = mknode('worker-pool-a-q9x4m', kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS')
    img = 'registry.acme.io/platform/s3-mirror:1.93-2'
    labels = {'app': 's3-mirror'}
    c = {'name': 's3fs', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'command': ['s3fs', 'archive-bucket', '/mnt/archive', '-f', '-o', 'url=https://s3.us-south.cloud-object-storage.appdomain.cloud', '-o', 'passwd_file=/etc/s3fs/passwd-s3fs',
                     '-o', 'ibm_iam_auth', '-o', 'dbglevel=info', '-o', 'allow_other'],
         'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '512Mi'}},
         'securityContext': {'allowPrivilegeEscalation': False},
         'volumeMounts': [{'name': 's3fs-passwd', 'mountPath': '/etc/s3fs', 'readOnly': True}, {'name': 'archive', 'mountPath': '/mnt/archive'}]}
    rsync = {'name': 'uploader', 'image': 'registry.acme.io/platform/uploader:4.1.0', 'command': ['/bin/uploader', '--watch', '/mnt/archive'],
             'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}, 'volumeMounts': [{'name': 'archive', 'mountPath': '/mnt/archive'}]}
    containers, vols = with_api([c, rsync], [{'name': 's3fs-passwd', 'secret': {'secretName': 's3fs-passwd', 'defaultMode': 384}}, {'name': 'archive', 'emptyDir': {}}], 's3mirror')
    d, rs = deploy('s3-mirror', ns_, labels, 1, '69b8d7c4f5', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 2, generation=2)
    created = 1900
    node = n1['metadata']['name']
    p = mkpod('s3-mirror-69b8d7c4f5-tq8wz', ns_, node, containers, [running('s3fs', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '69b8d7c4f5'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 's3fs', img, 8, term(1, 'Error', 322, 321, seed='s3fs-8')), running('uploader', rsync['image'], created - 12)], created)
    logs = ['[CRT] s3fs_logger.cpp:LowSetLogLevel(240): change debug level from [CRT] to [INF] ',
            '[INF]     s3fs.cpp:set_mountpoint_attribute(4088): PROC(uid=0, gid=0) - MountPoint(uid=0, gid=0, mode=40755)',
            "fuse: device not found, try 'modprobe fuse' first"]
    up_logs = ['%s watching /mnt/archive (inotify)' % GO(created - 12), '%s /mnt/archive is not a mount point yet, retrying in 30s' % GO(40)]
    evs = [scheduled(p, node, created - 1)] + started(p, node, img, 's3fs', created - 5, size=61223901) + started(p, node, rsync['image'], 'uploader', created - 9, size=14229331) + \
          restarted(p, node, img, 's3fs', 8, created - 60, 322) + [backoff(p, node, 's3fs', 37, created - 100, 14)]
    objs = [ns(ns_), n1, n2, d, rs, p, secret('s3fs-passwd', ns_, ['passwd-s3fs'])] + evs + \
           [podlog(ns_, p['metadata']['name'], 's3fs', logs), podlog(ns_, p['metadata']['name'], 'uploader', up_logs, previous=False)] + noise([n1, n2], 'v1.29.10')
    case('f5b-s3fs-fuse-device-not-found', 's3fs mounts a bucket inside an unprivileged container: no /dev/fuse and no CAP_SYS_ADMIN, so the mount fails at start',
         'https://github.com/s3fs-fuse/s3fs-fuse/issues/1314', "fuse: device not found, try 'modprobe fuse' first", '%s/%s' % (ns_, p['metadata']['name']), 'any', objs,
         decisive="fuse: device not found, try 'modprobe fuse' first", playbook=None,
         terms=[['/dev/fuse', 'fuse device', 'FUSE device'], ['privileged', 'SYS_ADMIN']])


# =====================================================================================
# M2. mechanism: postgres initdb dies with SIGBUS: the node has huge pages, the pod has no hugepages limit
# =====================================================================================
@reg
def kubegres_initdb_bus_error():
    ns_ = 'default'
    kw = dict(kubelet='v1.28.14', runtime='containerd://1.7.20', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n1, n2 = mknode('k8s-amd64-w1', **kw), mknode('k8s-amd64-w2', **kw)
    n3 = arm64(mknode('k8s-arm64-w1', kubelet='v1.28.14', runtime='containerd://1.7.20', kernel='6.1.0-26-arm64', os_image='Debian GNU/Linux 12 (bookworm)'))
    for n in (n1, n2):
        n['status']['capacity']['hugepages-2Mi'] = '2Gi'
        n['status']['allocatable']['hugepages-2Mi'] = '2Gi'
        n['status']['allocatable']['memory'] = '29Gi'
    img = 'postgres:14.5'
    labels = {'app': 'mypostgres', 'index': '1'}
    c = {'name': 'mypostgres-1', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['-c', 'config_file=/etc/postgres.conf', '-c', 'hba_file=/etc/pg_hba.conf'],
         'env': [{'name': 'POD_IP', 'valueFrom': {'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'status.podIP'}}},
                 {'name': 'PGDATA', 'value': '/var/lib/postgresql/data/pgdata'},
                 {'name': 'POSTGRES_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'mypostgres-secret', 'key': 'superUserPassword'}}},
                 {'name': 'POSTGRES_REPLICATION_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'mypostgres-secret', 'key': 'replicationUserPassword'}}}],
         'ports': [{'containerPort': 5432, 'name': 'postgres', 'protocol': 'TCP'}],
         'livenessProbe': {'exec': {'command': ['sh', '-c', 'exec pg_isready -U postgres -h $POD_IP']}, 'failureThreshold': 10, 'initialDelaySeconds': 60, 'periodSeconds': 20, 'timeoutSeconds': 15},
         'readinessProbe': {'exec': {'command': ['sh', '-c', 'exec pg_isready -U postgres -h $POD_IP']}, 'failureThreshold': 3, 'initialDelaySeconds': 5, 'periodSeconds': 5, 'timeoutSeconds': 3},
         'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}},
         'volumeMounts': [{'name': 'postgres-db', 'mountPath': '/var/lib/postgresql/data'}, {'name': 'postgres-config', 'mountPath': '/docker-entrypoint-initdb.d/primary_create_replication_role.sh', 'subPath': 'primary_create_replication_role.sh'},
                          {'name': 'postgres-config', 'mountPath': '/etc/postgres.conf', 'subPath': 'postgres.conf'}, {'name': 'postgres-config', 'mountPath': '/etc/pg_hba.conf', 'subPath': 'pg_hba.conf'}]}
    containers, vols = with_api([c], [{'name': 'postgres-config', 'configMap': {'name': 'base-kubegres-config', 'defaultMode': 511}}], 'mypostgres-1')
    vols = [{'name': 'postgres-db', 'persistentVolumeClaim': {'claimName': 'postgres-db-mypostgres-1-0'}}] + vols
    ss = sts('mypostgres-1', ns_, labels, 1, {'containers': copy.deepcopy(containers), 'volumes': vols, 'terminationGracePeriodSeconds': 10}, ready=0, created=700, service='mypostgres')
    ss['metadata']['ownerReferences'] = [{'apiVersion': 'kubegres.reactive-tech.io/v1', 'kind': 'Kubegres', 'name': 'mypostgres', 'uid': uid('kubegres-mypostgres'), 'controller': True, 'blockOwnerDeletion': True}]
    created = 690
    node = n2['metadata']['name']
    p = mkpod('mypostgres-1-0', ns_, node, containers, [running('mypostgres-1', img, 60)], created, owner=('StatefulSet', 'mypostgres-1'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'mypostgres-1-0', 'apps.kubernetes.io/pod-index': '0'},
              spec_extra={'volumes': vols, 'hostname': 'mypostgres-1-0', 'subdomain': 'mypostgres', 'terminationGracePeriodSeconds': 10})
    set_status(p, [clbo(p, 'mypostgres-1', img, 5, term(1, 'Error', 140, 138, seed='mypg-5'))], created)
    logs = ['The files belonging to this database system will be owned by user "postgres".',
            'This user must also own the server process.', '',
            'The database cluster will be initialized with locale "en_US.utf8".',
            'The default database encoding has accordingly been set to "UTF8".',
            'The default text search configuration will be set to "english".', '',
            'Data page checksums are disabled.', '',
            'fixing permissions on existing directory /var/lib/postgresql/data/pgdata ... ok',
            'creating subdirectories ... ok',
            'selecting dynamic shared memory implementation ... posix',
            'selecting default max_connections ... 20',
            'selecting default shared_buffers ... 400kB',
            'selecting default time zone ... Etc/UTC',
            'creating configuration files ... ok',
            'Bus error',
            'child process exited with exit code 135',
            'initdb: removing contents of data directory "/var/lib/postgresql/data/pgdata"',
            'running bootstrap script ... ']
    cl = claim('postgres-db-mypostgres-1-0', ns_, 'ceph-block', 'Bound', '8Gi', volume='pvc-' + uid('mypg-pvc'), provisioner='rook-ceph.rbd.csi.ceph.com', created=700)
    evs = [scheduled(p, node, created - 1),
           ev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "pvc-%s"' % uid('mypg-pvc'), 'Normal', last=created - 8, component='attachdetach-controller')] + \
          started(p, node, img, 'mypostgres-1', created - 20, size=138412233) + restarted(p, node, img, 'mypostgres-1', 5, created - 60, 140) + \
          [backoff(p, node, 'mypostgres-1', 14, created - 90, 9)]
    objs = [ns(ns_), n1, n2, n3, ss, p, cl, secret('mypostgres-secret', ns_, ['superUserPassword', 'replicationUserPassword']),
            configmap('base-kubegres-config', ns_, {'postgres.conf': "listen_addresses = '*'\nmax_connections = 100\nshared_buffers = 128MB\n", 'pg_hba.conf': 'host all all all md5\n',
                                                   'primary_create_replication_role.sh': '#!/bin/bash\nset -e\n'}), service('mypostgres', ns_, labels, ports=((5432, 5432),))] + evs + \
           [podlog(ns_, 'mypostgres-1-0', 'mypostgres-1', logs)] + noise([n1, n2], 'v1.28.14')
    case('f5b-postgres-initdb-bus-error-hugepages', 'Kubegres postgres never initialises: initdb dies with a bus error because the node has huge pages and the pod may not use them',
         'https://github.com/reactive-tech/kubegres/issues/132', 'Bus error\nchild process exited with exit code 135', '%s/mypostgres-1-0' % ns_, 'any', objs,
         decisive='child process exited with exit code 135', playbook=None,
         terms=[['huge page', 'hugepage', 'huge_pages', 'HugePages'], ['huge_pages = off', 'huge_pages=off', 'huge_pages off', 'hugepages-2Mi', 'nr_hugepages']])


# =====================================================================================
# M3. mechanism: Tailscale in TUN mode after containerd 1.7.24 (runc 1.2): tun no longer in the default device allowlist
# =====================================================================================
@reg
def tailscale_tun_runc12():
    ns_ = 'tailscale'
    kw = dict(kubelet='v1.31.3', runtime='containerd://1.7.24', kernel='6.11.10-300.fc41.x86_64', os_image='Fedora Linux 41 (Server Edition)')
    n1, n2 = mknode('fedora-node-1', **kw), mknode('fedora-node-2', **kw)
    img = 'tailscale/tailscale:v1.76.6'
    name = 'ts-pod-cidrs-6qwzr'
    labels = {'tailscale.com/managed': 'true', 'tailscale.com/parent-resource': 'pod-cidrs', 'tailscale.com/parent-resource-type': 'connector', 'app': uid('connector-pod-cidrs')}
    init = [{'name': 'sysctler', 'image': img, 'command': ['/bin/sh', '-c'], 'args': ['sysctl -w net.ipv4.ip_forward=1 && if sysctl net.ipv6.conf.all.forwarding; then sysctl -w net.ipv6.conf.all.forwarding=1; fi'],
             'securityContext': {'privileged': True}}]
    c = {'name': 'tailscale', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'TS_USERSPACE', 'value': 'false'}, {'name': 'POD_IP', 'valueFrom': {'fieldRef': {'fieldPath': 'status.podIP'}}},
                 {'name': 'TS_KUBE_SECRET', 'value': name + '-0'}, {'name': 'TS_EXPERIMENTAL_VERSIONED_CONFIG_DIR', 'value': '/etc/tsconfig'},
                 {'name': 'TS_ROUTES', 'value': '10.42.0.0/16'}],
         'securityContext': {'capabilities': {'add': ['NET_ADMIN']}},
         'volumeMounts': [{'name': 'tailscaledconfig', 'mountPath': '/etc/tsconfig', 'readOnly': True}]}
    containers, vols = with_api([c], [{'name': 'tailscaledconfig', 'secret': {'secretName': name, 'defaultMode': 420}}], name)
    ss = sts(name, ns_, labels, 1, {'serviceAccountName': 'proxies', 'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 3)
    created = 86400 * 3 - 30
    node = n2['metadata']['name']
    init_st = [{'name': 'sysctler', 'ready': True, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid('ts-sysctler'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 8), 'finishedAt': ago(created - 8), 'containerID': cid('ts-sysctler')}}}]
    p = mkpod(name + '-0', ns_, node, containers, [running('tailscale', img, 60)], created, owner=('StatefulSet', name),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': name + '-0'}, sa='proxies', spec_extra={'volumes': vols}, init=init, init_statuses=init_st)
    set_status(p, [clbo(p, 'tailscale', img, 611, term(1, 'Error', 250, 249, seed='ts-611'))], created)
    L = lambda s_, m: '%s %s' % (GO(s_), m)
    logs = ['boot: %s Starting tailscaled' % GO(250), 'boot: %s Waiting for tailscaled socket' % GO(250),
            L(250, 'logtail started'), L(250, 'Program starting: v1.76.6-tb4a8ba2b1, Go 1.23.2: []string{"tailscaled", "--socket=/tmp/tailscaled.sock", "--statedir=/tmp", "--tun=tailscale0", "--config=/etc/tsconfig/cap-107.hujson"}'),
            L(250, 'LogID: 5e6a2f0c3d9b4f6e1a7c8d2b0e9f4a3c6b1d8e2f7a0c5b9d3e6f1a4c8b2d7e0'),
            L(250, 'logpolicy: using system state directory "/var/lib/tailscale"'),
            L(250, 'wgengine.NewUserspaceEngine(tun "tailscale0") ...'),
            L(250, 'Linux kernel version: 6.11.10-300.fc41.x86_64'),
            L(250, "is CONFIG_TUN enabled in your kernel? `modprobe tun` failed with: modprobe: can't change directory to '/lib/modules': No such file or directory"),
            L(250, 'wgengine.NewUserspaceEngine(tun "tailscale0") error: tstun.New("tailscale0"): operation not permitted'),
            L(249, 'flushing log.'), L(249, 'logger closing down'),
            L(249, 'getLocalBackend error: createEngine: tstun.New("tailscale0"): operation not permitted'),
            'boot: %s failed to watch tailscaled for updates: Failed to connect to local Tailscale daemon for /localapi/v0/watch-ipn-bus; not running? Error: dial unix /tmp/tailscaled.sock: connect: no such file or directory' % GO(249)]
    evs = restarted(p, node, img, 'tailscale', 611, created - 60, 250) + [backoff(p, node, 'tailscale', 14021, created - 100, 11)]
    op_img = 'tailscale/k8s-operator:v1.76.6'
    op_d, op_rs = deploy('operator', ns_, {'app': 'operator'}, 1, '7b9c5d6f48', {'serviceAccountName': 'operator', 'containers': [{'name': 'operator', 'image': op_img}]}, created=86400 * 20)
    op = mkpod('operator-7b9c5d6f48-lm2p4', ns_, n1['metadata']['name'], [{'name': 'operator', 'image': op_img}], [running('operator', op_img, 86400 * 20 - 30)], 86400 * 20,
               owner=('ReplicaSet', op_rs['metadata']['name']), labels={'app': 'operator', 'pod-template-hash': '7b9c5d6f48'}, sa='operator')
    op_logs = ['{"level":"info","ts":"%s","logger":"connector-reconciler","msg":"Connector resources synced","connector":"pod-cidrs"}' % ts(86400 * 3 - 40, '%Y-%m-%dT%H:%M:%SZ'),
               '{"level":"debug","ts":"%s","logger":"connector-reconciler","msg":"waiting for proxy device info","connector":"pod-cidrs"}' % ts(300, '%Y-%m-%dT%H:%M:%SZ')]
    objs = [ns(ns_), n1, n2, ss, p, serviceaccount('proxies', ns_), secret(name, ns_, ['cap-107.hujson']), op_d, op_rs, op, serviceaccount('operator', ns_)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'tailscale', logs), podlog(ns_, op['metadata']['name'], 'operator', op_logs, previous=False)] + noise([n1, n2], 'v1.31.3')
    case('f5b-tailscale-tun-device-runc12', 'Tailscale subnet router cannot open its TUN device after the node moved to containerd 1.7.24 (runc 1.2 dropped tun from the default device rules)',
         'https://github.com/tailscale/tailscale/issues/14256', 'wgengine.NewUserspaceEngine(tun "tailscale0") error: tstun.New("tailscale0"): operation not permitted',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='tstun.New("tailscale0"): operation not permitted', playbook=None,
         terms=[['TUN device', 'tun device', '/dev/net/tun', 'TUN/TAP', 'tun/tap', 'tuntap'], ['privileged', 'device plugin']])


# =====================================================================================
# M4. mechanism: Netty extracts its epoll library to /tmp, which sits on a noexec mount
# =====================================================================================
@reg
def netty_native_noexec():
    ns_ = 'edge'
    kw = dict(kubelet='v1.28.15', runtime='cri-o://1.28.9', kernel='4.18.0-553.27.1.el8_10.x86_64', os_image='Red Hat Enterprise Linux 8.10 (Ootpa)')
    n1, n2 = mknode('rhel8-app-01', **kw), mknode('rhel8-app-02', **kw)
    img = 'harbor.corp.example/edge/api-gateway:3.14.2'
    labels = {'app': 'api-gateway'}
    c = {'name': 'api-gateway', 'image': img, 'ports': [{'containerPort': 8443, 'name': 'https'}],
         'env': [{'name': 'JAVA_TOOL_OPTIONS', 'value': '-XX:MaxRAMPercentage=75'}, {'name': 'GATEWAY_TRANSPORT', 'value': 'epoll'}],
         'readinessProbe': {'tcpSocket': {'port': 8443}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '500m', 'memory': '768Mi'}, 'limits': {'memory': '1Gi'}},
         'securityContext': {'runAsNonRoot': True, 'runAsUser': 10001, 'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}},
         'volumeMounts': [{'name': 'tmp', 'mountPath': '/tmp'}]}
    containers, vols = with_api([c], [{'name': 'tmp', 'emptyDir': {'sizeLimit': '256Mi'}}], 'gateway')
    d, rs = deploy('api-gateway', ns_, labels, 2, '5f7d9c8b64', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=3000, generation=1)
    created = 2900
    node = n1['metadata']['name']
    p = mkpod('api-gateway-5f7d9c8b64-7mzkq', ns_, node, containers, [running('api-gateway', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5f7d9c8b64'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'api-gateway', img, 9, term(1, 'Error', 300, 296, seed='gw-9'))], created)
    crio(p)
    so = '/tmp/libnetty_transport_native_epoll_x86_645589732826809244917.so'
    T = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f')[:-3]
    logs = ['Picked up JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=75',
            '%s  INFO 1 --- [           main] c.e.edge.GatewayApplication              : Starting GatewayApplication v3.14.2 using Java 17.0.13 with PID 1' % T(300),
            '%s DEBUG 1 --- [           main] i.n.util.internal.NativeLibraryLoader    : -Dio.netty.native.workdir: /tmp (io.netty.tmpdir)' % T(298),
            '%s DEBUG 1 --- [           main] i.n.util.internal.NativeLibraryLoader    : Unable to load the library \'netty_transport_native_epoll_x86_64\', trying other loading mechanism.' % T(298),
            'java.lang.UnsatisfiedLinkError: %s: %s: failed to map segment from shared object: Operation not permitted' % (so, so),
            '\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)',
            '\tat java.base/java.lang.System.load(System.java:1880)',
            '\tat io.netty.util.internal.NativeLibraryUtil.loadLibrary(NativeLibraryUtil.java:36)',
            '\tat io.netty.util.internal.NativeLibraryLoader.loadLibrary(NativeLibraryLoader.java:425)',
            '\tat io.netty.channel.epoll.Native.loadNativeLibrary(Native.java:309)',
            '%s ERROR 1 --- [           main] o.s.boot.SpringApplication               : Application run failed' % T(297),
            'java.lang.UnsatisfiedLinkError: failed to load the required native library',
            '\tat io.netty.channel.epoll.Epoll.ensureAvailability(Epoll.java:79)',
            '\tat io.netty.channel.epoll.EpollEventLoopGroup.<clinit>(EpollEventLoopGroup.java:41)',
            '\tat com.example.edge.transport.TransportConfig.eventLoopGroup(TransportConfig.java:38)',
            'Caused by: java.lang.UnsatisfiedLinkError: %s: %s: failed to map segment from shared object: Operation not permitted' % (so, so)]
    evs = [scheduled(p, node, created - 1)] + started(p, node, img, 'api-gateway', created - 4, size=312002211) + restarted(p, node, img, 'api-gateway', 9, created - 60, 300) + \
          [backoff(p, node, 'api-gateway', 41, created - 120, 20),
           unhealthy(p, node, 'api-gateway', 'dial tcp %s:8443: connect: connection refused' % p['status']['podIP'], 18, created - 30, 305)]
    objs = [ns(ns_), n1, n2, d, rs, p] + evs + [podlog(ns_, p['metadata']['name'], 'api-gateway', logs)] + noise([n1, n2], 'v1.28.15')
    case('f5b-netty-native-lib-noexec-tmp', 'Java gateway that requires Netty epoll cannot load the native library it extracts to /tmp: the volume under /tmp is mounted noexec',
         'https://github.com/netty/netty/issues/6678', 'failed to map segment from shared object: Operation not permitted', '%s/%s' % (ns_, p['metadata']['name']), 'any', objs,
         decisive='failed to map segment from shared object: Operation not permitted', playbook=None,
         terms=[['noexec'], ['io.netty.native.workdir', 'java.io.tmpdir', 'tmpdir', 'workdir']])


# =====================================================================================
# M5. mechanism: node:latest moved to Node 17 (OpenSSL 3): webpack 4's md4 hash is refused
# =====================================================================================
@reg
def node17_openssl3_webpack():
    ns_ = 'ci'
    kw = dict(kubelet='v1.30.8', runtime='containerd://1.7.23', kernel='6.1.0-28-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n1, n2 = mknode('ci-runner-1', **kw), mknode('ci-runner-2', **kw)
    img = 'node:latest'
    labels = {'app': 'storefront-build'}
    c = {'name': 'build', 'image': img, 'imagePullPolicy': 'Always', 'workingDir': '/workspace', 'command': ['sh', '-c', 'npm ci && npm run build:prod && cp -r dist/* /publish/'],
         'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}, 'limits': {'memory': '4Gi'}},
         'volumeMounts': [{'name': 'workspace', 'mountPath': '/workspace'}, {'name': 'publish', 'mountPath': '/publish'}]}
    init = [{'name': 'checkout', 'image': 'alpine/git:2.45.2', 'args': ['clone', '--depth=1', 'https://git.acme.io/web/storefront.git', '/workspace'],
             'volumeMounts': [{'name': 'workspace', 'mountPath': '/workspace'}]}]
    vols = [{'name': 'workspace', 'emptyDir': {}}, {'name': 'publish', 'persistentVolumeClaim': {'claimName': 'storefront-static'}}]
    tspec = {'restartPolicy': 'OnFailure', 'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy([c]), 'volumes': vols}
    cj = workload('CronJob', 'storefront-build', ns_, labels, template_spec=tspec)
    cj['spec'] = {'schedule': '0 2 * * *', 'concurrencyPolicy': 'Forbid', 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
                  'jobTemplate': {'spec': {'backoffLimit': 6, 'template': {'metadata': {'labels': labels}, 'spec': tspec}}}}
    cj['status'] = {'lastScheduleTime': ago(1500), 'lastSuccessfulTime': ago(86400 + 1300), 'active': [{'apiVersion': 'batch/v1', 'kind': 'Job', 'name': 'storefront-build-28871520', 'namespace': ns_}]}
    job = workload('Job', 'storefront-build-28871520', ns_, {'batch.kubernetes.io/job-name': 'storefront-build-28871520'}, template_spec=tspec)
    job['metadata']['creationTimestamp'] = ago(1500)
    job['metadata']['ownerReferences'] = [{'apiVersion': 'batch/v1', 'kind': 'CronJob', 'name': 'storefront-build', 'uid': cj['metadata']['uid'], 'controller': True, 'blockOwnerDeletion': True}]
    job['spec'].update({'backoffLimit': 6, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed'})
    job['status'] = {'active': 1, 'ready': 0, 'startTime': ago(1500), 'uncountedTerminatedPods': {}}
    created = 1499
    node = n2['metadata']['name']
    init_st = [{'name': 'checkout', 'ready': True, 'started': False, 'restartCount': 0, 'image': 'alpine/git:2.45.2', 'imageID': imgid('alpine/git:2.45.2'), 'containerID': cid('sf-checkout'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 6), 'finishedAt': ago(created - 9), 'containerID': cid('sf-checkout')}}}]
    p = mkpod('storefront-build-28871520-kx5qd', ns_, node, [c], [running('build', img, 60)], created, owner=('Job', 'storefront-build-28871520'),
              labels={**labels, 'batch.kubernetes.io/job-name': 'storefront-build-28871520', 'job-name': 'storefront-build-28871520', 'batch.kubernetes.io/controller-uid': job['metadata']['uid']},
              spec_extra={'volumes': vols, 'restartPolicy': 'OnFailure'}, init=init, init_statuses=init_st)
    set_status(p, [clbo(p, 'build', img, 5, term(1, 'Error', 260, 180, seed='sf-5'))], created)
    logs = ['', 'added 1432 packages, and audited 1433 packages in 58s', '', '> storefront@2.3.0 build:prod', '> webpack --mode production --config webpack.prod.js', '',
            'node:internal/crypto/hash:67', '  return new _Hash(algorithm, xofLen);', '         ^', '',
            'Error: error:0308010C:digital envelope routines::unsupported',
            '    at new Hash (node:internal/crypto/hash:67:19)',
            '    at Object.createHash (node:crypto:130:10)',
            '    at module.exports (/workspace/node_modules/webpack/lib/util/createHash.js:135:53)',
            '    at NormalModule._initBuildHash (/workspace/node_modules/webpack/lib/NormalModule.js:417:16)',
            '    at handleParseError (/workspace/node_modules/webpack/lib/NormalModule.js:471:10)',
            "  opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],",
            "  library: 'digital envelope routines',", "  reason: 'unsupported',", "  code: 'ERR_OSSL_EVP_UNSUPPORTED'", '}',
            'npm notice New minor version of npm available! 8.1.0 -> 8.1.2']
    evs = [ctrl_ev(job, 'SuccessfulCreate', 'Created pod: %s' % p['metadata']['name'], 'job-controller', last=1499),
           ctrl_ev(cj, 'SuccessfulCreate', 'Created job storefront-build-28871520', 'cronjob-controller', last=1500),
           scheduled(p, node, created - 1)] + started(p, node, 'alpine/git:2.45.2', 'checkout', created - 3, init=True, size=28110442) + \
          started(p, node, img, 'build', created - 12, size=399210433, pulled_in='9.8s') + restarted(p, node, img, 'build', 5, created - 200, 260) + \
          [backoff(p, node, 'build', 9, created - 400, 40)]
    objs = [ns(ns_), n1, n2, cj, job, p, claim('storefront-static', ns_, 'nfs-client', 'Bound', '5Gi', volume='pvc-' + uid('sf-static'), provisioner='cluster.local/nfs-subdir-external-provisioner',
                                              access=('ReadWriteMany',), created=86400 * 60)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'build', logs)] + noise([n1, n2], 'v1.30.8')
    case('f5b-node17-openssl3-webpack-md4', 'Nightly front-end build on node:latest fails since the tag moved to Node 17: OpenSSL 3 refuses the md4 hash webpack 4 uses',
         'https://github.com/nodejs/help/issues/3595', 'Error: error:0308010C:digital envelope routines::unsupported', '%s/%s' % (ns_, p['metadata']['name']), 'any', objs,
         decisive='Error: error:0308010C:digital envelope routines::unsupported', playbook=None,
         terms=[['OpenSSL 3', 'OpenSSL'], ['openssl-legacy-provider', 'NODE_OPTIONS', 'node:16', 'Node.js 16', 'Node 16']])


# =====================================================================================
# M6. mechanism: kured's multi-arch image has no tzdata: --time-zone America/New_York cannot be loaded
# =====================================================================================
@reg
def kured_no_tzdata():
    ns_ = 'kube-system'
    kv = 'v1.28.15+k3s1'
    ns_nodes = [arm64(mknode('pi-node-%d' % i, kubelet=kv, runtime='containerd://1.7.22-k3s1', kernel='6.8.0-1013-raspi', os_image='Ubuntu 24.04.1 LTS')) for i in (1, 2, 3)]
    ns_nodes[0]['metadata']['labels'].update({'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
    img = 'raspbernetes/kured:1.5.1'
    labels = {'name': 'kured'}
    c = {'name': 'kured', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['/usr/bin/kured'],
         'args': ['--ds-name=kured', '--ds-namespace=kube-system', '--period=1h0m0s', '--reboot-days=mon,tue,wed,thu,fri', '--start-time=3am', '--end-time=5am', '--time-zone=America/New_York'],
         'env': [{'name': 'KURED_NODE_ID', 'valueFrom': {'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'spec.nodeName'}}}],
         'securityContext': {'privileged': True}, 'resources': {}}
    ds = daemonset('kured', ns_, labels, 3, 0, {'serviceAccountName': 'kured', 'hostPID': True, 'containers': [c], 'restartPolicy': 'Always'}, created=86400 * 2)
    ds['spec']['updateStrategy'] = {'type': 'RollingUpdate', 'rollingUpdate': {'maxUnavailable': 1, 'maxSurge': 0}}
    created = 86400 * 2 - 20
    pods, evs, logs_all = [], [], []
    for i, n in enumerate(ns_nodes):
        node = n['metadata']['name']
        p = mkpod('kured-%s' % ['7pq2d', 'xw9kt', 'm4ln8'][i], ns_, node, [c], [running('kured', img, 60)], created, owner=('DaemonSet', 'kured'),
                  labels={**labels, 'controller-revision-hash': '6d5f8b7c9d', 'pod-template-generation': '1'}, sa='kured', spec_extra={'hostPID': True})
        restarts = 560 - i
        set_status(p, [clbo(p, 'kured', img, restarts, term(1, 'Error', 200 + 7 * i, 199 + 7 * i, seed='kured-%d' % i))], created)
        pods.append(p)
        evs += restarted(p, node, img, 'kured', restarts, created - 60, 200 + 7 * i) + [backoff(p, node, 'kured', 13000 + i, created - 100, 15 + i)]
        t = ts(200 + 7 * i, '%Y-%m-%dT%H:%M:%SZ')
        logs_all.append(podlog(ns_, p['metadata']['name'], 'kured', ['time="%s" level=info msg="Kubernetes Reboot Daemon: 1.5.1"' % t,
                                                                      'time="%s" level=info msg="Node ID: %s"' % (t, node),
                                                                      'time="%s" level=info msg="Lock Annotation: kube-system/kured:weave.works/kured-node-lock"' % t,
                                                                      'time="%s" level=fatal msg="Failed to build time window: unknown time zone America/New_York"' % t]))
    objs = [ns(ns_)] + ns_nodes + [ds] + pods + [serviceaccount('kured', ns_)] + evs + logs_all + \
           noise(ns_nodes, proxy=False, dns_image='rancher/mirrored-coredns-coredns:1.10.1')
    case('f5b-kured-image-without-tzdata', 'kured DaemonSet crash-loops on every Raspberry Pi node: its image has no time zone database, so --time-zone=America/New_York cannot be loaded',
         'https://github.com/raspbernetes/multi-arch-images/issues/189', '"Failed to build time window: unknown time zone America/New_York"', '%s/kured-7pq2d' % ns_, 'any', objs,
         decisive='Failed to build time window: unknown time zone America/New_York', playbook=None,
         terms=[['tzdata', 'time zone database', 'timezone database', 'zoneinfo', 'time zone data'], ['image']])


# =====================================================================================
# K1. volume.multi-attach: RWO claim of a single-replica Deployment rolled with RollingUpdate
# =====================================================================================
@reg
def valkey_rolling_multi_attach():
    ns_ = 'cache'
    kw = dict(kubelet='v1.31.4', runtime='containerd://2.0.1', kernel='6.8.0-51-generic', os_image='Ubuntu 24.04.1 LTS', labels={'csi.hetzner.cloud/location': 'fsn1'})
    n1, n2, n3 = mknode('k8s-worker-fsn1-1', **kw), mknode('k8s-worker-fsn1-2', **kw), mknode('k8s-worker-fsn1-3', **kw)
    old_img, new_img = 'docker.io/valkey/valkey:8.0.1', 'docker.io/valkey/valkey:8.0.2'
    labels = {'app.kubernetes.io/name': 'valkey', 'app.kubernetes.io/instance': 'valkey-helm'}
    def spec(img):
        c = {'name': 'valkey', 'image': img, 'args': ['valkey-server', '/etc/valkey/valkey.conf'], 'ports': [{'containerPort': 6379, 'name': 'tcp'}],
             'readinessProbe': {'exec': {'command': ['sh', '-c', 'valkey-cli ping']}, 'periodSeconds': 5},
             'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}},
             'volumeMounts': [{'name': 'valkey-data', 'mountPath': '/data'}, {'name': 'config', 'mountPath': '/etc/valkey'}]}
        return {'containers': [c], 'volumes': [{'name': 'valkey-data', 'persistentVolumeClaim': {'claimName': 'valkey-helm'}}, {'name': 'config', 'configMap': {'name': 'valkey-helm-config'}}]}
    d, old_rs = deploy('valkey-helm', ns_, labels, 1, '5b8d84684b', spec(old_img), ready=1, updated=0, created=86400 * 40, generation=3,
                       conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 40), 'lastTransitionTime': ago(86400 * 40)},
                                   {'type': 'Progressing', 'status': 'True', 'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "valkey-helm-6c9f7d8b45" is progressing.', 'lastUpdateTime': ago(840), 'lastTransitionTime': ago(86400 * 40)}])
    d['spec']['template']['spec'] = spec(new_img)
    d['status'].update({'replicas': 2, 'updatedReplicas': 1, 'readyReplicas': 1, 'availableReplicas': 1, 'unavailableReplicas': 1})
    old_rs['metadata']['annotations']['deployment.kubernetes.io/revision'] = '2'
    new_rs = replicaset(d, '6c9f7d8b45', 1, 0, spec(new_img), created=840, revision=3)
    old_p = mkpod('valkey-helm-5b8d84684b-k5xcd', ns_, n1['metadata']['name'], spec(old_img)['containers'], [running('valkey', old_img, 86400 * 12)], 86400 * 12,
                  owner=('ReplicaSet', old_rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5b8d84684b'}, spec_extra={'volumes': spec(old_img)['volumes']})
    created = 840
    node = n3['metadata']['name']
    new_p = mkpod('valkey-helm-6c9f7d8b45-q2w7n', ns_, node, spec(new_img)['containers'], [waiting('valkey', new_img, 'ContainerCreating', pulled=False)], created,
                  owner=('ReplicaSet', new_rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6c9f7d8b45'}, spec_extra={'volumes': spec(new_img)['volumes']})
    new_p['status']['phase'] = 'Pending'
    new_p['status']['conditions'] = conds(created, False, msg='containers with unready status: [valkey]', sandbox=False)
    new_p['status'].pop('podIP', None); new_p['status'].pop('podIPs', None)
    pvname = 'pvc-f75b0646-dfe9-4695-8674-32492a86ab8f'
    cl = claim('valkey-helm', ns_, 'hcloud-volumes', 'Bound', '10Gi', volume=pvname, provisioner='csi.hetzner.cloud', created=86400 * 40)
    vol = pv(pvname, claim=cl, driver='csi.hetzner.cloud', handle='101853225', size='10Gi', storage_class='hcloud-volumes')
    va = volumeattachment(pvname, n1['metadata']['name'], attacher='csi.hetzner.cloud', attached=True, created=86400 * 12, handle='101853225')
    evs = [scheduled(new_p, node, created - 1),
           ev(new_p, 'FailedAttachVolume', 'Multi-Attach error for volume "%s" Volume is already used by pod(s) valkey-helm-5b8d84684b-k5xcd' % pvname, count=1, last=created - 2, component='attachdetach-controller'),
           ev(new_p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[valkey-data], unattached volumes=[], failed to process volumes=[]: timed out waiting for the condition',
              count=6, first=created - 130, last=95, host=node),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set valkey-helm-6c9f7d8b45 to 1', 'deployment-controller', last=created),
           ctrl_ev(new_rs, 'SuccessfulCreate', 'Created pod: valkey-helm-6c9f7d8b45-q2w7n', 'replicaset-controller', last=created),
           unhealthy(old_p, n1['metadata']['name'], 'valkey', 'command timed out: "sh -c valkey-cli ping" timed out after 1s', 1, 86400 * 3, 86400 * 3)]
    old_logs = ['1:M %s * Background saving started by pid 4411' % ts(400, '%d %b %Y %H:%M:%S.%f')[:-3], '4411:C %s * DB saved on disk' % ts(399, '%d %b %Y %H:%M:%S.%f')[:-3],
                '1:M %s * Background saving terminated with success' % ts(399, '%d %b %Y %H:%M:%S.%f')[:-3]]
    objs = [ns(ns_), n1, n2, n3, d, old_rs, new_rs, old_p, new_p, cl, vol, va, configmap('valkey-helm-config', ns_, {'valkey.conf': 'appendonly yes\ndir /data\n'}),
            storageclass('hcloud-volumes', provisioner='csi.hetzner.cloud', default=True)] + evs + \
           [podlog(ns_, old_p['metadata']['name'], 'valkey', old_logs, previous=False)] + noise([n1, n2, n3], 'v1.31.4')
    case('f5b-valkey-rollingupdate-rwo-multi-attach', 'Valkey chart upgrade stalls: RollingUpdate starts the new pod on another node while the old one still holds the ReadWriteOnce volume',
         'https://github.com/valkey-io/valkey-helm/issues/28', 'Multi-Attach error for volume "pvc-f75b0646-dfe9-4695-8674-32492a86ab8f" \nVolume is already used by pod(s) valkey-helm-5b8d84684b-k5xcd',
         '%s/%s' % (ns_, new_p['metadata']['name']), 'volume.multi-attach', objs, decisive='Volume is already used by pod(s) valkey-helm-5b8d84684b-k5xcd')


# =====================================================================================
# K2. sandbox.create-failed: Weave Net IPAM unreachable (weave-net and kube-proxy crash-looping on the node)
# =====================================================================================
@reg
def weave_ipam_refused():
    ns_ = 'default'
    kw = dict(kubelet='v1.27.16', runtime='containerd://1.7.19', kernel='5.15.0-119-generic', os_image='Ubuntu 22.04.4 LTS')
    m = mknode('masternode', ip='192.168.1.50', labels={'node-role.kubernetes.io/control-plane': ''}, **kw)
    m['spec']['taints'] = [{'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}]
    na, nb = mknode('nodea', ip='192.168.1.95', **kw), mknode('nodeb', ip='192.168.1.111', **kw)
    img = 'nginx:1.24'
    labels = {'app': 'nginx2-sbx'}
    c = {'name': 'nginx', 'image': img, 'ports': [{'containerPort': 80}], 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}
    containers, vols = with_api([c], [], 'nginx2')
    d, rs = deploy('nginx2-sbx-deployment', ns_, labels, 2, '5d8888c5ff', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=300, generation=1)
    created = 221
    node = 'nodeb'
    p = mkpod('nginx2-sbx-deployment-5d8888c5ff-gqngv', ns_, node, containers, [waiting('nginx', img, 'ContainerCreating', pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5d8888c5ff'}, spec_extra={'volumes': vols})
    p['status']['phase'] = 'Pending'
    p['status']['conditions'] = conds(created, False, msg='containers with unready status: [nginx]', sandbox=False)
    p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
    sid = hexid('weave-sbx-1')
    msg = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="weave-net" name="weave" failed (add): '
           'unable to allocate IP address: Post "http://127.0.0.1:6784/ip/%s": dial tcp 127.0.0.1:6784: connect: connection refused') % (sid, sid)
    evs = [scheduled(p, node, created - 1), ev(p, 'FailedCreatePodSandBox', msg, count=9, first=created - 2, last=25, host=node),
           ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', count=8, first=created - 60, last=30, host=node),
           ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: nginx2-sbx-deployment-5d8888c5ff-gqngv', 'replicaset-controller', last=created),
           ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: nginx2-sbx-deployment-5d8888c5ff-5vgdf', 'replicaset-controller', last=created)]
    # Weave Net and kube-proxy on the workers, as the report's `kubectl get pods -n kube-system` shows them
    wimg, nimg, kp = 'weaveworks/weave-kube:latest', 'weaveworks/weave-npc:latest', 'registry.k8s.io/kube-proxy:v1.27.16'
    wl = {'name': 'weave-net'}
    wds = daemonset('weave-net', 'kube-system', wl, 3, 1, {'hostNetwork': True, 'containers': [{'name': 'weave', 'image': wimg}, {'name': 'weave-npc', 'image': nimg}]}, created=86400 * 37)
    kpl = {'k8s-app': 'kube-proxy'}
    kds = daemonset('kube-proxy', 'kube-system', kpl, 3, 1, {'hostNetwork': True, 'containers': [{'name': 'kube-proxy', 'image': kp}]}, created=86400 * 37)
    sysobjs, logs = [], []
    for n, sfx, ksfx, restarts, kprestarts in (('nodea', 'x8fkl', 't7mrh', 388, 390), ('nodeb', 'q2wzv', 'hcvwd', 283, 285)):
        wp = mkpod('weave-net-' + sfx, 'kube-system', n, [{'name': 'weave', 'image': wimg}, {'name': 'weave-npc', 'image': nimg}], [running('weave', wimg, 60)], 37 * 3600,
                   owner=('DaemonSet', 'weave-net'), labels=wl, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
        set_status(wp, [clbo(wp, 'weave', wimg, restarts, term(1, 'Error', 130, 98, seed='weave-' + n)), running('weave-npc', nimg, 37 * 3600 - 20)], 37 * 3600)
        kpp = mkpod('kube-proxy-' + ksfx, 'kube-system', n, [{'name': 'kube-proxy', 'image': kp}], [running('kube-proxy', kp, 60)], 37 * 3600,
                    owner=('DaemonSet', 'kube-proxy'), labels=kpl, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
        set_status(kpp, [clbo(kpp, 'kube-proxy', kp, kprestarts, term(2, 'Error', 400, 354, seed='kp-' + n))], 37 * 3600)
        sysobjs += [wp, kpp]
        evs += [backoff(wp, n, 'weave', 5000 + restarts, 36 * 3600, 20), backoff(kpp, n, 'kube-proxy', 5000 + kprestarts, 36 * 3600, 50)]
        logs.append(podlog('kube-system', wp['metadata']['name'], 'weave',
                           ['FATA: %s [kube-peers] Could not get peers: Get "https://10.96.0.1:443/api/v1/nodes": dial tcp 10.96.0.1:443: i/o timeout' % ts(98, '%Y/%m/%d %H:%M:%S.%f'),
                            'Failed to get peers']))
    mw = mkpod('weave-net-p9d4s', 'kube-system', 'masternode', [{'name': 'weave', 'image': wimg}, {'name': 'weave-npc', 'image': nimg}],
               [running('weave', wimg, 12 * 3600, restarts=3), running('weave-npc', nimg, 12 * 3600, restarts=3)], 86400 * 37, owner=('DaemonSet', 'weave-net'), labels=wl, spec_extra={'hostNetwork': True})
    mkp = mkpod('kube-proxy-p7nm2', 'kube-system', 'masternode', [{'name': 'kube-proxy', 'image': kp}], [running('kube-proxy', kp, 12 * 3600, restarts=3)], 86400 * 37,
                owner=('DaemonSet', 'kube-proxy'), labels=kpl, spec_extra={'hostNetwork': True})
    dns = coredns(['masternode', 'masternode'], image='registry.k8s.io/coredns/coredns:v1.10.1', hash_='5d78c9869d')
    objs = [ns(ns_), m, na, nb, d, rs, p, wds, kds, mw, mkp] + sysobjs + dns + evs + logs
    case('f5b-weave-ipam-connection-refused', 'Pods on the workers never get a sandbox: the Weave Net CNI plugin cannot reach the weave agent on 127.0.0.1:6784 (weave-net and kube-proxy crash-looping there)',
         'https://github.com/weaveworks/weave/issues/3998', 'plugin type="weave-net" name="weave" failed (add): unable to allocate IP address: Post "http://127.0.0.1:6784/ip/713ed7fc...": dial tcp 127.0.0.1:6784: connect: connection refused',
         '%s/%s' % (ns_, p['metadata']['name']), 'sandbox.create-failed', objs, decisive='failed (add): unable to allocate IP address')


# =====================================================================================
# K3. admission.webhook-unavailable: the mutating webhook's serving certificate has only a CN (no SANs)
# =====================================================================================
@reg
def cpu_pooler_webhook_legacy_cn():
    ns_ = 'default'
    kw = dict(kubelet='v1.29.9', runtime='containerd://1.7.22', kernel='4.18.0-513.24.1.el8_9.x86_64', os_image='Rocky Linux 8.9 (Green Obsidian)')
    n1, n2 = mknode('edge-worker-01', **kw), mknode('edge-worker-02', **kw)
    img = 'registry.telco.example/vnf/cpu-test:2.1'
    labels = {'app': 'cpu-test'}
    c = {'name': 'exclusive-cpu', 'image': img, 'command': ['/bin/process', '--busy'],
         'resources': {'requests': {'nokia.k8s.io/exclusive_caas': '2', 'memory': '256Mi'}, 'limits': {'nokia.k8s.io/exclusive_caas': '2', 'memory': '256Mi'}}}
    spec = {'containers': [c]}
    d, rs = deploy('cpu-test', ns_, labels, 1, '78c5d9f6b4', spec, ready=0, created=1800, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(1800), 'lastTransitionTime': ago(1800)},
                               {'type': 'ReplicaFailure', 'status': 'True', 'reason': 'FailedCreate', 'message': 'Internal error occurred: failed calling webhook "cpu-dev-mutator.nokia.k8s.io": Post "https://cpu-dev-pod-mutator-svc.kube-system.svc:443/mutating-pods?timeout=30s": tls: failed to verify certificate: x509: certificate relies on legacy Common Name field, use SANs instead', 'lastUpdateTime': ago(1790), 'lastTransitionTime': ago(1790)},
                               {'type': 'Progressing', 'status': 'True', 'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "cpu-test-78c5d9f6b4" is progressing.', 'lastUpdateTime': ago(1800), 'lastTransitionTime': ago(1800)}])
    d['status'] = {'observedGeneration': 1, 'replicas': 0, 'unavailableReplicas': 1, 'conditions': d['status']['conditions']}
    rs['status'] = {'replicas': 0, 'observedGeneration': 1, 'conditions': [{'type': 'ReplicaFailure', 'status': 'True', 'reason': 'FailedCreate', 'lastTransitionTime': ago(1790),
                    'message': 'Internal error occurred: failed calling webhook "cpu-dev-mutator.nokia.k8s.io": Post "https://cpu-dev-pod-mutator-svc.kube-system.svc:443/mutating-pods?timeout=30s": tls: failed to verify certificate: x509: certificate relies on legacy Common Name field, use SANs instead'}]}
    msg = ('Error creating: Internal error occurred: failed calling webhook "cpu-dev-mutator.nokia.k8s.io": Post "https://cpu-dev-pod-mutator-svc.kube-system.svc:443/mutating-pods?timeout=30s": '
           'tls: failed to verify certificate: x509: certificate relies on legacy Common Name field, use SANs instead')
    evs = [ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set cpu-test-78c5d9f6b4 to 1', 'deployment-controller', last=1800),
           ev(rs, 'FailedCreate', msg, count=17, first=1790, last=40, component='replicaset-controller')]
    wh_img = 'registry.telco.example/nokia/cpu-device-webhook:1.0.0'
    wl = {'app': 'cpu-dev-pod-mutator'}
    wd, wrs = deploy('cpu-dev-pod-mutator-deployment', 'kube-system', wl, 1, '6f4d8b9c7d', {'containers': [{'name': 'cpu-dev-pod-mutator', 'image': wh_img}]}, created=86400 * 4)
    wp = mkpod('cpu-dev-pod-mutator-deployment-6f4d8b9c7d-8vkzr', 'kube-system', n2['metadata']['name'], [{'name': 'cpu-dev-pod-mutator', 'image': wh_img,
               'args': ['-tls-cert-file=/etc/webhook/certs/cert.pem', '-tls-private-key-file=/etc/webhook/certs/key.pem', '-alsologtostderr', '-v=4']}],
               [running('cpu-dev-pod-mutator', wh_img, 86400 * 4 - 20)], 86400 * 4, owner=('ReplicaSet', wrs['metadata']['name']), labels={**wl, 'pod-template-hash': '6f4d8b9c7d'})
    wlogs = ['I%s       1 webhook.go:212] Starting webhook server on :8443' % ts(86400 * 4 - 20, '%m%d %H:%M:%S.%f'),
             '%s http: TLS handshake error from 10.244.0.1:52314: remote error: tls: bad certificate' % GO(40)]
    whc = webhook_config('cpu-dev-pod-mutator-webhook-config', [{'name': 'cpu-dev-mutator.nokia.k8s.io', 'service': ('kube-system', 'cpu-dev-pod-mutator-svc', '/mutating-pods'),
                                                                  'failurePolicy': 'Fail', 'timeout': 30}], mutating=True)
    objs = [ns(ns_), n1, n2, d, rs, wd, wrs, wp, whc, service('cpu-dev-pod-mutator-svc', 'kube-system', wl, ports=((443, 8443),)),
            endpoints('cpu-dev-pod-mutator-svc', 'kube-system', ready=[(wp['status']['podIP'], wp['metadata']['name'], n2['metadata']['name'])], port=8443),
            secret('cpu-dev-webhook-certs', 'kube-system', ['cert.pem', 'key.pem'])] + evs + \
           [podlog('kube-system', wp['metadata']['name'], 'cpu-dev-pod-mutator', wlogs, previous=False)] + noise([n1, n2], 'v1.29.9')
    case('f5b-cpu-pooler-webhook-cert-cn-only', 'No pod of the Deployment can be created: the CPU-Pooler mutating webhook serves a certificate with only a Common Name, which Go clients refuse',
         'https://github.com/nokia/CPU-Pooler/issues/57',
         'Internal error occurred: failed calling webhook "cpu-dev-mutator.nokia.k8s.io": Post "https://cpu-dev-pod-mutator-svc.kube-system.svc:443/mutating-pods?timeout=30s": x509: certificate relies on legacy Common Name field, use SANs or temporarily enable Common Name matching with GODEBUG=x509ignoreCN=0',
         '%s/cpu-test' % ns_, 'admission.webhook-unavailable', objs, decisive='x509: certificate relies on legacy Common Name field, use SANs',
         acceptable=['admission.rejected'])


# =====================================================================================
# K4. image.auth on CRI-O: OLM bundle-unpack Job's init container cannot pull a private quay.io digest
# =====================================================================================
@reg
def olm_bundle_quay_unauthorized():
    ns_ = 'open-cluster-management'
    kw = dict(kubelet='v1.27.16+03c5e22', runtime='cri-o://1.27.8-3.rhaos4.14.git3d1a0e2.el9', kernel='5.14.0-284.92.1.el9_2.x86_64',
              os_image='Red Hat Enterprise Linux CoreOS 414.92.202411271522-0 (Plow)')
    w0, w1 = mknode('worker-0', labels={'node-role.kubernetes.io/worker': ''}, **kw), mknode('worker-1', labels={'node-role.kubernetes.io/worker': ''}, **kw)
    digest = 'sha256:ba919b34aa7c7c7135f4474791defb6240ff1af2491b876c25ba960af81c5267'
    bundle = 'quay.io/open-cluster-management/multicloudhub-operator-bundle@' + digest
    util, opm = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + hexid('olm-util'), 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + hexid('opm')
    jname = '15b2552bda98af9ca6f85d34f2bfb89e5e18d86f7c7267f112126cfd278g9hc'
    init = [{'name': 'util', 'image': util, 'command': ['/bin/cp', '-Rv', '/bin/cpb', '/util/cpb'], 'volumeMounts': [{'name': 'util', 'mountPath': '/util'}]},
            {'name': 'pull', 'image': bundle, 'command': ['/util/cpb', '/bundle'], 'volumeMounts': [{'name': 'bundle', 'mountPath': '/bundle'}, {'name': 'util', 'mountPath': '/util'}]}]
    c = {'name': 'extract', 'image': opm, 'command': ['opm', 'alpha', 'bundle', 'extract', '-m', '/bundle/', '-n', ns_, '-c', jname, '-z'],
         'env': [{'name': 'CONTAINER_IMAGE', 'value': bundle}], 'volumeMounts': [{'name': 'bundle', 'mountPath': '/bundle'}]}
    vols = [{'name': 'bundle', 'emptyDir': {}}, {'name': 'util', 'emptyDir': {}}]
    tspec = {'restartPolicy': 'Never', 'initContainers': copy.deepcopy(init), 'containers': [copy.deepcopy(c)], 'volumes': vols}
    job = workload('Job', jname, ns_, {'operatorframework.io/bundle-unpack-ref': jname[:63]}, template_spec=tspec)
    job['metadata']['creationTimestamp'] = ago(1260)
    job['spec'].update({'backoffLimit': 3, 'activeDeadlineSeconds': 600, 'completions': 1, 'parallelism': 1})
    job['status'] = {'active': 1, 'ready': 0, 'startTime': ago(1260), 'uncountedTerminatedPods': {}}
    created = 1259
    node = 'worker-0'
    ist = [{'name': 'util', 'ready': True, 'started': False, 'restartCount': 0, 'image': util, 'imageID': util, 'containerID': 'cri-o://' + hexid('olm-util-c'),
            'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 5), 'finishedAt': ago(created - 5), 'containerID': 'cri-o://' + hexid('olm-util-c')}}},
           waiting('pull', bundle, 'ImagePullBackOff', 'Back-off pulling image "%s"' % bundle, pulled=False)]
    p = mkpod(jname + '-9x2kd', ns_, node, [c], [waiting('extract', opm, 'PodInitializing', pulled=False)], created, owner=('Job', jname),
              labels={'job-name': jname, 'batch.kubernetes.io/job-name': jname, 'batch.kubernetes.io/controller-uid': job['metadata']['uid']},
              spec_extra={'volumes': vols, 'restartPolicy': 'Never'}, init=init, init_statuses=ist)
    p['metadata']['name'] = jname[:58] + '-9x2kd'
    p['status']['phase'] = 'Pending'
    p['status']['conditions'] = conds(created, False, msg='containers with incomplete status: [pull]', initialized=False)
    p['metadata']['annotations'] = {'k8s.v1.cni.cncf.io/network-status': '[{"name":"openshift-sdn","interface":"eth0","ips":["10.129.2.41"],"default":true,"dns":{}}]', 'openshift.io/scc': 'restricted-v2'}
    pmsg = 'Failed to pull image "%s": rpc error: code = Unknown desc = reading manifest %s in quay.io/open-cluster-management/multicloudhub-operator-bundle: unauthorized: access to the requested resource is not authorized' % (bundle, digest)
    evs = [scheduled(p, node, created - 1),
           ev(p, 'AddedInterface', 'Add eth0 [10.129.2.41/23] from openshift-sdn', 'Normal', last=created - 2, component='multus'),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % util, 'Normal', last=created - 3, host=node, fieldPath=ifp('util')),
           ev(p, 'Created', 'Created container util', 'Normal', last=created - 4, host=node, fieldPath=ifp('util')),
           ev(p, 'Started', 'Started container util', 'Normal', last=created - 4, host=node, fieldPath=ifp('util')),
           ev(p, 'Pulling', 'Pulling image "%s"' % bundle, 'Normal', count=6, first=created - 6, last=260, host=node, fieldPath=ifp('pull')),
           ev(p, 'Failed', pmsg, count=6, first=created - 7, last=259, host=node, fieldPath=ifp('pull')),
           ev(p, 'Failed', 'Error: ErrImagePull', count=6, first=created - 7, last=259, host=node, fieldPath=ifp('pull')),
           ev(p, 'BackOff', 'Back-off pulling image "%s"' % bundle, 'Normal', count=81, first=created - 20, last=15, host=node, fieldPath=ifp('pull')),
           ev(p, 'Failed', 'Error: ImagePullBackOff', count=81, first=created - 20, last=15, host=node, fieldPath=ifp('pull')),
           ctrl_ev(job, 'SuccessfulCreate', 'Created pod: %s' % p['metadata']['name'], 'job-controller', last=created)]
    objs = [ns(ns_), w0, w1, job, p, secret('multiclusterhub-operator-pull-secret', ns_, ['.dockerconfigjson'], type_='kubernetes.io/dockerconfigjson')] + evs + \
           noise([w0, w1], proxy=False, dns_image='quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + hexid('coredns'))
    case('f5b-olm-bundle-init-quay-unauthorized', 'Operator bundle unpack Job stuck in Init:ImagePullBackOff on CRI-O: quay.io refuses the bundle digest to the credentials the node has',
         'https://github.com/stolostron/deploy/issues/2',
         'Error reading manifest sha256:ba919b34aa7c7c7135f4474791defb6240ff1af2491b876c25ba960af81c5267 in quay.io/open-cluster-management/multicloudhub-operator-bundle: unauthorized: access to the requested resource is not authorized',
         '%s/%s' % (ns_, p['metadata']['name']), 'image.auth', objs, decisive='unauthorized: access to the requested resource is not authorized',
         acceptable=['image.forbidden'])


# =====================================================================================
# K5. security.run-as-non-root: "image will run as root" (the kubelet's newer wording with pod/container)
# =====================================================================================
@reg
def kor_runasnonroot_root_image():
    ns_ = 'kor'
    kw = dict(kubelet='v1.32.1', runtime='containerd://2.0.2', kernel='6.8.0-1021-aws', os_image='Ubuntu 24.04.1 LTS')
    n1, n2 = mknode('ip-10-20-31-144.eu-west-1.compute.internal', **kw), mknode('ip-10-20-47-12.eu-west-1.compute.internal', **kw)
    img = 'yonahdissen/kor:latest'
    labels = {'app.kubernetes.io/name': 'kor-exporter', 'app.kubernetes.io/instance': 'kor'}
    c = {'name': 'kor-exporter-container', 'image': img, 'imagePullPolicy': 'Always', 'command': ['kor'], 'args': ['all', '--show-reason', '--exporter'],
         'ports': [{'containerPort': 8080, 'name': 'metrics'}],
         'securityContext': {'runAsNonRoot': True, 'allowPrivilegeEscalation': False, 'readOnlyRootFilesystem': True, 'capabilities': {'drop': ['ALL']}, 'seccompProfile': {'type': 'RuntimeDefault'}},
         'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '256Mi'}}}
    containers, vols = with_api([c], [], 'kor')
    spec = {'serviceAccountName': 'kor-exporter', 'securityContext': {'runAsNonRoot': True}, 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('kor-exporter', ns_, labels, 1, '5688986bcf', spec, ready=0, created=900, generation=1)
    created = 880
    node = n2['metadata']['name']
    p = mkpod('kor-exporter-5688986bcf-4wmrq', ns_, node, containers, [running('kor-exporter-container', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5688986bcf'}, sa='kor-exporter', spec_extra={'volumes': vols, 'securityContext': {'runAsNonRoot': True}})
    emsg = 'container has runAsNonRoot and image will run as root (pod: "kor-exporter-5688986bcf-4wmrq_kor(%s)", container: kor-exporter-container)' % p['metadata']['uid']
    set_status(p, [waiting('kor-exporter-container', img, 'CreateContainerConfigError', emsg)], created)
    evs = [scheduled(p, node, created - 1),
           ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=42, first=created - 2, last=20, host=node, fieldPath=fp('kor-exporter-container')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 512ms (512ms including waiting). Image size: 31772544 bytes.' % img, 'Normal', count=42, first=created - 3, last=19, host=node, fieldPath=fp('kor-exporter-container')),
           ev(p, 'Failed', 'Error: ' + emsg, count=42, first=created - 3, last=19, host=node, fieldPath=fp('kor-exporter-container'))]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('kor-exporter', ns_), service('kor-exporter', ns_, labels, ports=((8080, 8080),))] + evs + noise([n1, n2], 'v1.32.1')
    case('f5b-kor-exporter-runasnonroot-root-image', 'kor exporter never starts: the chart values set runAsNonRoot but no runAsUser, and the image runs as root',
         'https://github.com/yonahd/kor/issues/588',
         'container has runAsNonRoot and image will run as root (pod: "kor-exporter-5688986bcf-4wmrq_kor(1539a50a-9dee-4dce-b803-ccfd9d564202)", container: kor-exporter-container)',
         '%s/%s' % (ns_, p['metadata']['name']), 'security.run-as-non-root', objs, decisive='container has runAsNonRoot and image will run as root')


# =====================================================================================
# K6. terminating.finalizers: Kuryr's pod finalizer, kuryr-controller down (OpenShift on OpenStack, CRI-O)
# =====================================================================================
@reg
def kuryr_pod_finalizer():
    ns_ = 'shop'
    kw = dict(kubelet='v1.27.16+03c5e22', runtime='cri-o://1.27.8-3.rhaos4.14.git3d1a0e2.el9', kernel='5.14.0-284.92.1.el9_2.x86_64',
              os_image='Red Hat Enterprise Linux CoreOS 414.92.202411271522-0 (Plow)')
    w0 = mknode('ostest-8xk2p-worker-0-4mz7t', labels={'node-role.kubernetes.io/worker': '', 'topology.cinder.csi.openstack.org/zone': 'nova'}, **kw)
    w1 = mknode('ostest-8xk2p-worker-0-q9dcl', labels={'node-role.kubernetes.io/worker': '', 'topology.cinder.csi.openstack.org/zone': 'nova'}, **kw)
    m0 = mknode('ostest-8xk2p-master-0', labels={'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/control-plane': ''}, **kw)
    img = 'image-registry.openshift-image-registry.svc:5000/shop/frontend@sha256:' + hexid('frontend-img')
    labels = {'app': 'frontend', 'deployment': 'frontend'}
    c = {'name': 'frontend', 'image': img, 'ports': [{'containerPort': 8080}], 'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}}}
    containers, vols = with_api([c], [], 'frontend')
    d, rs = deploy('frontend', ns_, labels, 2, '7c9d8b6f4', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 30, generation=9)
    node = w1['metadata']['name']
    created = 86400 * 2
    last = term(143, 'Error', 86400 * 2 - 30, 2370, seed='fe-old')['terminated']
    st = {'name': 'frontend', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': img, 'containerID': last['containerID'], 'state': {'terminated': last}}
    p = mkpod('frontend-7c9d8b6f4-x2kqz', ns_, node, containers, [st], created, owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7c9d8b6f4'},
              spec_extra={'volumes': vols})
    p['metadata'].update({'deletionTimestamp': ago(2400 - 30), 'deletionGracePeriodSeconds': 30, 'finalizers': ['kuryr.openstack.org/pod-finalizer']})
    p['metadata']['annotations'] = {'openshift.io/scc': 'restricted-v2'}
    p['status']['phase'] = 'Running'
    p['status']['conditions'] = conds(created, False, msg='containers with unready status: [frontend]')
    crio(p)
    evs = [ev(p, 'Killing', 'Stopping container frontend', 'Normal', last=2400, host=node, fieldPath=fp('frontend'))]
    # kuryr-controller, down since before the deletion
    kimg = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + hexid('kuryr-controller')
    kl = {'app': 'kuryr-controller'}
    kd, krs = deploy('kuryr-controller', 'openshift-kuryr', kl, 1, '6d9f7c5b8d', {'serviceAccountName': 'kuryr-controller', 'hostNetwork': True, 'containers': [{'name': 'controller', 'image': kimg}]},
                     ready=0, created=86400 * 200, generation=14)
    kp = mkpod('kuryr-controller-6d9f7c5b8d-pn4ws', 'openshift-kuryr', m0['metadata']['name'], [{'name': 'controller', 'image': kimg}], [running('controller', kimg, 60)], 6 * 3600,
               owner=('ReplicaSet', krs['metadata']['name']), labels={**kl, 'pod-template-hash': '6d9f7c5b8d'}, sa='kuryr-controller', spec_extra={'hostNetwork': True})
    set_status(kp, [clbo(kp, 'controller', kimg, 58, term(1, 'Error', 260, 232, seed='kuryr-58'))], 6 * 3600)
    crio(kp)
    K = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f')[:-3]
    klogs = ['%s 1 INFO kuryr_kubernetes.controller.service [-] Configured handlers: [\'vif\', \'kuryrport\', \'service\', \'endpoints\', \'kuryrloadbalancer\', \'namespace\', \'kuryrnetwork\', \'policy\', \'pod_label\', \'kuryrnetworkpolicy\']' % K(258),
             '%s 1 ERROR kuryr_kubernetes.controller.service [-] Error when starting the controller: keystoneauth1.exceptions.connection.ConnectFailure: Unable to establish connection to https://10.0.0.5:13000/v3/auth/tokens: HTTPSConnectionPool(host=\'10.0.0.5\', port=13000): Max retries exceeded with url: /v3/auth/tokens (Caused by NewConnectionError(\'<urllib3.connection.HTTPSConnection object at 0x7f3c2b9e1d90>: Failed to establish a new connection: [Errno 113] No route to host\'))' % K(233)]
    evs += [backoff(kp, m0['metadata']['name'], 'controller', 240, 6 * 3600 - 300, 30)]
    other = mkpod('frontend-7c9d8b6f4-8gq4n', ns_, w0['metadata']['name'], containers, [running('frontend', img, 86400 * 2)], 86400 * 2, owner=('ReplicaSet', rs['metadata']['name']),
                  labels={**labels, 'pod-template-hash': '7c9d8b6f4'}, spec_extra={'volumes': vols})
    other['metadata']['finalizers'] = ['kuryr.openstack.org/pod-finalizer']
    crio(other)
    objs = [ns(ns_), ns('openshift-kuryr'), m0, w0, w1, d, rs, p, other, kd, krs, kp, serviceaccount('kuryr-controller', 'openshift-kuryr')] + evs + \
           [podlog('openshift-kuryr', kp['metadata']['name'], 'controller', klogs)] + noise([w0, w1], proxy=False, dns_image='quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + hexid('dns'))
    case('f5b-kuryr-pod-finalizer-controller-down', 'Deleted pod stays Terminating for 40 minutes: its Kuryr finalizer is only removed by kuryr-controller, which is crash-looping',
         'https://github.com/openshift/kuryr-kubernetes/pull/691', 'If the cause of the deletion delay was the kuryr-controller being down', '%s/%s' % (ns_, p['metadata']['name']),
         'terminating.finalizers', objs, decisive='kuryr.openstack.org/pod-finalizer')


# =====================================================================================
# N1. Nextcloud healthy for three days; Apache prints AH00558 (no ServerName) at every start
# =====================================================================================
@reg
def neg_nextcloud_ah00558():
    ns_ = 'nextcloud'
    kw = dict(kubelet='v1.30.7', runtime='containerd://1.7.23', kernel='6.1.0-28-arm64', os_image='Debian GNU/Linux 12 (bookworm)')
    n1, n2 = arm64(mknode('homelab-arm-1', **kw)), arm64(mknode('homelab-arm-2', **kw))
    img = 'nextcloud:30.0.2-apache'
    labels = {'app.kubernetes.io/name': 'nextcloud', 'app.kubernetes.io/instance': 'nextcloud', 'app.kubernetes.io/component': 'app'}
    c = {'name': 'nextcloud', 'image': img, 'ports': [{'containerPort': 80, 'name': 'http'}],
         'env': [{'name': 'NEXTCLOUD_TRUSTED_DOMAINS', 'value': 'cloud.home.example'}, {'name': 'POSTGRES_HOST', 'value': 'nextcloud-postgresql'}],
         'livenessProbe': {'httpGet': {'path': '/status.php', 'port': 80, 'httpHeaders': [{'name': 'Host', 'value': 'cloud.home.example'}]}, 'initialDelaySeconds': 10, 'periodSeconds': 10},
         'readinessProbe': {'httpGet': {'path': '/status.php', 'port': 80, 'httpHeaders': [{'name': 'Host', 'value': 'cloud.home.example'}]}, 'initialDelaySeconds': 10, 'periodSeconds': 10},
         'volumeMounts': [{'name': 'nextcloud-main', 'mountPath': '/var/www/html', 'subPath': 'root'}]}
    containers, vols = with_api([c], [{'name': 'nextcloud-main', 'persistentVolumeClaim': {'claimName': 'nextcloud-nextcloud'}}], 'nextcloud')
    d, rs = deploy('nextcloud', ns_, labels, 1, '7bd4647bbf', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 90, generation=11, strategy={'type': 'Recreate'})
    created = 86400 * 3
    node = n1['metadata']['name']
    p = mkpod('nextcloud-7bd4647bbf-kc4wp', ns_, node, containers, [running('nextcloud', img, created - 20)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7bd4647bbf'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, since=created - 45)
    ip = p['status']['podIP']
    A = lambda s_: ts(s_, '%a %b %d %H:%M:%S.%f %Y')
    logs = ['Configuring Redis as session handler',
            "AH00558: apache2: Could not reliably determine the server's fully qualified domain name, using %s. Set the 'ServerName' directive globally to suppress this message" % ip,
            "AH00558: apache2: Could not reliably determine the server's fully qualified domain name, using %s. Set the 'ServerName' directive globally to suppress this message" % ip,
            '[%s] [mpm_prefork:notice] [pid 1] AH00163: Apache/2.4.62 (Debian) PHP/8.2.26 configured -- resuming normal operations' % A(created - 19),
            "[%s] [core:notice] [pid 1] AH00094: Command line: 'apache2 -D FOREGROUND'" % A(created - 19),
            '10.42.0.1 - - [%s] "GET /status.php HTTP/1.1" 200 1488 "-" "kube-probe/1.30"' % ts(12, '%d/%b/%Y:%H:%M:%S +0000'),
            '10.42.1.7 - admin [%s] "PROPFIND /remote.php/dav/files/admin/ HTTP/1.1" 207 2301 "-" "Mozilla/5.0 (Linux) mirall/3.14.3"' % ts(9, '%d/%b/%Y:%H:%M:%S +0000')]
    evs = [unhealthy(p, node, 'nextcloud', 'Get "http://%s:80/status.php": dial tcp %s:80: connect: connection refused' % (ip, ip), 2, created - 25, created - 35)]
    objs = [ns(ns_), n1, n2, d, rs, p, claim('nextcloud-nextcloud', ns_, 'local-path', 'Bound', '50Gi', volume='pvc-' + uid('nc-main'), provisioner='rancher.io/local-path', created=86400 * 90)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'nextcloud', logs, previous=False)] + noise([n1, n2], 'v1.30.7')
    case('f5b-neg-nextcloud-apache-ah00558', 'Nextcloud serving for three days; Apache prints AH00558 (no ServerName) at every start, which is not a fault',
         'https://github.com/nextcloud/docker/issues/1854', "AH00558: apache2: Could not reliably determine the server's fully qualified domain name",
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# =====================================================================================
# N2. Prometheus with a Thanos sidecar, Ready for two days; the sidecar retried while Prometheus started
# =====================================================================================
@reg
def neg_thanos_sidecar_startup_retries():
    ns_ = 'monitoring'
    kw = dict(kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.15.0-1071-gke', os_image='Container-Optimized OS from Google')
    n1, n2 = mknode('gke-prod-pool-1-5d2a7c3e-h1kq', **kw), mknode('gke-prod-pool-1-5d2a7c3e-zz8d', **kw)
    pimg, timg, rimg = 'quay.io/prometheus/prometheus:v2.54.1', 'quay.io/thanos/thanos:v0.36.1', 'quay.io/prometheus-operator/prometheus-config-reloader:v0.77.2'
    labels = {'app.kubernetes.io/name': 'prometheus', 'prometheus': 'kube-prometheus', 'operator.prometheus.io/name': 'kube-prometheus'}
    cs = [{'name': 'prometheus', 'image': pimg, 'args': ['--web.enable-lifecycle', '--storage.tsdb.path=/prometheus', '--storage.tsdb.min-block-duration=2h', '--storage.tsdb.max-block-duration=2h'],
           'ports': [{'containerPort': 9090, 'name': 'web'}], 'readinessProbe': {'httpGet': {'path': '/-/ready', 'port': 'web'}, 'periodSeconds': 5, 'failureThreshold': 120},
           'resources': {'requests': {'memory': '2Gi'}, 'limits': {'memory': '4Gi'}}},
          {'name': 'config-reloader', 'image': rimg, 'args': ['--reload-url=http://127.0.0.1:9090/-/reload']},
          {'name': 'thanos-sidecar', 'image': timg, 'args': ['sidecar', '--prometheus.url=http://localhost:9090/', '--tsdb.path=/prometheus', '--objstore.config=$(OBJSTORE_CONFIG)'],
           'ports': [{'containerPort': 10902, 'name': 'http'}, {'containerPort': 10901, 'name': 'grpc'}]}]
    containers, vols = with_api(cs, [], 'prom-kp')
    ss = sts('prometheus-kube-prometheus', ns_, labels, 2, {'serviceAccountName': 'prometheus', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=2, created=86400 * 60, service='prometheus-operated')
    created = 86400 * 2
    node = n1['metadata']['name']
    p = mkpod('prometheus-kube-prometheus-0', ns_, node, containers, [running('prometheus', pimg, created - 40), running('config-reloader', rimg, created - 12), running('thanos-sidecar', timg, created - 12)],
              created, owner=('StatefulSet', 'prometheus-kube-prometheus'), labels={**labels, 'statefulset.kubernetes.io/pod-name': 'prometheus-kube-prometheus-0'}, sa='prometheus', spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, since=created - 38)
    W = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%S.%fZ')
    tlogs = ['ts=%s caller=sidecar.go:140 level=info msg="starting sidecar"' % W(created - 12)]
    for i in range(6):
        tlogs.append('ts=%s caller=sidecar.go:305 level=warn msg="failed to fetch initial external labels. Is Prometheus running? Retrying" err="request flags against http://localhost:9090/api/v1/status/config: Get \\"http://localhost:9090/api/v1/status/config\\": dial tcp 127.0.0.1:9090: connect: connection refused"' % W(created - 12 - 2 * i))
    for i in range(4):
        tlogs.append('ts=%s caller=sidecar.go:305 level=warn msg="failed to fetch initial external labels. Is Prometheus running? Retrying" err="got non-200 response code: 503, response: Service Unavailable"' % W(created - 26 - 2 * i))
    tlogs += ['ts=%s caller=sidecar.go:156 level=info msg="successfully loaded prometheus external labels" external_labels="{cluster=\\"prod-eu\\", prometheus=\\"monitoring/kube-prometheus\\", prometheus_replica=\\"prometheus-kube-prometheus-0\\"}"' % W(created - 36),
              'ts=%s caller=intrumentation.go:56 level=info msg="changing probe status" status=ready' % W(created - 36),
              'ts=%s caller=shipper.go:362 level=info msg="upload new block" id=01JD7Y3R5WQK4B0TFA1M6XQ2ZP' % W(3000)]
    evs = [unhealthy(p, node, 'prometheus', 'HTTP probe failed with statuscode: 503', 6, created - 15, created - 38)]
    objs = [ns(ns_), n1, n2, ss, p, serviceaccount('prometheus', ns_)] + evs + [podlog(ns_, p['metadata']['name'], 'thanos-sidecar', tlogs, previous=False)] + noise([n1, n2], 'v1.29.10')
    case('f5b-neg-thanos-sidecar-startup-retries', 'Prometheus and its Thanos sidecar Ready for two days; the sidecar logged warnings only while Prometheus was still starting',
         'https://github.com/thanos-io/thanos/issues/892', 'failed to fetch initial external labels. Is Prometheus running? Retrying',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# =====================================================================================
# N3. Pi-hole answering DNS; FTL warns it lacks CAP_SYS_NICE (it only keeps its default priority)
# =====================================================================================
@reg
def neg_pihole_sys_nice_warning():
    ns_ = 'pihole'
    kw = dict(kubelet='v1.30.6+k3s1', runtime='containerd://1.7.22-k3s1', kernel='6.6.51+rpt-rpi-2712', os_image='Debian GNU/Linux 12 (bookworm)')
    n1 = arm64(mknode('rpi5-01', **kw))
    img = 'pihole/pihole:2024.07.0'
    labels = {'app': 'pihole', 'release': 'pihole'}
    c = {'name': 'pihole', 'image': img, 'ports': [{'containerPort': 53, 'name': 'dns', 'protocol': 'UDP'}, {'containerPort': 53, 'name': 'dns-tcp', 'protocol': 'TCP'}, {'containerPort': 80, 'name': 'http'}],
         'env': [{'name': 'TZ', 'value': 'Europe/Berlin'}, {'name': 'WEBPASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'pihole-password', 'key': 'password'}}}],
         'securityContext': {'capabilities': {'add': ['NET_ADMIN']}},
         'livenessProbe': {'httpGet': {'path': '/admin/index.php', 'port': 'http'}, 'periodSeconds': 10}, 'readinessProbe': {'httpGet': {'path': '/admin/index.php', 'port': 'http'}, 'periodSeconds': 10},
         'volumeMounts': [{'name': 'config', 'mountPath': '/etc/pihole'}]}
    containers, vols = with_api([c], [{'name': 'config', 'persistentVolumeClaim': {'claimName': 'pihole'}}], 'pihole')
    d, rs = deploy('pihole', ns_, labels, 1, '6b8f5d9c77', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 120, strategy={'type': 'Recreate'})
    created = 86400 * 6
    node = 'rpi5-01'
    p = mkpod('pihole-6b8f5d9c77-r5k2w', ns_, node, containers, [running('pihole', img, created - 25)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6b8f5d9c77'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, since=created - 60)
    F = lambda s_: '[%s 232M]' % ts(s_, '%Y-%m-%d %H:%M:%S.%f')[:-3]
    logs = ['  [i] Starting crond for scheduled scripts. Randomizing times for gravity and update checker',
            '  [i] Setting capabilities on pihole-FTL where possible', '  [i] Applying the following caps to pihole-FTL:', '        * CAP_CHOWN', '        * CAP_NET_BIND_SERVICE',
            '        * CAP_NET_RAW', '        * CAP_NET_ADMIN', '  [i] Starting pihole-FTL (no-daemon) as pihole', '  [i] Version info:',
            '      Core version is v5.18.3 (Latest: v5.18.3)', '      Web version is v5.21 (Latest: v5.21)', '      FTL version is v5.25.2 (Latest: v5.25.2)',
            '%s ########## FTL started on pihole-6b8f5d9c77-r5k2w! ##########' % F(created - 28),
            '%s *************************************************************************' % F(created - 28),
            '%s * WARNING: Required Linux capability CAP_SYS_NICE not available         *' % F(created - 28),
            '%s *************************************************************************' % F(created - 28),
            '%s Imported 3961 queries from the long-term database' % F(created - 27),
            '%s Blocking status is enabled' % F(created - 25),
            '%s Resizing "FTL-queries" from 393216 to (20480 * 28) == 573440 (/dev/shm: 2.3MB used, 67.1MB total, FTL uses 2.3MB)' % F(3600)]
    objs = [ns(ns_), n1, d, rs, p, secret('pihole-password', ns_, ['password']),
            claim('pihole', ns_, 'local-path', 'Bound', '1Gi', volume='pvc-' + uid('pihole'), provisioner='rancher.io/local-path', created=86400 * 120)] + \
           [podlog(ns_, p['metadata']['name'], 'pihole', logs, previous=False)] + noise([n1], proxy=False, dns_image='rancher/mirrored-coredns-coredns:1.10.1')
    case('f5b-neg-pihole-cap-sys-nice-warning', 'Pi-hole answering DNS for six days; FTL prints a boxed warning that CAP_SYS_NICE is missing (it only keeps its default priority)',
         'https://github.com/pi-hole/docker-pi-hole/pull/767', 'WARNING: Required Linux capability CAP_SYS_NICE not available', '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# =====================================================================================
# N4. OpenSearch cluster (operator) green; the security plugin warns about the mode of generated cert files
# =====================================================================================
@reg
def neg_opensearch_insecure_permissions():
    ns_ = 'logging'
    kw = dict(kubelet='v1.31.2', runtime='cri-o://1.31.2', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    nodes = [mknode('search-%d' % i, **kw) for i in (1, 2, 3)]
    img = 'docker.io/opensearchproject/opensearch:2.17.1'
    labels = {'opster.io/opensearch-cluster': 'cluster', 'opster.io/opensearch-nodepool': 'masters'}
    c = {'name': 'opensearch', 'image': img, 'ports': [{'containerPort': 9200, 'name': 'http'}, {'containerPort': 9300, 'name': 'transport'}],
         'env': [{'name': 'cluster.initial_master_nodes', 'value': 'cluster-bootstrap-0'}, {'name': 'OPENSEARCH_JAVA_OPTS', 'value': '-Xmx2g -Xms2g'}],
         'readinessProbe': {'exec': {'command': ['/bin/bash', '-c', 'curl -k -u "$(cat /mnt/admin-credentials/username):$(cat /mnt/admin-credentials/password)" --silent --fail https://localhost:9200']}, 'periodSeconds': 30, 'timeoutSeconds': 30},
         'resources': {'requests': {'cpu': '1', 'memory': '4Gi'}, 'limits': {'memory': '4Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/usr/share/opensearch/data'}, {'name': 'transport-cert', 'mountPath': '/usr/share/opensearch/config/tls-transport'},
                          {'name': 'http-cert', 'mountPath': '/usr/share/opensearch/config/tls-http'}]}
    containers, vols = with_api([c], [{'name': 'transport-cert', 'secret': {'secretName': 'cluster-transport-cert', 'defaultMode': 420}}, {'name': 'http-cert', 'secret': {'secretName': 'cluster-http-cert', 'defaultMode': 420}}], 'os-masters')
    ss = sts('cluster-masters', ns_, labels, 3, {'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'fsGroup': 1000}}, ready=3, created=86400 * 25, service='cluster')
    created = 86400 * 4
    node = 'search-1'
    p = mkpod('cluster-masters-0', ns_, node, containers, [running('opensearch', img, created - 15)], created, owner=('StatefulSet', 'cluster-masters'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'cluster-masters-0'}, spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 1000}})
    set_status(p, p['status']['containerStatuses'], created, since=created - 95)
    crio(p)
    O = lambda s_, lvl, cls, msg: '[%s][%-5s][%-33s] [cluster-masters-0] %s' % (ts(s_, '%Y-%m-%dT%H:%M:%S,%f')[:-3], lvl, cls, msg)
    logs = [O(created - 30, 'INFO', 'o.o.n.Node', 'version[2.17.1], pid[83], build[tar/1893d20797e30110e5877170e44d42275ce5951e/2024-09-26T21:59:32.078798875Z], OS[Linux/6.1.0-27-amd64/amd64], JVM[Eclipse Adoptium/OpenJDK 64-Bit Server VM/21.0.4/21.0.4+7-LTS]'),
            O(created - 29, 'WARN', 'o.o.s.OpenSearchSecurityPlugin', 'Directory /usr/share/opensearch/config has insecure file permissions (should be 0700)'),
            O(created - 29, 'WARN', 'o.o.s.OpenSearchSecurityPlugin', 'File /usr/share/opensearch/config/tls-transport/cluster-masters-0.key has insecure file permissions (should be 0600)'),
            O(created - 29, 'WARN', 'o.o.s.OpenSearchSecurityPlugin', 'File /usr/share/opensearch/config/tls-transport/cluster-masters-0.crt has insecure file permissions (should be 0600)'),
            O(created - 29, 'WARN', 'o.o.s.OpenSearchSecurityPlugin', 'File /usr/share/opensearch/config/tls-http/tls.key has insecure file permissions (should be 0600)'),
            O(created - 29, 'WARN', 'o.o.s.OpenSearchSecurityPlugin', 'File /usr/share/opensearch/config/jvm.options has insecure file permissions (should be 0600)'),
            O(created - 60, 'INFO', 'o.o.c.s.ClusterApplierService', 'master node changed {previous [], current [{cluster-masters-1}{Qd2m7xq1R9yM3bE0pV8sTA}{...}{dimr}]}'),
            O(created - 90, 'INFO', 'o.o.n.Node', 'started'),
            O(created - 95, 'INFO', 'o.o.s.c.ConfigurationRepository', 'Node \'cluster-masters-0\' initialized'),
            O(7200, 'INFO', 'o.o.c.m.MetadataCreateIndexService', '[logs-2026.11.21] creating index, cause [auto(bulk api)], templates [logs], shards [1]/[1]')]
    evs = [unhealthy(p, node, 'opensearch', 'curl: (7) Failed to connect to localhost port 9200 after 0 ms: Couldn\'t connect to server', 2, created - 40, created - 70)]
    objs = [ns(ns_)] + nodes + [ss, p, claim('data-cluster-masters-0', ns_, 'local-ssd', 'Bound', '100Gi', volume='pvc-' + uid('osm0'), provisioner='topolvm.io', created=86400 * 25),
            secret('cluster-transport-cert', ns_, ['cluster-masters-0.key', 'cluster-masters-0.crt', 'ca.crt']), secret('cluster-http-cert', ns_, ['tls.key', 'tls.crt', 'ca.crt'])] + evs + \
           [podlog(ns_, 'cluster-masters-0', 'opensearch', logs, previous=False)] + noise(nodes, 'v1.31.2')
    case('f5b-neg-opensearch-insecure-cert-permissions', 'OpenSearch master pod Ready for four days; the security plugin warns that the mounted certificate files are not 0600 (cosmetic, an enhancement request)',
         'https://github.com/opensearch-project/opensearch-k8s-operator/issues/210', 'cluster-masters-0.key has insecure file permissions (should be 0600)',
         '%s/cluster-masters-0' % ns_, None, objs)


if __name__ == '__main__':
    for f in CASES5B:
        f()
    print('wrote %d cases' % len(CASES5B))
