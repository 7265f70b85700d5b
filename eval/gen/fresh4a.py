# Evaluation corpus, FRESH4 split, first author (slug prefix f4a-): public incidents written by a
# blind author who saw only issue 32's text, the case schema and the authoring helpers, never the
# rules' code, their tests or how the product scores. Incidents come from repositories whose owner
# starts with a letter from a to m. Six classes no rule names (expect.first: any, mechanism terms
# from each report's resolution), five named classes in shapes the corpus did not have, five healthy
# or recovered pods with the noise their reports called harmless.
# Each dump's wording comes from its report; the expectation was decided from the report before the
# dump was written and is never changed to change a verdict. Run: python3 eval/gen/fresh4a.py
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh2 import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, set_status, with_api, noise, sts, ...)
from fresh2 import _strings
from blind import make_case

SPLIT = 'fresh4'


case = make_case('f4a-', SPLIT)


CASES4A = []
def reg4(f):
    CASES4A.append(f)
    return f


def sts_pod(ss, idx, node_name, containers, statuses, created, vols, extra=None):
    name = '%s-%d' % (ss['metadata']['name'], idx)
    labels = {**ss['spec']['selector']['matchLabels'], 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': str(idx),
              'controller-revision-hash': '%s-%s' % (ss['metadata']['name'], hexid(ss['metadata']['name'], 10))}
    se = {'volumes': vols, 'hostname': name, 'subdomain': ss['spec']['serviceName']}
    if extra: se.update(extra)
    return mkpod(name, ss['metadata']['namespace'], node_name, containers, statuses, created, owner=('StatefulSet', ss['metadata']['name']), labels=labels, spec_extra=se)


def klog(t, level, src, text, pid=1):
    return '%s%s %7d %s] %s' % (level, NOW_MINUS(t).strftime('%m%d %H:%M:%S.%f'), pid, src, text)


# =====================================================================================
# M1. mechanism: CockroachDB refuses to run on a node whose clock is more than max-offset away
# =====================================================================================
@reg4
def cockroach_clock():
    ns_ = 'cockroach'
    kv = 'v1.29.10'
    nodes = [mknode('k8s-node-%d' % i, kubelet=kv, runtime='containerd://1.7.22', kernel='5.15.0-125-generic', os_image='Ubuntu 22.04.5 LTS') for i in (1, 2, 3)]
    img = 'cockroachdb/cockroach:v23.1.14'
    labels = {'app.kubernetes.io/name': 'cockroachdb', 'app.kubernetes.io/instance': 'crdb', 'app.kubernetes.io/component': 'cockroachdb'}
    c = {'name': 'db', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'args': ['shell', '-ecx', 'exec /cockroach/cockroach start --join=${STATEFULSET_NAME}-0.${STATEFULSET_FQDN}:26257,${STATEFULSET_NAME}-1.${STATEFULSET_FQDN}:26257,${STATEFULSET_NAME}-2.${STATEFULSET_FQDN}:26257 --advertise-host=$(hostname).${STATEFULSET_FQDN} --insecure --http-port=8080 --port=26257 --cache=25% --max-sql-memory=25% --logtostderr=INFO'],
         'env': [{'name': 'STATEFULSET_NAME', 'value': 'crdb-cockroachdb'}, {'name': 'STATEFULSET_FQDN', 'value': 'crdb-cockroachdb.cockroach.svc.cluster.local'}, {'name': 'COCKROACH_CHANNEL', 'value': 'kubernetes-helm'}],
         'ports': [{'containerPort': 26257, 'name': 'grpc'}, {'containerPort': 8080, 'name': 'http'}],
         'livenessProbe': {'httpGet': {'path': '/health', 'port': 'http'}, 'initialDelaySeconds': 30, 'periodSeconds': 5},
         'readinessProbe': {'httpGet': {'path': '/health?ready=1', 'port': 'http'}, 'initialDelaySeconds': 10, 'periodSeconds': 5, 'failureThreshold': 2},
         'resources': {'requests': {'cpu': '1', 'memory': '4Gi'}, 'limits': {'memory': '4Gi'}},
         'volumeMounts': [{'name': 'datadir', 'mountPath': '/cockroach/cockroach-data/'}]}
    containers, vols = with_api([c], [{'name': 'datadir', 'persistentVolumeClaim': {'claimName': 'datadir-crdb-cockroachdb-2'}}], 'crdb2')
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'terminationGracePeriodSeconds': 300}
    ss = sts('crdb-cockroachdb', ns_, labels, 3, spec, ready=2, created=86400 * 120, service='crdb-cockroachdb')
    created = 86400 * 120
    healthy = [sts_pod(ss, i, nodes[i]['metadata']['name'], containers, [running('db', img, created - 40)], created, vols) for i in (0, 1)]
    p = sts_pod(ss, 2, 'k8s-node-3', containers, [running('db', img, 60)], created, vols)
    last = term(7, 'Error', 232, 229, seed='crdb2-7')
    set_status(p, [clbo(p, 'db', img, 7, last)], created)
    f = lambda t, gid, text, lvl='I', src='1@cli/start.go:1103': '%s%s %d %s ⋮ [T1,n3] %s' % (lvl, NOW_MINUS(t).strftime('%y%m%d %H:%M:%S.%f'), gid, src, text)
    logs = [f(233, 1, 'CockroachDB CCL v23.1.14 (x86_64-pc-linux-gnu, built 2024/01/10 18:02:31, go1.19.13)', src='1@cli/start.go:1289'),
            f(233, 1, 'using local environment variables:', src='1@cli/start.go:1294'),
            f(233, 1, 'process identity: uid 0 euid 0 gid 0 egid 0', src='1@cli/start.go:1310'),
            f(232, 112, 'initial startup completed.', src='1@server/server.go:1750'),
            f(231, 361, 'monitoring forward clock jumps based on server.clock.forward_jump_check_enabled', src='1@server/clock_monotonicity.go:65'),
            f(231, 361, 'Sleeping till wall time 1795333123456789012 to catches up to 1795333124187310442 to ensure monotonicity. Delta: 730.521430ms', src='1@server/clock_monotonicity.go:140'),
            f(230, 412, 'clock synchronization error: this node is more than 500ms away from at least half of the known nodes (0 of 2 are within the offset)', lvl='F', src='1@server/server.go:286'),
            f(230, 412, '!Fatal errors can occur due to faulty hardware (disks, memory, clocks) or a problem in CockroachDB. With your help, the support team at Cockroach Labs will try to determine the root cause, recommend next steps, and we can improve CockroachDB based on your report.', lvl='F', src='1@server/server.go:286'),
            f(230, 412, '!Please submit a crash report by following the instructions here:', lvl='F', src='1@server/server.go:286'),
            f(230, 412, '!    https://github.com/cockroachdb/cockroach/issues/new/choose', lvl='F', src='1@server/server.go:286'),
            'ERROR: clock synchronization error: this node is more than 500ms away from at least half of the known nodes (0 of 2 are within the offset)']
    nn = 'k8s-node-3'
    evs = restarted(p, nn, img, 'db', 7, 1800, 232) + [backoff(p, nn, 'db', 28, 1700, 9),
          unhealthy(p, nn, 'db', 'Get "http://%s:8080/health?ready=1": dial tcp %s:8080: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), 9, 1790, 231)]
    evs += [node_event(nodes[2], 'Starting', 'Starting kubelet.', last=1900), node_event(nodes[2], 'NodeReady', 'Node k8s-node-3 status is now: NodeReady', last=1870)]
    pvcs = [claim('datadir-crdb-cockroachdb-%d' % i, ns_, 'longhorn', 'Bound', '100Gi', volume='pvc-' + uid('crdbv%d' % i), created=86400 * 120, provisioner='driver.longhorn.io') for i in range(3)]
    objs = [ns(ns_)] + nodes + [ss] + healthy + [p] + pvcs + [service('crdb-cockroachdb', ns_, labels, ports=((26257, 26257), (8080, 8080)))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'db', logs)] + noise(nodes, kv)
    case('f4a-cockroach-clock-offset', 'One CockroachDB replica crash-loops on a node whose clock drifted: the node is more than max-offset (500ms) away from its peers',
         'https://github.com/cockroachdb/cockroach/issues/46718',
         'F200330 06:28:40.975752 83 server/server.go:253  [n?] clock synchronization error: this node is more than 500ms away from at least half of the known nodes (0 of 1 are within the offset)',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='this node is more than 500ms away from at least half of the known nodes', playbook=None,
         terms=[['clock'], ['NTP', 'chrony', 'time sync', 'synchroniz', 'max-offset']])


# =====================================================================================
# M2. mechanism: the JDK bundled with Elasticsearch 7.17.3 crashes reading cgroup v2 on a 6.12 kernel
#     (same image still runs on the node pool not yet upgraded)
# =====================================================================================
@reg4
def es_cgroup_npe():
    ns_ = 'logging'
    kv = 'v1.32.9'
    old = [mknode('es-pool-a-%d' % i, kubelet=kv, runtime='containerd://1.7.27', kernel='6.1.0-37-amd64', os_image='Debian GNU/Linux 12 (bookworm)') for i in (1, 2)]
    new = mknode('es-pool-b-1', kubelet=kv, runtime='containerd://2.1.4', kernel='6.12.48+deb13-amd64', os_image='Debian GNU/Linux 13 (trixie)', created=86400)
    img = 'docker.elastic.co/elasticsearch/elasticsearch:7.17.3'
    labels = {'app': 'elasticsearch-master', 'chart': 'elasticsearch', 'release': 'elasticsearch'}
    c = {'name': 'elasticsearch', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'node.name', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}}, {'name': 'cluster.initial_master_nodes', 'value': 'elasticsearch-master-0,elasticsearch-master-1,elasticsearch-master-2,'},
                 {'name': 'discovery.seed_hosts', 'value': 'elasticsearch-master-headless'}, {'name': 'cluster.name', 'value': 'elasticsearch'}, {'name': 'network.host', 'value': '0.0.0.0'},
                 {'name': 'ES_JAVA_OPTS', 'value': '-Xmx2g -Xms2g'}, {'name': 'node.roles', 'value': 'master,data,ingest,'}],
         'ports': [{'containerPort': 9200, 'name': 'http'}, {'containerPort': 9300, 'name': 'transport'}],
         'readinessProbe': {'exec': {'command': ['bash', '-c', 'set -e\n# If the node is starting up wait for the cluster to be ready (request params: "wait_for_status=green&timeout=1s" )\n']},
                            'failureThreshold': 3, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'successThreshold': 3, 'timeoutSeconds': 5},
         'resources': {'requests': {'cpu': '1', 'memory': '4Gi'}, 'limits': {'cpu': '2', 'memory': '4Gi'}},
         'securityContext': {'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 1000},
         'volumeMounts': [{'name': 'elasticsearch-master', 'mountPath': '/usr/share/elasticsearch/data'}]}
    init = [{'name': 'configure-sysctl', 'image': img, 'command': ['sysctl', '-w', 'vm.max_map_count=262144'], 'securityContext': {'privileged': True, 'runAsUser': 0}}]
    ss = sts('elasticsearch-master', ns_, labels, 3, {'initContainers': copy.deepcopy(init), 'containers': [copy.deepcopy(c)], 'securityContext': {'fsGroup': 1000, 'runAsUser': 1000}},
             ready=2, created=86400 * 300, service='elasticsearch-master-headless')
    init_done = lambda since: {'name': 'configure-sysctl', 'ready': True, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid('sysctl' + str(since)),
                               'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(since), 'finishedAt': ago(since - 1), 'containerID': cid('sysctl' + str(since))}}}
    pods = []
    for i, n in ((0, old[0]), (1, old[1])):
        vols = [{'name': 'elasticsearch-master', 'persistentVolumeClaim': {'claimName': 'elasticsearch-master-elasticsearch-master-%d' % i}}]
        q = sts_pod(ss, i, n['metadata']['name'], [c], [running('elasticsearch', img, 86400 * 30 - 30)], 86400 * 30, vols, extra={'securityContext': {'fsGroup': 1000, 'runAsUser': 1000}})
        q['spec']['initContainers'] = copy.deepcopy(init); q['status']['initContainerStatuses'] = [init_done(86400 * 30 - 5)]
        pods.append(q)
    vols = [{'name': 'elasticsearch-master', 'persistentVolumeClaim': {'claimName': 'elasticsearch-master-elasticsearch-master-2'}}]
    created = 2700
    p = sts_pod(ss, 2, 'es-pool-b-1', [c], [running('elasticsearch', img, 60)], created, vols, extra={'securityContext': {'fsGroup': 1000, 'runAsUser': 1000}})
    p['spec']['initContainers'] = copy.deepcopy(init)
    set_status(p, [clbo(p, 'elasticsearch', img, 9, term(1, 'Error', 150, 148, seed='es2-9'))], created, init_statuses=[init_done(created - 20)])
    logs = ['%s main ERROR Could not reconfigure JMX java.lang.NullPointerException: Cannot invoke "jdk.internal.platform.CgroupInfo.getMountPoint()" because "anyController" is null' % ts(150, '%Y-%m-%d %H:%M:%S,%f')[:-3],
            '\tat java.base/jdk.internal.platform.cgroupv2.CgroupV2Subsystem.getInstance(CgroupV2Subsystem.java:81)',
            '\tat java.base/jdk.internal.platform.CgroupSubsystemFactory.create(CgroupSubsystemFactory.java:113)',
            '\tat java.base/jdk.internal.platform.CgroupMetrics.getInstance(CgroupMetrics.java:167)',
            '\tat java.base/jdk.internal.platform.SystemMetrics.instance(SystemMetrics.java:29)',
            '\tat java.base/jdk.internal.platform.Metrics.systemMetrics(Metrics.java:58)',
            '\tat java.base/jdk.internal.platform.Container.metrics(Container.java:43)',
            '\tat jdk.management/com.sun.management.internal.OperatingSystemImpl.<init>(OperatingSystemImpl.java:182)',
            '\tat org.elasticsearch.common.logging.LogConfigurator.configureStatusLogger(LogConfigurator.java:251)',
            '\tat org.elasticsearch.cli.Command.main(Command.java:74)',
            'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "jdk.internal.platform.CgroupInfo.getMountPoint()" because "anyController" is null',
            '\tat java.base/jdk.internal.platform.cgroupv2.CgroupV2Subsystem.getInstance(CgroupV2Subsystem.java:81)',
            '\tat java.base/jdk.internal.platform.CgroupSubsystemFactory.create(CgroupSubsystemFactory.java:113)',
            '\tat java.base/jdk.internal.platform.CgroupMetrics.getInstance(CgroupMetrics.java:167)',
            '\tat java.base/jdk.internal.platform.SystemMetrics.instance(SystemMetrics.java:29)',
            '\tat java.base/jdk.internal.platform.Metrics.systemMetrics(Metrics.java:58)',
            '\tat java.base/jdk.internal.platform.Container.metrics(Container.java:43)',
            '\tat org.elasticsearch.tools.launchers.DefaultSystemMemoryInfo.<init>(DefaultSystemMemoryInfo.java:28)',
            '\tat org.elasticsearch.tools.launchers.JvmOptionsParser.jvmOptions(JvmOptionsParser.java:125)',
            '\tat org.elasticsearch.tools.launchers.JvmOptionsParser.main(JvmOptionsParser.java:86)']
    nn = 'es-pool-b-1'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'configure-sysctl', created - 5, size=330811201, init=True) + \
          restarted(p, nn, img, 'elasticsearch', 9, created - 60, 150) + [backoff(p, nn, 'elasticsearch', 41, created - 120, 7)]
    evs += [ctrl_ev(ss, 'SuccessfulDelete', 'delete Pod elasticsearch-master-2 in StatefulSet elasticsearch-master successful', 'statefulset-controller', last=created + 5),
            ctrl_ev(ss, 'SuccessfulCreate', 'create Pod elasticsearch-master-2 in StatefulSet elasticsearch-master successful', 'statefulset-controller', last=created)]
    evs += [node_event(old[1], 'NodeNotSchedulable', 'Node es-pool-a-2 status is now: NodeNotSchedulable', last=created + 60)]
    pvcs = [claim('elasticsearch-master-elasticsearch-master-%d' % i, ns_, 'standard-rwo', 'Bound', '30Gi', volume='pvc-' + uid('esv%d' % i), created=86400 * 300) for i in range(3)]
    objs = [ns(ns_)] + old + [new, ss] + pods + [p] + pvcs + [service('elasticsearch-master', ns_, labels, ports=((9200, 9200), (9300, 9300)))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'elasticsearch', logs)] + noise(old + [new], kv)
    case('f4a-es-jdk-cgroupv2-npe', 'Elasticsearch 7.17.3 crash-loops only on the upgraded node pool: its bundled JDK throws a NullPointerException reading cgroup v2 on a 6.12 kernel',
         'https://github.com/elastic/elasticsearch/pull/151479',
         'java.lang.NullPointerException: Cannot invoke "jdk.internal.platform.CgroupInfo.getMountPoint()" because "anyController" is null',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='Cannot invoke "jdk.internal.platform.CgroupInfo.getMountPoint()"', playbook=None,
         terms=[['cgroup'], ['JDK', 'JVM', 'UseContainerSupport']])


# =====================================================================================
# M3. mechanism: Kibana 8 refuses the `elastic` superuser as its Elasticsearch user (config validation)
# =====================================================================================
@reg4
def kibana_superuser():
    ns_ = 'kube-system'
    kv = 'v1.31.4'
    n1 = mknode('kind-control-plane', kubelet=kv, runtime='containerd://1.7.24', kernel='6.8.0-45-generic', os_image='Debian GNU/Linux 12 (bookworm)',
                labels={'node-role.kubernetes.io/control-plane': ''})
    n2 = mknode('kind-worker', kubelet=kv, runtime='containerd://1.7.24', kernel='6.8.0-45-generic', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'docker.elastic.co/kibana/kibana:8.4.2'
    labels = {'k8s-app': 'kibana'}
    c = {'name': 'kibana', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'ELASTICSEARCH_HOSTS', 'value': 'http://elasticsearch:9200'}, {'name': 'ELASTICSEARCH_USERNAME', 'value': 'elastic'},
                 {'name': 'ELASTICSEARCH_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'elasticsearch-credentials', 'key': 'password'}}}, {'name': 'SERVER_PUBLICBASEURL', 'value': 'http://kibana:5601'}],
         'ports': [{'containerPort': 5601, 'name': 'ui'}], 'resources': {'requests': {'cpu': '100m', 'memory': '1Gi'}, 'limits': {'memory': '2Gi'}}}
    containers, vols = with_api([c], [], 'kibana-ks')
    d, rs = deploy('kibana', ns_, labels, 1, '76f54554c9', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=900, generation=1)
    created = 880
    p = mkpod('kibana-76f54554c9-8rsbq', ns_, 'kind-worker', containers, [running('kibana', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '76f54554c9'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'kibana', img, 6, term(1, 'Error', 128, 121, seed='kib-6'))], created)
    t = lambda s: ts(s, '%Y-%m-%dT%H:%M:%S.%f')[:-3] + '+00:00'
    fatal = 'Error: [config validation of [elasticsearch].username]: value of "elastic" is forbidden. This is a superuser account that cannot write to system indices that Kibana needs to function. Use a service account token instead. Learn more: https://www.elastic.co/guide/en/elasticsearch/reference/8.0/service-accounts.html'
    logs = ['[%s][INFO ][node] Kibana process configured with roles: [background_tasks, ui]' % t(127),
            '[%s][INFO ][plugins-service] Plugin "cloudExperiments" is disabled.' % t(124),
            '[%s][INFO ][plugins-service] Plugin "metricsEntities" is disabled.' % t(124),
            '[%s][FATAL][root] %s' % (t(122), fatal),
            '    at ensureValidConfiguration (/usr/share/kibana/src/core/server/config/ensure_valid_configuration.js:25:11)',
            '    at Server.preboot (/usr/share/kibana/src/core/server/server.js:160:5)',
            '    at Root.preboot (/usr/share/kibana/src/core/server/root/index.js:48:14)',
            '    at bootstrap (/usr/share/kibana/src/core/server/bootstrap.js:99:9)',
            '    at Command.<anonymous> (/usr/share/kibana/src/cli/serve/serve.js:216:5)',
            '', ' FATAL  ' + fatal, '']
    es_img = 'docker.elastic.co/elasticsearch/elasticsearch:8.4.2'
    es_d, es_rs = deploy('elasticsearch', ns_, {'k8s-app': 'elasticsearch'}, 1, '5d8f9c7b6d', {'containers': [{'name': 'elasticsearch', 'image': es_img}]}, created=1000, generation=1)
    es = mkpod('elasticsearch-5d8f9c7b6d-qk2mv', ns_, 'kind-worker', [{'name': 'elasticsearch', 'image': es_img}], [running('elasticsearch', es_img, 960)], 1000,
               owner=('ReplicaSet', es_rs['metadata']['name']), labels={'k8s-app': 'elasticsearch', 'pod-template-hash': '5d8f9c7b6d'})
    nn = 'kind-worker'
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'kibana', created - 40, pulled_in='36.2s', size=746113209) + restarted(p, nn, img, 'kibana', 6, created - 200, 128) + \
          [backoff(p, nn, 'kibana', 22, created - 260, 11)]
    objs = [ns(ns_), n1, n2, d, rs, p, es_d, es_rs, es, secret('elasticsearch-credentials', ns_, ['password']), service('kibana', ns_, labels, ports=((5601, 5601),)),
            service('elasticsearch', ns_, {'k8s-app': 'elasticsearch'}, ports=((9200, 9200),))] + evs + [podlog(ns_, p['metadata']['name'], 'kibana', logs)] + noise([n1, n2], kv)
    case('f4a-kibana-elastic-superuser-forbidden', 'Kibana 8 exits at start: its config validation forbids the elastic superuser as elasticsearch.username',
         'https://github.com/elastic/beats/pull/33167',
         '[2022-09-22T10:48:41.307+00:00][FATAL][root] Error: [config validation of [elasticsearch].username]: value of "elastic" is forbidden. This is a superuser account that cannot write to system indices that Kibana needs to function. Use a service account token instead.',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='value of "elastic" is forbidden. This is a superuser account', playbook=None,
         terms=[['kibana_system', 'service account token', 'SERVICEACCOUNTTOKEN'], ['ELASTICSEARCH_USERNAME', 'elasticsearch.username', 'username']])


# =====================================================================================
# M4. mechanism: a hostNetwork Consul agent sees two private IPv4 addresses on its node and cannot
#     choose one to advertise (CRI-O nodes with a storage NIC)
# =====================================================================================
@reg4
def consul_multiple_ips():
    ns_ = 'consul'
    kv = 'v1.30.8'
    nodes = []
    for i in (1, 2, 3):
        n = mknode('worker-%02d.dc1.internal' % i, kubelet=kv, runtime='cri-o://1.30.7', kernel='5.14.0-503.15.1.el9_5.x86_64', os_image='Rocky Linux 9.5 (Blue Onyx)', ip='10.40.0.%d' % (20 + i))
        n['status']['addresses'].insert(1, {'type': 'InternalIP', 'address': '192.168.100.%d' % (20 + i)})
        nodes.append(n)
    img = 'hashicorp/consul:1.16.2'
    labels = {'app': 'consul', 'component': 'client'}
    c = {'name': 'consul', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'command': ['/bin/sh', '-ec', 'exec /usr/local/bin/docker-entrypoint.sh consul agent -node="${NODE}" -hcl=\'leave_on_terminate = true\' -data-dir=/consul/data -config-dir=/consul/config -datacenter=dc1 -retry-join=consul-server-0.consul-server.consul.svc -retry-join=consul-server-1.consul-server.consul.svc -retry-join=consul-server-2.consul-server.consul.svc -client=0.0.0.0'],
         'env': [{'name': 'NODE', 'valueFrom': {'fieldRef': {'fieldPath': 'spec.nodeName'}}}, {'name': 'HOST_IP', 'valueFrom': {'fieldRef': {'fieldPath': 'status.hostIP'}}}],
         'ports': [{'containerPort': 8500, 'hostPort': 8500, 'name': 'http'}, {'containerPort': 8301, 'hostPort': 8301, 'name': 'serflan-tcp', 'protocol': 'TCP'},
                   {'containerPort': 8301, 'hostPort': 8301, 'name': 'serflan-udp', 'protocol': 'UDP'}, {'containerPort': 8600, 'hostPort': 8600, 'name': 'dns-udp', 'protocol': 'UDP'}],
         'readinessProbe': {'exec': {'command': ['/bin/sh', '-ec', 'curl http://127.0.0.1:8500/v1/status/leader 2>/dev/null | grep -E \'".+"\'']}, 'initialDelaySeconds': 10, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '100m', 'memory': '100Mi'}, 'limits': {'memory': '256Mi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/consul/data'}, {'name': 'config', 'mountPath': '/consul/config'}]}
    vols = [{'name': 'data', 'emptyDir': {}}, {'name': 'config', 'configMap': {'name': 'consul-client-config', 'defaultMode': 420}}]
    containers, vols = with_api([c], vols, 'consul-client')
    spec = {'hostNetwork': True, 'dnsPolicy': 'ClusterFirstWithHostNet', 'serviceAccountName': 'consul-client', 'containers': copy.deepcopy(containers), 'volumes': vols}
    ds = daemonset('consul-client', ns_, labels, 3, 0, spec, created=2400)
    pods = []
    for i, n in enumerate(nodes):
        name = 'consul-client-%s' % ['7xk2p', 'bq9dm', 'w4nzs'][i]
        q = mkpod(name, ns_, n['metadata']['name'], containers, [running('consul', img, 60)], 2350, owner=('DaemonSet', 'consul-client'), labels={**labels, 'controller-revision-hash': '6c9b8d7f54', 'pod-template-generation': '1'},
                  sa='consul-client', spec_extra={'volumes': vols, 'hostNetwork': True, 'dnsPolicy': 'ClusterFirstWithHostNet'})
        set_status(q, [clbo(q, 'consul', img, 9, term(1, 'Error', 120 + 7 * i, 119 + 7 * i, seed=name))], 2350)
        crio(q)
        pods.append(q)
    p = pods[1]
    logs = ['==> Starting Consul agent...', "==> Multiple private IPv4 addresses found. Please configure one with 'bind' and/or 'advertise'."]
    nn = nodes[1]['metadata']['name']
    evs = [scheduled(p, nn, 2349)] + started(p, nn, img, 'consul', 2345, size=157328870) + restarted(p, nn, img, 'consul', 9, 2200, 127) + [backoff(p, nn, 'consul', 44, 2100, 13)]
    objs = [ns(ns_)] + nodes + [ds] + pods + [serviceaccount('consul-client', ns_),
            configmap('consul-client-config', ns_, {'client.json': '{\n  "ports": {"grpc": 8502},\n  "telemetry": {"prometheus_retention_time": "60s"}\n}\n'})] + evs + \
           [podlog(ns_, p['metadata']['name'], 'consul', logs)] + noise(nodes, kv, dns_image='registry.k8s.io/coredns/coredns:v1.11.1')
    for o in objs:
        if o['kind'] == 'Pod' and o['metadata']['namespace'] == 'kube-system':
            crio(o)
    case('f4a-consul-multiple-private-ips', 'Consul client DaemonSet on hostNetwork crash-loops on every node: the nodes have two private IPv4 addresses and no bind/advertise address is set',
         'https://github.com/hashicorp/consul/issues/3790', '==> Multiple private IPv4 addresses found. Please configure one',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="Multiple private IPv4 addresses found. Please configure one with 'bind'", playbook=None,
         terms=[['bind', 'advertise'], ['status.podIP', 'status.hostIP', 'HOST_IP', 'POD_IP', '-bind', 'bind_addr', 'advertise_addr']])


# =====================================================================================
# M5. mechanism: a chart upgrade jumps MongoDB two majors; the data files carry FCV 4.2
# =====================================================================================
@reg4
def mongodb_fcv():
    ns_ = 'mongodb'
    kv = 'v1.27.16-eks-a18cd3a'
    n1 = mknode('ip-10-0-12-87.eu-west-1.compute.internal', kubelet=kv, runtime='containerd://1.7.22', kernel='5.10.227-219.884.amzn2.x86_64', os_image='Amazon Linux 2', ip='10.0.12.87',
                labels={'eks.amazonaws.com/nodegroup': 'general', 'topology.kubernetes.io/zone': 'eu-west-1a'})
    n2 = mknode('ip-10-0-44-12.eu-west-1.compute.internal', kubelet=kv, runtime='containerd://1.7.22', kernel='5.10.227-219.884.amzn2.x86_64', os_image='Amazon Linux 2', ip='10.0.44.12',
                labels={'eks.amazonaws.com/nodegroup': 'general', 'topology.kubernetes.io/zone': 'eu-west-1b'})
    img = 'docker.io/bitnami/mongodb:5.0.12-debian-11-r0'
    labels = {'app.kubernetes.io/component': 'mongodb', 'app.kubernetes.io/instance': 'mongodb', 'app.kubernetes.io/name': 'mongodb'}
    c = {'name': 'mongodb', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'BITNAMI_DEBUG', 'value': 'false'}, {'name': 'MONGODB_ROOT_USER', 'value': 'root'},
                 {'name': 'MONGODB_ROOT_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'mongodb', 'key': 'mongodb-root-password'}}},
                 {'name': 'ALLOW_EMPTY_PASSWORD', 'value': 'no'}, {'name': 'MONGODB_SYSTEM_LOG_VERBOSITY', 'value': '0'}, {'name': 'MONGODB_DISABLE_SYSTEM_LOG', 'value': 'no'},
                 {'name': 'MONGODB_DISABLE_JAVASCRIPT', 'value': 'no'}, {'name': 'MONGODB_ENABLE_JOURNAL', 'value': 'yes'}, {'name': 'MONGODB_PORT_NUMBER', 'value': '27017'}, {'name': 'MONGODB_ENABLE_IPV6', 'value': 'no'}],
         'ports': [{'containerPort': 27017, 'name': 'mongodb'}],
         'livenessProbe': {'exec': {'command': ['/bitnami/scripts/ping-mongodb.sh']}, 'initialDelaySeconds': 30, 'periodSeconds': 20, 'timeoutSeconds': 10, 'failureThreshold': 6},
         'readinessProbe': {'exec': {'command': ['/bitnami/scripts/readiness-probe.sh']}, 'initialDelaySeconds': 5, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 6},
         'securityContext': {'runAsNonRoot': True, 'runAsUser': 1001},
         'volumeMounts': [{'name': 'datadir', 'mountPath': '/bitnami/mongodb'}, {'name': 'common-scripts', 'mountPath': '/bitnami/scripts'}]}
    vols = [{'name': 'common-scripts', 'configMap': {'name': 'mongodb-common-scripts', 'defaultMode': 360}}, {'name': 'datadir', 'persistentVolumeClaim': {'claimName': 'mongodb'}}]
    containers, vols = with_api([c], vols, 'mongodb-sa')
    spec = {'serviceAccountName': 'mongodb', 'securityContext': {'fsGroup': 1001}, 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('mongodb', ns_, labels, 1, '6d9c5b8f7c', spec, ready=0, created=86400 * 200, generation=7, strategy={'type': 'Recreate'})
    d['metadata']['labels']['helm.sh/chart'] = 'mongodb-12.1.3'
    old_rs = replicaset(d, '84bd69b4c5', 0, 0, spec, created=86400 * 90, revision=6)
    created = 1500
    p = mkpod('mongodb-6d9c5b8f7c-m2xwq', ns_, n1['metadata']['name'], containers, [running('mongodb', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6d9c5b8f7c'}, sa='mongodb', spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 1001}})
    set_status(p, [clbo(p, 'mongodb', img, 7, term(14, 'Error', 205, 199, seed='mongo-7'))], created)
    j = lambda s, sev, comp, id_, ctx, msg, attr: '{"t":{"$date":"%s"},"s":"%s",  "c":"%s", "id":%d,   "ctx":"%s","msg":"%s","attr":%s}' % (ts(s, '%Y-%m-%dT%H:%M:%S.%f')[:-3] + '+00:00', sev, comp, id_, ctx, msg, attr)
    err = '{"error":"UPGRADE PROBLEM: Found an invalid featureCompatibilityVersion document (ERROR: Location4926900: Invalid featureCompatibilityVersion document in admin.system.version: { _id: \\"featureCompatibilityVersion\\", version: \\"4.2\\" }. See https://docs.mongodb.com/master/release-notes/4.4-compatibility/#feature-compatibility. :: caused by :: Invalid value for featureCompatibilityVersiondocument in admin.system.version, found 4.2, expected \'4.4\' or \'4.9\' or \'5.0. See https://docs.mongodb.com/master/release-notes/4.4-compatibility/#feature-compatibility.). If the current featureCompatibilityVersion is below 4.4, see the documentation on upgrading at https://docs.mongodb.com/master/release-notes/4.4/#upgrade-procedures."}'
    hh = lambda s: NOW_MINUS(s).strftime('%H:%M:%S.%f')[:-4]
    logs = ['mongodb %s INFO  ==> ' % hh(206), 'mongodb %s INFO  ==> Welcome to the Bitnami mongodb container' % hh(206),
            'mongodb %s INFO  ==> ** Starting MongoDB setup **' % hh(206), 'mongodb %s INFO  ==> Validating settings in MONGODB_* env vars...' % hh(206),
            'mongodb %s INFO  ==> Initializing MongoDB...' % hh(205), 'mongodb %s INFO  ==> Enabling authentication...' % hh(205),
            'mongodb %s INFO  ==> Deploying MongoDB with persisted data...' % hh(205), 'mongodb %s INFO  ==> ** MongoDB setup finished! **' % hh(204), '',
            'mongodb %s INFO  ==> ** Starting MongoDB **' % hh(204),
            j(203, 'I', 'CONTROL', 23285, 'main', 'Automatically disabling TLS 1.0, to force-enable TLS 1.0 specify --sslDisabledProtocols \'none\'', '{}'),
            j(203, 'I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting', '{"pid":1,"port":27017,"dbPath":"/bitnami/mongodb/data/db","architecture":"64-bit","host":"mongodb-6d9c5b8f7c-m2xwq"}'),
            j(203, 'I', 'CONTROL', 23403, 'initandlisten', 'Build Info', '{"buildInfo":{"version":"5.0.12","gitVersion":"79cfcdd83eb6f64e164a588d0daf9bb873328b45","openSSLVersion":"OpenSSL 1.1.1n  15 Mar 2022","modules":[],"allocator":"tcmalloc","environment":{"distmod":"debian11","distarch":"x86_64","target_arch":"x86_64"}}}'),
            j(202, 'I', 'STORAGE', 22315, 'initandlisten', 'Opening WiredTiger', '{"config":"create,cache_size=3451M,session_max=33000,eviction=(threads_min=4,threads_max=4),config_base=false,statistics=(fast),log=(enabled=true,archive=true,path=journal,compressor=snappy),"}'),
            j(201, 'I', 'STORAGE', 4795906, 'initandlisten', 'WiredTiger opened', '{"durationMillis":1137}'),
            j(201, 'F', 'CONTROL', 20573, 'initandlisten', 'Wrong mongod version', err),
            j(200, 'I', 'CONTROL', 20565, 'initandlisten', 'Now exiting', '{}'),
            j(200, 'I', 'CONTROL', 23138, 'initandlisten', 'Shutting down', '{"exitCode":62}')]
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'mongodb', created - 30, pulled_in='21.4s', size=203318842) + restarted(p, nn, img, 'mongodb', 7, created - 90, 205) + \
          [backoff(p, nn, 'mongodb', 33, created - 140, 16),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set mongodb-84bd69b4c5 to 0 from 1', 'deployment-controller', last=created + 40),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set mongodb-6d9c5b8f7c to 1', 'deployment-controller', last=created + 2)]
    pvc_ = claim('mongodb', ns_, 'gp2', 'Bound', '8Gi', volume='pvc-' + uid('mongov'), created=86400 * 200, provisioner='ebs.csi.aws.com')
    objs = [ns(ns_), n1, n2, d, rs, old_rs, p, pvc_, serviceaccount('mongodb', ns_), secret('mongodb', ns_, ['mongodb-root-password']),
            configmap('mongodb-common-scripts', ns_, {'ping-mongodb.sh': '#!/bin/bash\nmongosh  $TLS_OPTIONS --port $MONGODB_PORT_NUMBER --eval "db.adminCommand(\'ping\')"\n'}),
            service('mongodb', ns_, labels, ports=((27017, 27017),))] + evs + [podlog(ns_, p['metadata']['name'], 'mongodb', logs)] + noise([n1, n2], kv, dns_image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.10.1-eksbuild.13')
    case('f4a-mongodb-fcv-upgrade-skipped', 'MongoDB crash-loops after a chart upgrade to 5.0: the data files still carry featureCompatibilityVersion 4.2 (a major was skipped)',
         'https://github.com/bitnami/charts/issues/12440',
         '"msg":"Wrong mongod version","attr":{"error":"UPGRADE PROBLEM: Found an invalid featureCompatibilityVersion document (ERROR: Location4926900: Invalid featureCompatibilityVersion document in admin.system.version: { _id: \\"featureCompatibilityVersion\\", version: \\"4.2\\" }.',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='Found an invalid featureCompatibilityVersion document', playbook=None,
         terms=[['featureCompatibilityVersion', 'feature compatibility', 'FCV'], ['4.4', 'setFeatureCompatibilityVersion']])


# =====================================================================================
# M6. mechanism: Kestrel, run as a non-root UID, cannot bind port 80 (< 1024)
# =====================================================================================
@reg4
def dotnet_port80():
    ns_ = 'orders'
    kv = 'v1.28.15'
    n1 = mknode('aks-apps-31415926-vmss000004', kubelet=kv, runtime='containerd://1.7.23-1', kernel='5.15.0-1074-azure', os_image='Ubuntu 22.04.5 LTS',
                labels={'kubernetes.azure.com/agentpool': 'apps', 'topology.kubernetes.io/zone': 'westeurope-1'})
    n2 = mknode('aks-apps-31415926-vmss000005', kubelet=kv, runtime='containerd://1.7.23-1', kernel='5.15.0-1074-azure', os_image='Ubuntu 22.04.5 LTS',
                labels={'kubernetes.azure.com/agentpool': 'apps', 'topology.kubernetes.io/zone': 'westeurope-2'})
    img = 'acmeregistry.azurecr.io/orders-api:2024.11.3'
    labels = {'app.kubernetes.io/name': 'orders-api'}
    c = {'name': 'orders-api', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'ASPNETCORE_URLS', 'value': 'http://+:80'}, {'name': 'ASPNETCORE_ENVIRONMENT', 'value': 'Production'},
                 {'name': 'ConnectionStrings__Orders', 'valueFrom': {'secretKeyRef': {'name': 'orders-db', 'key': 'connection'}}}],
         'ports': [{'containerPort': 80, 'name': 'http'}],
         'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 'http'}, 'initialDelaySeconds': 10, 'periodSeconds': 10},
         'readinessProbe': {'httpGet': {'path': '/ready', 'port': 'http'}, 'periodSeconds': 5},
         'resources': {'requests': {'cpu': '250m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': False}}
    containers, vols = with_api([c], [], 'orders-api')
    psc = {'runAsNonRoot': True, 'runAsUser': 1001, 'runAsGroup': 1001, 'fsGroup': 1001}
    spec = {'containers': copy.deepcopy(containers), 'volumes': vols, 'securityContext': psc}
    d, rs = deploy('orders-api', ns_, labels, 3, '5c7d9f6b8d', spec, ready=2, updated=1, created=86400 * 60, generation=12)
    old_rs = replicaset(d, '6f8b4d7c59', 2, 2, {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 6, revision=11)
    olds = [mkpod('orders-api-6f8b4d7c59-%s' % s, ns_, n['metadata']['name'], containers, [running('orders-api', img, 86400 * 6 - 30)], 86400 * 6,
                  owner=('ReplicaSet', old_rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6f8b4d7c59'}, spec_extra={'volumes': vols})
            for s, n in (('hx2kq', n1), ('p9rwt', n2))]
    created = 1300
    p = mkpod('orders-api-5c7d9f6b8d-zr4lm', ns_, n2['metadata']['name'], containers, [running('orders-api', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5c7d9f6b8d'}, spec_extra={'volumes': vols, 'securityContext': psc})
    set_status(p, [clbo(p, 'orders-api', img, 6, term(134, 'Error', 177, 175, seed='orders-6'))], created)
    stack = ['         at System.Net.Sockets.Socket.UpdateStatusAfterSocketErrorAndThrowException(SocketError error, Boolean disconnectOnFailure, String callerName)',
             '         at System.Net.Sockets.Socket.DoBind(EndPoint endPointSnapshot, SocketAddress socketAddress)',
             '         at System.Net.Sockets.Socket.Bind(EndPoint localEP)',
             '         at Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets.SocketTransportOptions.CreateDefaultBoundListenSocket(EndPoint endpoint)',
             '         at Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets.SocketConnectionListener.Bind()',
             '         at Microsoft.AspNetCore.Server.Kestrel.Core.Internal.AddressBinder.BindEndpointAsync(ListenOptions endpoint, AddressBindContext context, CancellationToken cancellationToken)']
    logs = ['warn: Microsoft.AspNetCore.DataProtection.Repositories.FileSystemXmlRepository[60]',
            "      Storing keys in a directory '/home/app/.aspnet/DataProtection-Keys' that may not be persisted outside of the container. Protected data will be unavailable when container is destroyed.",
            'warn: Microsoft.AspNetCore.Server.Kestrel[0]',
            "      Overriding HTTP_PORTS '8080' and HTTPS_PORTS ''. Binding to values defined by URLS instead 'http://+:80'.",
            'crit: Microsoft.AspNetCore.Server.Kestrel[0]', '      Unable to start Kestrel.', '      System.Net.Sockets.SocketException (13): Permission denied'] + stack + \
           ['Unhandled exception. System.Net.Sockets.SocketException (13): Permission denied'] + [s[6:] for s in stack] + \
           ['   at Microsoft.Extensions.Hosting.Internal.Host.StartAsync(CancellationToken cancellationToken)', '   at Program.<Main>$(String[] args) in /src/Orders.Api/Program.cs:line 61', '   at Program.<Main>(String[] args)']
    nn = n2['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'orders-api', created - 8, size=98331142) + restarted(p, nn, img, 'orders-api', 6, created - 60, 177) + \
          [backoff(p, nn, 'orders-api', 27, created - 100, 8), ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set orders-api-5c7d9f6b8d to 1', 'deployment-controller', last=created + 1)]
    objs = [ns(ns_), n1, n2, d, rs, old_rs] + olds + [p, secret('orders-db', ns_, ['connection']), service('orders-api', ns_, labels, ports=((80, 80),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'orders-api', logs)] + noise([n1, n2], kv, dns_image='mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4-hotfix.20241008')
    case('f4a-dotnet-kestrel-port80-nonroot', 'ASP.NET Core API dies at start after the pod was made to run as UID 1001: Kestrel still binds port 80 and the bind is refused',
         'https://github.com/dotnet/aspnetcore/issues/4699', 'System.Net.Sockets.SocketException (13): Permission denied',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='System.Net.Sockets.SocketException (13): Permission denied', playbook=None,
         terms=[['port 80', 'privileged port', '1024'], ['ASPNETCORE_URLS', 'ASPNETCORE_HTTP_PORTS', '8080', 'NET_BIND_SERVICE', 'ip_unprivileged_port_start']])


# =====================================================================================
# K1. terminating.finalizers: a Job pod stays Terminating: Kyverno's validating webhook denies the
#     job controller's UPDATE that removes batch.kubernetes.io/job-tracking
# =====================================================================================
@reg4
def job_tracking_kyverno():
    ns_ = 'data-jobs'
    kv = 'v1.27.16'
    cp = mknode('cp-1', kubelet=kv, runtime='containerd://1.7.20', kernel='5.15.0-117-generic', os_image='Ubuntu 22.04.4 LTS',
                labels={'node-role.kubernetes.io/control-plane': ''}, taints=[{'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}])
    w1 = mknode('worker-1', kubelet=kv, runtime='containerd://1.7.20', kernel='5.15.0-117-generic', os_image='Ubuntu 22.04.4 LTS')
    w2 = mknode('worker-2', kubelet=kv, runtime='containerd://1.7.20', kernel='5.15.0-117-generic', os_image='Ubuntu 22.04.4 LTS')
    img, side_img = 'registry.acme.io/data/exporter:3.8.1', 'docker.io/istio/proxyv2:1.19.3'
    main = {'name': 'export', 'image': img, 'args': ['--since', '24h', '--to', 's3://acme-exports/nightly'], 'securityContext': {'allowPrivilegeEscalation': False},
            'resources': {'requests': {'cpu': '500m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}}
    side = {'name': 'log-shipper', 'image': 'docker.io/fluent/fluent-bit:2.1.10', 'args': ['-c', '/fluent-bit/etc/fluent-bit.conf'], 'securityContext': {}}
    tmpl = {'restartPolicy': 'Never', 'serviceAccountName': 'exporter', 'containers': [copy.deepcopy(main), copy.deepcopy(side)]}
    cj = obj('CronJob', 'batch/v1', 'nightly-export', ns_, 86400 * 90, spec={'schedule': '0 2 * * *', 'concurrencyPolicy': 'Forbid', 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
             'jobTemplate': {'spec': {'backoffLimit': 2, 'template': {'spec': copy.deepcopy(tmpl)}}}}, status={'lastScheduleTime': ago(86400 + 28800), 'lastSuccessfulTime': ago(86400 * 2 + 27000)})
    jname = 'nightly-export-29385120'
    ju = uid('Job' + ns_ + jname)
    jl = {'batch.kubernetes.io/controller-uid': ju, 'batch.kubernetes.io/job-name': jname, 'controller-uid': ju, 'job-name': jname}
    job = workload('Job', jname, ns_, {'batch.kubernetes.io/controller-uid': ju}, template_spec=copy.deepcopy(tmpl))
    job['metadata'].update({'creationTimestamp': ago(86400 + 28800), 'labels': dict(jl), 'annotations': {'batch.kubernetes.io/cronjob-scheduled-timestamp': ago(86400 + 28800)}})
    owned_by(job, cj)
    job['spec'].update({'backoffLimit': 2, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False})
    pname = jname + '-9dcql'
    pu = uid('pod' + ns_ + pname)
    job['status'] = {'startTime': ago(86400 + 28800), 'active': 0, 'ready': 0, 'uncountedTerminatedPods': {'succeeded': [pu]}}
    cst = lambda n, im, code, s, f: {'name': n, 'ready': False, 'started': False, 'restartCount': 0, 'image': im, 'imageID': imgid(im), 'containerID': cid(pname + n),
                                     'state': {'terminated': {'exitCode': code, 'reason': 'Completed', 'startedAt': ago(s), 'finishedAt': ago(f), 'containerID': cid(pname + n)}}}
    sts_ = [cst('export', img, 0, 86400 + 28790, 86400 + 26911), cst('log-shipper', side['image'], 0, 86400 + 28790, 86400 + 26905)]
    p = mkpod(pname, ns_, 'worker-2', [main, side], sts_, 86400 + 28800, owner=('Job', jname), labels=dict(jl), phase='Succeeded', sa='exporter', spec_extra={'restartPolicy': 'Never'})
    set_status(p, sts_, 86400 + 28800, ready=False, phase='Succeeded')
    p['status']['conditions'][2]['reason'] = 'PodCompleted'; p['status']['conditions'][3]['reason'] = 'PodCompleted'; p['status']['conditions'][0]['status'] = 'False'
    p['metadata'].update({'finalizers': ['batch.kubernetes.io/job-tracking'], 'deletionTimestamp': ago(7200), 'deletionGracePeriodSeconds': 0})
    kpol = obj('ClusterPolicy', 'kyverno.io/v1', 'disallow-privilege-escalation', None, 86400 * 1,
               spec={'validationFailureAction': 'Enforce', 'background': True, 'rules': [{'name': 'privilege-escalation', 'match': {'any': [{'resources': {'kinds': ['Pod']}}]},
                     'validate': {'message': 'Privilege escalation is disallowed. The fields spec.containers[*].securityContext.allowPrivilegeEscalation, spec.initContainers[*].securityContext.allowPrivilegeEscalation, and spec.ephemeralContainers[*].securityContext.allowPrivilegeEscalation must be set to `false`.',
                                  'pattern': {'spec': {'containers': [{'securityContext': {'allowPrivilegeEscalation': 'false'}}]}}}}]})
    kpol['metadata']['annotations'] = {'policies.kyverno.io/title': 'Disallow Privilege Escalation', 'policies.kyverno.io/category': 'Pod Security Standards (Restricted)'}
    vwc = webhook_config('kyverno-resource-validating-webhook-cfg', [{'name': 'validate.kyverno.svc-fail', 'service': ('kyverno', 'kyverno-svc', '/validate/fail'),
                          'rules': [{'apiGroups': [''], 'apiVersions': ['v1'], 'operations': ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'], 'resources': ['pods', 'pods/ephemeralcontainers'], 'scope': 'Namespaced'}],
                          'namespaceSelector': {'matchExpressions': [{'key': 'kubernetes.io/metadata.name', 'operator': 'NotIn', 'values': ['kyverno']}]}}])
    deny = ('admission webhook "validate.kyverno.svc-fail" denied the request: \n\nresource Pod/%s/%s was blocked due to the following policies \n\ndisallow-privilege-escalation:\n'
            '  privilege-escalation: \'validation error: Privilege escalation is disallowed. The\n    fields spec.containers[*].securityContext.allowPrivilegeEscalation, spec.initContainers[*].securityContext.allowPrivilegeEscalation,\n'
            '    and spec.ephemeralContainers[*].securityContext.allowPrivilegeEscalation must\n    be set to `false`. rule privilege-escalation failed at path /spec/containers/1/securityContext/\'' % (ns_, pname))
    kcm_img = 'registry.k8s.io/kube-controller-manager:v1.27.16'
    kcm = mkpod('kube-controller-manager-cp-1', 'kube-system', 'cp-1', [{'name': 'kube-controller-manager', 'image': kcm_img}], [running('kube-controller-manager', kcm_img, 86400 * 20)], 86400 * 20,
                labels={'component': 'kube-controller-manager', 'tier': 'control-plane'}, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
    kcm['metadata']['ownerReferences'] = [{'apiVersion': 'v1', 'kind': 'Node', 'name': 'cp-1', 'uid': cp['metadata']['uid'], 'controller': True}]
    kcm_logs = [klog(3605, 'I', 'job_controller.go:523', '"enqueueing job" key="%s/%s"' % (ns_, jname)),
                klog(3604, 'E', 'job_controller.go:545', 'syncing job: removing tracking finalizer: %s' % deny.replace('\n', '\\n')),
                klog(1804, 'I', 'job_controller.go:523', '"enqueueing job" key="%s/%s"' % (ns_, jname)),
                klog(1803, 'E', 'job_controller.go:545', 'syncing job: removing tracking finalizer: %s' % deny.replace('\n', '\\n')),
                klog(240, 'I', 'garbagecollector.go:501', '"Processing item" item="[v1/Pod, namespace: %s, name: %s, uid: %s]" virtual=false' % (ns_, pname, pu)),
                klog(4, 'E', 'job_controller.go:545', 'syncing job: removing tracking finalizer: %s' % deny.replace('\n', '\\n'))]
    evs = [ctrl_ev(kpol, 'PolicyViolation', 'Pod %s/%s: [disallow-privilege-escalation] fail (blocked); validation error: Privilege escalation is disallowed. rule privilege-escalation failed at path /spec/containers/1/securityContext/' % (ns_, pname),
                   'kyverno-admission', type_='Warning', count=48, first=86400 + 26900, last=4),
           ctrl_ev(cj, 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid', 'cronjob-controller', last=28800),
           ctrl_ev(job, 'SuccessfulCreate', 'Created pod: %s' % pname, 'job-controller', last=86400 + 28800),
           ev(p, 'Killing', 'Stopping container export', 'Normal', last=7200, host='worker-2', fieldPath=fp('export'))]
    objs = [ns(ns_), cp, w1, w2, cj, job, p, kpol, vwc, kcm, serviceaccount('exporter', ns_)] + evs + [podlog('kube-system', kcm['metadata']['name'], 'kube-controller-manager', kcm_logs, previous=False)] + \
           noise([cp, w1, w2], kv)
    case('f4a-job-tracking-finalizer-kyverno-update', 'Finished Job pod stuck Terminating for hours: Kyverno denies the job controller the UPDATE that removes its job-tracking finalizer',
         'https://github.com/kyverno/kyverno/issues/8815',
         'removing tracking finalizer: admission webhook "validate.kyverno.svc-fail" denied the request:',
         '%s/%s' % (ns_, pname), 'terminating.finalizers', objs, decisive='admission webhook "validate.kyverno.svc-fail" denied the request',
         acceptable=['admission.rejected'], playbook=None)


# =====================================================================================
# K2. security.run-as-non-root: the chart's init container asks for UID 0 under a pod-level
#     runAsNonRoot (Init:CreateContainerConfigError, CRI-O node)
# =====================================================================================
@reg4
def grafana_init_chown_nonroot():
    ns_ = 'cattle-monitoring-system'
    kv = 'v1.29.12'
    n1 = mknode('rke-w1', kubelet=kv, runtime='cri-o://1.29.11', kernel='5.14.0-427.42.1.el9_4.x86_64', os_image='Red Hat Enterprise Linux 9.4 (Plow)')
    n2 = mknode('rke-w2', kubelet=kv, runtime='cri-o://1.29.11', kernel='5.14.0-427.42.1.el9_4.x86_64', os_image='Red Hat Enterprise Linux 9.4 (Plow)')
    img, init_img = 'docker.io/grafana/grafana:7.1.5', 'docker.io/library/busybox:1.31.1'
    labels = {'app.kubernetes.io/name': 'grafana', 'app.kubernetes.io/instance': 'rancher-monitoring'}
    c = {'name': 'grafana', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 3000, 'name': 'grafana'}],
         'env': [{'name': 'GF_SECURITY_ADMIN_USER', 'valueFrom': {'secretKeyRef': {'name': 'rancher-monitoring-grafana', 'key': 'admin-user'}}},
                 {'name': 'GF_SECURITY_ADMIN_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'rancher-monitoring-grafana', 'key': 'admin-password'}}}],
         'volumeMounts': [{'name': 'storage', 'mountPath': '/var/lib/grafana'}]}
    init = {'name': 'init-chown-data', 'image': init_img, 'imagePullPolicy': 'IfNotPresent', 'command': ['chown', '-R', '472:472', '/var/lib/grafana'],
            'securityContext': {'runAsUser': 0}, 'volumeMounts': [{'name': 'storage', 'mountPath': '/var/lib/grafana'}]}
    psc = {'runAsNonRoot': True, 'runAsUser': 472, 'runAsGroup': 472, 'fsGroup': 472}
    vols = [{'name': 'storage', 'persistentVolumeClaim': {'claimName': 'rancher-monitoring-grafana'}}]
    spec = {'serviceAccountName': 'rancher-monitoring-grafana', 'securityContext': psc, 'initContainers': [copy.deepcopy(init)], 'containers': [copy.deepcopy(c)], 'volumes': vols}
    d, rs = deploy('rancher-monitoring-grafana', ns_, labels, 1, '6b9f8c9d5f', spec, ready=0, created=1200, generation=1)
    created = 1150
    p = mkpod('rancher-monitoring-grafana-6b9f8c9d5f-t7vlx', ns_, 'rke-w1', [c], [waiting('grafana', img, 'PodInitializing', pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6b9f8c9d5f'}, sa='rancher-monitoring-grafana',
              spec_extra={'volumes': vols, 'securityContext': psc}, init=[init], init_statuses=[])
    md = p['metadata']
    msg = 'container\'s runAsUser breaks non-root policy (pod: "%s_%s(%s)", container: init-chown-data)' % (md['name'], ns_, md['uid'])
    ist = waiting('init-chown-data', init_img, 'CreateContainerConfigError', msg)
    set_status(p, p['status']['containerStatuses'], created, ready=False, init_statuses=[ist], initialized=False)
    p['status']['phase'] = 'Pending'
    nn = 'rke-w1'
    evs = [scheduled(p, nn, created - 1), ev(p, 'Pulling', 'Pulling image "%s"' % init_img, 'Normal', last=created - 3, host=nn, fieldPath=ifp('init-chown-data')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 2.41s (2.41s including waiting). Image size: 1437367 bytes.' % init_img, 'Normal', last=created - 6, host=nn, fieldPath=ifp('init-chown-data')),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % init_img, 'Normal', count=96, first=created - 20, last=12, host=nn, fieldPath=ifp('init-chown-data')),
           ev(p, 'Failed', 'Error: ' + msg, count=97, first=created - 7, last=12, host=nn, fieldPath=ifp('init-chown-data'))]
    pvc_ = claim('rancher-monitoring-grafana', ns_, 'longhorn', 'Bound', '10Gi', volume='pvc-' + uid('grafv'), created=1200, provisioner='driver.longhorn.io')
    objs = [ns(ns_), n1, n2, d, rs, p, pvc_, serviceaccount('rancher-monitoring-grafana', ns_), secret('rancher-monitoring-grafana', ns_, ['admin-user', 'admin-password'])] + evs + noise([n1, n2], kv)
    for o in objs:
        if o['kind'] == 'Pod': crio(o)
    case('f4a-grafana-init-chown-runasnonroot', "Grafana stuck in Init:CreateContainerConfigError: its init-chown-data container runs as UID 0 while the pod enforces runAsNonRoot",
         'https://github.com/grafana/helm-charts/pull/63', "Error: container's runAsUser breaks non-root policy",
         '%s/%s' % (ns_, p['metadata']['name']), 'security.run-as-non-root', objs, decisive="container's runAsUser breaks non-root policy")


# =====================================================================================
# K3. admission.rejected: a Job without resources is BestEffort; the namespace's BestEffort-scoped
#     quota allows 0 such pods (FailedCreate on the Job, no pod at all)
# =====================================================================================
@reg4
def istio_job_besteffort_quota():
    ns_ = 'istio-system'
    kv = 'v1.28.14'
    n1 = mknode('node-a', kubelet=kv, runtime='containerd://1.7.21', kernel='5.15.0-119-generic', os_image='Ubuntu 22.04.4 LTS')
    n2 = mknode('node-b', kubelet=kv, runtime='containerd://1.7.21', kernel='5.15.0-119-generic', os_image='Ubuntu 22.04.4 LTS')
    img = 'docker.io/istio/kubectl:1.3.0'
    jname = 'istio-init-crd-10-1.3.0'
    ju = uid('Job' + ns_ + jname)
    tmpl = {'serviceAccountName': 'istio-init-service-account', 'restartPolicy': 'OnFailure',
            'containers': [{'name': 'istio-init-crd-10', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['kubectl', 'apply', '-f', '/etc/istio/crd-10/crd-10.yaml'],
                            'volumeMounts': [{'name': 'crd-10', 'mountPath': '/etc/istio/crd-10', 'readOnly': True}]}],
            'volumes': [{'name': 'crd-10', 'configMap': {'name': 'istio-crd-10'}}]}
    job = workload('Job', jname, ns_, {'batch.kubernetes.io/controller-uid': ju}, template_spec=copy.deepcopy(tmpl))
    job['metadata'].update({'creationTimestamp': ago(14700), 'labels': {'release': 'istio-init'}})
    job['spec'].update({'backoffLimit': 6, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False})
    job['spec']['template']['metadata']['labels'] = {'batch.kubernetes.io/controller-uid': ju, 'batch.kubernetes.io/job-name': jname, 'controller-uid': ju, 'job-name': jname}
    job['status'] = {'startTime': ago(14700), 'active': 0, 'ready': 0, 'uncountedTerminatedPods': {}}
    rq = obj('ResourceQuota', 'v1', 'best-effort', ns_, 86400 * 30, spec={'hard': {'pods': '0'}, 'scopes': ['BestEffort']}, status={'hard': {'pods': '0'}, 'used': {'pods': '0'}})
    rq2 = obj('ResourceQuota', 'v1', 'compute-resources', ns_, 86400 * 30, spec={'hard': {'requests.cpu': '8', 'requests.memory': '16Gi', 'limits.memory': '32Gi'}},
              status={'hard': {'requests.cpu': '8', 'requests.memory': '16Gi', 'limits.memory': '32Gi'}, 'used': {'requests.cpu': '1100m', 'requests.memory': '1536Mi', 'limits.memory': '3Gi'}})
    msg = 'Error creating: pods "%s-xhwv7" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0' % jname
    evs = [ctrl_ev(job, 'FailedCreate', 'Error creating: pods "%s-2mbcd" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0' % jname, 'job-controller', type_='Warning', last=14690),
           ctrl_ev(job, 'FailedCreate', '(combined from similar events): ' + msg, 'job-controller', type_='Warning', count=41, first=14600, last=228)]
    pilot_img = 'docker.io/istio/pilot:1.3.0'
    pl = {'app': 'pilot', 'istio': 'pilot'}
    pd, prs = deploy('istio-pilot', ns_, pl, 1, '7c8d9b6f54', {'containers': [{'name': 'discovery', 'image': pilot_img, 'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}}}]}, created=86400 * 30)
    pp = mkpod('istio-pilot-7c8d9b6f54-vw2hd', ns_, 'node-a', [{'name': 'discovery', 'image': pilot_img, 'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}}}],
               [running('discovery', pilot_img, 86400 * 30 - 40)], 86400 * 30, owner=('ReplicaSet', prs['metadata']['name']), labels={**pl, 'pod-template-hash': '7c8d9b6f54'})
    objs = [ns(ns_), n1, n2, job, rq, rq2, pd, prs, pp, serviceaccount('istio-init-service-account', ns_), configmap('istio-crd-10', ns_, {'crd-10.yaml': '# CustomResourceDefinitions (istio 1.3.0)\n'})] + evs + noise([n1, n2], kv)
    case('f4a-job-besteffort-quota-pods-zero', 'istio-init CRD Job never creates its pod: it sets no resources (BestEffort) and the namespace quota allows 0 BestEffort pods',
         'https://github.com/istio/istio/pull/17433',
         'Error creating: pods "istio-init-crd-10-1.3.0-xhwv7" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0',
         '%s/%s' % (ns_, jname), 'admission.rejected', objs, decisive='exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0')


# =====================================================================================
# K4. image.not-found: the bitnami tag was removed from docker.io; only the node that has to pull it
#     again (after a drain) fails, the others run from their cache
# =====================================================================================
@reg4
def bitnami_tag_removed():
    ns_ = 'chatwoot'
    kv = 'v1.31.6'
    n1 = mknode('pool-apps-r6t2k', kubelet=kv, runtime='containerd://1.7.27', kernel='6.1.0-31-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('pool-apps-r6t2x', kubelet=kv, runtime='containerd://1.7.27', kernel='6.1.0-31-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n3 = mknode('pool-apps-v9q4m', kubelet=kv, runtime='containerd://1.7.27', kernel='6.1.0-31-amd64', os_image='Debian GNU/Linux 12 (bookworm)', created=3600)
    n1['spec']['unschedulable'] = True
    n1['spec']['taints'] = [{'key': 'node.kubernetes.io/unschedulable', 'effect': 'NoSchedule', 'timeAdded': ago(2400)}]
    img = 'docker.io/bitnami/redis:6.2.7-debian-11-r3'
    labels = {'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/instance': 'chatwoot', 'app.kubernetes.io/component': 'master'}
    c = {'name': 'redis', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['/bin/bash'], 'args': ['-c', '/opt/bitnami/scripts/start-scripts/start-master.sh'],
         'env': [{'name': 'REDIS_REPLICATION_MODE', 'value': 'master'}, {'name': 'ALLOW_EMPTY_PASSWORD', 'value': 'no'},
                 {'name': 'REDIS_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'chatwoot-redis', 'key': 'redis-password'}}}],
         'ports': [{'containerPort': 6379, 'name': 'redis'}], 'securityContext': {'runAsUser': 1001},
         'volumeMounts': [{'name': 'redis-data', 'mountPath': '/data'}]}
    vols = [{'name': 'redis-data', 'persistentVolumeClaim': {'claimName': 'redis-data-chatwoot-redis-master-0'}}]
    ss = sts('chatwoot-redis-master', ns_, labels, 1, {'containers': [copy.deepcopy(c)], 'securityContext': {'fsGroup': 1001}}, ready=0, created=86400 * 400, service='chatwoot-redis-headless')
    created = 2300
    p = sts_pod(ss, 0, 'pool-apps-v9q4m', [c], [waiting('redis', img, 'ImagePullBackOff', 'Back-off pulling image "%s"' % img, pulled=False)], created, vols, extra={'securityContext': {'fsGroup': 1001}})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    p['status']['phase'] = 'Pending'
    nn = 'pool-apps-v9q4m'
    nf = ('Failed to pull image "%s": rpc error: code = NotFound desc = failed to pull and unpack image "%s": failed to resolve reference "%s": %s: not found' % (img, img, img, img))
    evs = [scheduled(p, nn, created - 1), ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=6, first=created - 3, last=305, host=nn, fieldPath=fp('redis')),
           ev(p, 'Failed', nf, count=6, first=created - 4, last=304, host=nn, fieldPath=fp('redis')),
           ev(p, 'Failed', 'Error: ErrImagePull', count=6, first=created - 4, last=304, host=nn, fieldPath=fp('redis')),
           ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=96, first=created - 20, last=9, host=nn, fieldPath=fp('redis')),
           ev(p, 'Failed', 'Error: ImagePullBackOff', count=96, first=created - 20, last=9, host=nn, fieldPath=fp('redis')),
           node_event(n1, 'NodeNotSchedulable', 'Node pool-apps-r6t2k status is now: NodeNotSchedulable', last=2400)]
    web_img = 'chatwoot/chatwoot:v3.13.0'
    wl = {'app': 'chatwoot', 'role': 'web'}
    wd, wrs = deploy('chatwoot-web', ns_, wl, 2, '58d7f9c6b4', {'containers': [{'name': 'chatwoot-web', 'image': web_img}]}, created=86400 * 60)
    webs = [mkpod('chatwoot-web-58d7f9c6b4-%s' % s, ns_, n, [{'name': 'chatwoot-web', 'image': web_img}], [running('chatwoot-web', web_img, 86400 * 20 - 30)], 86400 * 20,
                  owner=('ReplicaSet', wrs['metadata']['name']), labels={**wl, 'pod-template-hash': '58d7f9c6b4'}) for s, n in (('4kdzq', 'pool-apps-r6t2x'), ('n8wbl', 'pool-apps-v9q4m'))]
    wlogs = ['E, [%s #1] ERROR -- : Error connecting to Redis on chatwoot-redis-master:6379 (Errno::ECONNREFUSED)' % ts(40, '%Y-%m-%dT%H:%M:%S.%f')]
    pvc_ = claim('redis-data-chatwoot-redis-master-0', ns_, 'do-block-storage', 'Bound', '8Gi', volume='pvc-' + uid('cwredis'), created=86400 * 400, provisioner='dobs.csi.digitalocean.com')
    objs = [ns(ns_), n1, n2, n3, ss, p, pvc_, wd, wrs] + webs + [secret('chatwoot-redis', ns_, ['redis-password']), service('chatwoot-redis-master', ns_, labels, ports=((6379, 6379),))] + evs + \
           [podlog(ns_, webs[0]['metadata']['name'], 'chatwoot-web', wlogs, previous=False)] + noise([n1, n2, n3], kv)
    case('f4a-bitnami-redis-tag-removed-after-drain', 'Redis master of a Chatwoot install cannot come back after a node drain: its bitnami tag was removed from Docker Hub (moved to bitnamilegacy)',
         'https://github.com/chatwoot/chatwoot/issues/12735',
         'Failed to pull image "docker.io/bitnami/redis:6.2.7-debian-11-r3": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/bitnami/redis:6.2.7-debian-11-r3": failed to resolve reference "docker.io/bitnami/redis:6.2.7-debian-11-r3": docker.io/bitnami/redis:6.2.7-debian-11-r3: not found',
         '%s/%s' % (ns_, p['metadata']['name']), 'image.not-found', objs, decisive='docker.io/bitnami/redis:6.2.7-debian-11-r3: not found')


# =====================================================================================
# K5. sandbox.create-failed: a worker added to an air-gapped cluster keeps containerd's default
#     sandbox_image (registry.k8s.io/pause:3.6), which it cannot reach
# =====================================================================================
@reg4
def airgap_pause_image():
    ns_ = 'apps'
    kv = 'v1.29.6'
    nodes = [mknode(n, kubelet=kv, runtime='containerd://1.7.18', kernel='5.14.0-427.22.1.el9_4.x86_64', os_image='Rocky Linux 9.4 (Blue Onyx)', created=c_)
             for n, c_ in (('k8s-cp-01', 86400 * 60), ('k8s-worker-01', 86400 * 60), ('k8s-worker-03', 5400))]
    nodes[0]['metadata']['labels']['node-role.kubernetes.io/control-plane'] = ''
    nodes[0]['spec']['taints'] = [{'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}]
    img = 'localhost:5000/acme/inventory:1.14.2'
    labels = {'app': 'inventory'}
    c = {'name': 'inventory', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8080}], 'resources': {'requests': {'cpu': '200m', 'memory': '256Mi'}}}
    d, rs = deploy('inventory', ns_, labels, 2, '7b6c9d8f5d', {'containers': [copy.deepcopy(c)]}, ready=1, created=86400 * 20, generation=3)
    ok = mkpod('inventory-7b6c9d8f5d-lq8zn', ns_, 'k8s-worker-01', [c], [running('inventory', img, 86400 * 20 - 30)], 86400 * 20, owner=('ReplicaSet', rs['metadata']['name']),
               labels={**labels, 'pod-template-hash': '7b6c9d8f5d'})
    created = 1800
    p = mkpod('inventory-7b6c9d8f5d-w9c2k', ns_, 'k8s-worker-03', [c], [waiting('inventory', img, 'ContainerCreating', pulled=False)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7b6c9d8f5d'})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    p['status']['phase'] = 'Pending'
    p['status']['conditions'][0]['status'] = 'False'
    for k in ('podIP', 'podIPs'): p['status'].pop(k, None)
    sb = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "registry.k8s.io/pause:3.6": failed to pull image "registry.k8s.io/pause:3.6": '
          'failed to pull and unpack image "registry.k8s.io/pause:3.6": failed to resolve reference "registry.k8s.io/pause:3.6": failed to do request: '
          'Head "https://registry.k8s.io/v2/pause/manifests/3.6": dial tcp 34.96.108.209:443: i/o timeout')
    nn = 'k8s-worker-03'
    evs = [scheduled(p, nn, created - 1), ev(p, 'FailedCreatePodSandBox', sb, count=52, first=created - 31, last=17, host=nn)]
    kp = kube_proxy('k8s-worker-03', created=5300, version=kv.split('+')[0])
    kp['spec']['containers'][0]['image'] = 'localhost:5000/kube-proxy:v1.29.6'
    kp['status']['containerStatuses'] = [waiting('kube-proxy', 'localhost:5000/kube-proxy:v1.29.6', 'ContainerCreating', pulled=False)]
    kp['status']['phase'] = 'Pending'
    set_status(kp, kp['status']['containerStatuses'], 5300, ready=False)
    kp['status']['conditions'][0]['status'] = 'False'
    evs += [ev(kp, 'FailedCreatePodSandBox', sb.replace('i/o timeout', 'i/o timeout'), count=167, first=5290, last=21, host=nn),
            node_event(nodes[2], 'RegisteredNode', 'Node k8s-worker-03 event: Registered Node k8s-worker-03 in Controller', last=5380, component='node-controller'),
            node_event(nodes[2], 'Starting', 'Starting kubelet.', last=5395)]
    others = [kube_proxy(n['metadata']['name'], created=86400 * 60, version=kv) for n in nodes[:2]]
    for o in others:
        o['spec']['containers'][0]['image'] = 'localhost:5000/kube-proxy:v1.29.6'
    dns = coredns(['k8s-worker-01', 'k8s-worker-01'], created=86400 * 60, image='localhost:5000/coredns:v1.11.1')
    kcfg = configmap('kubeadm-config', 'kube-system', {'ClusterConfiguration': 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.29.6\nimageRepository: localhost:5000\n'
                                                       'networking:\n  podSubnet: 10.244.0.0/16\n  serviceSubnet: 10.96.0.0/12\n'}, created=86400 * 60)
    objs = [ns(ns_), ns('kube-system')] + nodes + [d, rs, ok, p, kp] + others + dns + [kcfg] + evs
    case('f4a-airgap-containerd-default-pause-image', 'New worker of an air-gapped cluster creates no pod sandbox: its containerd still points sandbox_image at registry.k8s.io/pause:3.6',
         'https://github.com/kubernetes/kubeadm/issues/2801', 'sandbox_image = "registry.k8s.io/pause:3.6"',
         '%s/%s' % (ns_, p['metadata']['name']), 'sandbox.create-failed', objs, decisive='failed to get sandbox image "registry.k8s.io/pause:3.6"',
         acceptable=['image.registry-unreachable'])


# =====================================================================================
# negatives: healthy or recovered pods with the noise their reports call harmless
# =====================================================================================

# N1. metrics-server after a rollout: /readyz answers 500 until two scrapes are stored (by design)
@reg4
def neg_metrics_server_startup():
    ns_ = 'kube-system'
    kv = 'v1.30.10'
    nodes = [mknode('ip-10-1-%d-%d.ec2.internal' % (i, 40 + i), kubelet=kv + '-eks-bc803b4', runtime='containerd://1.7.25', kernel='6.1.128-136.201.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20250218',
                    ip='10.1.%d.%d' % (i, 40 + i)) for i in (1, 2)]
    img = 'registry.k8s.io/metrics-server/metrics-server:v0.7.2'
    labels = {'k8s-app': 'metrics-server'}
    c = {'name': 'metrics-server', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'args': ['--cert-dir=/tmp', '--secure-port=10250', '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname', '--kubelet-use-node-status-port', '--metric-resolution=15s'],
         'ports': [{'containerPort': 10250, 'name': 'https'}],
         'livenessProbe': {'httpGet': {'path': '/livez', 'port': 'https', 'scheme': 'HTTPS'}, 'periodSeconds': 10, 'failureThreshold': 3},
         'readinessProbe': {'httpGet': {'path': '/readyz', 'port': 'https', 'scheme': 'HTTPS'}, 'initialDelaySeconds': 20, 'periodSeconds': 10, 'failureThreshold': 3},
         'resources': {'requests': {'cpu': '100m', 'memory': '200Mi'}},
         'securityContext': {'allowPrivilegeEscalation': False, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 1000, 'seccompProfile': {'type': 'RuntimeDefault'}, 'capabilities': {'drop': ['ALL']}},
         'volumeMounts': [{'name': 'tmp-dir', 'mountPath': '/tmp'}]}
    containers, vols = with_api([c], [{'name': 'tmp-dir', 'emptyDir': {}}], 'ms-eks')
    spec = {'serviceAccountName': 'metrics-server', 'priorityClassName': 'system-cluster-critical', 'containers': copy.deepcopy(containers), 'volumes': vols}
    d, rs = deploy('metrics-server', ns_, labels, 1, '5dd7b49d79', spec, created=86400 * 200, generation=5)
    d['status']['conditions'][0]['lastTransitionTime'] = ago(1130)
    created = 1200
    p = mkpod('metrics-server-5dd7b49d79-tvd8c', ns_, nodes[0]['metadata']['name'], containers, [running('metrics-server', img, created - 6)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5dd7b49d79'}, sa='metrics-server',
              spec_extra={'volumes': vols, 'priorityClassName': 'system-cluster-critical'})
    set_status(p, p['status']['containerStatuses'], created, since=created - 51)
    nn = nodes[0]['metadata']['name']
    logs = [klog(created - 6, 'I', 'serving.go:374', 'Generated self-signed cert (/tmp/apiserver.crt, /tmp/apiserver.key)'),
            klog(created - 7, 'I', 'handler.go:275', 'Adding GroupVersion metrics.k8s.io v1beta1 to ResourceManager'),
            klog(created - 7, 'I', 'requestheader_controller.go:169', 'Starting RequestHeaderAuthRequestController'),
            klog(created - 8, 'I', 'secure_serving.go:213', 'Serving securely on [::]:10250'),
            klog(created - 28, 'I', 'server.go:191', '"Failed probe" probe="metric-storage-ready" err="no metrics to serve"'),
            klog(created - 38, 'I', 'server.go:191', '"Failed probe" probe="metric-storage-ready" err="no metrics to serve"'),
            klog(created - 40, 'E', 'scraper.go:149', '"Failed to scrape node" err="Get \\"https://10.1.2.42:10250/metrics/resource\\": context deadline exceeded" node="%s"' % nodes[1]['metadata']['name'])]
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'metrics-server', created - 2, pulled_in='1.9s', size=19458123) + \
          [unhealthy(p, nn, 'metrics-server', 'HTTP probe failed with statuscode: 500', 2, created - 28, created - 38),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set metrics-server-5dd7b49d79 to 1', 'deployment-controller', last=created + 1),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set metrics-server-7f6c8b9d6c to 0 from 1', 'deployment-controller', last=created - 55)]
    objs = [ns(ns_)] + nodes + [d, rs, p, serviceaccount('metrics-server', ns_), service('metrics-server', ns_, labels, ports=((443, 10250),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'metrics-server', logs, previous=False)] + noise(nodes, kv, dns_image='602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.11.4-eksbuild.2')
    case('f4a-neg-metrics-server-startup-readiness', 'metrics-server Ready for 20 minutes after a rollout; its readiness probe answered 500 twice at start, until two scrapes were stored',
         'https://github.com/kubernetes-sigs/metrics-server/pull/768', 'Readiness probe failed: HTTP probe failed with statuscode: 500',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N2. CoreDNS after a node reboot: it waited for the API and started with an unsynced cache, once
@reg4
def neg_coredns_unsynced():
    ns_ = 'kube-system'
    kv = 'v1.30.8'
    n1 = mknode('kube-node-1', kubelet=kv, runtime='containerd://1.7.24', kernel='6.8.0-51-generic', os_image='Ubuntu 24.04.1 LTS')
    n2 = mknode('kube-node-2', kubelet=kv, runtime='containerd://1.7.24', kernel='6.8.0-51-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'registry.k8s.io/coredns/coredns:v1.11.1'
    labels = {'k8s-app': 'kube-dns'}
    c = {'name': 'coredns', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['-conf', '/etc/coredns/Corefile'],
         'ports': [{'containerPort': 53, 'name': 'dns', 'protocol': 'UDP'}, {'containerPort': 53, 'name': 'dns-tcp', 'protocol': 'TCP'}, {'containerPort': 9153, 'name': 'metrics', 'protocol': 'TCP'}],
         'livenessProbe': {'httpGet': {'path': '/health', 'port': 8080}, 'initialDelaySeconds': 60, 'periodSeconds': 10, 'failureThreshold': 5},
         'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8181}, 'periodSeconds': 10},
         'resources': {'limits': {'memory': '170Mi'}, 'requests': {'cpu': '100m', 'memory': '70Mi'}},
         'volumeMounts': [{'name': 'config-volume', 'mountPath': '/etc/coredns', 'readOnly': True}]}
    vols = [{'name': 'config-volume', 'configMap': {'name': 'coredns', 'items': [{'key': 'Corefile', 'path': 'Corefile'}], 'defaultMode': 420}}]
    containers, vols = with_api([c], vols, 'coredns-n2')
    d, rs = deploy('coredns', ns_, labels, 2, '7db6d8ff4d', {'serviceAccountName': 'coredns', 'priorityClassName': 'system-cluster-critical', 'containers': copy.deepcopy(containers), 'volumes': vols},
                   created=86400 * 90, generation=1)
    mk = lambda name, node, created, since, restarts, last: mkpod(name, ns_, node, containers, [running('coredns', img, since, restarts=restarts, last=last)], created,
                                                                 owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7db6d8ff4d'}, sa='coredns',
                                                                 spec_extra={'volumes': vols, 'priorityClassName': 'system-cluster-critical'})
    other = mk('coredns-7db6d8ff4d-4tqxz', 'kube-node-2', 86400 * 90, 86400 * 90 - 30, 0, None)
    last = {'terminated': {'exitCode': 255, 'reason': 'Unknown', 'startedAt': ago(86400 * 40), 'finishedAt': ago(21700), 'containerID': cid('coredns-old')}}
    p = mk('coredns-7db6d8ff4d-mh2cv', 'kube-node-1', 86400 * 40, 21540, 1, last)
    set_status(p, p['status']['containerStatuses'], 86400 * 40, since=21530)
    logs = ['[INFO] plugin/kubernetes: waiting for Kubernetes API before starting server',
            '[INFO] plugin/kubernetes: waiting for Kubernetes API before starting server',
            '[WARNING] plugin/kubernetes: starting server with unsynced Kubernetes API', '.:53',
            '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908',
            'CoreDNS-1.11.1', 'linux/amd64, go1.20.7, ae2bbc2',
            '[INFO] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: failed to list *v1.Namespace: Get "https://10.96.0.1:443/api/v1/namespaces?limit=500&resourceVersion=0": dial tcp 10.96.0.1:443: connect: connection refused',
            '[ERROR] plugin/kubernetes: pkg/mod/k8s.io/client-go@v0.27.4/tools/cache/reflector.go:231: Failed to watch *v1.Namespace: failed to list *v1.Namespace: Get "https://10.96.0.1:443/api/v1/namespaces?limit=500&resourceVersion=0": dial tcp 10.96.0.1:443: connect: connection refused']
    evs = [ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=21560, host='kube-node-1'),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=21550, host='kube-node-1', fieldPath=fp('coredns')),
           ev(p, 'Created', 'Created container coredns', 'Normal', last=21545, host='kube-node-1', fieldPath=fp('coredns')),
           ev(p, 'Started', 'Started container coredns', 'Normal', last=21540, host='kube-node-1', fieldPath=fp('coredns')),
           unhealthy(p, 'kube-node-1', 'coredns', 'HTTP probe failed with statuscode: 503', 1, 21535, 21535),
           node_event(n1, 'Rebooted', 'Node kube-node-1 has been rebooted, boot id: %s' % uid('boot2kube-node-1'), type_='Warning', last=21600)]
    corefile = '.:53 {\n    errors\n    health {\n       lameduck 5s\n    }\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n       fallthrough in-addr.arpa ip6.arpa\n       ttl 30\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf {\n       max_concurrent 1000\n    }\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n'
    objs = [ns(ns_), n1, n2, d, rs, p, other, serviceaccount('coredns', ns_), configmap('coredns', ns_, {'Corefile': corefile})] + evs + \
           [podlog(ns_, p['metadata']['name'], 'coredns', logs, previous=False)] + [kube_proxy(n['metadata']['name'], version=kv) for n in (n1, n2)]
    case('f4a-neg-coredns-unsynced-api-after-reboot', 'CoreDNS Ready for six hours since its node rebooted; at that start it logged that it began with an unsynced Kubernetes API',
         'https://github.com/coredns/coredns/pull/5044', '[WARNING] plugin/kubernetes: starting server with unsynced Kubernetes API',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N3. ClickHouse under the Altinity operator: the volume is root-owned with fsGroup clickhouse, the
#     server warns at every start; it runs fine
@reg4
def neg_clickhouse_owner_warning():
    ns_ = 'analytics'
    kv = 'v1.31.5+k3s1'
    n1 = mknode('k3s-node-a', kubelet=kv, runtime='containerd://2.0.2-k3s2', kernel='6.8.0-52-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'clickhouse/clickhouse-server:24.8.11.5'
    labels = {'clickhouse.altinity.com/chi': 'test', 'clickhouse.altinity.com/cluster': 'test', 'clickhouse.altinity.com/shard': '0', 'clickhouse.altinity.com/replica': '0',
              'clickhouse.altinity.com/app': 'chop'}
    c = {'name': 'clickhouse', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'ports': [{'containerPort': 8123, 'name': 'http'}, {'containerPort': 9000, 'name': 'tcp'}, {'containerPort': 9009, 'name': 'interserver'}],
         'livenessProbe': {'httpGet': {'path': '/ping', 'port': 'http'}, 'initialDelaySeconds': 60, 'periodSeconds': 3, 'failureThreshold': 10},
         'readinessProbe': {'httpGet': {'path': '/ping', 'port': 'http'}, 'initialDelaySeconds': 10, 'periodSeconds': 3},
         'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/clickhouse'}]}
    psc = {'runAsUser': 101, 'runAsGroup': 101, 'fsGroup': 101}
    vols = [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-chi-test-test-0-0-0'}}]
    ss = sts('chi-test-test-0-0', ns_, labels, 1, {'securityContext': psc, 'containers': [copy.deepcopy(c)], 'volumes': vols}, ready=1, created=86400 * 12, service='chi-test-test-0-0')
    p = sts_pod(ss, 0, 'k3s-node-a', [c], [running('clickhouse', img, 86400 * 3 - 20)], 86400 * 3, vols, extra={'securityContext': psc})
    t = lambda s: ts(s, '%Y.%m.%d %H:%M:%S.%f')
    logs = ["Processing configuration file '/etc/clickhouse-server/config.xml'.",
            "Merging configuration file '/etc/clickhouse-server/config.d/01-clickhouse-01-listen.xml'.",
            "Merging configuration file '/etc/clickhouse-server/config.d/chop-generated-macros.xml'.",
            'Logging information to console',
            '%s [ 1 ] {} <Information> Application: Will watch for the process with pid 42' % t(86400 * 3 - 19),
            '%s [ 42 ] {} <Information> Application: Starting ClickHouse 24.8.11.5 (revision: 54492, git hash: 1e84bea17fc0, build id: 5B2E5B4C0C2F53F5) (official build)' % t(86400 * 3 - 19),
            '%s [ 42 ] {} <Warning> Application: Effective user of the process (clickhouse) does not match the owner of the data (root).' % t(86400 * 3 - 18),
            '%s [ 42 ] {} <Information> Application: Listening for http://0.0.0.0:8123' % t(86400 * 3 - 15),
            '%s [ 42 ] {} <Information> Application: Ready for connections.' % t(86400 * 3 - 14),
            '%s [ 140 ] {} <Information> executeQuery: Read 1 rows, 1.00 B in 0.000912 sec. (query: SELECT 1)' % t(30)]
    pvc_ = claim('data-chi-test-test-0-0-0', ns_, 'local-path', 'Bound', '50Gi', volume='pvc-' + uid('chiv'), created=86400 * 12, provisioner='rancher.io/local-path', selected_node='k3s-node-a')
    evs = [scheduled(p, 'k3s-node-a', 86400 * 3 - 1)] + started(p, 'k3s-node-a', img, 'clickhouse', 86400 * 3 - 2, present=True)
    objs = [ns(ns_), n1, ss, p, pvc_, service('chi-test-test-0-0', ns_, labels, ports=((8123, 8123), (9000, 9000)))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'clickhouse', logs, previous=False)] + noise([n1], kv, proxy=False, dns_image='rancher/mirrored-coredns-coredns:1.12.0')
    case('f4a-neg-clickhouse-data-owner-warning', 'ClickHouse Ready for three days; at start it warns that the data volume (root-owned, group clickhouse via fsGroup) is not owned by its user',
         'https://github.com/ClickHouse/ClickHouse/issues/39547', 'Effective user of the process (clickhouse) does not match the owner of the data (root)',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N4. Loki single binary after a restart: memberlist cannot resolve its headless service until the
#     pod is ready, retries, then joins; Ready since
@reg4
def neg_loki_memberlist():
    ns_ = 'loki'
    kv = 'v1.27.13'
    n1 = mknode('gke-obs-pool-1-8d3f2a1c-x7kq', kubelet=kv + '-gke.1070000', runtime='containerd://1.7.13', kernel='6.1.75+', os_image=GKE_OS)
    n2 = mknode('gke-obs-pool-1-8d3f2a1c-p2mw', kubelet=kv + '-gke.1070000', runtime='containerd://1.7.13', kernel='6.1.75+', os_image=GKE_OS)
    img = 'docker.io/grafana/loki:2.7.3'
    labels = {'app.kubernetes.io/name': 'loki', 'app.kubernetes.io/instance': 'loki', 'app.kubernetes.io/component': 'single-binary'}
    c = {'name': 'loki', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['-config.file=/etc/loki/config/config.yaml', '-target=all'],
         'ports': [{'containerPort': 3100, 'name': 'http-metrics'}, {'containerPort': 9095, 'name': 'grpc'}, {'containerPort': 7946, 'name': 'http-memberlist'}],
         'readinessProbe': {'httpGet': {'path': '/ready', 'port': 'http-metrics'}, 'initialDelaySeconds': 30, 'timeoutSeconds': 1},
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True},
         'volumeMounts': [{'name': 'config', 'mountPath': '/etc/loki/config'}, {'name': 'storage', 'mountPath': '/var/loki'}, {'name': 'tmp', 'mountPath': '/tmp'}]}
    vols = [{'name': 'config', 'configMap': {'name': 'loki', 'defaultMode': 420}}, {'name': 'tmp', 'emptyDir': {}}, {'name': 'storage', 'persistentVolumeClaim': {'claimName': 'storage-loki-0'}}]
    psc = {'fsGroup': 10001, 'runAsGroup': 10001, 'runAsNonRoot': True, 'runAsUser': 10001}
    ss = sts('loki', ns_, labels, 1, {'securityContext': psc, 'containers': [copy.deepcopy(c)], 'volumes': vols}, ready=1, created=86400 * 25, service='loki-headless')
    created = 2400
    p = sts_pod(ss, 0, n1['metadata']['name'], [c], [running('loki', img, created - 15)], created, vols, extra={'securityContext': psc})
    set_status(p, p['status']['containerStatuses'], created, since=created - 118)
    w = lambda s, text: 'level=warn ts=%s caller=%s' % (ts(s, '%Y-%m-%dT%H:%M:%S.%f') + '000Z', text)
    i = lambda s, text: 'level=info ts=%s caller=%s' % (ts(s, '%Y-%m-%dT%H:%M:%S.%f') + '000Z', text)
    fail = 'memberlist_client.go:598 msg="joining memberlist cluster: failed to reach any nodes" retries=%d err="1 error occurred:\\n\\t* Failed to resolve loki-headless: lookup loki-headless on 10.96.0.10:53: no such host\\n\\n"'
    logs = [i(created - 14, 'main.go:103 msg="Starting Loki" version="(version=2.7.3, branch=HEAD, revision=e5e7ec9d4)"'),
            i(created - 14, 'server.go:323 http=[::]:3100 grpc=[::]:9095 msg="server listening on addresses"'),
            w(created - 14, 'loki.go:251 msg="per-tenant timeout not configured, using default engine timeout (\\"5m0s\\"). This behavior will change in the next major to always use the default per-tenant timeout (\\"5m\\")."'),
            i(created - 13, 'memberlist_client.go:543 msg="memberlist fast-join starting" nodes_found=0 to_join=0'),
            w(created - 13, 'memberlist_client.go:563 msg="memberlist fast-join finished" joined_nodes=0 elapsed_time=2.316301ms'),
            'ts=%s caller=memberlist_logger.go:74 level=warn msg="Failed to resolve loki-headless: lookup loki-headless on 10.96.0.10:53: no such host"' % (ts(created - 12, '%Y-%m-%dT%H:%M:%S.%f') + '000Z'),
            w(created - 12, fail % 1), w(created - 30, fail % 2), w(created - 55, fail % 3), w(created - 80, fail % 4), w(created - 105, fail % 5),
            i(created - 112, 'memberlist_client.go:595 msg="joining memberlist cluster succeeded" reached_nodes=1 elapsed_time=1m40.211944537s'),
            i(created - 118, 'lifecycler.go:547 msg="instance not found in ring, adding with no tokens" ring=scheduler'),
            i(40, 'table_manager.go:166 msg="handing over indexes to shipper"')]
    nn = n1['metadata']['name']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'loki', created - 3, present=True) + \
          [unhealthy(p, nn, 'loki', 'HTTP probe failed with statuscode: 503', 8, created - 45, created - 112),
           ctrl_ev(ss, 'SuccessfulCreate', 'create Pod loki-0 in StatefulSet loki successful', 'statefulset-controller', last=created)]
    pvc_ = claim('storage-loki-0', ns_, 'standard-rwo', 'Bound', '10Gi', volume='pvc-' + uid('lokiv'), created=86400 * 25, provisioner='pd.csi.storage.gke.io')
    hs = service('loki-headless', ns_, labels, ports=((3100, 3100),)); hs['spec']['clusterIP'] = 'None'
    objs = [ns(ns_), n1, n2, ss, p, pvc_, hs, configmap('loki', ns_, {'config.yaml': 'auth_enabled: false\ncommon:\n  path_prefix: /var/loki\n  replication_factor: 1\nmemberlist:\n  join_members:\n  - loki-headless\n'})] + \
           evs + [podlog(ns_, 'loki-0', 'loki', logs, previous=False)] + noise([n1, n2], kv)
    case('f4a-neg-loki-memberlist-join-retries', 'Loki Ready for 38 minutes after a restart; during its first two minutes memberlist could not resolve its headless service and retried',
         'https://github.com/grafana/loki/issues/8016', 'level=warn caller=memberlist_client.go:598 msg="joining memberlist cluster: failed to reach any nodes" retries=5',
         '%s/loki-0' % ns_, None, objs)


# N5. KUDO manager: its webhook server logs a TLS handshake EOF every probe/connection check
@reg4
def neg_kudo_tls_eof():
    ns_ = 'kudo-system'
    kv = 'v1.28.13'
    n1 = mknode('kind-worker', kubelet=kv, runtime='containerd://1.7.18', kernel='6.5.0-1025-azure', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('kind-worker2', kubelet=kv, runtime='containerd://1.7.18', kernel='6.5.0-1025-azure', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'kudobuilder/controller:v0.17.1'
    labels = {'app': 'kudo-manager', 'control-plane': 'controller-manager'}
    c = {'name': 'manager', 'image': img, 'imagePullPolicy': 'Always', 'command': ['/root/manager'],
         'env': [{'name': 'POD_NAMESPACE', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.namespace'}}}, {'name': 'SECRET_NAME', 'value': 'kudo-webhook-server-secret'}],
         'ports': [{'containerPort': 443, 'name': 'webhook-server'}],
         'resources': {'requests': {'cpu': '100m', 'memory': '50Mi'}},
         'volumeMounts': [{'name': 'cert', 'mountPath': '/tmp/cert', 'readOnly': True}]}
    vols = [{'name': 'cert', 'secret': {'secretName': 'kudo-webhook-server-secret', 'defaultMode': 420}}]
    containers, vols = with_api([c], vols, 'kudo-mgr')
    ss = sts('kudo-controller-manager', ns_, labels, 1, {'serviceAccountName': 'kudo-manager', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=1, created=86400 * 9, service='kudo-controller-manager-service')
    p = sts_pod(ss, 0, 'kind-worker2', containers, [running('manager', img, 86400 * 9 - 25)], 86400 * 9, vols)
    p['spec']['serviceAccountName'] = 'kudo-manager'
    logs = ['%s Setting up webhooks' % ts(86400 * 9 - 24, '%Y/%m/%d %H:%M:%S'),
            '%s Instance admission webhook' % ts(86400 * 9 - 24, '%Y/%m/%d %H:%M:%S'),
            '%s Done! Everything is setup, starting KUDO manager now' % ts(86400 * 9 - 23, '%Y/%m/%d %H:%M:%S')]
    for k in range(12, 0, -1):
        logs.append('%s http: TLS handshake error from 10.0.131.25:%d: EOF' % (ts(k * 10 - 3, '%Y/%m/%d %H:%M:%S'), 38688 + 134 * (12 - k)))
    wh = webhook_config('kudo-manager-instance-admission-webhook-config', [{'name': 'instance-admission.kudo.dev', 'service': (ns_, 'kudo-controller-manager-service', '/admit-kudo-dev-v1beta1-instance'),
                         'failurePolicy': 'Fail', 'rules': [{'apiGroups': ['kudo.dev'], 'apiVersions': ['v1beta1'], 'operations': ['CREATE', 'UPDATE'], 'resources': ['instances'], 'scope': 'Namespaced'}]}], mutating=True)
    svc = service('kudo-controller-manager-service', ns_, labels, ports=((443, 443),))
    ep = endpoints('kudo-controller-manager-service', ns_, ready=[(p['status']['podIP'], p['metadata']['name'], 'kind-worker2')], port=443)
    objs = [ns(ns_), n1, n2, ss, p, svc, ep, wh, serviceaccount('kudo-manager', ns_), secret('kudo-webhook-server-secret', ns_, ['tls.crt', 'tls.key'], type_='kubernetes.io/tls')] + \
           [scheduled(p, 'kind-worker2', 86400 * 9 - 1)] + started(p, 'kind-worker2', img, 'manager', 86400 * 9 - 3, size=23077812) + \
           [podlog(ns_, p['metadata']['name'], 'manager', logs, previous=False)] + noise([n1, n2], kv)
    case('f4a-neg-kudo-manager-tls-handshake-eof', 'KUDO manager healthy for nine days; its webhook server logs "TLS handshake error ... EOF" every ten seconds (log noise its maintainers set out to remove)',
         'https://github.com/kudobuilder/kudo/issues/1741', '2020/11/13 19:11:37 http: TLS handshake error from 10.0.131.25:38688: EOF',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


if __name__ == '__main__':
    for f in CASES4A:
        f()
    print('wrote %d cases' % len(CASES4A))
