# Evaluation corpus, FRESH4 split, second author (slug prefix f4b-): public incidents written after the
# mechanism work of issue 32 by an author who saw only that issue's text, the case schema and the rule
# list (ids and titles), never the rules, their tests or the other fresh4 generators. Incidents come
# from repositories whose owner starts with n-z.
#   - six classes no rule names (expect.first: any, mechanism terms from each report's resolution);
#   - six named classes in shapes not seen before (a Helm hook Job refused by a quota, k0s GPU operands
#     without their runtime handler, a Rails init container OOMKilled, a DaemonSet pod whose host port
#     another exporter holds, a Rancher sidecar throttled by Docker Hub, an OpenShift/CRI-O exec refused);
#   - four healthy pods whose logs carry the noise their reports call harmless.
# Each dump's wording comes from its report; the expectation was decided from the report before the dump
# was written and is never changed to change a verdict. Run: python3 eval/gen/fresh4b.py (writes eval/corpus/f4b-*/)
import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fresh import *  # noqa: F401,F403  (mkpod, mknode, clbo, term, running, waiting, conds, deploy, ...)
from fresh import _strings
from fresh2 import set_status, with_api, noise, sts, unhealthy, crio
from blind import make_case

SPLIT = 'fresh4'


case = make_case('f4b-', SPLIT)


CASES4B = []
def reg(f):
    CASES4B.append(f)
    return f


def crio_all(objs):
    for o in objs:
        if o.get('kind') == 'Pod': crio(o)
    return objs


def klog(s):
    return ts(s, '%m%d %H:%M:%S.%f')


# =====================================================================================
# 1. mechanism: a Rust binary built on a newer Debian than the image it runs in (glibc too old)
# =====================================================================================
@reg
def rust_glibc_mismatch():
    ns_ = 'otel-demo'
    kv = 'v1.28.3'
    n1 = mknode('demo-w1', kubelet=kv, runtime='containerd://1.7.8', kernel='5.15.0-88-generic', os_image='Ubuntu 22.04.3 LTS')
    n2 = mknode('demo-w2', kubelet=kv, runtime='containerd://1.7.8', kernel='5.15.0-88-generic', os_image='Ubuntu 22.04.3 LTS')
    img = 'ghcr.io/open-telemetry/demo:1.6.0-shippingservice'
    labels = {'app.kubernetes.io/component': 'shippingservice', 'app.kubernetes.io/name': 'opentelemetry-demo-shippingservice', 'opentelemetry.io/name': 'opentelemetry-demo-shippingservice'}
    c = {'name': 'shippingservice', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'SHIPPING_SERVICE_PORT', 'value': '8080'}, {'name': 'QUOTE_SERVICE_ADDR', 'value': 'http://opentelemetry-demo-quoteservice:8080'},
                 {'name': 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'value': 'http://opentelemetry-demo-otelcol:4317'}, {'name': 'OTEL_SERVICE_NAME', 'value': 'shippingservice'}],
         'ports': [{'containerPort': 8080, 'name': 'service'}], 'resources': {'limits': {'memory': '20Mi'}}}
    containers, vols = with_api([c], [], 'shipping')
    d, rs = deploy('opentelemetry-demo-shippingservice', ns_, labels, 1, '7c9d5f8b64', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=3000, generation=2)
    created = 2900
    nn = 'demo-w2'
    p = mkpod('opentelemetry-demo-shippingservice-7c9d5f8b64-4mzt8', ns_, nn, containers, [running('shippingservice', img, 60)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7c9d5f8b64'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'shippingservice', img, 11, term(1, 'Error', 281, 281, seed='ship-11'))], created)
    logs = ["/app/shippingservice: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /app/shippingservice)"]
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'shippingservice', created - 5, size=31582014) + restarted(p, nn, img, 'shippingservice', 11, created - 40, 281) + \
          [backoff(p, nn, 'shippingservice', 64, created - 70, 9)]
    cart_img = 'ghcr.io/open-telemetry/demo:1.6.0-checkoutservice'
    cd, crs = deploy('opentelemetry-demo-checkoutservice', ns_, {'opentelemetry.io/name': 'opentelemetry-demo-checkoutservice'}, 1, '5b8f7d9c6d',
                     {'containers': [{'name': 'checkoutservice', 'image': cart_img}]}, created=3000, generation=2)
    cp = mkpod('opentelemetry-demo-checkoutservice-5b8f7d9c6d-x2w9q', ns_, 'demo-w1', [{'name': 'checkoutservice', 'image': cart_img}], [running('checkoutservice', cart_img, 2880)], 2900,
               owner=('ReplicaSet', crs['metadata']['name']), labels={'opentelemetry.io/name': 'opentelemetry-demo-checkoutservice', 'pod-template-hash': '5b8f7d9c6d'})
    cp_logs = ['%s checkout service: order placed, calling shipping' % ts(300, '%Y/%m/%d %H:%M:%S'),
               '%s failed to get shipping quote: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.71.18:8080: connect: connection refused"' % ts(300, '%Y/%m/%d %H:%M:%S')]
    objs = [ns(ns_), n1, n2, d, rs, p, cd, crs, cp, service('opentelemetry-demo-shippingservice', ns_, labels, ports=((8080, 8080),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'shippingservice', logs), podlog(ns_, cp['metadata']['name'], 'checkoutservice', cp_logs, previous=False)] + noise([n1, n2], kv)
    case('f4b-rust-binary-glibc-too-new-for-image', 'OpenTelemetry demo shippingservice (Rust) crash-loops: the binary was linked against a newer glibc than the runtime image ships',
         'https://github.com/open-telemetry/opentelemetry-demo/issues/1240',
         "/app/shippingservice: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /app/shippingservice)",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="libc.so.6: version `GLIBC_2.34' not found", playbook=None,
         terms=[['glibc', 'GLIBC', 'C library', 'libc'], ['base image', 'build image', 'builder', 'statically', 'static', 'musl', 'older', 'newer']])


# =====================================================================================
# 2. mechanism: Redis rolled back from 7.4 to 7.2 cannot read the RDB file 7.4 wrote (CRI-O node)
# =====================================================================================
@reg
def redis_rdb_rollback():
    ns_ = 'cache'
    kv = 'v1.30.4'
    n1 = mknode('k8s-node-a', kubelet=kv, runtime='cri-o://1.30.4', kernel='5.14.0-427.33.1.el9_4.x86_64', os_image='Rocky Linux 9.4 (Blue Onyx)')
    n2 = mknode('k8s-node-b', kubelet=kv, runtime='cri-o://1.30.4', kernel='5.14.0-427.33.1.el9_4.x86_64', os_image='Rocky Linux 9.4 (Blue Onyx)')
    img = 'docker.io/library/redis:7.2.7'
    labels = {'app': 'redis'}
    c = {'name': 'redis', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['redis-server', '/etc/redis/redis.conf'],
         'ports': [{'containerPort': 6379, 'name': 'redis'}],
         'readinessProbe': {'exec': {'command': ['redis-cli', 'ping']}, 'periodSeconds': 5},
         'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '1Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/data'}, {'name': 'config', 'mountPath': '/etc/redis'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-redis-0'}}, {'name': 'config', 'configMap': {'name': 'redis-config'}}], 'redis0')
    ss = sts('redis', ns_, labels, 1, {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 60)
    ss['status'].update({'currentRevision': 'redis-6d9c8b7f5', 'updateRevision': 'redis-58f4c7d6b9', 'updatedReplicas': 1})
    ss['metadata']['generation'] = 9
    created = 1500
    nn = 'k8s-node-b'
    p = mkpod('redis-0', ns_, nn, containers, [running('redis', img, 60)], created, owner=('StatefulSet', 'redis'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'redis-0', 'controller-revision-hash': 'redis-58f4c7d6b9'}, spec_extra={'volumes': vols, 'hostname': 'redis-0', 'subdomain': 'redis'})
    set_status(p, [clbo(p, 'redis', img, 8, term(1, 'Error', 250, 250, seed='redis-8'))], created)
    R = lambda s_, r='M': '1:%s %s' % (r, ts(s_, '%d %b %Y %H:%M:%S.%f')[:-3])
    logs = [R(250, 'C') + ' * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo',
            R(250, 'C') + ' * Redis version=7.2.7, bits=64, commit=00000000, modified=0, pid=1, just started',
            R(250, 'C') + ' * Configuration loaded',
            R(250) + ' * monotonic clock: POSIX clock_gettime',
            R(250) + ' * Running mode=standalone, port=6379.',
            R(250) + ' * Server initialized',
            R(250) + " # Can't handle RDB format version 12",
            R(250) + ' # Fatal error loading the DB, check server logs. Exiting.']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'redis', created - 5, size=41622110) + restarted(p, nn, img, 'redis', 8, created - 40, 250) + \
          [backoff(p, nn, 'redis', 37, created - 70, 11),
           ctrl_ev(ss, 'SuccessfulDelete', 'delete Pod redis-0 in StatefulSet redis successful', 'statefulset-controller', last=created + 5),
           ctrl_ev(ss, 'SuccessfulCreate', 'create Pod redis-0 in StatefulSet redis successful', 'statefulset-controller', last=created)]
    app_img = 'registry.example.org/shop/api:3.14.2'
    ad, ars = deploy('shop-api', ns_, {'app': 'shop-api'}, 1, '6f8b9d7c5d', {'containers': [{'name': 'api', 'image': app_img}]}, created=86400 * 30)
    ap = mkpod('shop-api-6f8b9d7c5d-zq7vh', ns_, 'k8s-node-a', [{'name': 'api', 'image': app_img}], [running('api', app_img, 86400 * 3)], 86400 * 3 + 20,
               owner=('ReplicaSet', ars['metadata']['name']), labels={'app': 'shop-api', 'pod-template-hash': '6f8b9d7c5d'})
    ap_logs = ['%s WARN session store unavailable: dial tcp 10.96.112.40:6379: connect: connection refused; serving without cache' % ts(120, '%Y-%m-%dT%H:%M:%SZ')]
    cl = claim('data-redis-0', ns_, 'local-path', 'Bound', '8Gi', volume='pvc-' + uid('redis-data-0'), provisioner='rancher.io/local-path', selected_node=nn, created=86400 * 60)
    objs = [ns(ns_), n1, n2, ss, p, cl, configmap('redis-config', ns_, {'redis.conf': 'appendonly no\nsave 3600 1 300 100 60 10000\ndir /data\n'}),
            service('redis', ns_, labels, ports=((6379, 6379),)), ad, ars, ap] + evs + \
           [podlog(ns_, 'redis-0', 'redis', logs), podlog(ns_, ap['metadata']['name'], 'api', ap_logs, previous=False)] + noise([n1, n2], kv)
    crio_all(objs)
    case('f4b-redis-rollback-rdb-format-newer', 'Redis StatefulSet rolled back from 7.4.3 to 7.2.7 crash-loops: the dump.rdb on its volume was written by 7.4 (RDB format 12)',
         'https://github.com/redis/redis/issues/14064', "Can't handle RDB format version 12", '%s/redis-0' % ns_, 'any', objs,
         decisive="Can't handle RDB format version 12", playbook=None,
         terms=[['RDB', 'dump.rdb', 'snapshot', 'data file', 'persisted data', 'on-disk'], ['newer', 'downgrad', 'rolled back', 'roll back', 'rollback', 'older version', '7.4']])


# =====================================================================================
# 3. mechanism: JAVA_OPTS keeps a CMS flag the image's new JDK 17 no longer has (containerd 2.0)
# =====================================================================================
@reg
def geoserver_cms_flag():
    ns_ = 'gis'
    kv = 'v1.31.2'
    n1 = mknode('gis-worker-1', kubelet=kv, runtime='containerd://2.0.0', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    n2 = mknode('gis-worker-2', kubelet=kv, runtime='containerd://2.0.0', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS')
    img = 'docker.io/oscarfonts/geoserver:2.24.1'
    labels = {'app': 'geoserver'}
    c = {'name': 'geoserver', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'JAVA_OPTS', 'value': '-Xms1g -Xmx2g -XX:+UseConcMarkSweepGC -XX:SoftRefLRUPolicyMSPerMB=36000 -Djava.awt.headless=true'},
                 {'name': 'GEOSERVER_DATA_DIR', 'value': '/var/local/geoserver'}],
         'ports': [{'containerPort': 8080, 'name': 'http'}],
         'readinessProbe': {'httpGet': {'path': '/geoserver/web/', 'port': 8080}, 'initialDelaySeconds': 30, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '500m', 'memory': '2Gi'}, 'limits': {'memory': '3Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/var/local/geoserver'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'geoserver-data'}}], 'geoserver')
    d, rs = deploy('geoserver', ns_, labels, 1, '69b7d4c8f5', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 200, generation=14,
                   strategy={'type': 'Recreate'})
    old = replicaset(d, '7d5c9f6b48', 0, 0, {'containers': [dict(copy.deepcopy(c), image='docker.io/oscarfonts/geoserver:2.22.5')]}, created=86400 * 90, revision=13)
    created = 1400
    nn = 'gis-worker-1'
    p = mkpod('geoserver-69b7d4c8f5-k8d2r', ns_, nn, containers, [running('geoserver', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '69b7d4c8f5'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'geoserver', img, 7, term(1, 'Error', 233, 233, seed='geo-7'))], created)
    logs = ['NOTE: Picked up JDK_JAVA_OPTIONS:  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED',
            "Unrecognized VM option 'UseConcMarkSweepGC'",
            'Error: Could not create the Java Virtual Machine.',
            'Error: A fatal exception has occurred. Program will exit.']
    evs = [ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set geoserver-7d5c9f6b48 to 0 from 1', 'deployment-controller', last=created + 30),
           ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set geoserver-69b7d4c8f5 to 1', 'deployment-controller', last=created + 2),
           scheduled(p, nn, created - 1)] + started(p, nn, img, 'geoserver', created - 6, pulled_in='21.4s', size=412733091) + restarted(p, nn, img, 'geoserver', 7, created - 40, 233) + \
          [backoff(p, nn, 'geoserver', 31, created - 70, 14)]
    cl = claim('geoserver-data', ns_, 'longhorn', 'Bound', '20Gi', volume='pvc-' + uid('geodata'), provisioner='driver.longhorn.io', created=86400 * 200)
    objs = [ns(ns_), n1, n2, d, rs, old, p, cl, service('geoserver', ns_, labels, ports=((8080, 8080),))] + evs + [podlog(ns_, p['metadata']['name'], 'geoserver', logs)] + noise([n1, n2], kv)
    case('f4b-jvm-cms-flag-removed-java17-image', "GeoServer crash-loops after the image moved to Java 17: JAVA_OPTS still passes -XX:+UseConcMarkSweepGC, which that JVM no longer has",
         'https://github.com/oscarfonts/docker-geoserver/issues/42', "Unrecognized VM option 'UseConcMarkSweepGC'",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="Unrecognized VM option 'UseConcMarkSweepGC'", playbook=None,
         terms=[['JAVA_OPTS', 'JVM option', 'JVM flag', 'VM option', 'command-line option', 'java option'],
                ['Java 17', 'JDK 17', 'Java 14', 'JDK 14', 'removed', 'no longer supported', 'newer Java', 'Java version', 'JDK version']])


# =====================================================================================
# 4. mechanism: a chiseled .NET image without ICU started with a culture it cannot serve (AKS)
# =====================================================================================
@reg
def dotnet_icu_chiseled():
    ns_ = 'particular'
    kv = 'v1.29.9'
    aks = {'kubernetes.azure.com/agentpool': 'nodepool1', 'kubernetes.azure.com/os-sku': 'Ubuntu', 'topology.kubernetes.io/zone': 'westeurope-1'}
    n1 = mknode('aks-nodepool1-31582207-vmss000000', kubelet=kv, runtime='containerd://1.7.15-1', kernel='5.15.0-1073-azure', os_image='Ubuntu 22.04.5 LTS', labels=aks)
    n2 = mknode('aks-nodepool1-31582207-vmss000001', kubelet=kv, runtime='containerd://1.7.15-1', kernel='5.15.0-1073-azure', os_image='Ubuntu 22.04.5 LTS', labels=aks)
    img = 'particular/servicepulse:1.40.0'
    labels = {'app': 'servicepulse'}
    c = {'name': 'servicepulse', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'SERVICECONTROL_URL', 'value': 'http://servicecontrol:33333/api/'}, {'name': 'MONITORING_URL', 'value': 'http://servicecontrol-monitoring:33633/'},
                 {'name': 'LANG', 'value': 'sv_SE.UTF-8'}, {'name': 'LC_ALL', 'value': 'sv_SE.UTF-8'}, {'name': 'TZ', 'value': 'Europe/Stockholm'}],
         'ports': [{'containerPort': 9090, 'name': 'http'}], 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '256Mi'}},
         'securityContext': {'runAsNonRoot': True, 'allowPrivilegeEscalation': False}}
    containers, vols = with_api([c], [], 'servicepulse')
    d, rs = deploy('servicepulse', ns_, labels, 1, '84c7d9b6f7', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 120, generation=8)
    old = replicaset(d, '6b5f9d8c47', 0, 0, {'containers': [dict(copy.deepcopy(c), image='particular/servicepulse:1.39.0')]}, created=86400 * 40, revision=7)
    created = 1700
    nn = n2['metadata']['name']
    p = mkpod('servicepulse-84c7d9b6f7-lt6gq', ns_, nn, containers, [running('servicepulse', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '84c7d9b6f7'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'servicepulse', img, 9, term(134, 'Error', 201, 201, seed='sp-9'))], created)
    logs = ["Process terminated. Couldn't find a valid ICU package installed on the system. Please install libicu (or icu-libs) using your package manager and try again. Alternatively you can set the configuration flag System.Globalization.Invariant to true if you want to run with no globalization support. Please see https://aka.ms/dotnet-missing-libicu for more information.",
            '   at System.Environment.FailFast(System.String)',
            '   at System.Globalization.GlobalizationMode+Settings..cctor()',
            '   at System.Globalization.CultureData.CreateCultureWithInvariantData()',
            '   at System.Globalization.CultureData.get_Invariant()',
            '   at System.Globalization.CultureInfo..cctor()',
            '   at System.Reflection.RuntimeAssembly.GetName(Boolean)',
            '   at System.AppDomain.get_FriendlyName()',
            '   at ServicePulse.Program.Main(System.String[])']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'servicepulse', created - 4, size=48552117) + restarted(p, nn, img, 'servicepulse', 9, created - 40, 201) + \
          [backoff(p, nn, 'servicepulse', 40, created - 70, 6)]
    objs = [ns(ns_), n1, n2, d, rs, old, p, service('servicepulse', ns_, labels, ports=((9090, 9090),))] + evs + [podlog(ns_, p['metadata']['name'], 'servicepulse', logs)] + \
           noise([n1, n2], kv, dns_image='mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4-hotfix.20240704')
    case('f4b-dotnet-chiseled-image-no-icu-locale', 'ServicePulse 1.40 (.NET, chiseled image without ICU) aborts at start in a pod whose locale is not the invariant culture',
         'https://github.com/Particular/ServicePulse/issues/2229',
         "Process terminated. Couldn't find a valid ICU package installed on the system. Please install libicu (or icu-libs) using your package manager and try again.",
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive="Couldn't find a valid ICU package installed on the system", playbook=None,
         terms=[['ICU', 'libicu', 'icu-libs'], ['GLOBALIZATION_INVARIANT', 'InvariantGlobalization', 'invariant', 'chiseled', 'locale', 'culture']])


# =====================================================================================
# 5. mechanism: an old libpq in the app image cannot do the SCRAM auth the upgraded Postgres asks for
#    (CRI-O 1.27)
# =====================================================================================
@reg
def libpq_scram():
    ns_ = 'dagknows'
    kv = 'v1.27.16'
    n1 = mknode('dk-node-1', kubelet=kv, runtime='cri-o://1.27.1', kernel='4.18.0-513.24.1.el8_9.x86_64', os_image='Red Hat Enterprise Linux 8.9 (Ootpa)')
    n2 = mknode('dk-node-2', kubelet=kv, runtime='cri-o://1.27.1', kernel='4.18.0-513.24.1.el8_9.x86_64', os_image='Red Hat Enterprise Linux 8.9 (Ootpa)')
    img = 'registry.example.org/dagknows/req-router:0.9.12'
    pg_img = 'docker.io/library/postgres:16.4'
    labels = {'app': 'req-router'}
    c = {'name': 'req-router', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['python', '-m', 'req_router'],
         'env': [{'name': 'DATABASE_URL', 'valueFrom': {'secretKeyRef': {'name': 'req-router-db', 'key': 'url'}}}, {'name': 'PYTHONUNBUFFERED', 'value': '1'}],
         'ports': [{'containerPort': 8000, 'name': 'http'}], 'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}
    containers, vols = with_api([c], [], 'req-router')
    d, rs = deploy('req-router', ns_, labels, 1, '5f7c8d9b46', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 90, generation=21)
    created = 2100
    nn = 'dk-node-1'
    p = mkpod('req-router-5f7c8d9b46-9vwxs', ns_, nn, containers, [running('req-router', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5f7c8d9b46'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'req-router', img, 10, term(1, 'Error', 244, 241, seed='rr-10'))], created)
    logs = ['Traceback (most recent call last):',
            '  File "/usr/local/lib/python3.7/site-packages/sqlalchemy/engine/base.py", line 2262, in _wrap_pool_connect',
            '    return fn()',
            '  File "/usr/local/lib/python3.7/site-packages/sqlalchemy/pool/base.py", line 363, in connect',
            '    return _ConnectionFairy._checkout(self)',
            '  File "/usr/local/lib/python3.7/site-packages/sqlalchemy/engine/default.py", line 453, in connect',
            '    return self.dbapi.connect(*cargs, **cparams)',
            '  File "/usr/local/lib/python3.7/site-packages/psycopg2/__init__.py", line 126, in connect',
            '    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)',
            'psycopg2.OperationalError: SCRAM authentication requires libpq version 10 or above',
            '',
            'The above exception was the direct cause of the following exception:',
            '',
            'Traceback (most recent call last):',
            '  File "/app/req_router/__main__.py", line 41, in <module>',
            '    db.init_schema(engine)',
            'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) SCRAM authentication requires libpq version 10 or above',
            '(Background on this error at: http://sqlalche.me/e/e3q8)']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'req-router', created - 4, present=True) + restarted(p, nn, img, 'req-router', 10, created - 40, 244) + \
          [backoff(p, nn, 'req-router', 44, created - 70, 16)]
    pg_labels = {'app': 'postgres'}
    pgc = {'name': 'postgres', 'image': pg_img, 'ports': [{'containerPort': 5432, 'name': 'postgres'}],
           'env': [{'name': 'POSTGRES_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'postgres', 'key': 'password'}}}, {'name': 'PGDATA', 'value': '/var/lib/postgresql/data/pgdata'}],
           'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/postgresql/data'}]}
    pss = sts('postgres', ns_, pg_labels, 1, {'containers': [copy.deepcopy(pgc)], 'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-postgres-0'}}]}, ready=1, created=86400 * 90)
    pp = mkpod('postgres-0', ns_, 'dk-node-2', [pgc], [running('postgres', pg_img, 2400)], 2420, owner=('StatefulSet', 'postgres'),
               labels={**pg_labels, 'statefulset.kubernetes.io/pod-name': 'postgres-0'}, spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-postgres-0'}}]})
    P = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f')[:-3] + ' UTC'
    pg_logs = ['%s [1] LOG:  starting PostgreSQL 16.4 (Debian 16.4-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit' % P(2395),
               '%s [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432' % P(2395),
               '%s [1] LOG:  database system is ready to accept connections' % P(2390),
               '%s [812] FATAL:  password authentication failed for user "router"' % P(1900),
               '%s [812] DETAIL:  User "router" does not have a valid SCRAM secret.' % P(1900)]
    objs = [ns(ns_), n1, n2, d, rs, p, pss, pp, secret('req-router-db', ns_, ['url']), secret('postgres', ns_, ['password']),
            claim('data-postgres-0', ns_, 'standard', 'Bound', '20Gi', volume='pvc-' + uid('dkpg'), provisioner='rancher.io/local-path', created=86400 * 90),
            service('postgres', ns_, pg_labels, ports=((5432, 5432),))] + evs + \
           [podlog(ns_, p['metadata']['name'], 'req-router', logs), podlog(ns_, 'postgres-0', 'postgres', pg_logs, previous=False)] + noise([n1, n2], kv)
    crio_all(objs)
    case('f4b-psycopg2-old-libpq-scram-auth', 'Python service crash-loops after its Postgres moved to SCRAM passwords: the libpq inside its psycopg2 build is older than 10',
         'https://github.com/psycopg/psycopg2/issues/1360',
         'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) SCRAM authentication requires libpq version 10 or above',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='SCRAM authentication requires libpq version 10 or above', playbook=None,
         terms=[['libpq', 'client library', 'psycopg2'], ['SCRAM', 'scram-sha-256', 'password_encryption', 'password encryption', 'md5']])


# =====================================================================================
# 6. mechanism: an image update brings PostgreSQL 18 onto a data directory PostgreSQL 16 initialised
#    (embedded database; containerd 2.0, Kubernetes 1.32)
# =====================================================================================
@reg
def sourcebot_pg_major():
    ns_ = 'sourcebot'
    kv = 'v1.32.1'
    n1 = mknode('srv-k8s-01', kubelet=kv, runtime='containerd://2.0.2', kernel='6.12.9-200.fc41.x86_64', os_image='Fedora Linux 41 (Server Edition)')
    img = 'ghcr.io/sourcebot-dev/sourcebot:v4.10.13'
    labels = {'app.kubernetes.io/name': 'sourcebot'}
    c = {'name': 'sourcebot', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'AUTH_URL', 'value': 'https://sourcebot.lab.example.net'}, {'name': 'CONFIG_PATH', 'value': '/config/config.json'},
                 {'name': 'AUTH_SECRET', 'valueFrom': {'secretKeyRef': {'name': 'sourcebot', 'key': 'auth-secret'}}}],
         'ports': [{'containerPort': 3000, 'name': 'http'}], 'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '4Gi'}},
         'volumeMounts': [{'name': 'data', 'mountPath': '/data'}, {'name': 'config', 'mountPath': '/config'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'sourcebot-data'}}, {'name': 'config', 'configMap': {'name': 'sourcebot-config'}}], 'sourcebot')
    d, rs = deploy('sourcebot', ns_, labels, 1, '7b9c6d5f84', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=86400 * 70, generation=12,
                   strategy={'type': 'Recreate'})
    created = 1300
    nn = 'srv-k8s-01'
    p = mkpod('sourcebot-7b9c6d5f84-hn5x2', ns_, nn, containers, [running('sourcebot', img, 60)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7b9c6d5f84'}, spec_extra={'volumes': vols})
    set_status(p, [clbo(p, 'sourcebot', img, 8, term(1, 'Error', 215, 212, seed='sb-8'))], created)
    P = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f')[:-3] + ' UTC'
    logs = ['Running sourcebot with the following environment:', '  DATA_DIR=/data', '  DATABASE_URL=postgresql://postgres@localhost:5432/sourcebot',
            'Starting the internal database...',
            '%s [79] FATAL:  database files are incompatible with server' % P(214),
            '%s [79] DETAIL:  The data directory was initialized by PostgreSQL version 16, which is not compatible with this version 18.1.' % P(214),
            'postgres failed to run']
    evs = [scheduled(p, nn, created - 1)] + started(p, nn, img, 'sourcebot', created - 6, pulled_in='38.2s', size=1288402176) + restarted(p, nn, img, 'sourcebot', 8, created - 40, 215) + \
          [backoff(p, nn, 'sourcebot', 35, created - 70, 21)]
    objs = [ns(ns_), n1, d, rs, p, secret('sourcebot', ns_, ['auth-secret']), configmap('sourcebot-config', ns_, {'config.json': '{"connections": {"gitea": {"type": "gitea", "url": "https://git.lab.example.net"}}}'}),
            claim('sourcebot-data', ns_, 'local-path', 'Bound', '50Gi', volume='pvc-' + uid('sbdata'), provisioner='rancher.io/local-path', selected_node=nn, created=86400 * 70)] + evs + \
           [podlog(ns_, p['metadata']['name'], 'sourcebot', logs)] + noise([n1], kv, dns_image='registry.k8s.io/coredns/coredns:v1.11.3')
    case('f4b-embedded-postgres-major-upgrade-data-dir', 'Sourcebot crash-loops after an image update: its embedded PostgreSQL 18 refuses the data directory PostgreSQL 16 initialised',
         'https://github.com/sourcebot-dev/sourcebot/issues/768',
         'DETAIL:  The data directory was initialized by PostgreSQL version 16, which is not compatible with this version 18.1.',
         '%s/%s' % (ns_, p['metadata']['name']), 'any', objs, decisive='initialized by PostgreSQL version 16, which is not compatible', playbook=None,
         terms=[['data directory', 'PGDATA', 'on-disk', 'data files'], ['pg_upgrade', 'major version', 'pg_dump', 'dump and restore', 'older image', 'previous image', 'image tag']])


# =====================================================================================
# K1. admission.rejected: a Helm hook Job of the timescaledb chart has no limits; the namespace quota refuses its pods
# =====================================================================================
@reg
def timescale_job_quota():
    ns_ = 'anais'
    kv = 'v1.29.10'
    n1 = mknode('worker-01', kubelet=kv, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('worker-02', kubelet=kv, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'timescale/timescaledb-ha:pg13.1-ts-2.0.0-p0'
    jname = 'timescaledb-patroni-0u'
    juid = uid('Job' + ns_ + jname)
    jl = {'app': 'timescaledb', 'release': 'timescaledb', 'batch.kubernetes.io/controller-uid': juid, 'batch.kubernetes.io/job-name': jname, 'controller-uid': juid, 'job-name': jname}
    tmpl = {'restartPolicy': 'OnFailure', 'serviceAccountName': 'timescaledb',
            'containers': [{'name': 'patroni-config', 'image': img, 'command': ['sh', '-c', 'curl -sS -XPATCH -d @/etc/timescaledb/patroni.json http://timescaledb-config:8008/config'],
                            'volumeMounts': [{'name': 'patroni-config', 'mountPath': '/etc/timescaledb'}]}],
            'volumes': [{'name': 'patroni-config', 'configMap': {'name': 'timescaledb-patroni'}}]}
    job = workload('Job', jname, ns_, {'batch.kubernetes.io/controller-uid': juid}, template_spec=copy.deepcopy(tmpl))
    job['metadata'].update({'creationTimestamp': ago(1850), 'labels': {'app': 'timescaledb', 'release': 'timescaledb'},
                            'annotations': {'helm.sh/hook': 'post-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation'}})
    job['spec'].update({'backoffLimit': 6, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False, 'manualSelector': False, 'podReplacementPolicy': 'TerminatingOrFailed'})
    job['spec']['template']['metadata']['labels'] = dict(jl)
    job['status'] = {'startTime': ago(1850), 'active': 0, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {}}
    quota_msg = lambda suffix: 'Error creating: pods "%s-%s" is forbidden: failed quota: anais-quota: must specify limits.cpu,limits.memory' % (jname, suffix)
    evs = [ctrl_ev(job, 'FailedCreate', quota_msg('kf7t9'), 'job-controller', type_='Warning', last=1848),
           ctrl_ev(job, 'FailedCreate', quota_msg('swzqt'), 'job-controller', type_='Warning', last=1790),
           ctrl_ev(job, 'FailedCreate', quota_msg('kbrm7'), 'job-controller', type_='Warning', last=1760),
           ctrl_ev(job, 'FailedCreate', quota_msg('jtmh6'), 'job-controller', type_='Warning', last=1500),
           ev(job, 'FailedCreate', '(combined from similar events): ' + quota_msg('p2x8d'), 'Warning', count=14, first=1450, last=40, component='job-controller')]
    quota = obj('ResourceQuota', 'v1', 'anais-quota', ns_, 86400 * 120, spec={'hard': {'limits.cpu': '8', 'limits.memory': '16Gi', 'requests.cpu': '4', 'requests.memory': '8Gi', 'pods': '30'}},
                status={'hard': {'limits.cpu': '8', 'limits.memory': '16Gi', 'requests.cpu': '4', 'requests.memory': '8Gi', 'pods': '30'},
                        'used': {'limits.cpu': '3', 'limits.memory': '6Gi', 'requests.cpu': '1500m', 'requests.memory': '3Gi', 'pods': '4'}})
    db_c = {'name': 'timescaledb', 'image': img, 'ports': [{'containerPort': 5432, 'name': 'postgresql'}, {'containerPort': 8008, 'name': 'patroni'}],
            'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'cpu': '1', 'memory': '2Gi'}}}
    dbl = {'app': 'timescaledb', 'release': 'timescaledb'}
    dss = sts('timescaledb', ns_, dbl, 3, {'serviceAccountName': 'timescaledb', 'containers': [copy.deepcopy(db_c)]}, ready=3, created=86400 * 120)
    pods = [mkpod('timescaledb-%d' % i, ns_, ['worker-01', 'worker-02'][i % 2], [db_c], [running('timescaledb', img, 86400 * 2 - i * 60)], 86400 * 2 - i * 60 + 20,
                  owner=('StatefulSet', 'timescaledb'), labels={**dbl, 'statefulset.kubernetes.io/pod-name': 'timescaledb-%d' % i, 'role': 'master' if i == 0 else 'replica'}, sa='timescaledb')
            for i in range(3)]
    objs = [ns(ns_), n1, n2, job, quota, dss] + pods + [serviceaccount('timescaledb', ns_), configmap('timescaledb-patroni', ns_, {'patroni.json': '{"postgresql": {"parameters": {"max_connections": 200}}}'})] + \
           evs + noise([n1, n2], kv)
    case('f4b-helm-hook-job-quota-must-specify-limits', 'A post-upgrade Helm hook Job of the timescaledb chart never gets a pod: the namespace quota demands limits its template does not set',
         'https://github.com/timescale/helm-charts/issues/259',
         'Error creating: pods "timescaledb-patroni-0u-kf7t9" is forbidden: failed quota: anais-quota: must specify limits.cpu,limits.memory',
         '%s/%s' % (ns_, jname), 'admission.rejected', objs, decisive='failed quota: anais-quota: must specify limits.cpu,limits.memory', playbook=None)


# =====================================================================================
# K2. runtime.handler-missing: on k0s the toolkit wrote a containerd config k0s's containerd does not use;
#     the GPU operator's DaemonSet pods (runtimeClassName nvidia) cannot get a sandbox
# =====================================================================================
@reg
def k0s_nvidia_runtime():
    ns_ = 'gpu-operator'
    kv = 'v1.31.5+k0s'
    n1 = mknode('gpu-node-01', kubelet=kv, runtime='containerd://1.7.24', kernel='5.15.0-130-generic', os_image='Ubuntu 22.04.5 LTS',
                labels={'nvidia.com/gpu.present': 'true', 'nvidia.com/gpu.deploy.device-plugin': 'true', 'feature.node.kubernetes.io/pci-10de.present': 'true'})
    n2 = mknode('cpu-node-01', kubelet=kv, runtime='containerd://1.7.24', kernel='5.15.0-130-generic', os_image='Ubuntu 22.04.5 LTS')
    nn = 'gpu-node-01'
    rc = obj('RuntimeClass', 'node.k8s.io/v1', 'nvidia', None, 86400 * 2, handler='nvidia')
    dp_img = 'nvcr.io/nvidia/k8s-device-plugin:v0.17.0'
    tk_img = 'nvcr.io/nvidia/k8s/container-toolkit:v1.17.4-ubuntu20.04'
    dsl = {'app': 'nvidia-device-plugin-daemonset'}
    dp_spec = {'runtimeClassName': 'nvidia', 'serviceAccountName': 'nvidia-device-plugin', 'priorityClassName': 'system-node-critical',
               'nodeSelector': {'nvidia.com/gpu.deploy.device-plugin': 'true'},
               'initContainers': [{'name': 'toolkit-validation', 'image': 'nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.9.2', 'command': ['sh', '-c'],
                                   'args': ["until [ -f /run/nvidia/validations/toolkit-ready ]; do echo waiting for nvidia container stack to be setup; sleep 5; done"]}],
               'containers': [{'name': 'nvidia-device-plugin', 'image': dp_img, 'command': ['nvidia-device-plugin']}]}
    dds = daemonset('nvidia-device-plugin-daemonset', ns_, dsl, 1, 0, dp_spec, created=86400 * 2)
    created = 3000
    p = mkpod('nvidia-device-plugin-daemonset-7xq2m', ns_, nn, dp_spec['containers'], [waiting('nvidia-device-plugin', dp_img, 'PodInitializing', pulled=False)], created,
              owner=('DaemonSet', 'nvidia-device-plugin-daemonset'), labels=dict(dsl), phase='Pending', sa='nvidia-device-plugin',
              spec_extra={'runtimeClassName': 'nvidia', 'priorityClassName': 'system-node-critical', 'nodeSelector': dp_spec['nodeSelector'],
                          'affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchFields': [{'key': 'metadata.name', 'operator': 'In', 'values': [nn]}]}]}}}},
              init=dp_spec['initContainers'], init_statuses=[waiting('toolkit-validation', 'nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.9.2', 'PodInitializing', pulled=False)],
              conditions=conds(created, False, msg='containers with incomplete status: [toolkit-validation]', initialized=False, sandbox=False))
    p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
    msg = 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured'
    evs = [scheduled(p, nn, created - 1), ev(p, 'FailedCreatePodSandBox', msg, count=131, first=created - 3, last=14, host=nn)]
    tds = daemonset('nvidia-container-toolkit-daemonset', ns_, {'app': 'nvidia-container-toolkit-daemonset'}, 1, 1, {'containers': [{'name': 'nvidia-container-toolkit-ctr', 'image': tk_img}]}, created=86400 * 2)
    tp = ds_pod(tds, nn, tk_img, 'nvidia-container-toolkit-ctr', 3100, namespace=ns_, suffix='w6h9k')
    tk_logs = ['time="%s" level=info msg="Loading config from /etc/containerd/config.toml"' % ts(3080, '%Y-%m-%dT%H:%M:%SZ'),
               'time="%s" level=info msg="Wrote updated config to /etc/containerd/config.toml"' % ts(3079, '%Y-%m-%dT%H:%M:%SZ'),
               'time="%s" level=info msg="Sending SIGHUP signal to containerd"' % ts(3079, '%Y-%m-%dT%H:%M:%SZ'),
               'time="%s" level=warning msg="Error signaling containerd, attempt 1/6: unable to dial: dial unix /run/containerd/containerd.sock: connect: no such file or directory"' % ts(3078, '%Y-%m-%dT%H:%M:%SZ'),
               'time="%s" level=info msg="Completed \'setup\' for containerd"' % ts(3040, '%Y-%m-%dT%H:%M:%SZ'),
               'time="%s" level=info msg="Waiting for signal"' % ts(3040, '%Y-%m-%dT%H:%M:%SZ')]
    tds['spec']['template']['spec']['containers'][0]['env'] = [{'name': 'RUNTIME', 'value': 'containerd'}, {'name': 'CONTAINERD_CONFIG', 'value': '/etc/containerd/config.toml'},
                                                              {'name': 'CONTAINERD_SOCKET', 'value': '/run/containerd/containerd.sock'}, {'name': 'CONTAINERD_RUNTIME_CLASS', 'value': 'nvidia'}]
    op_img = 'nvcr.io/nvidia/gpu-operator:v24.9.2'
    od, ors = deploy('gpu-operator', ns_, {'app': 'gpu-operator'}, 1, '6c8d7f9b55', {'containers': [{'name': 'gpu-operator', 'image': op_img}]}, created=86400 * 2)
    op = mkpod('gpu-operator-6c8d7f9b55-tq4zl', ns_, 'cpu-node-01', [{'name': 'gpu-operator', 'image': op_img}], [running('gpu-operator', op_img, 86400 * 2 - 30)], 86400 * 2,
               owner=('ReplicaSet', ors['metadata']['name']), labels={'app': 'gpu-operator', 'pod-template-hash': '6c8d7f9b55'})
    op_logs = ['{"level":"info","ts":%d.51,"logger":"controllers.ClusterPolicy","msg":"ClusterPolicy step completed","state:":"state-device-plugin","status":"notReady"}' % (1795000000 - 60)]
    objs = [ns(ns_), n1, n2, rc, dds, p, tds, tp, od, ors, op, serviceaccount('nvidia-device-plugin', ns_)] + evs + \
           [podlog(ns_, tp['metadata']['name'], 'nvidia-container-toolkit-ctr', tk_logs, previous=False), podlog(ns_, op['metadata']['name'], 'gpu-operator', op_logs, previous=False)] + \
           noise([n1, n2], 'v1.31.5', proxy=True, dns_image='quay.io/k0sproject/coredns:1.11.4')
    case('f4b-k0s-gpu-operator-nvidia-handler-missing', "GPU operator on k0s: the device-plugin DaemonSet pod never gets a sandbox, k0s's containerd has no \"nvidia\" runtime (the toolkit patched a config it does not read)",
         'https://github.com/NVIDIA/gpu-operator/issues/1323', 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured',
         '%s/%s' % (ns_, p['metadata']['name']), 'runtime.handler-missing', objs, decisive='no runtime for "nvidia" is configured', acceptable=['sandbox.create-failed'], playbook=None)


# =====================================================================================
# K3. image.not-found: the manifest names the image without a tag; the repository publishes no "latest"
# =====================================================================================
@reg
def image_no_latest_tag():
    ns_ = 'bots'
    kv = 'v1.30.5'
    n1 = mknode('do-pool-1-x7k2p', kubelet=kv, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)',
                labels={'doks.digitalocean.com/node-pool': 'pool-1', 'region': 'fra1'})
    n2 = mknode('do-pool-1-x7k2q', kubelet=kv, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)',
                labels={'doks.digitalocean.com/node-pool': 'pool-1', 'region': 'fra1'})
    img = 'podobaas/digitalocean-telegram-bot'
    labels = {'app': 'do-telegram-bot'}
    c = {'name': 'bot', 'image': img, 'imagePullPolicy': 'Always',
         'env': [{'name': 'TELEGRAM_BOT_TOKEN', 'valueFrom': {'secretKeyRef': {'name': 'do-telegram-bot', 'key': 'telegramToken'}}},
                 {'name': 'DO_CLIENT_ID', 'valueFrom': {'secretKeyRef': {'name': 'do-telegram-bot', 'key': 'doClientId'}}}],
         'resources': {'requests': {'cpu': '50m', 'memory': '128Mi'}, 'limits': {'memory': '256Mi'}}}
    containers, vols = with_api([c], [], 'dobot')
    d, rs = deploy('do-telegram-bot', ns_, labels, 1, '7f6d9c8b54', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=900, generation=1)
    created = 880
    nn = 'do-pool-1-x7k2q'
    pull = ('rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/podobaas/digitalocean-telegram-bot:latest": failed to resolve reference '
            '"docker.io/podobaas/digitalocean-telegram-bot:latest": docker.io/podobaas/digitalocean-telegram-bot:latest: not found')
    p = mkpod('do-telegram-bot-7f6d9c8b54-qp9tl', ns_, nn, containers, [waiting('bot', img, 'ImagePullBackOff', 'Back-off pulling image "%s"' % img, pulled=False)], created,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7f6d9c8b54'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    f_ = fp('bot')
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=8, first=created - 2, last=150, host=nn, fieldPath=f_),
           ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, pull), count=8, first=created - 3, last=149, host=nn, fieldPath=f_),
           ev(p, 'Failed', 'Error: ErrImagePull', count=8, first=created - 3, last=149, host=nn, fieldPath=f_),
           ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=37, first=created - 10, last=12, host=nn, fieldPath=f_),
           ev(p, 'Failed', 'Error: ImagePullBackOff', count=37, first=created - 10, last=12, host=nn, fieldPath=f_)]
    csi_img = 'digitalocean/do-csi-plugin:v4.12.0'
    csi = daemonset('csi-do-node', 'kube-system', {'app': 'csi-do-node'}, 2, 2, {'containers': [{'name': 'csi-do-plugin', 'image': csi_img}]})
    objs = [ns(ns_), n1, n2, d, rs, p, secret('do-telegram-bot', ns_, ['telegramToken', 'doClientId']), csi,
            ds_pod(csi, 'do-pool-1-x7k2p', csi_img, 'csi-do-plugin', 86400 * 20), ds_pod(csi, nn, csi_img, 'csi-do-plugin', 86400 * 20)] + evs + \
           noise([n1, n2], kv, dns_image='registry.k8s.io/coredns/coredns:v1.11.3')
    case('f4b-image-without-tag-no-latest-published', 'A bot Deployment names its image without a tag: the pull defaults to :latest, which the repository never published (ImagePullBackOff)',
         'https://github.com/podobaas/DigitalOceanTelegramBot/issues/24',
         'Error response from daemon: manifest for podobaas/digitalocean-telegram-bot:latest not found: manifest unknown: manifest unknown',
         '%s/%s' % (ns_, p['metadata']['name']), 'image.not-found', objs, decisive='digitalocean-telegram-bot:latest: not found', playbook=None)


# =====================================================================================
# K4. pending.hostport-conflict: a second node-exporter DaemonSet (seldon-core-analytics) wants host port 9100,
#     which the cluster's own node-exporter already holds on every node
# =====================================================================================
@reg
def second_node_exporter_hostport():
    ns_ = 'seldon-system'
    kv = 'v1.27.16-eks-a18cd3a'
    eks = lambda z: {'eks.amazonaws.com/nodegroup': 'general', 'topology.kubernetes.io/zone': z, 'node.kubernetes.io/instance-type': 'm5.xlarge'}
    nodes = [mknode('ip-10-40-%d-%d.eu-west-1.compute.internal' % (i + 1, 20 + i * 7), kubelet=kv, runtime='containerd://1.7.11', kernel='5.10.215-203.850.amzn2.x86_64', os_image='Amazon Linux 2',
                    labels=eks('eu-west-1%s' % 'abc'[i % 3]), ip='10.40.%d.%d' % (i + 1, 20 + i * 7)) for i in range(5)]
    names = [n['metadata']['name'] for n in nodes]
    img = 'quay.io/prometheus/node-exporter:v1.3.1'
    dsl = {'app': 'prometheus', 'component': 'node-exporter', 'release': 'seldon-core-analytics'}
    spec = {'hostNetwork': True, 'hostPID': True, 'serviceAccountName': 'seldon-core-analytics-prometheus-node-exporter',
            'containers': [{'name': 'prometheus-node-exporter', 'image': img, 'args': ['--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--web.listen-address=:9100'],
                            'ports': [{'containerPort': 9100, 'hostPort': 9100, 'name': 'metrics', 'protocol': 'TCP'}]}]}
    ds = daemonset('seldon-core-analytics-prometheus-node-exporter', ns_, dsl, 5, 0, spec, created=1700)
    ds['status'].update({'numberAvailable': 0, 'numberUnavailable': 5, 'numberReady': 0, 'updatedNumberScheduled': 5})
    created = 1690
    target = names[2]
    p = pending_pod_(ds, 'seldon-core-analytics-prometheus-node-exporter-x8kq4', ns_,
                     '0/5 nodes are available: 1 node(s) didn\'t have free ports for the requested pod ports, 4 node(s) didn\'t match Pod\'s node affinity/selector. '
                     'preemption: 0/5 nodes are available: 1 node(s) didn\'t have free ports for the requested pod ports, 4 Preemption is not helpful for scheduling.',
                     {**spec, 'affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchFields': [{'key': 'metadata.name', 'operator': 'In', 'values': [target]}]}]}}}},
                     created, dict(dsl), kind='DaemonSet')
    evs = [failed_scheduling(p, p['status']['conditions'][0]['message'], count=58, last=25, first=created - 1),
           ev(p, 'NotTriggerScaleUp', "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 node(s) didn't have free ports for the requested pod ports", 'Normal', count=151, first=created - 30, last=40, component='cluster-autoscaler')]
    kube_ne_img = 'quay.io/prometheus/node-exporter:v1.7.0'
    kds = daemonset('kube-prometheus-stack-prometheus-node-exporter', 'monitoring', {'app.kubernetes.io/name': 'prometheus-node-exporter'}, 5, 5,
                    {'hostNetwork': True, 'containers': [{'name': 'node-exporter', 'image': kube_ne_img, 'ports': [{'containerPort': 9100, 'hostPort': 9100, 'name': 'http-metrics', 'protocol': 'TCP'}]}]}, created=86400 * 150)
    kpods = []
    for i, n in enumerate(names):
        kp = ds_pod(kds, n, kube_ne_img, 'node-exporter', 86400 * 40, namespace='monitoring', labels={'app.kubernetes.io/name': 'prometheus-node-exporter'})
        kp['spec']['hostNetwork'] = True
        kp['spec']['containers'][0]['ports'] = [{'containerPort': 9100, 'hostPort': 9100, 'name': 'http-metrics', 'protocol': 'TCP'}]
        kp['status']['podIP'] = nodes[i]['status']['addresses'][0]['address']; kp['status']['podIPs'] = [{'ip': kp['status']['podIP']}]
        kpods.append(kp)
    objs = [ns(ns_), ns('monitoring'), *nodes, ds, p, kds] + kpods + [serviceaccount('seldon-core-analytics-prometheus-node-exporter', ns_)] + evs + noise(nodes[:2], 'v1.27.16-eks-a18cd3a', dns_image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.10.1-eksbuild.11')
    case('f4b-second-node-exporter-daemonset-hostport', "seldon-core-analytics' node-exporter DaemonSet pods stay Pending: the cluster's own node-exporter already holds host port 9100 on every node",
         'https://github.com/SeldonIO/seldon-core/issues/3880',
         "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 node(s) didn't have free ports for the requested pod ports",
         '%s/%s' % (ns_, p['metadata']['name']), 'pending.hostport-conflict', objs, decisive="didn't have free ports for the requested pod ports", playbook=None)


# =====================================================================================
# K5. image.pull-throttled: the Rancher server pod's audit-log sidecar pulls busybox from Docker Hub and hits the rate limit
# =====================================================================================
@reg
def rancher_sidecar_rate_limit():
    ns_ = 'cattle-system'
    kv = 'v1.28.15+rke2r1'
    nodes = [mknode('rancher-cp-%d' % i, kubelet=kv, runtime='containerd://1.7.23-k3s2', kernel='5.14.0-503.14.1.el9_5.x86_64', os_image='Rocky Linux 9.5 (Blue Onyx)',
                    labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/etcd': 'true', 'node-role.kubernetes.io/master': 'true'}) for i in (1, 2, 3)]
    img, side = 'rancher/rancher:v2.9.3', 'busybox'
    labels = {'app': 'rancher', 'release': 'rancher'}
    cs = [{'name': 'rancher', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'args': ['--no-cacerts', '--http-listen-port=80', '--https-listen-port=443', '--add-local=true'],
           'env': [{'name': 'CATTLE_NAMESPACE', 'value': 'cattle-system'}, {'name': 'AUDIT_LEVEL', 'value': '1'}, {'name': 'AUDIT_LOG_PATH', 'value': '/var/log/auditlog/rancher-api-audit.log'}],
           'ports': [{'containerPort': 80, 'protocol': 'TCP'}, {'containerPort': 444, 'protocol': 'TCP'}],
           'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 80}, 'initialDelaySeconds': 60, 'periodSeconds': 30},
           'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 80}, 'initialDelaySeconds': 5, 'periodSeconds': 30},
           'volumeMounts': [{'name': 'audit-log', 'mountPath': '/var/log/auditlog'}]},
          {'name': 'rancher-audit-log', 'image': side, 'imagePullPolicy': 'Always', 'command': ['tail'], 'args': ['-F', '/var/log/auditlog/rancher-api-audit.log'],
           'volumeMounts': [{'name': 'audit-log', 'mountPath': '/var/log/auditlog'}]}]
    containers, vols = with_api(cs, [{'name': 'audit-log', 'emptyDir': {}}], 'rancher')
    d, rs = deploy('rancher', ns_, labels, 3, '7858c99595', {'serviceAccountName': 'rancher', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=2, created=86400 * 400, generation=17)
    created = 2000
    nn = 'rancher-cp-2'
    p = mkpod('rancher-7858c99595-x8pbb', ns_, nn, containers, [running('rancher', img, created - 30, ready=True)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '7858c99595'}, sa='rancher', spec_extra={'volumes': vols})
    pull = 'failed to pull and unpack image "docker.io/library/busybox:latest": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/busybox/manifests/sha256:2919d0172f7524b2d8df9e50066a682669e6d170ac0f6a49676d54358fe970b5: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit'
    set_status(p, [running('rancher', img, created - 30), waiting('rancher-audit-log', side, 'ImagePullBackOff', 'Back-off pulling image "busybox"', pulled=False)], created, ready=False)
    fpr = fp('rancher-audit-log')
    evs = [scheduled(p, nn, created - 1), ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=created - 3, host=nn, fieldPath=fp('rancher')),
           ev(p, 'Created', 'Created container rancher', 'Normal', last=created - 4, host=nn, fieldPath=fp('rancher')),
           ev(p, 'Started', 'Started container rancher', 'Normal', last=created - 4, host=nn, fieldPath=fp('rancher')),
           ev(p, 'Pulling', 'Pulling image "busybox"', 'Normal', count=22, first=created - 5, last=95, host=nn, fieldPath=fpr),
           ev(p, 'Failed', 'Failed to pull image "busybox": rpc error: code = Unknown desc = ' + pull, count=22, first=created - 6, last=94, host=nn, fieldPath=fpr),
           ev(p, 'Failed', 'Error: ErrImagePull', count=22, first=created - 6, last=94, host=nn, fieldPath=fpr),
           ev(p, 'BackOff', 'Back-off pulling image "busybox"', 'Normal', count=410, first=created - 20, last=8, host=nn, fieldPath=fpr),
           ev(p, 'Failed', 'Error: ImagePullBackOff', count=410, first=created - 20, last=8, host=nn, fieldPath=fpr)]
    others = [mkpod('rancher-7858c99595-%s' % s, ns_, n, containers, [running('rancher', img, 86400 * 9), running('rancher-audit-log', side, 86400 * 9)], 86400 * 9 + 30,
                    owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '7858c99595'}, sa='rancher', spec_extra={'volumes': vols})
              for s, n in (('l2kq9', 'rancher-cp-1'), ('v7dmz', 'rancher-cp-3'))]
    r_logs = ['%s [INFO] Rancher version v2.9.3 (fea4b6b1b) is starting' % ts(created - 28, '%Y/%m/%d %H:%M:%S'),
              '%s [INFO] Listening on /tmp/log.sock' % ts(created - 27, '%Y/%m/%d %H:%M:%S'),
              '%s [INFO] Waiting for server to become available: Get "https://127.0.0.1:6443/version?timeout=15m0s": dial tcp 127.0.0.1:6443: connect: connection refused' % ts(created - 25, '%Y/%m/%d %H:%M:%S'),
              '%s [INFO] Running in clustered mode with ID 10.42.1.18, monitoring endpoint cattle-system/rancher' % ts(created - 10, '%Y/%m/%d %H:%M:%S')]
    objs = [ns(ns_), *nodes, d, rs, p] + others + [serviceaccount('rancher', ns_)] + evs + [podlog(ns_, p['metadata']['name'], 'rancher', r_logs, previous=False)] + \
           noise(nodes, 'v1.28.15', proxy=False, dns_image='rancher/hardened-coredns:v1.11.3-build20241018')
    case('f4b-rancher-audit-sidecar-docker-hub-rate-limit', "A Rancher server pod stays 1/2: its rancher-audit-log sidecar pulls busybox from Docker Hub (imagePullPolicy Always) and is rate-limited",
         'https://github.com/rancher/rancher/issues/30583',
         'Failed to pull image "busybox": rpc error: code = Unknown desc = Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
         '%s/%s' % (ns_, p['metadata']['name']), 'image.pull-throttled', objs, decisive='toomanyrequests: You have reached your pull rate limit', playbook=None)


# =====================================================================================
# K6. container.start-error: OpenShift runs the image under an arbitrary UID; its entrypoint script is
#     executable by root only, so CRI-O's runc cannot exec it
# =====================================================================================
@reg
def openshift_exec_permission():
    ns_ = 'octopus'
    kv = 'v1.29.10+67d3387'
    lab = {'node-role.kubernetes.io/worker': '', 'node.openshift.io/os_id': 'rhcos'}
    n1 = mknode('ocp-worker-0.lab.example.com', kubelet=kv, runtime='cri-o://1.29.10-3.rhaos4.16.git0886a2b.el9', kernel='5.14.0-427.44.1.el9_4.x86_64',
                os_image='Red Hat Enterprise Linux CoreOS 416.94.202411201433-0', labels=lab)
    n2 = mknode('ocp-worker-1.lab.example.com', kubelet=kv, runtime='cri-o://1.29.10-3.rhaos4.16.git0886a2b.el9', kernel='5.14.0-427.44.1.el9_4.x86_64',
                os_image='Red Hat Enterprise Linux CoreOS 416.94.202411201433-0', labels=lab)
    img = 'docker.io/octopusdeploy/octopusdeploy:2024.3'
    labels = {'app': 'octopus'}
    c = {'name': 'octopus', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'env': [{'name': 'ACCEPT_EULA', 'value': 'Y'}, {'name': 'DB_CONNECTION_STRING', 'valueFrom': {'secretKeyRef': {'name': 'octopus-db', 'key': 'connectionString'}}}],
         'ports': [{'containerPort': 8080, 'name': 'web'}, {'containerPort': 10943, 'name': 'tentacle'}],
         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 1000740000}}
    containers, vols = with_api([c], [], 'octopus')
    d, rs = deploy('octopus', ns_, labels, 1, '5fb8c6d7d9', {'containers': copy.deepcopy(containers), 'volumes': vols}, ready=0, created=1500, generation=1)
    created = 1450
    nn = 'ocp-worker-1.lab.example.com'
    msg = 'container create failed: time="%s" level=error msg="runc create failed: unable to start container process: exec: \\"./install.sh\\": permission denied"' % ts(20, '%Y-%m-%dT%H:%M:%SZ')
    p = mkpod('octopus-5fb8c6d7d9-8wq5n', ns_, nn, containers, [waiting('octopus', img, 'CreateContainerError', msg)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '5fb8c6d7d9'}, spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 1000740000, 'seLinuxOptions': {'level': 's0:c27,c9'}, 'seccompProfile': {'type': 'RuntimeDefault'}}})
    p['metadata']['annotations'] = {'openshift.io/scc': 'restricted-v2', 'k8s.ovn.org/pod-networks': '{"default":{"ip_addresses":["10.129.2.41/23"],"mac_address":"0a:58:0a:81:02:29","gateway_ips":["10.129.2.1"]}}',
                                    'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default'}
    set_status(p, p['status']['containerStatuses'], created, ready=False)
    evs = [scheduled(p, nn, created - 1),
           ev(p, 'AddedInterface', 'Add eth0 [10.129.2.41/23] from ovn-kubernetes', 'Normal', last=created - 2, host=nn, component='multus'),
           ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', last=created - 3, host=nn, fieldPath=fp('octopus')),
           ev(p, 'Pulled', 'Successfully pulled image "%s" in 1m2.311s (1m2.311s including waiting). Image size: 1293801224 bytes.' % img, 'Normal', last=created - 66, host=nn, fieldPath=fp('octopus')),
           ev(p, 'Failed', 'Error: ' + msg, count=74, first=created - 67, last=20, host=nn, fieldPath=fp('octopus')),
           ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=73, first=created - 80, last=21, host=nn, fieldPath=fp('octopus'))]
    objs = [ns(ns_), n1, n2, d, rs, p, secret('octopus-db', ns_, ['connectionString'])] + evs + noise([n1, n2], 'v1.29.10', proxy=False, dns_image='quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:7b1c4e5d2a9f')
    crio_all(objs)
    case('f4b-openshift-arbitrary-uid-entrypoint-not-executable', 'Octopus Server on OpenShift (restricted-v2, CRI-O): the arbitrary UID cannot execute the image\'s ./install.sh, so the container is never created',
         'https://github.com/OctopusDeploy/Issues/issues/9091',
         'Error: container create failed: time="2024-10-14T16:21:19Z" level=error msg="runc create failed: unable to start container process: exec: \\"./install.sh\\": permission denied"',
         '%s/%s' % (ns_, p['metadata']['name']), 'container.start-error', objs, decisive='unable to start container process: exec: \\"./install.sh\\": permission denied',
         acceptable=['container.create-error'], playbook=None)


# =====================================================================================
# negatives
# =====================================================================================

# N1. Traefik with HTTP/3: quic-go cannot raise the UDP receive buffer, a warning at every start
@reg
def neg_traefik_quic_buffer():
    ns_ = 'traefik'
    kv = 'v1.31.3'
    n1 = mknode('edge-1', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    n2 = mknode('edge-2', kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'docker.io/traefik:v2.8.3'
    labels = {'app.kubernetes.io/name': 'traefik', 'app.kubernetes.io/instance': 'traefik'}
    c = {'name': 'traefik', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'args': ['--entrypoints.web.address=:8000/tcp', '--entrypoints.websecure.address=:8443/tcp', '--entrypoints.websecure.http3', '--experimental.http3=true',
                  '--providers.kubernetescrd', '--providers.kubernetesingress', '--ping=true'],
         'ports': [{'containerPort': 8000, 'name': 'web'}, {'containerPort': 8443, 'name': 'websecure'}, {'containerPort': 8443, 'name': 'websecure-http3', 'protocol': 'UDP'}],
         'readinessProbe': {'httpGet': {'path': '/ping', 'port': 9000}, 'periodSeconds': 10}, 'livenessProbe': {'httpGet': {'path': '/ping', 'port': 9000}, 'periodSeconds': 10},
         'securityContext': {'capabilities': {'drop': ['ALL']}, 'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 65532}}
    containers, vols = with_api([c], [{'name': 'tmp', 'emptyDir': {}}], 'traefik')
    d, rs = deploy('traefik', ns_, labels, 2, '6d8f7c9b5d', {'serviceAccountName': 'traefik', 'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 60, generation=5)
    created = 86400 * 4 + 1200
    p = mkpod('traefik-6d8f7c9b5d-fp4xz', ns_, 'edge-1', containers, [running('traefik', img, created - 6)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6d8f7c9b5d'}, sa='traefik', spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, since=created - 14)
    T = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%SZ')
    logs = ['time="%s" level=info msg="Configuration loaded from flags."' % T(created - 5),
            'time="%s" level=info msg="Traefik version 2.8.3 built on 2022-08-12T14:24:34Z"' % T(created - 5),
            'time="%s" level=info msg="Starting provider aggregator.ProviderAggregator"' % T(created - 5),
            'time="%s" level=info msg="Starting provider *crd.Provider"' % T(created - 5),
            '%s packet_handler_map.go:142: failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 2048 kiB, got: 416 kiB). See https://github.com/lucas-clemente/quic-go/wiki/UDP-Receive-Buffer-Size for details.' % ts(created - 5, '%Y/%m/%d %H:%M:%S'),
            'time="%s" level=info msg="Starting provider *ingress.Provider"' % T(created - 5),
            'time="%s" level=info msg="ingress label selector is: \\"\\"" providerName=kubernetes' % T(created - 5),
            'time="%s" level=info msg="Creating in-cluster Provider client" providerName=kubernetes' % T(created - 5)]
    objs = [ns(ns_), n1, n2, d, rs, p, serviceaccount('traefik', ns_), service('traefik', ns_, labels, ports=((80, 8000), (443, 8443)))] + \
           [podlog(ns_, p['metadata']['name'], 'traefik', logs, previous=False)] + noise([n1, n2], kv)
    case('f4b-neg-traefik-http3-udp-buffer-warning', 'Traefik with HTTP/3 enabled, Ready for four days; quic-go logs at every start that it could not raise the UDP receive buffer (a warning, not a failure)',
         'https://github.com/traefik/traefik/issues/9272',
         'packet_handler_map.go:142: failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 2048 kiB, got: 416 kiB).',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N2. OpenTelemetry Collector agent DaemonSet, healthy; it warns that 0.0.0.0 exposes every interface
@reg
def neg_otelcol_bind_warning():
    ns_ = 'observability'
    kv = 'v1.32.0'
    nodes = [mknode('obs-node-%d' % i, kubelet=kv, runtime='containerd://2.0.1', kernel='6.8.0-51-generic', os_image='Ubuntu 24.04.1 LTS') for i in (1, 2, 3)]
    img = 'otel/opentelemetry-collector-contrib:0.85.0'
    dsl = {'app.kubernetes.io/name': 'opentelemetry-collector', 'app.kubernetes.io/instance': 'otel-agent', 'component': 'agent-collector'}
    spec = {'serviceAccountName': 'otel-agent', 'containers': [{'name': 'opentelemetry-collector', 'image': img, 'args': ['--config=/conf/relay.yaml'],
             'ports': [{'containerPort': 4317, 'hostPort': 4317, 'name': 'otlp', 'protocol': 'TCP'}, {'containerPort': 4318, 'hostPort': 4318, 'name': 'otlp-http', 'protocol': 'TCP'}],
             'livenessProbe': {'httpGet': {'path': '/', 'port': 13133}}, 'readinessProbe': {'httpGet': {'path': '/', 'port': 13133}},
             'resources': {'limits': {'cpu': '250m', 'memory': '512Mi'}}, 'volumeMounts': [{'name': 'opentelemetry-collector-configmap', 'mountPath': '/conf'}]}],
            'volumes': [{'name': 'opentelemetry-collector-configmap', 'configMap': {'name': 'otel-agent-opentelemetry-collector-agent', 'items': [{'key': 'relay', 'path': 'relay.yaml'}]}}]}
    ds = daemonset('otel-agent-opentelemetry-collector-agent', ns_, dsl, 3, 3, spec, created=86400 * 30)
    created = 86400 * 3 + 600
    pods = [mkpod('otel-agent-opentelemetry-collector-agent-%s' % s, ns_, n['metadata']['name'], spec['containers'], [running('opentelemetry-collector', img, created - 8)], created,
                  owner=('DaemonSet', ds['metadata']['name']), labels=dict(dsl), sa='otel-agent', spec_extra={'volumes': spec['volumes']})
            for s, n in zip(('7kz2p', 'q9fxm', 'hb4wd'), nodes)]
    p = pods[1]
    C = lambda s_: ts(s_, '%Y-%m-%dT%H:%M:%S.%fZ')[:-4] + 'Z'
    doc = '"documentation": "https://github.com/open-telemetry/opentelemetry-collector/blob/main/docs/security-best-practices.md#safeguards-against-denial-of-service-attacks"'
    warn = 'Using the 0.0.0.0 address exposes this server to every network interface, which may facilitate Denial of Service attacks'
    logs = ['%s\tinfo\tservice@v0.85.0/telemetry.go:84\tSetting up own telemetry...' % C(created - 7),
            '%s\tinfo\tservice@v0.85.0/service.go:161\tStarting otelcol-contrib...\t{"Version": "0.85.0", "NumCPU": 8}' % C(created - 7),
            '%s\tinfo\textensions/extensions.go:31\tStarting extensions...' % C(created - 7),
            '%s\twarn\tinternal@v0.85.0/warning.go:40\t%s\t{"kind": "extension", "name": "health_check", %s}' % (C(created - 7), warn, doc),
            '%s\tinfo\totlpreceiver@v0.85.0/otlp.go:83\tStarting GRPC server\t{"kind": "receiver", "name": "otlp", "data_type": "traces", "endpoint": "0.0.0.0:4317"}' % C(created - 6),
            '%s\twarn\tinternal@v0.85.0/warning.go:40\t%s\t{"kind": "receiver", "name": "otlp", "data_type": "traces", %s}' % (C(created - 6), warn, doc),
            '%s\tinfo\totlpreceiver@v0.85.0/otlp.go:101\tStarting HTTP server\t{"kind": "receiver", "name": "otlp", "data_type": "traces", "endpoint": "0.0.0.0:4318"}' % C(created - 6),
            '%s\twarn\tinternal@v0.85.0/warning.go:40\t%s\t{"kind": "receiver", "name": "otlp", "data_type": "metrics", %s}' % (C(created - 6), warn, doc),
            '%s\tinfo\tservice@v0.85.0/service.go:187\tEverything is ready. Begin running and processing data.' % C(created - 6),
            '%s\tinfo\tMetricsExporter\t{"kind": "exporter", "data_type": "metrics", "name": "logging", "resource metrics": 12, "metrics": 431, "data points": 1208}' % C(40)]
    objs = [ns(ns_), *nodes, ds] + pods + [serviceaccount('otel-agent', ns_),
            configmap('otel-agent-opentelemetry-collector-agent', ns_, {'relay': 'receivers:\n  otlp:\n    protocols:\n      grpc:\n        endpoint: 0.0.0.0:4317\n      http:\n        endpoint: 0.0.0.0:4318\nexporters:\n  logging: {}\nservice:\n  pipelines:\n    traces: {receivers: [otlp], exporters: [logging]}\n    metrics: {receivers: [otlp], exporters: [logging]}\n'})] + \
           [podlog(ns_, p['metadata']['name'], 'opentelemetry-collector', logs, previous=False)] + noise(nodes[:2], kv)
    case('f4b-neg-otelcol-0000-bind-dos-warning', 'OpenTelemetry Collector agent running fine for three days; it warns at start that binding 0.0.0.0 exposes every interface (not needed in containers, say its docs)',
         'https://github.com/open-telemetry/opentelemetry-collector/issues/6938', warn, '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N3. Nginx Proxy Manager run with PUID/PGID: nginx warns its "user" directive is ignored (CRI-O)
@reg
def neg_npm_user_directive():
    ns_ = 'proxy'
    kv = 'v1.31.4'
    n1 = mknode('lab-crio-1', kubelet=kv, runtime='cri-o://1.31.3', kernel='6.11.10-300.fc41.x86_64', os_image='Fedora Linux 41 (Server Edition)')
    img = 'docker.io/jc21/nginx-proxy-manager:2.10.4'
    labels = {'app': 'nginx-proxy-manager'}
    c = {'name': 'npm', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'env': [{'name': 'PUID', 'value': '1000'}, {'name': 'PGID', 'value': '1000'}, {'name': 'DISABLE_IPV6', 'value': 'true'}],
         'ports': [{'containerPort': 80, 'name': 'http'}, {'containerPort': 443, 'name': 'https'}, {'containerPort': 81, 'name': 'admin'}],
         'readinessProbe': {'httpGet': {'path': '/api/', 'port': 81}, 'periodSeconds': 15},
         'volumeMounts': [{'name': 'data', 'mountPath': '/data'}, {'name': 'letsencrypt', 'mountPath': '/etc/letsencrypt'}]}
    containers, vols = with_api([c], [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'npm-data'}}, {'name': 'letsencrypt', 'persistentVolumeClaim': {'claimName': 'npm-letsencrypt'}}], 'npm')
    d, rs = deploy('nginx-proxy-manager', ns_, labels, 1, '8d6c5b7f9c', {'containers': copy.deepcopy(containers), 'volumes': vols}, created=86400 * 50, generation=3, strategy={'type': 'Recreate'})
    created = 86400 * 13
    p = mkpod('nginx-proxy-manager-8d6c5b7f9c-r2lmw', ns_, 'lab-crio-1', containers, [running('npm', img, created - 20)], created, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '8d6c5b7f9c'}, spec_extra={'volumes': vols})
    set_status(p, p['status']['containerStatuses'], created, since=created - 45)
    N = lambda s_: ts(s_, '%Y/%m/%d %H:%M:%S')
    logs = ['❯ Configuring npm user ...', 'useradd warning: npm\'s uid 1000 outside of the UID_MIN 1000 and UID_MAX 60000 range.',
            '❯ Configuring npm group ...', '❯ Checking paths ...', '❯ Setting ownership ...', '❯ Dynamic resolvers ...', '❯ IPv6 ...', 'Disabling IPV6 in hosts in: /etc/nginx/conf.d',
            '❯ Docker secrets ...', '', '-------------------------------------', ' _   _ ____  __  __', '|  \\ | |  _ \\|  \\/  |', '| |\\  | |  __/| |  | |', '|_| \\_|_|   |_|  |_|',
            '-------------------------------------', 'User:  npm PUID:1000 ID:1000 GROUP:1000', 'Group: npm PGID:1000 ID:1000', '-------------------------------------', '',
            '❯ Starting nginx ...',
            'nginx: [warn] the "user" directive makes sense only if the master process runs with super-user privileges, ignored in /etc/nginx/nginx.conf:4',
            '❯ Starting backend ...',
            '[%s] [Global   ] › ℹ  info      Using Sqlite: /data/database.sqlite' % ts(created - 30, '%m/%d/%Y] [%I:%M:%S %p'),
            '[%s] [Migrate  ] › ℹ  info      Current database version: none' % ts(created - 31, '%m/%d/%Y] [%I:%M:%S %p'),
            '[%s] [Global   ] › ℹ  info      Backend PID 182 listening on port 3000 ...' % ts(created - 33, '%m/%d/%Y] [%I:%M:%S %p'),
            '[%s] [SSL      ] › ℹ  info      Renew Complete' % ts(86400 * 2, '%m/%d/%Y] [%I:%M:%S %p')]
    fb = ['%s [warn] 158#158: the "user" directive makes sense only if the master process runs with super-user privileges, ignored in /etc/nginx/nginx.conf:4' % N(created - 22)]
    objs = [ns(ns_), n1, d, rs, p,
            claim('npm-data', ns_, 'local-path', 'Bound', '2Gi', volume='pvc-' + uid('npmdata'), provisioner='rancher.io/local-path', created=86400 * 50),
            claim('npm-letsencrypt', ns_, 'local-path', 'Bound', '1Gi', volume='pvc-' + uid('npmle'), provisioner='rancher.io/local-path', created=86400 * 50),
            service('nginx-proxy-manager', ns_, labels, ports=((80, 80), (443, 443), (81, 81)))] + \
           [podlog(ns_, p['metadata']['name'], 'npm', logs + fb, previous=False)] + noise([n1], kv)
    crio_all(objs)
    case('f4b-neg-npm-nginx-user-directive-ignored', 'Nginx Proxy Manager run with PUID/PGID, Ready for thirteen days; nginx warns at start that its "user" directive is ignored without root',
         'https://github.com/NginxProxyManager/docker-nginx-full/issues/23',
         '[warn] 158#158: the "user" directive makes sense only if the master process runs with super-user privileges, ignored in /etc/nginx/nginx.conf:4',
         '%s/%s' % (ns_, p['metadata']['name']), None, objs)


# N4. RabbitMQ 3.13 cluster member, healthy; it logs the deprecated-feature warning even though it is permitted
@reg
def neg_rabbitmq_deprecated_feature():
    ns_ = 'messaging'
    kv = 'v1.30.6'
    nodes = [mknode('mq-node-%d' % i, kubelet=kv, runtime='containerd://1.7.23', kernel='6.1.0-27-amd64', os_image='Debian GNU/Linux 12 (bookworm)') for i in (1, 2, 3)]
    img = 'docker.io/rabbitmq:3.13.7-management'
    labels = {'app.kubernetes.io/name': 'rabbitmq', 'app.kubernetes.io/component': 'rabbitmq', 'app.kubernetes.io/part-of': 'rabbitmq'}
    c = {'name': 'rabbitmq', 'image': img, 'imagePullPolicy': 'IfNotPresent',
         'ports': [{'containerPort': 5672, 'name': 'amqp'}, {'containerPort': 15672, 'name': 'management'}, {'containerPort': 15692, 'name': 'prometheus'}, {'containerPort': 4369, 'name': 'epmd'}],
         'readinessProbe': {'tcpSocket': {'port': 'amqp'}, 'initialDelaySeconds': 10, 'periodSeconds': 10},
         'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}, 'limits': {'cpu': '2', 'memory': '2Gi'}},
         'volumeMounts': [{'name': 'persistence', 'mountPath': '/var/lib/rabbitmq/mnesia/'}, {'name': 'rabbitmq-confd', 'mountPath': '/etc/rabbitmq/conf.d/'}]}
    containers, vols = with_api([c], [{'name': 'rabbitmq-confd', 'configMap': {'name': 'rabbitmq-server-conf'}}], 'rabbitmq')
    ss = sts('rabbitmq-server', ns_, labels, 3, {'serviceAccountName': 'rabbitmq-server', 'containers': copy.deepcopy(containers), 'volumes': vols}, ready=3, created=86400 * 80, service='rabbitmq-nodes')
    created = 86400 * 6
    p = mkpod('rabbitmq-server-1', ns_, 'mq-node-2', containers, [running('rabbitmq', img, created - 12)], created, owner=('StatefulSet', 'rabbitmq-server'),
              labels={**labels, 'statefulset.kubernetes.io/pod-name': 'rabbitmq-server-1'}, sa='rabbitmq-server',
              spec_extra={'volumes': vols + [{'name': 'persistence', 'persistentVolumeClaim': {'claimName': 'persistence-rabbitmq-server-1'}}], 'hostname': 'rabbitmq-server-1', 'subdomain': 'rabbitmq-nodes'})
    set_status(p, p['status']['containerStatuses'], created, since=created - 40)
    J = lambda s_: ts(s_, '%Y-%m-%d %H:%M:%S.%f') + '+00:00'
    dep = ('Deprecated features: `management_metrics_collection`: Feature `management_metrics_collection` is deprecated.\\nBy default, this feature can still be used for now.\\n'
           'Its use will not be permitted by default in a future minor RabbitMQ version and the feature will be removed from a future major RabbitMQ version; actual versions to be determined.\\n'
           'To continue using this feature when it is not permitted by default, set the following parameter in your configuration:\\n    \\"deprecated_features.permit.management_metrics_collection = true\\"\\n'
           'To test RabbitMQ as if the feature was removed, set this in your configuration:\\n    \\"deprecated_features.permit.management_metrics_collection = false\\"')
    logs = ['{"time":"%s","level":"info","msg":"Starting RabbitMQ 3.13.7 on Erlang 26.2.5.3 [jit]","line":404,"pid":"<0.254.0>","file":"rabbit.erl","domain":"rabbitmq"}' % J(created - 11),
            '{"time":"%s","level":"info","msg":"Running boot step cluster_name defined by app rabbit","line":435,"pid":"<0.254.0>","file":"rabbit.erl","domain":"rabbitmq"}' % J(created - 9),
            '{"time":"%s","level":"info","msg":"Peer discovery: all known cluster nodes are up.","line":1071,"pid":"<0.254.0>","file":"rabbit_peer_discovery.erl","domain":"rabbitmq"}' % J(created - 9),
            '{"time":"%s","level":"warning","msg":"%s","line":573,"pid":"<0.764.0>","file":"rabbit_deprecated_features.erl","domain":"rabbitmq.feature_flags","mfa":["rabbit_deprecated_features","maybe_log_warning",2]}' % (J(created - 8), dep),
            '{"time":"%s","level":"info","msg":"Server startup complete; 6 plugins started.","line":1072,"pid":"<0.254.0>","file":"rabbit.erl","domain":"rabbitmq"}' % J(created - 7),
            '{"time":"%s","level":"info","msg":"accepting AMQP connection 10.244.2.77:48312 -> 10.244.1.15:5672","pid":"<0.12998.4>","domain":"rabbitmq.connection"}' % J(300)]
    pvcs = [claim('persistence-rabbitmq-server-%d' % i, ns_, 'standard', 'Bound', '10Gi', volume='pvc-' + uid('mq%d' % i), provisioner='rancher.io/local-path', created=86400 * 80) for i in range(3)]
    objs = [ns(ns_), *nodes, ss, p] + pvcs + [serviceaccount('rabbitmq-server', ns_),
            configmap('rabbitmq-server-conf', ns_, {'userDefinedConfiguration.conf': 'deprecated_features.permit.management_metrics_collection = true\ntotal_memory_available_override_value = 1717986918\n'}),
            service('rabbitmq', ns_, labels, ports=((5672, 5672), (15672, 15672)))] + [podlog(ns_, 'rabbitmq-server-1', 'rabbitmq', logs, previous=False)] + noise(nodes[:2], kv)
    case('f4b-neg-rabbitmq-deprecated-feature-warning', 'RabbitMQ 3.13 cluster member Ready for six days; it logs the management_metrics_collection deprecated-feature warning even though the feature is permitted',
         'https://github.com/rabbitmq/rabbitmq-server/issues/12546',
         '"level":"warning","msg":"Deprecated features: `management_metrics_collection`: Feature `management_metrics_collection` is deprecated.',
         '%s/rabbitmq-server-1' % ns_, None, objs)


if __name__ == '__main__':
    for f in CASES4B:
        f()
    print('wrote %d cases' % len(CASES4B))
