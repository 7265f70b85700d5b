# Evaluation corpus, FRESH3 split, second author (slug prefix f3b-): public incidents written a session
# after the mechanism work of issue 32 by an author who saw only that issue's text, the case format,
# the authoring helpers and the list of rule ids and titles: never the rules, the mechanism catalogue,
# their tests or the other cases. Three positives are classes no rule names (expect.first: any, with
# the mechanism terms taken from each report's own resolution: the knob that fixes it); three are
# named classes in shapes not seen before; three are healthy or recovered pods whose noise looks
# alarming. Each dump's wording comes from its report; the expectation was decided from the report
# before any run and is never changed to change a verdict.
# Run: python3 eval/gen/fresh3b.py (writes eval/corpus/f3b-*/)
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, conds, deploy, ...)
from fresh import _strings, pending_pod_
from fresh2 import set_status, with_api, noise, unhealthy, crio, docker_ids
from blind import make_case

SPLIT = 'fresh3'


case = make_case('f3b-', SPLIT)


CASES3B = []
def reg(f):
    CASES3B.append(f)
    return f


# =====================================================================================
# 1. mechanism: PyTorch DataLoader workers die with SIGBUS: the container's /dev/shm is the
#    runtime's 64 MiB default (no emptyDir of medium Memory mounted there); OpenShift / CRI-O
# =====================================================================================
@reg
def pytorch_shm():
    ns_ = 'radiomics-training'
    kv = 'v1.29.10+67d3387'
    rt = 'cri-o://1.29.10-3.rhaos4.16.git1f5b2a4.el9'
    kern = '5.14.0-427.44.1.el9_4.x86_64'
    osi = 'Red Hat Enterprise Linux CoreOS 416.94.202411201433-0'
    n1 = mknode('dsri-gpu-worker-2.unimaas.local', kubelet=kv, runtime=rt, kernel=kern, os_image=osi,
                labels={'node-role.kubernetes.io/worker': '', 'nvidia.com/gpu.present': 'true'}, ip='10.20.4.32')
    n1['status']['capacity'].update({'cpu': '64', 'memory': '515698712Ki', 'nvidia.com/gpu': '4'})
    n1['status']['allocatable'].update({'cpu': '63500m', 'memory': '514547736Ki', 'nvidia.com/gpu': '4'})
    n2 = mknode('dsri-worker-5.unimaas.local', kubelet=kv, runtime=rt, kernel=kern, os_image=osi, labels={'node-role.kubernetes.io/worker': ''}, ip='10.20.4.15')
    img = 'nvcr.io/nvidia/pytorch:24.10-py3'
    labels = {'app': 'pytorch-train', 'app.kubernetes.io/part-of': 'radiomics'}
    c = {'name': 'pytorch', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'workingDir': '/workspace/persistent/radiomics',
         'command': ['python', 'train.py'], 'args': ['--data', '/workspace/persistent/data/lidc-idri', '--epochs', '60', '--batch-size', '64', '--num-workers', '8'],
         'env': [{'name': 'NVIDIA_VISIBLE_DEVICES', 'value': 'all'}, {'name': 'PYTHONUNBUFFERED', 'value': '1'}],
         'resources': {'requests': {'cpu': '8', 'memory': '32Gi', 'nvidia.com/gpu': '1'}, 'limits': {'cpu': '16', 'memory': '64Gi', 'nvidia.com/gpu': '1'}},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 1000680000},
         'volumeMounts': [{'name': 'data', 'mountPath': '/workspace/persistent'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'radiomics-data'}}], 'pytorch-train')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': {'fsGroup': 1000680000, 'seLinuxOptions': {'level': 's0:c26,c15'}}}
    d, rs = deploy('pytorch-train', ns_, labels, 1, '6b8f9d7c5d', spec, ready=0, created=7200, generation=3)
    created = 5400
    p = mkpod('pytorch-train-6b8f9d7c5d-q4mzt', ns_, n1['metadata']['name'], containers, [running('pytorch', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6b8f9d7c5d'}, sa='default',
              spec_extra={'volumes': vols, 'securityContext': spec['securityContext']})
    p['metadata']['annotations'] = {'openshift.io/scc': 'restricted-v2', 'k8s.ovn.org/pod-networks': '{"default":{"ip_addresses":["10.131.2.47/23"],"mac_address":"0a:58:0a:83:02:2f"}}'}
    set_status(p, [clbo(p, 'pytorch', img, 4, term(1, 'Error', 475, 200, seed='pt-4'))], created)
    p['status']['qosClass'] = 'Burstable'
    crio(p)
    t = lambda s: ts(s, '%Y-%m-%d %H:%M:%S')
    logs = ['=============', '== PyTorch ==', '=============', '', 'NVIDIA Release 24.10 (build 114410972)', 'PyTorch Version 2.5.0a0+e000cf0', '',
            'NOTE: The SHMEM allocation limit is set to the default of 64MB.  This may be',
            '   insufficient for PyTorch.  NVIDIA recommends the use of the following flags:',
            '   docker run --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 ...', '',
            '%s INFO train: loading LIDC-IDRI index from /workspace/persistent/data/lidc-idri (1018 scans, 71,304 slices)' % t(465),
            '%s INFO train: model=resnet3d-50 params=46.2M device=cuda:0 (NVIDIA A100-SXM4-80GB)' % t(445),
            '/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py:617: UserWarning: This DataLoader will create 8 worker processes in total. Our suggested max number of worker in current system is 16, which is smaller than what this DataLoader is going to create. Please be aware that excessive worker creation might get DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.',
            '  warnings.warn(',
            'Epoch 1/60:   0%|          | 0/1114 [00:00<?, ?it/s]',
            'Epoch 1/60:   3%|3         | 37/1114 [00:21<09:44,  1.84it/s, loss=0.693]',
            'ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).',
            'ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).',
            'Epoch 1/60:   3%|3         | 38/1114 [00:22<10:31,  1.70it/s, loss=0.691]',
            'Traceback (most recent call last):',
            '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 1243, in _try_get_data',
            '    data = self._data_queue.get(timeout=timeout)',
            '  File "/usr/lib/python3.10/multiprocessing/queues.py", line 113, in get',
            '    if not self._poll(timeout):',
            '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler',
            '    _error_if_any_worker_fails()',
            "RuntimeError: DataLoader worker (pid 214) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
            '',
            'The above exception was the direct cause of the following exception:',
            '',
            'Traceback (most recent call last):',
            '  File "/workspace/persistent/radiomics/train.py", line 212, in <module>',
            '    main(parse_args())',
            '  File "/workspace/persistent/radiomics/train.py", line 171, in main',
            '    for step, (vol, label) in enumerate(bar):',
            '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 1299, in _get_data',
            '    success, data = self._try_get_data()',
            '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 1256, in _try_get_data',
            "    raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e",
            'RuntimeError: DataLoader worker (pid(s) 214) exited unexpectedly']
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'AddedInterface', 'Add eth0 [10.131.2.47/23] from ovn-kubernetes', 'Normal', last=created - 3, component='multus', host=nn)] + \
        started(p, nn, img, 'pytorch', created - 5, pulled_in='2m14.331s', size=10294851336) + restarted(p, nn, img, 'pytorch', 4, created - 1300, 475) + \
        [backoff(p, nn, 'pytorch', 9, 2400, 40)]
    pvc_ = claim('radiomics-data', ns_, 'ocs-storagecluster-cephfs', 'Bound', '500Gi', volume='pvc-' + uid('radiomics-data'), provisioner='openshift-storage.cephfs.csi.ceph.com',
                 access=('ReadWriteMany',))
    objs = [ns(ns_), n1, n2, d, rs, p, pvc_] + evs + [podlog(ns_, p['metadata']['name'], 'pytorch', logs)] + \
        noise([n1, n2], kv, proxy=False, dns_image='quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:' + hexid('ocp-dns'))
    case('f3b-pytorch-dataloader-shm-bus-error', 'A PyTorch training pod on OpenShift crash-loops: DataLoader workers die of SIGBUS, /dev/shm is the runtime default of 64 MB',
         'https://github.com/MaastrichtU-IDS/dsri-documentation/issues/10',
         'Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='Unexpected bus error encountered in worker', playbook=None,
         terms=[['shared memory', '/dev/shm'], ['emptyDir']])


# =====================================================================================
# 2. mechanism: a Java consumer cannot start threads: the kubelet's podPidsLimit (1024, the
#    installer's default) caps the pod's tasks, far below what its thread pools need
# =====================================================================================
@reg
def java_pids_limit():
    ns_ = 'settlement'
    kv = 'v1.27.5'
    n1 = mknode('k8s-worker-03', kubelet=kv, runtime='containerd://1.6.23', kernel='5.15.0-91-generic', os_image='Ubuntu 22.04.3 LTS', ip='192.168.10.23')
    n2 = mknode('k8s-worker-04', kubelet=kv, runtime='containerd://1.6.23', kernel='5.15.0-91-generic', os_image='Ubuntu 22.04.3 LTS', ip='192.168.10.24')
    img = 'harbor.corp.example.cn/settlement/settlement-consumer:3.4.7'
    labels = {'app': 'settlement-consumer'}
    c = {'name': 'settlement-consumer', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'JAVA_OPTS', 'value': '-server -Xms3g -Xmx3g -Xss512k -XX:+UseG1GC -XX:MaxGCPauseMillis=200 -Duser.timezone=Asia/Shanghai'},
                 {'name': 'SPRING_PROFILES_ACTIVE', 'value': 'prod'},
                 {'name': 'KAFKA_BOOTSTRAP_SERVERS', 'value': 'kafka-0.kafka-headless.mq:9092,kafka-1.kafka-headless.mq:9092,kafka-2.kafka-headless.mq:9092'},
                 {'name': 'CONSUMER_PARTITION_WORKERS', 'value': '96'}, {'name': 'SETTLEMENT_WORKER_POOL_MAX', 'value': '1200'},
                 {'name': 'SERVER_TOMCAT_THREADS_MAX', 'value': '400'}],
         'ports': [{'containerPort': 8080, 'name': 'http'}],
         'readinessProbe': {'httpGet': {'path': '/actuator/health/readiness', 'port': 8080}, 'initialDelaySeconds': 40, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '2', 'memory': '4Gi'}, 'limits': {'cpu': '4', 'memory': '6Gi'}}}
    containers, vols = with_api([c], [], 'settlement-consumer')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('settlement-consumer', ns_, labels, 2, '75c9b8d4f6', spec, ready=1, created=86400 * 3, generation=6)
    created = 86400 * 2
    last = term(1, 'Error', 3290, 420, seed='sc-5')
    p = mkpod('settlement-consumer-75c9b8d4f6-8kq2w', ns_, 'k8s-worker-03', containers,
              [running('settlement-consumer', img, 415, restarts=5, ready=False, last=last)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '75c9b8d4f6'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, ready=False, since=420)
    t = lambda s: ts(s, '%Y-%m-%d %H:%M:%S.%f')[:-3]
    prev = ['  .   ____          _            __ _ _', ' /\\\\ / ___\'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\', ' =========|_|==============|___/=/_/_/_/', ' :: Spring Boot ::               (v2.7.18)', '',
            '%s  INFO 1 --- [           main] c.e.s.SettlementConsumerApplication      : Starting SettlementConsumerApplication v3.4.7 using Java 1.8.0_392 on settlement-consumer-75c9b8d4f6-8kq2w with PID 1' % t(3280),
            '%s  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port(s): 8080 (http)' % t(3262),
            '%s  INFO 1 --- [           main] o.a.k.clients.consumer.ConsumerConfig    : ConsumerConfig values: group.id = settlement-consumer, max.poll.records = 500' % t(3255),
            '%s  INFO 1 --- [           main] c.e.s.SettlementConsumerApplication      : Started SettlementConsumerApplication in 31.42 seconds (JVM running for 33.07)' % t(3248),
            '%s  INFO 1 --- [ntainer#0-0-C-1] o.s.k.l.KafkaMessageListenerContainer    : settlement-consumer: partitions assigned: [settlement-events-0, settlement-events-1, settlement-events-2]' % t(3240),
            '%s  INFO 1 --- [   scheduling-1] c.e.s.batch.SettlementBatchScheduler     : batch 20261121-0903 dispatched: 18,412 records over 96 partition workers' % t(1260),
            '%s  WARN 1 --- [   scheduling-1] c.e.s.batch.SettlementBatchScheduler     : worker pool at 1004 threads (max 1200), queue 7,310' % t(430),
            '%s ERROR 1 --- [ntainer#0-0-C-1] o.s.k.l.KafkaMessageListenerContainer    : Consumer exception' % t(423),
            'java.lang.OutOfMemoryError: unable to create new native thread',
            '\tat java.lang.Thread.start0(Native Method)',
            '\tat java.lang.Thread.start(Thread.java:717)',
            '\tat org.apache.kafka.clients.consumer.internals.AbstractCoordinator.startHeartbeatThreadIfNeeded(AbstractCoordinator.java:369)',
            'Exception in thread "main" java.lang.OutOfMemoryError: unable to create new native thread',
            '\tat java.lang.Thread.start0(Native Method)',
            '\tat java.lang.Thread.start(Thread.java:717)',
            '\tat java.util.concurrent.ThreadPoolExecutor.addWorker(ThreadPoolExecutor.java:957)',
            '\tat java.util.concurrent.ThreadPoolExecutor.execute(ThreadPoolExecutor.java:1378)',
            '\tat com.example.settlement.batch.SettlementBatchScheduler.dispatch(SettlementBatchScheduler.java:143)',
            '\tat com.example.settlement.SettlementConsumerApplication.main(SettlementConsumerApplication.java:58)']
    cur = [' :: Spring Boot ::               (v2.7.18)', '',
           '%s  INFO 1 --- [           main] c.e.s.SettlementConsumerApplication      : Starting SettlementConsumerApplication v3.4.7 using Java 1.8.0_392 on settlement-consumer-75c9b8d4f6-8kq2w with PID 1' % t(410),
           '%s  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port(s): 8080 (http)' % t(392)]
    nn = 'k8s-worker-03'
    ip = p['status']['podIP']
    evs = [ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=5, first=86400, last=416, host=nn, fieldPath=fp('settlement-consumer')),
           ev(p, 'Created', 'Created container settlement-consumer', 'Normal', count=6, first=86400, last=416, host=nn, fieldPath=fp('settlement-consumer')),
           ev(p, 'Started', 'Started container settlement-consumer', 'Normal', count=6, first=86400, last=415, host=nn, fieldPath=fp('settlement-consumer')),
           unhealthy(p, nn, 'settlement-consumer', 'Get "http://%s:8080/actuator/health/readiness": dial tcp %s:8080: connect: connection refused' % (ip, ip), 3, 400, 380)]
    objs = [ns(ns_), n1, n2, d, rs, p] + evs + [podlog(ns_, p['metadata']['name'], 'settlement-consumer', prev),
                                                podlog(ns_, p['metadata']['name'], 'settlement-consumer', cur, previous=False)] + \
        noise([n1, n2], kv, dns_image='registry.k8s.io/coredns/coredns:v1.10.1')
    case('f3b-java-native-thread-pod-pids-limit', 'A Java consumer dies every few hours with "unable to create new native thread": the kubelet podPidsLimit of 1024 caps its threads',
         'https://github.com/easzlab/kubeasz/issues/1343',
         'Exception in thread "main" java.lang.OutOfMemoryError: unable to create new native thread',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='OutOfMemoryError: unable to create new native thread', playbook=None,
         terms=[['thread', 'PID', 'pids', 'process'], ['podPidsLimit', 'pids limit', 'PID limit', 'pids.max', 'pod-max-pids']])


# =====================================================================================
# 3. mechanism: Elasticsearch's bootstrap check refuses the 4096 open files the EKS AMI's
#    Docker daemon gives every container (its default ulimit), not a pod setting
# =====================================================================================
@reg
def es_nofile_docker():
    ns_ = 'logging'
    kv = 'v1.10.3'
    n1 = mknode('ip-172-31-21-87.eu-west-1.compute.internal', kubelet=kv, runtime='docker://17.6.2', kernel='4.14.62-70.117.amzn2.x86_64', os_image='Amazon Linux 2',
                labels={'alpha.eksctl.io/nodegroup-name': 'ng-1', 'failure-domain.beta.kubernetes.io/zone': 'eu-west-1a'}, ip='172.31.21.87')
    n2 = mknode('ip-172-31-40-12.eu-west-1.compute.internal', kubelet=kv, runtime='docker://17.6.2', kernel='4.14.62-70.117.amzn2.x86_64', os_image='Amazon Linux 2',
                labels={'alpha.eksctl.io/nodegroup-name': 'ng-1', 'failure-domain.beta.kubernetes.io/zone': 'eu-west-1b'}, ip='172.31.40.12')
    img = 'quay.io/pires/docker-elasticsearch-kubernetes:6.2.3'
    labels = {'component': 'elasticsearch', 'role': 'master'}
    init = [{'name': 'init-sysctl', 'image': 'busybox:1.27.2', 'imagePullPolicy': 'IfNotPresent', 'command': ['sysctl', '-w', 'vm.max_map_count=262144'],
             'securityContext': {'privileged': True}}]
    c = {'name': 'es-master', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'NAMESPACE', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.namespace'}}}, {'name': 'NODE_NAME', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}},
                 {'name': 'CLUSTER_NAME', 'value': 'myesdb'}, {'name': 'NUMBER_OF_MASTERS', 'value': '2'}, {'name': 'NODE_MASTER', 'value': 'true'},
                 {'name': 'NODE_INGEST', 'value': 'false'}, {'name': 'NODE_DATA', 'value': 'false'}, {'name': 'HTTP_ENABLE', 'value': 'false'},
                 {'name': 'ES_JAVA_OPTS', 'value': '-Xms256m -Xmx256m'}, {'name': 'PROCESSORS', 'valueFrom': {'resourceFieldRef': {'resource': 'limits.cpu', 'divisor': '0'}}}],
         'ports': [{'containerPort': 9300, 'name': 'transport'}],
         'livenessProbe': {'tcpSocket': {'port': 'transport'}, 'initialDelaySeconds': 20, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '250m'}, 'limits': {'cpu': '1'}},
         'securityContext': {'capabilities': {'add': ['IPC_LOCK', 'SYS_RESOURCE']}},
         'volumeMounts': [{'name': 'storage', 'mountPath': '/data'}]}
    containers, vols = with_api([c], [{'name': 'storage', 'emptyDir': {}}], 'es-master')
    spec = {'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('es-master', ns_, labels, 3, '6d4f8b9c7', spec, ready=0, created=1900, generation=1)
    created = 1850
    init_st = [{'name': 'init-sysctl', 'ready': True, 'restartCount': 0, 'image': 'busybox:1.27.2', 'imageID': imgid('busybox:1.27.2'), 'containerID': cid('es-init'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 8), 'finishedAt': ago(created - 8), 'containerID': cid('es-init')}}}]
    p = mkpod('es-master-6d4f8b9c7-vn7qd', ns_, n1['metadata']['name'], containers, [running('es-master', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6d4f8b9c7'}, spec_extra={'volumes': vols}, init=copy.deepcopy(init), init_statuses=init_st)
    set_status(p, [clbo(p, 'es-master', img, 6, term(78, 'Error', 267, 250, seed='es-6'))], created)
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    docker_ids(p)
    t = lambda s: ts(s, '%Y-%m-%dT%H:%M:%S,%f')[:-3]
    nm = p['metadata']['name']
    logs = ['[%s][INFO ][o.e.n.Node               ] [%s] initializing ...' % (t(266), nm),
            '[%s][INFO ][o.e.e.NodeEnvironment    ] [%s] using [1] data paths, mounts [[/data (/dev/nvme0n1p1)]], net usable_space [17.1gb], net total_space [19.9gb], types [xfs]' % (t(265), nm),
            '[%s][INFO ][o.e.e.NodeEnvironment    ] [%s] heap size [247.5mb], compressed ordinary object pointers [true]' % (t(265), nm),
            '[%s][INFO ][o.e.n.Node               ] [%s] version[6.2.3], pid[1], build[c59ff00/2018-03-13T10:06:29.741383Z], OS[Linux/4.14.62-70.117.amzn2.x86_64/amd64], JVM[Oracle Corporation/OpenJDK 64-Bit Server VM/1.8.0_151/25.151-b12]' % (t(265), nm),
            '[%s][INFO ][o.e.p.PluginsService     ] [%s] no plugins loaded' % (t(261), nm),
            '[%s][INFO ][o.e.d.DiscoveryModule    ] [%s] using discovery type [zen]' % (t(257), nm),
            '[%s][INFO ][o.e.n.Node               ] [%s] initialized' % (t(256), nm),
            '[%s][INFO ][o.e.n.Node               ] [%s] starting ...' % (t(256), nm),
            '[%s][INFO ][o.e.t.TransportService   ] [%s] publish_address {%s:9300}, bound_addresses {0.0.0.0:9300}' % (t(255), nm, p['status']['podIP']),
            '[%s][INFO ][o.e.b.BootstrapChecks    ] [%s] bound or publishing to a non-loopback address, enforcing bootstrap checks' % (t(254), nm),
            'ERROR: [1] bootstrap checks failed',
            '[1]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65536]',
            '[%s][INFO ][o.e.n.Node               ] [%s] stopping ...' % (t(252), nm),
            '[%s][INFO ][o.e.n.Node               ] [%s] stopped' % (t(251), nm),
            '[%s][INFO ][o.e.n.Node               ] [%s] closing ...' % (t(251), nm),
            '[%s][INFO ][o.e.n.Node               ] [%s] closed' % (t(250), nm)]
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, 'busybox:1.27.2', 'init-sysctl', created - 4, size=1129289, init=True) + \
        started(p, nn, img, 'es-master', created - 10, pulled_in='21.402s', size=391822164) + restarted(p, nn, img, 'es-master', 6, created - 70, 267) + \
        [backoff(p, nn, 'es-master', 31, created - 110, 14)]
    for e in evs:  # kubelet 1.10 wording: no pull duration or size
        if e['reason'] == 'Pulled' and e['message'].startswith('Successfully'): e['message'] = e['message'].split(' in ')[0]
    objs = [ns(ns_), n1, n2, d, rs, p, service('elasticsearch-discovery', ns_, labels, ports=((9300, 9300),))] + evs + [podlog(ns_, nm, 'es-master', logs)] + \
        noise([n1, n2], kv, dns_image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.1.3')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system':
            docker_ids(o)
    case('f3b-elasticsearch-nofile-docker-default-ulimit', 'Elasticsearch masters crash-loop on EKS: the bootstrap check refuses the 4096 open files Docker gives every container on this AMI',
         'https://github.com/pires/kubernetes-elasticsearch-cluster/issues/215',
         '[1]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65536]',
         '%s/%s' % (ns_, nm), 'any', objs, decisive='max file descriptors [4096] for elasticsearch process is too low', playbook=None,
         terms=[['file descriptor', 'open files', 'nofile', 'RLIMIT_NOFILE'], ['ulimit', 'LimitNOFILE', 'default-ulimit', 'container runtime', 'dockerd']])


# =====================================================================================
# 4. crash.port-in-use: a second node-exporter DaemonSet (hostNetwork) finds port 9100 of every
#    node held by the kube-prometheus one installed earlier in another namespace
# =====================================================================================
@reg
def node_exporter_port():
    kv = 'v1.21.5-eks-bc4871b'
    nodes = [mknode('ip-192-168-%d-%d.us-east-2.compute.internal' % (a, b), kubelet=kv, runtime='containerd://1.4.6', kernel='5.4.172-90.336.amzn2.x86_64', os_image='Amazon Linux 2',
                    labels={'eks.amazonaws.com/nodegroup': 'workers', 'topology.kubernetes.io/zone': z}, ip='192.168.%d.%d' % (a, b))
             for a, b, z in ((12, 201, 'us-east-2a'), (45, 17, 'us-east-2b'))]
    ns_ = 'contour-monitoring'
    img = 'prom/node-exporter:v0.15.2'
    labels = {'app': 'prometheus', 'component': 'node-exporter'}
    c = {'name': 'prometheus-node-exporter', 'image': img, 'imagePullPolicy': 'Always', 'args': ['--path.procfs=/host/proc', '--path.sysfs=/host/sys'],
         'ports': [{'containerPort': 9100, 'hostPort': 9100, 'name': 'metrics', 'protocol': 'TCP'}], 'resources': {},
         'volumeMounts': [{'name': 'proc', 'mountPath': '/host/proc', 'readOnly': True}, {'name': 'sys', 'mountPath': '/host/sys', 'readOnly': True}]}
    vols = [{'name': 'proc', 'hostPath': {'path': '/proc', 'type': ''}}, {'name': 'sys', 'hostPath': {'path': '/sys', 'type': ''}}]
    spec = {'containers': [copy.deepcopy(c)], 'volumes': vols, 'hostNetwork': True, 'hostPID': True}
    ds = daemonset('prometheus-node-exporter', ns_, labels, 2, 0, spec, created=1500)
    ds['spec']['updateStrategy'] = {'type': 'OnDelete'}
    ds['metadata']['annotations'] = {'deprecated.daemonset.template.generation': '1'}
    nn = nodes[0]['metadata']['name']
    created = 1450
    p = mkpod('prometheus-node-exporter-7xq4m', ns_, nn, [c], [running('prometheus-node-exporter', img, 60)], created, owner=('DaemonSet', 'prometheus-node-exporter'),
              labels={**labels, 'controller-revision-hash': '5d8c7f9b4', 'pod-template-generation': '1'},
              spec_extra={'volumes': vols, 'hostNetwork': True, 'hostPID': True, 'dnsPolicy': 'ClusterFirst'})
    set_status(p, [clbo(p, 'prometheus-node-exporter', img, 8, term(1, 'Error', 131, 131, seed='ne-8'))], created)
    p['status']['podIP'] = p['status']['hostIP']; p['status']['podIPs'] = [{'ip': p['status']['hostIP']}]
    logs = ['time="%s" level=info msg="Starting node_exporter (version=0.15.2, branch=HEAD, revision=98bc64930d34878b84a0f87dfe6e1a6da61e532d)" source="node_exporter.go:43"' % ts(131, '%Y-%m-%dT%H:%M:%SZ'),
            'time="%s" level=info msg="Build context (go=go1.9.2, user=root@d5c4792c921f, date=20171205-14:50:53)" source="node_exporter.go:44"' % ts(131, '%Y-%m-%dT%H:%M:%SZ'),
            'time="%s" level=info msg="No directory specified, see --collector.textfile.directory" source="textfile.go:57"' % ts(131, '%Y-%m-%dT%H:%M:%SZ'),
            'time="%s" level=info msg="Enabled collectors:" source="node_exporter.go:50"' % ts(131, '%Y-%m-%dT%H:%M:%SZ')] + \
        ['time="%s" level=info msg=" - %s" source="node_exporter.go:52"' % (ts(131, '%Y-%m-%dT%H:%M:%SZ'), k)
         for k in ('arp', 'bcache', 'conntrack', 'cpu', 'diskstats', 'edac', 'entropy', 'filefd', 'filesystem', 'hwmon', 'infiniband', 'ipvs', 'loadavg', 'mdadm', 'meminfo',
                   'netdev', 'netstat', 'sockstat', 'stat', 'textfile', 'time', 'timex', 'uname', 'vmstat', 'wifi', 'xfs', 'zfs')] + \
        ['time="%s" level=info msg="Listening on :9100" source="node_exporter.go:76"' % ts(131, '%Y-%m-%dT%H:%M:%SZ'),
         'time="%s" level=fatal msg="listen tcp :9100: bind: address already in use" source="node_exporter.go:79"' % ts(131, '%Y-%m-%dT%H:%M:%SZ')]
    evs = [ctrl_ev(ds, 'SuccessfulCreate', 'Created pod: prometheus-node-exporter-7xq4m', 'daemonset-controller', last=created),
           ctrl_ev(ds, 'SuccessfulCreate', 'Created pod: prometheus-node-exporter-w2d9k', 'daemonset-controller', last=created),
           scheduled(p, nn, created - 1)] + started(p, nn, img, 'prometheus-node-exporter', created - 4, size=9792514) + \
        restarted(p, nn, img, 'prometheus-node-exporter', 8, created - 40, 132) + [backoff(p, nn, 'prometheus-node-exporter', 33, created - 60, 9)]
    # the team's own Prometheus node-exporter, installed months earlier in another namespace: hostNetwork on
    # 9100 too, written without a ports list, so the scheduler saw no host-port conflict
    kp_ns = 'monitoring'
    kp_img = 'quay.io/prometheus/node-exporter:v1.3.1'
    kp_labels = {'app': 'node-exporter'}
    kp_c = {'name': 'node-exporter', 'image': kp_img, 'args': ['--web.listen-address=0.0.0.0:9100', '--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root'],
            'resources': {'limits': {'cpu': '250m', 'memory': '180Mi'}, 'requests': {'cpu': '102m', 'memory': '180Mi'}}}
    kp_ds = daemonset('node-exporter', kp_ns, kp_labels, 2, 2, {'containers': [kp_c], 'hostNetwork': True, 'hostPID': True}, created=86400 * 120)
    kp_pods = []
    for n_, s in zip(nodes, ('h7t2c', 'pm4xz')):
        kp = mkpod('node-exporter-' + s, kp_ns, n_['metadata']['name'], [copy.deepcopy(kp_c)], [running('node-exporter', kp_img, 86400 * 40 - 20)], 86400 * 40,
                   owner=('DaemonSet', 'node-exporter'), labels=dict(kp_labels), spec_extra={'hostNetwork': True, 'hostPID': True})
        kp['status']['podIP'] = kp['status']['hostIP']; kp['status']['podIPs'] = [{'ip': kp['status']['hostIP']}]
        kp_pods.append(kp)
    p2 = mkpod('prometheus-node-exporter-w2d9k', ns_, nodes[1]['metadata']['name'], [c], [running('prometheus-node-exporter', img, 60)], created, owner=('DaemonSet', 'prometheus-node-exporter'),
               labels={**labels, 'controller-revision-hash': '5d8c7f9b4', 'pod-template-generation': '1'}, spec_extra={'volumes': vols, 'hostNetwork': True, 'hostPID': True})
    set_status(p2, [clbo(p2, 'prometheus-node-exporter', img, 8, term(1, 'Error', 129, 129, seed='ne2-8'))], created)
    objs = [ns(ns_), ns(kp_ns)] + nodes + [ds, p, p2, kp_ds] + kp_pods + evs + [podlog(ns_, p['metadata']['name'], 'prometheus-node-exporter', logs)] + \
        noise(nodes, kv, dns_image='602401143452.dkr.ecr.us-east-2.amazonaws.com/eks/coredns:v1.8.4-eksbuild.1')
    case('f3b-node-exporter-hostport-9100-other-namespace', "Contour's example node-exporter crash-loops on EKS: port 9100 of each node is already served by kube-prometheus's node-exporter (hostNetwork)",
         'https://github.com/projectcontour/contour/issues/4343', 'level=fatal msg="listen tcp :9100: bind: address already in use" source="node_exporter.go:79"',
         '%s/%s' % (ns_, p['metadata']['name']), 'crash.port-in-use', objs, decisive='listen tcp :9100: bind: address already in use')


# =====================================================================================
# 5. config.missing-reference: after a helm upgrade the new pod's init container reads a Secret
#    that was never created: Init:CreateContainerConfigError (the old pod keeps serving)
# =====================================================================================
@reg
def init_secret_missing():
    ns_ = 'default'
    kv = 'v1.13.5+IKS'
    n1 = mknode('10.47.122.150', kubelet=kv, runtime='containerd://1.2.6', kernel='4.4.0-146-generic', os_image='Ubuntu 16.04.6 LTS',
                labels={'ibm-cloud.kubernetes.io/worker-pool-name': 'default', 'ibm-cloud.kubernetes.io/zone': 'tok02'}, ip='10.47.122.150')
    img = 'nginx:1.15'
    labels = {'app': 'mychart', 'release': 'sample'}
    init = [{'name': 'init-myservice', 'image': 'busybox', 'imagePullPolicy': 'Always',
             'command': ['sh', '-c', 'cat /etc/config-template/index.html | sed "s/__NAME__/IKS-san/" | sed "s/__PASSWORD__/$PASSWORD/" > /etc/config/index.html'],
             'env': [{'name': 'PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'my-password', 'key': 'password'}}}],
             'volumeMounts': [{'name': 'config-template', 'mountPath': '/etc/config-template'}, {'name': 'config', 'mountPath': '/etc/config'}]}]
    c = {'name': 'mychart', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 80, 'name': 'http', 'protocol': 'TCP'}],
         'livenessProbe': {'httpGet': {'path': '/', 'port': 'http'}}, 'readinessProbe': {'httpGet': {'path': '/', 'port': 'http'}},
         'resources': {}, 'volumeMounts': [{'name': 'config', 'mountPath': '/usr/share/nginx/html'}]}
    vols = [{'name': 'config-template', 'configMap': {'name': 'sample-mychart', 'defaultMode': 420}}, {'name': 'config', 'emptyDir': {}}]
    new_spec = {'initContainers': copy.deepcopy(init), 'containers': [copy.deepcopy(c)], 'volumes': vols}
    old_init = copy.deepcopy(init)
    old_init[0]['command'] = ['sh', '-c', 'cat /etc/config-template/index.html | sed "s/__NAME__/IKS-san/" > /etc/config/index.html']
    del old_init[0]['env']
    old_spec = {'initContainers': old_init, 'containers': [copy.deepcopy(c)], 'volumes': vols}
    d, rs = deploy('sample-mychart', ns_, labels, 1, '6bfc89db65', new_spec, ready=1, updated=1, created=86400, generation=2,
                   conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86000), 'lastTransitionTime': ago(86000)},
                               {'type': 'Progressing', 'status': 'True', 'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "sample-mychart-6bfc89db65" is progressing.', 'lastUpdateTime': ago(108), 'lastTransitionTime': ago(108)}])
    d['metadata']['labels'].update({'chart': 'mychart-0.2.0', 'heritage': 'Tiller'})
    rs['metadata']['creationTimestamp'] = ago(108)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    old_rs = replicaset(d, '7d4c9f8b6', 1, 1, old_spec, created=86400, revision=1)
    created = 108
    p = mkpod('sample-mychart-6bfc89db65-j9g9z', ns_, '10.47.122.150', [c], [waiting('mychart', img, 'PodInitializing', pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6bfc89db65'}, phase='Pending', spec_extra={'volumes': vols},
              init=copy.deepcopy(init), init_statuses=[waiting('init-myservice', 'busybox', 'CreateContainerConfigError', 'secrets "my-password" not found', pulled=False)])
    p['metadata']['annotations'] = {'kubernetes.io/psp': 'ibm-privileged-psp'}
    p['status']['containerStatuses'][0]['imageID'] = ''
    p['status']['initContainerStatuses'][0]['imageID'] = ''
    p['status']['conditions'] = conds(created, False, msg='containers with incomplete status: [init-myservice]', initialized=False)
    p['status']['conditions'][2]['message'] = 'containers with unready status: [mychart]'
    p['status']['conditions'][3]['message'] = 'containers with unready status: [mychart]'
    p['status']['conditions'] = [c_ for c_ in p['status']['conditions'] if c_['type'] != 'PodReadyToStartContainers']
    p['status']['qosClass'] = 'BestEffort'
    old = mkpod('sample-mychart-7d4c9f8b6-x2lnb', ns_, '10.47.122.150', [c], [running('mychart', img, 86000)], 86100, owner=('ReplicaSet', old_rs['metadata']['name']),
                labels={**labels, 'pod-template-hash': '7d4c9f8b6'}, spec_extra={'volumes': vols}, init=copy.deepcopy(old_init),
                init_statuses=[{'name': 'init-myservice', 'ready': True, 'restartCount': 0, 'image': 'busybox:latest', 'imageID': imgid('busybox:latest'), 'containerID': cid('old-init'),
                                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(86050), 'finishedAt': ago(86050), 'containerID': cid('old-init')}}}])
    nn = '10.47.122.150'
    f = ifp('init-myservice')
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'Pulling', 'pulling image "busybox"', 'Normal', count=9, first=created - 3, last=8, host=nn, fieldPath=f),
           ev(p, 'Pulled', 'Successfully pulled image "busybox"', 'Normal', count=9, first=created - 5, last=6, host=nn, fieldPath=f),
           ev(p, 'Failed', 'Error: secrets "my-password" not found', count=9, first=created - 5, last=6, host=nn, fieldPath=f),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set sample-mychart-6bfc89db65 to 1', 'deployment-controller', last=108)]
    objs = [ns(ns_), n1, d, rs, old_rs, p, old, configmap('sample-mychart', ns_, {'index.html': '<html><body><h1>Hello __NAME__</h1><!-- __PASSWORD__ --></body></html>\n'}, created=110),
            service('sample-mychart', ns_, labels, ports=((80, 80),)), secret('sample-mychart-tls', ns_, ['tls.crt', 'tls.key'], type_='kubernetes.io/tls')] + evs + \
        noise([n1], kv, dns_image='registry.ng.bluemix.net/armada-master/coredns:1.2.6')
    case('f3b-init-container-secret-not-found', 'After a helm upgrade the new pod is stuck in Init:CreateContainerConfigError: its init container reads a Secret that does not exist',
         'https://github.com/ibm-cloud-labs/iks-handson/issues/7', 'Error: secrets "my-password" not found',
         '%s/%s' % (ns_, p['metadata']['name']), 'config.missing-reference', objs, decisive='secrets "my-password" not found')


# =====================================================================================
# 6. pending.insufficient-resources: no node advertises nvidia.com/gpu: the device plugin runs on the
#    GPU nodes but cannot load NVML (docker's default runtime is not nvidia), so it registers nothing.
#    The scheduler's line is #22's; the plugin's lines and their cause are from the same weeks'
#    NVIDIA/k8s-device-plugin#23, where the maintainer named the default runtime.
# =====================================================================================
@reg
def gpu_device_plugin_nvml():
    kv = 'v1.9.1'
    master = mknode('mlssdi010001', kubelet=kv, runtime='docker://17.3.2', kernel='3.10.0-693.el7.x86_64', ip='10.141.0.11',
                    labels={'node-role.kubernetes.io/master': ''}, taints=[{'key': 'node-role.kubernetes.io/master', 'effect': 'NoSchedule'}])
    gpus = [mknode('mlssdi01000%d' % k, kubelet=kv, runtime='docker://17.3.2', kernel='3.10.0-693.el7.x86_64', ip='10.141.0.%d' % (10 + k),
                   labels={'accelerator': 'nvidia-tesla-p100'}) for k in (2, 3)]
    nodes = [master] + gpus
    ns_ = 'default'
    img = 'tensorflow/tensorflow:1.4.1-gpu-py3'
    labels = {'app': 'tf-notebook'}
    spec = {'containers': [{'name': 'tf-notebook', 'image': img, 'ports': [{'containerPort': 8888}],
                            'resources': {'limits': {'nvidia.com/gpu': '1'}, 'requests': {'nvidia.com/gpu': '1'}},
                            'volumeMounts': [{'name': 'work', 'mountPath': '/work'}]}],
            'volumes': [{'name': 'work', 'emptyDir': {}}]}
    d, rs = deploy('tf-notebook', ns_, labels, 1, '747db6987b', spec, ready=0, created=2400, generation=1)
    msg = '0/3 nodes are available: 1 PodToleratesNodeTaints, 3 Insufficient nvidia.com/gpu.'
    p = pending_pod_(rs, 'tf-notebook-747db6987b-86zts', ns_, msg, spec, 2380, {**labels, 'pod-template-hash': '747db6987b'})
    p['status']['qosClass'] = 'BestEffort'
    evs = [ev(p, 'FailedScheduling', msg, count=142, first=2379, last=14, component='default-scheduler'),
           ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: tf-notebook-747db6987b-86zts', 'replicaset-controller', last=2380),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set tf-notebook-747db6987b to 1', 'deployment-controller', last=2400)]
    dp_img = 'nvidia/k8s-device-plugin:1.9'
    dp_spec = {'containers': [{'name': 'nvidia-device-plugin-ctr', 'image': dp_img, 'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}},
                               'volumeMounts': [{'name': 'device-plugin', 'mountPath': '/var/lib/kubelet/device-plugins'}]}],
               'volumes': [{'name': 'device-plugin', 'hostPath': {'path': '/var/lib/kubelet/device-plugins'}}],
               'tolerations': [{'key': 'CriticalAddonsOnly', 'operator': 'Exists'}]}
    dp_ds = daemonset('nvidia-device-plugin-daemonset', 'kube-system', {'name': 'nvidia-device-plugin-ds'}, 2, 2, dp_spec, created=3600)
    dp_pods, dp_logs = [], []
    for n_, s in zip(gpus, ('2hxqk', 'v8nbf')):
        dpp = mkpod('nvidia-device-plugin-daemonset-' + s, 'kube-system', n_['metadata']['name'], copy.deepcopy(dp_spec['containers']),
                    [running('nvidia-device-plugin-ctr', dp_img, 3550)], 3560, owner=('DaemonSet', 'nvidia-device-plugin-daemonset'),
                    labels={'name': 'nvidia-device-plugin-ds', 'controller-revision-hash': '3902813741', 'pod-template-generation': '1'},
                    spec_extra={'volumes': dp_spec['volumes'], 'priorityClassName': 'system-node-critical'})
        dpp['metadata']['annotations'] = {'scheduler.alpha.kubernetes.io/critical-pod': ''}
        docker_ids(dpp)
        dp_pods.append(dpp)
        t = lambda s_: ts(s_, '%Y/%m/%d %H:%M:%S')
        dp_logs.append(podlog('kube-system', dpp['metadata']['name'], 'nvidia-device-plugin-ctr',
                              ['%s Loading NVML' % t(3549), '%s Failed to start nvml with error:  could not load NVML library' % t(3549)], previous=False))
    for o in [master] + gpus:
        o['status']['capacity'] = {'cpu': '56', 'memory': '263855088Ki', 'pods': '110', 'ephemeral-storage': '938210304Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0'}
        o['status']['allocatable'] = {'cpu': '56', 'memory': '263752688Ki', 'pods': '110', 'ephemeral-storage': '864646496889', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0'}
    kube = noise(nodes, kv, dns_image='k8s.gcr.io/coredns:1.0.6')
    for o in kube + [p]:
        docker_ids(o)
    objs = [ns(ns_)] + nodes + [d, rs, p, dp_ds] + dp_pods + evs + dp_logs + kube
    case('f3b-gpu-pending-device-plugin-no-nvml', 'A TensorFlow notebook stays Pending: no node advertises nvidia.com/gpu, the device plugin cannot load NVML because docker\'s default runtime is not nvidia',
         'https://github.com/NVIDIA/k8s-device-plugin/issues/22', '0/3 nodes are available: 1 PodToleratesNodeTaints, 3 Insufficient nvidia.com/gpu.',
         '%s/%s' % (ns_, p['metadata']['name']), 'pending.insufficient-resources', objs, decisive='3 Insufficient nvidia.com/gpu')


# =====================================================================================
# N1. negative: right after a rollout the HPA could not read the new pods' CPU for a few minutes
#     (FailedGetResourceMetric); the pods are Ready and the HPA has read them for 35 minutes
# =====================================================================================
@reg
def neg_hpa_metrics_after_rollout():
    ns_ = 'example'
    kv = 'v1.31.6-eks-1a2b3c4'
    nodes = [mknode('ip-10-42-%d-%d.eu-west-1.compute.internal' % (a, b), kubelet=kv, runtime='containerd://1.7.25', kernel='6.1.128-136.201.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20250303',
                    labels={'eks.amazonaws.com/nodegroup': 'apps', 'topology.kubernetes.io/zone': z}, ip='10.42.%d.%d' % (a, b))
             for a, b, z in ((3, 118, 'eu-west-1a'), (19, 40, 'eu-west-1b'))]
    img = '111122223333.dkr.ecr.eu-west-1.amazonaws.com/my-app:2025.11.21-1'
    labels = {'app.kubernetes.io/name': 'my-app', 'app.kubernetes.io/instance': 'my-app-example-eu-west-1'}
    c = {'name': 'my-app', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
         'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 'http'}, 'initialDelaySeconds': 10, 'periodSeconds': 5},
         'livenessProbe': {'httpGet': {'path': '/healthz/live', 'port': 'http'}, 'initialDelaySeconds': 30, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '500m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}}
    containers, vols = with_api([c], [], 'my-app')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('my-app-example-eu-west-1', ns_, labels, 2, '58d7f6c9b4', spec, ready=2, created=86400 * 200, generation=57)
    d['status']['conditions'][1]['lastUpdateTime'] = ago(2330)
    rs['metadata']['creationTimestamp'] = ago(2400)
    old_rs = replicaset(d, '69c4b8f7d5', 0, 0, spec, created=86400 * 6, revision=56)
    pods, evs = [], []
    for s, n_, age in (('k2x9p', nodes[0], 2395), ('f7wq4', nodes[1], 2350)):
        nn = n_['metadata']['name']
        pp = mkpod('my-app-example-eu-west-1-58d7f6c9b4-' + s, ns_, nn, containers, [running('my-app', img, age - 6)], age, owner=('ReplicaSet', rs['metadata']['name']),
                   labels={**labels, 'pod-template-hash': '58d7f6c9b4'}, spec_extra={'volumes': vols}, conditions=conds(age, True, since=age - 21))
        pods.append(pp)
        ip = pp['status']['podIP']
        evs += [scheduled(pp, nn, age - 1)] + started(pp, nn, img, 'my-app', age - 3, pulled_in='4.812s', size=98122301) + \
            [unhealthy(pp, nn, 'my-app', 'Get "http://%s:8080/healthz/ready": dial tcp %s:8080: connect: connection refused' % (ip, ip), 2, age - 12, age - 17)]
    hpa = obj('HorizontalPodAutoscaler', 'autoscaling/v2', 'my-app-example-eu-west-1', ns_, 86400 * 200,
              spec={'scaleTargetRef': {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'name': 'my-app-example-eu-west-1'}, 'minReplicas': 2, 'maxReplicas': 10,
                    'metrics': [{'type': 'Resource', 'resource': {'name': 'cpu', 'target': {'type': 'Utilization', 'averageUtilization': 70}}}]},
              status={'currentReplicas': 2, 'desiredReplicas': 2, 'lastScaleTime': ago(86400 * 3),
                      'currentMetrics': [{'type': 'Resource', 'resource': {'name': 'cpu', 'current': {'averageUtilization': 23, 'averageValue': '116m'}}}],
                      'conditions': [{'type': 'AbleToScale', 'status': 'True', 'reason': 'ReadyForNewScale', 'message': 'recommended size matches current size', 'lastTransitionTime': ago(86400 * 3)},
                                     {'type': 'ScalingActive', 'status': 'True', 'reason': 'ValidMetricFound', 'message': 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)', 'lastTransitionTime': ago(2110)},
                                     {'type': 'ScalingLimited', 'status': 'True', 'reason': 'TooFewReplicas', 'message': 'the desired replica count is less than the minimum replica count', 'lastTransitionTime': ago(86400 * 3)}]})
    evs += [ctrl_ev(hpa, 'FailedGetResourceMetric', 'failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)', 'horizontal-pod-autoscaler',
                    type_='Warning', count=5, first=2380, last=2140),
            ctrl_ev(hpa, 'FailedComputeMetricsReplicas', 'invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
                    'horizontal-pod-autoscaler', type_='Warning', count=5, first=2380, last=2140),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set my-app-example-eu-west-1-58d7f6c9b4 from 0 to 1', 'deployment-controller', last=2400),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set my-app-example-eu-west-1-69c4b8f7d5 from 2 to 1', 'deployment-controller', last=2360),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set my-app-example-eu-west-1-58d7f6c9b4 from 1 to 2', 'deployment-controller', last=2360),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set my-app-example-eu-west-1-69c4b8f7d5 from 1 to 0', 'deployment-controller', last=2330)]
    ms_img = 'registry.k8s.io/metrics-server/metrics-server:v0.7.2'
    ms = mkpod('metrics-server-5b76987ff-t9vzr', 'kube-system', nodes[1]['metadata']['name'], [{'name': 'metrics-server', 'image': ms_img}], [running('metrics-server', ms_img, 86400 * 20)],
               86400 * 20, owner=('ReplicaSet', 'metrics-server-5b76987ff'), labels={'k8s-app': 'metrics-server', 'pod-template-hash': '5b76987ff'},
               spec_extra={'priorityClassName': 'system-cluster-critical'})
    t = lambda s: ts(s, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z'
    log = ['{"level":"info","ts":"%s","msg":"starting my-app","version":"2025.11.21-1"}' % t(2390),
           '{"level":"info","ts":"%s","msg":"connected to postgres","host":"my-app-db.example.svc.cluster.local"}' % t(2385),
           '{"level":"info","ts":"%s","msg":"http server listening","addr":":8080"}' % t(2378)] + \
          ['{"level":"info","ts":"%s","msg":"request summary","window":"5m","requests":%d,"p99_ms":%d,"errors_5xx":0}' % (t(2100 - 300 * k), 4100 + 61 * k, 38 + k % 4) for k in range(7)]
    objs = [ns(ns_)] + nodes + [d, rs, old_rs] + pods + [hpa, ms, service('my-app', ns_, labels, ports=((80, 8080),)),
                                                        endpoints('my-app', ns_, ready=[(pp['status']['podIP'], pp['metadata']['name'], pp['spec']['nodeName']) for pp in pods], port=8080)] + \
        evs + [podlog(ns_, pods[0]['metadata']['name'], 'my-app', log, previous=False)] + noise(nodes, kv, dns_image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.11.4-eksbuild.2')
    case('f3b-neg-hpa-no-metrics-right-after-rollout', 'Healthy: pods Ready for 38 minutes; the HPA warned FailedGetResourceMetric for the first four minutes after the rollout, before metrics-server had scraped the new pods',
         'https://github.com/kubernetes-sigs/metrics-server/issues/1641',
         'failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)',
         '%s/%s' % (ns_, pods[0]['metadata']['name']), None, objs)


# =====================================================================================
# N2. negative: the node rebooted 50 minutes ago; the first sandboxes failed while the CNI could not
#     reach the API server, then the pod came back (one restart, init container re-run) and is Ready
# =====================================================================================
@reg
def neg_node_reboot_sandbox_recovered():
    ns_ = 'ledger'
    kv = 'v1.30.8'
    boot = 3000
    n1 = mknode('ip-172-22-126-113.eu-west-2.compute.internal', kubelet=kv, runtime='containerd://1.7.24', kernel='6.6.74-flatcar', os_image='Flatcar Container Linux by Kinvolk 4081.2.1 (Oklo)',
                labels={'kops.k8s.io/instancegroup': 'nodes-eu-west-2a', 'topology.kubernetes.io/zone': 'eu-west-2a', 'node-role.kubernetes.io/node': ''}, ip='172.22.126.113')
    for cnd in n1['status']['conditions']:
        if cnd['type'] == 'Ready': cnd['lastTransitionTime'] = ago(boot - 40)
    n2 = mknode('ip-172-22-140-7.eu-west-2.compute.internal', kubelet=kv, runtime='containerd://1.7.24', kernel='6.6.74-flatcar', os_image='Flatcar Container Linux by Kinvolk 4081.2.1 (Oklo)',
                labels={'kops.k8s.io/instancegroup': 'nodes-eu-west-2b', 'topology.kubernetes.io/zone': 'eu-west-2b', 'node-role.kubernetes.io/node': ''}, ip='172.22.140.7')
    img, mig_img = '123456789012.dkr.ecr.eu-west-2.amazonaws.com/ledger-api:5.12.0', '123456789012.dkr.ecr.eu-west-2.amazonaws.com/ledger-migrate:5.12.0'
    labels = {'app': 'ledger-api'}
    init = [{'name': 'migrate', 'image': mig_img, 'args': ['up', '--wait-lock'], 'envFrom': [{'secretRef': {'name': 'ledger-db'}}],
             'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '128Mi'}}}]
    c = {'name': 'ledger-api', 'image': img, 'ports': [{'containerPort': 8443, 'name': 'https'}], 'envFrom': [{'secretRef': {'name': 'ledger-db'}}],
         'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8443, 'scheme': 'HTTPS'}, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '250m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}
    containers, vols = with_api([c], [], 'ledger-api')
    spec = {'initContainers': copy.deepcopy(init), 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('ledger-api', ns_, labels, 2, '6f5d8c7b9d', spec, ready=2, created=86400 * 60, generation=14)
    created = 86400 * 9
    pn = 'ledger-api-6f5d8c7b9d-zt4kx'
    last = term(255, 'Unknown', 86400 * 9 - 30, boot + 20, seed='ledger-boot')
    p = mkpod(pn, ns_, n1['metadata']['name'], containers, [running('ledger-api', img, boot - 174, restarts=1, last=last)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6f5d8c7b9d'}, spec_extra={'volumes': vols}, init=copy.deepcopy(init),
              init_statuses=[{'name': 'migrate', 'ready': True, 'restartCount': 1, 'image': mig_img, 'imageID': imgid(mig_img), 'containerID': cid('mig-2'),
                              'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(boot - 166), 'finishedAt': ago(boot - 171), 'containerID': cid('mig-2')}}}])
    set_status(p, p['status']['containerStatuses'], created, since=boot - 190)
    p['status']['conditions'][0]['lastTransitionTime'] = ago(boot - 160)
    p['status']['conditions'][1]['lastTransitionTime'] = ago(boot - 172)
    nn = n1['metadata']['name']
    cni = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="calico" failed (add): '
           'error getting ClusterInformation: Get "https://100.64.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default": dial tcp 100.64.0.1:443: i/o timeout')
    evs = [ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', count=1, first=boot - 45, last=boot - 45, host=nn),
           ev(p, 'FailedCreatePodSandBox', cni % hexid('sb-first', 64), count=4, first=boot - 46, last=boot - 150, host=nn),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % mig_img, 'Normal', first=boot - 165, last=boot - 165, host=nn, fieldPath=ifp('migrate')),
           ev(p, 'Created', 'Created container migrate', 'Normal', first=boot - 166, last=boot - 166, host=nn, fieldPath=ifp('migrate')),
           ev(p, 'Started', 'Started container migrate', 'Normal', first=boot - 166, last=boot - 166, host=nn, fieldPath=ifp('migrate')),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', first=boot - 173, last=boot - 173, host=nn, fieldPath=fp('ledger-api')),
           ev(p, 'Created', 'Created container ledger-api', 'Normal', first=boot - 174, last=boot - 174, host=nn, fieldPath=fp('ledger-api')),
           ev(p, 'Started', 'Started container ledger-api', 'Normal', first=boot - 174, last=boot - 174, host=nn, fieldPath=fp('ledger-api')),
           unhealthy(p, nn, 'ledger-api', 'Get "https://%s:8443/ready": dial tcp %s:8443: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), 1, boot - 180, boot - 180),
           node_event(n1, 'Starting', 'Starting kubelet.', last=boot - 20),
           node_event(n1, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (nn, uid('boot' + nn)), 'Warning', last=boot - 21),
           node_event(n1, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % nn, last=boot + 30, component='node-controller'),
           node_event(n1, 'NodeReady', 'Node %s status is now: NodeReady' % nn, last=boot - 40)]
    cal_img = 'docker.io/calico/node:v3.28.2'
    cal = [mkpod('calico-node-' + s, 'kube-system', n_['metadata']['name'], [{'name': 'calico-node', 'image': cal_img}],
                 [running('calico-node', cal_img, (boot - 100) if n_ is n1 else 86400 * 30, restarts=1 if n_ is n1 else 0,
                          last=term(255, 'Unknown', 86400 * 30, boot + 20, seed='cal-boot') if n_ is n1 else None)],
                 86400 * 30, owner=('DaemonSet', 'calico-node'), labels={'k8s-app': 'calico-node'}, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
           for n_, s in ((n1, 'x4mzb'), (n2, 'q9tdl'))]
    cal[0]['status']['conditions'] = conds(86400 * 30, True, since=boot - 158)
    evs.append(unhealthy(cal[0], nn, 'calico-node', 'calico/node is not ready: BIRD is not ready: Error querying BIRD: unable to connect to BIRDv4 socket: dial unix /var/run/calico/bird.ctl: connect: no such file or directory',
                         6, boot - 105, boot - 150))
    t = lambda s: ts(s, '%Y-%m-%dT%H:%M:%SZ')
    logs = ['time=%s level=INFO msg="ledger-api starting" version=5.12.0' % t(boot - 175),
            'time=%s level=INFO msg="database ready" host=ledger-db.ledger.svc.cluster.local schema=5120' % t(boot - 177),
            'time=%s level=INFO msg="listening" addr=:8443 tls=true' % t(boot - 182)] + \
        ['time=%s level=INFO msg="served" window=10m requests=%d errors=0' % (t(boot - 180 - 600 * (k + 1)), 2210 + 37 * k) for k in range(4)]
    prev = ['time=%s level=INFO msg="served" window=10m requests=2391 errors=0' % t(boot + 700),
            'time=%s level=INFO msg="served" window=10m requests=2402 errors=0' % t(boot + 100)]
    objs = [ns(ns_), n1, n2, d, rs, p] + cal + [secret('ledger-db', ns_, ['DATABASE_URL']), service('ledger-api', ns_, labels, ports=((443, 8443),))] + evs + \
        [podlog(ns_, pn, 'ledger-api', logs, previous=False), podlog(ns_, pn, 'ledger-api', prev)] + noise([n1, n2], kv)
    case('f3b-neg-node-reboot-sandbox-recovered', 'Healthy: after its node rebooted 50 minutes ago the pod failed four sandbox attempts while Calico could not reach the API, then came back and has been Ready since',
         'https://github.com/kubernetes/kubernetes/issues/74298',
         'NetworkPlugin cni failed to set up pod "XXXXXXXX" network: Get https://100.64.0.1:443/api/v1/namespaces/XXXXXX/pods/XXXXXX-765677978-9rwb5: dial tcp 100.64.0.1:443: i/o timeout',
         '%s/%s' % (ns_, pn), None, objs)


# =====================================================================================
# N3. negative: the app container restarted twice at start, three days ago, because its sidecar was
#     not ready yet (connection refused to its database); Ready ever since
# =====================================================================================
@reg
def neg_istio_startup_race():
    ns_ = 'shop'
    kv = 'v1.30.5-gke.1443001'
    GKE_OS = 'Container-Optimized OS from Google'
    n1 = mknode('gke-shop-default-pool-5c1e9a2b-7hqd', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.100+', os_image=GKE_OS,
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'europe-west4-a'})
    n2 = mknode('gke-shop-default-pool-5c1e9a2b-r2mx', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.100+', os_image=GKE_OS,
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'europe-west4-b'})
    app_img, proxy_img, init_img = 'europe-docker.pkg.dev/acme-shop/apps/checkout:4.2.0', 'docker.io/istio/proxyv2:1.23.2', 'docker.io/istio/proxyv2:1.23.2'
    labels = {'app': 'checkout', 'version': 'v4'}
    app = {'name': 'checkout', 'image': app_img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
           'env': [{'name': 'DB_HOST', 'value': 'orders-db.shop.svc.cluster.local'}, {'name': 'DB_PORT', 'value': '5432'}],
           'readinessProbe': {'httpGet': {'path': '/app-health/checkout/readyz', 'port': 15020}, 'periodSeconds': 10},
           'resources': {'requests': {'cpu': '200m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}
    proxy = {'name': 'istio-proxy', 'image': proxy_img, 'args': ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local', '--proxyLogLevel=warning', '--log_output_level=default:info'],
             'ports': [{'containerPort': 15090, 'name': 'http-envoy-prom', 'protocol': 'TCP'}],
             'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 15021}, 'periodSeconds': 15, 'failureThreshold': 4},
             'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'cpu': '2', 'memory': '1Gi'}},
             'securityContext': {'readOnlyRootFilesystem': True, 'runAsUser': 1337, 'runAsGroup': 1337, 'runAsNonRoot': True}}
    init = [{'name': 'istio-init', 'image': init_img, 'args': ['istio-iptables', '-p', '15001', '-z', '15006', '-u', '1337', '-m', 'REDIRECT', '-i', '*', '-x', '', '-b', '*', '-d', '15090,15021,15020'],
             'securityContext': {'capabilities': {'add': ['NET_ADMIN', 'NET_RAW'], 'drop': ['ALL']}, 'runAsUser': 0, 'runAsNonRoot': False}}]
    containers, vols = with_api([app, proxy], [{'name': 'istio-envoy', 'emptyDir': {'medium': 'Memory'}}, {'name': 'istio-data', 'emptyDir': {}}], 'checkout')
    d, rs = deploy('checkout', ns_, labels, 3, '7b9c6d5f48', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 30, generation=21)
    created = 86400 * 3 + 600
    last = term(1, 'Error', created - 21, created - 25, seed='co-1')
    init_st = [{'name': 'istio-init', 'ready': True, 'restartCount': 0, 'image': init_img, 'imageID': imgid(init_img), 'containerID': cid('co-init'),
                'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(created - 6), 'finishedAt': ago(created - 6), 'containerID': cid('co-init')}}}]
    p = mkpod('checkout-7b9c6d5f48-m8v2r', ns_, n1['metadata']['name'], containers,
              [running('checkout', app_img, created - 40, restarts=2, last=last), running('istio-proxy', proxy_img, created - 9)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7b9c6d5f48', 'security.istio.io/tlsMode': 'istio', 'service.istio.io/canonical-name': 'checkout'},
              spec_extra={'volumes': vols}, init=copy.deepcopy(init), init_statuses=init_st)
    p['metadata']['annotations'] = {'sidecar.istio.io/status': '{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["workload-socket","credential-socket","workload-certs","istio-envoy","istio-data","istio-podinfo","istio-token","istiod-ca-cert"],"imagePullSecrets":null,"revision":"default"}',
                                    'kubectl.kubernetes.io/default-container': 'checkout', 'prometheus.io/scrape': 'true', 'prometheus.io/port': '15020'}
    set_status(p, p['status']['containerStatuses'], created, since=created - 52, init_statuses=init_st)
    t = lambda s: ts(s, '%Y-%m-%dT%H:%M:%S.%fZ')
    prev = ['%s INFO checkout 4.2.0 starting' % t(created - 22),
            '%s ERROR failed to connect to database: dial tcp 10.12.41.77:5432: connect: connection refused' % t(created - 24),
            '%s FATAL startup aborted: orders-db.shop.svc.cluster.local:5432 unreachable' % t(created - 24)]
    cur = ['%s INFO checkout 4.2.0 starting' % t(created - 39), '%s INFO connected to orders-db.shop.svc.cluster.local:5432 (pool=20)' % t(created - 38),
           '%s INFO http server listening on :8080' % t(created - 37)] + \
          ['%s INFO orders checked out in the last hour: %d (failed payments: %d)' % (t(3600 * (60 - 6 * k)), 812 + 41 * k, k % 3) for k in range(10)]
    plog = ['%s\tinfo\tFLAG: --concurrency="0"' % t(created - 9),
            '%s\tinfo\tVersion 1.23.2-0d5c6c3f8b0a7e1c9d4f2a6b8e3c5d7f9a1b2c4e-Clean' % t(created - 9),
            '%s\tinfo\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?): cds updates: 0 successful, 0 rejected; lds updates: 0 successful, 0 rejected' % t(created - 8),
            '%s\twarn\tEnvoy proxy is NOT ready: config not received from XDS server (is Istiod running?): cds updates: 1 successful, 0 rejected; lds updates: 0 successful, 0 rejected' % t(created - 7),
            '%s\tinfo\tReadiness succeeded in 41.338s' % t(created - 50),
            '%s\tinfo\tEnvoy proxy is ready' % t(created - 50),
            '%s\twarning\tenvoy config\tStreamAggregatedResources gRPC config stream to istiod.istio-system.svc:15012 closed since 1799s ago: 13, ' % t(86400 * 2)]
    objs = [ns(ns_, meta={'labels': {'istio-injection': 'enabled'}}), n1, n2, d, rs, p, service('checkout', ns_, labels, ports=((80, 8080),)),
            endpoints('checkout', ns_, ready=[(p['status']['podIP'], p['metadata']['name'], n1['metadata']['name'])], port=8080)] + \
        [podlog(ns_, p['metadata']['name'], 'checkout', prev), podlog(ns_, p['metadata']['name'], 'checkout', cur, previous=False),
         podlog(ns_, p['metadata']['name'], 'istio-proxy', plog, previous=False)] + noise([n1, n2], kv, dns_image='gke.gcr.io/coredns:v1.11.1-gke.9')
    case('f3b-neg-istio-startup-race-old-restarts', 'Healthy: the checkout pod has been Ready for three days; its two restarts happened in its first seconds, when the Envoy sidecar was not ready and the database connection was refused',
         'https://github.com/istio/istio/issues/4341',
         'If an application container attempts to access a network service before the sidecar is ready, the connection fails.',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


if __name__ == '__main__':
    for f in CASES3B:
        f()
    print('wrote %d cases' % len(CASES3B))
