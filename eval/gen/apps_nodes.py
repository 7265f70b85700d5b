# Evaluation corpus, area "apps and nodes" (slug prefix ap-): crashes and application exits whose
# decisive line sits at the end of a long log tail or termination message, OOM variants, probes,
# cluster DNS, node conditions (CNI, PLEG, pressure, kubelet certificates) and kubelet admission.
# Every case is a real report (url); the dump is written in current (1.27-1.31, containerd 1.7)
# wording and carries the noise a real cluster has. Run: python3 eval/gen/apps_nodes.py
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403

# ---------------------------------------------------------------- helpers (this area only)
_n = [0]
def split():
    """Every third case written is holdout (decided by writing order, before any run)."""
    _n[0] += 1
    return 'holdout' if _n[0] % 3 == 0 else 'dev'

sev = make_sev('apsev', 104723, 11)

def scheduled(p, node_name, at):
    return sev(p, 'Scheduled', 'Successfully assigned %s/%s to %s' % (p['metadata']['namespace'], p['metadata']['name'], node_name), 'Normal', count=1, first=at,
               controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Binding')

def started(p, node_name, image, cname, at, pulled_in='3.1s', init=False, present=False):
    fp = ('spec.initContainers{%s}' if init else 'spec.containers{%s}') % cname
    pull = [ev(p, 'Pulled', 'Container image "%s" already present on machine' % image, 'Normal', last=at, host=node_name, fieldPath=fp)] if present else [
        ev(p, 'Pulling', 'Pulling image "%s"' % image, 'Normal', last=at, host=node_name, fieldPath=fp),
        ev(p, 'Pulled', 'Successfully pulled image "%s" in %s (%s including waiting). Image size: 48213392 bytes.' % (image, pulled_in, pulled_in), 'Normal', last=at - 3, host=node_name, fieldPath=fp)]
    return pull + [ev(p, 'Created', 'Created container %s' % cname, 'Normal', last=at - 4, host=node_name, fieldPath=fp),
                   ev(p, 'Started', 'Started container %s' % cname, 'Normal', last=at - 4, host=node_name, fieldPath=fp)]

def restarted(p, node_name, image, cname, count, first, last):
    """The repeated Pulled/Created/Started of a container that keeps restarting."""
    fp = 'spec.containers{%s}' % cname
    return [ev(p, 'Pulled', 'Container image "%s" already present on machine' % image, 'Normal', count=count, first=first, last=last, host=node_name, fieldPath=fp),
            ev(p, 'Created', 'Created container %s' % cname, 'Normal', count=count + 1, first=first + 40, last=last, host=node_name, fieldPath=fp),
            ev(p, 'Started', 'Started container %s' % cname, 'Normal', count=count + 1, first=first + 40, last=last, host=node_name, fieldPath=fp)]

def img_id(image):
    return '%s@sha256:%s' % (image.split('@')[0].rsplit(':', 1)[0] if ':' in image.split('/')[-1] else image, hexid(image))

def cid(seed, runtime='containerd'):
    return '%s://%s' % (runtime, hexid(seed))

def running(name, image, since, restarts=0, ready=True, last=None, runtime='containerd'):
    s = {'name': name, 'ready': ready, 'started': True, 'restartCount': restarts, 'image': image, 'imageID': img_id(image),
         'containerID': cid(name + image + str(restarts), runtime), 'state': {'running': {'startedAt': ago(since)}}}
    if last: s['lastState'] = last
    return s

def term(exit_code, reason, started_s, finished_s, message=None, seed='x', runtime='containerd'):
    t = {'exitCode': exit_code, 'reason': reason, 'startedAt': ago(started_s), 'finishedAt': ago(finished_s), 'containerID': cid(seed, runtime)}
    if message: t['message'] = message
    return {'terminated': t}

def clbo(pod_name, ns_, cname, image, restarts, last, backoff='5m0s', runtime='containerd'):
    pu = uid('pod' + ns_ + pod_name)
    return {'name': cname, 'ready': False, 'started': False, 'restartCount': restarts, 'image': image, 'imageID': img_id(image),
            'containerID': cid(pod_name + cname + str(restarts), runtime),
            'state': {'waiting': {'reason': 'CrashLoopBackOff', 'message': 'back-off %s restarting failed container=%s pod=%s_%s(%s)' % (backoff, cname, pod_name, ns_, pu)}},
            'lastState': last}

def backoff(p, node_name, cname, count, first, last=12):
    md = p['metadata']
    return ev(p, 'BackOff', 'Back-off restarting failed container %s in pod %s_%s(%s)' % (cname, md['name'], md['namespace'], md['uid']), count=count, first=first, last=last,
              host=node_name, fieldPath='spec.containers{%s}' % cname)

def dstatus(replicas, available, gen=3):
    st = {'observedGeneration': gen, 'replicas': replicas, 'updatedReplicas': replicas, 'readyReplicas': available, 'availableReplicas': available,
          'conditions': [{'type': 'Progressing', 'status': 'True', 'reason': 'NewReplicaSetAvailable', 'message': 'ReplicaSet has successfully progressed.', 'lastUpdateTime': ago(86400 * 3), 'lastTransitionTime': ago(86400 * 9)},
                         {'type': 'Available', 'status': 'True' if available >= replicas else 'False', 'reason': 'MinimumReplicasAvailable' if available >= replicas else 'MinimumReplicasUnavailable',
                          'message': 'Deployment has minimum availability.' if available >= replicas else 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(1800), 'lastTransitionTime': ago(1800)}]}
    if available == 0: st.pop('readyReplicas'); st.pop('availableReplicas'); st['unavailableReplicas'] = replicas
    elif available < replicas: st['unavailableReplicas'] = replicas - available
    return st

def deploy(name, ns_, labels, replicas, hash_, spec, available=None):
    d = workload('Deployment', name, ns_, labels, replicas=replicas, template_spec=spec, status=dstatus(replicas, replicas if available is None else available))
    rs = rs_for(d, '%s-%s' % (name, hash_))
    rs['status'] = {'replicas': replicas, 'fullyLabeledReplicas': replicas, 'readyReplicas': replicas if available is None else available, 'availableReplicas': replicas if available is None else available, 'observedGeneration': 1}
    return d, rs

def sts(name, ns_, labels, replicas, spec, ready=None):
    o = workload('StatefulSet', name, ns_, labels, replicas=replicas, template_spec=spec)
    o['spec']['serviceName'] = name + '-headless'
    r = replicas if ready is None else ready
    o['status'] = {'observedGeneration': 3, 'replicas': replicas, 'readyReplicas': r, 'currentReplicas': replicas, 'updatedReplicas': replicas, 'availableReplicas': r,
                   'currentRevision': '%s-%s' % (name, hexid(name, 10)), 'updateRevision': '%s-%s' % (name, hexid(name, 10)), 'collisionCount': 0}
    return o

def dset(name, ns_, labels, desired, ready, spec):
    o = workload('DaemonSet', name, ns_, labels, template_spec=spec)
    o['status'] = {'currentNumberScheduled': desired, 'desiredNumberScheduled': desired, 'numberAvailable': ready, 'numberMisscheduled': 0, 'numberReady': ready,
                   'observedGeneration': 2, 'updatedNumberScheduled': desired, **({'numberUnavailable': desired - ready} if ready < desired else {})}
    return o

def cm(name, ns_, data, created=86400 * 20):
    o = {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': name, 'namespace': ns_, 'uid': uid('cm' + ns_ + name), 'creationTimestamp': ago(created)}, 'data': data}
    return o

def mk_pod(name, ns_, node_name, containers, statuses, created, owner=None, labels=None, phase='Running', spec_extra=None, status_extra=None, conditions=None, runtime='containerd', meta_extra=None):
    first = containers[0]
    p = pod(name, ns_, node_name=node_name, image=first['image'], cname=first['name'], phase=phase, created=created, runtime=runtime, owner=owner,
            statuses=statuses, containers=containers, labels=labels, spec_extra=spec_extra, status_extra=status_extra, conditions=conditions, meta_extra=meta_extra)
    return p

def not_ready_conditions(created, since, names):
    msg = 'containers with unready status: [%s]' % ' '.join(names)
    return [{'type': 'PodReadyToStartContainers', 'status': 'True', 'lastTransitionTime': ago(created - 3)},
            {'type': 'Initialized', 'status': 'True', 'lastTransitionTime': ago(created - 2)},
            {'type': 'Ready', 'status': 'False', 'reason': 'ContainersNotReady', 'message': msg, 'lastTransitionTime': ago(since)},
            {'type': 'ContainersReady', 'status': 'False', 'reason': 'ContainersNotReady', 'message': msg, 'lastTransitionTime': ago(since)},
            {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(created - 1)}]

def ready_conditions(created, ready_at):
    return [{'type': 'PodReadyToStartContainers', 'status': 'True', 'lastTransitionTime': ago(created - 3)},
            {'type': 'Initialized', 'status': 'True', 'lastTransitionTime': ago(created - 2)},
            {'type': 'Ready', 'status': 'True', 'lastTransitionTime': ago(ready_at)},
            {'type': 'ContainersReady', 'status': 'True', 'lastTransitionTime': ago(ready_at)},
            {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(created - 1)}]

def node_event(n, reason, message, type_='Normal', count=1, last=30, first=None, component='kubelet'):
    return ev(n, reason, message, type_, count=count, last=last, first=first, component=component, host=n['metadata']['name'] if component == 'kubelet' else None)

def kube_proxy(node_name, created=86400 * 30):
    img = 'registry.k8s.io/kube-proxy:v1.30.6'
    name = 'kube-proxy-' + hexid(node_name, 5)
    return mk_pod(name, 'kube-system', node_name, [{'name': 'kube-proxy', 'image': img}], [running('kube-proxy', img, created - 10)], created,
                  owner=('DaemonSet', 'kube-proxy'), labels={'k8s-app': 'kube-proxy'})

def case(slug, title, url, reported, target, first, objects, decisive=None, playbook='omit', acceptable=None):
    expect = {'first': first}
    if acceptable: expect['acceptable'] = acceptable
    if playbook != 'omit': expect['playbook'] = playbook
    if decisive is not None:
        assert 20 <= len(decisive) <= 80, (slug, len(decisive), decisive)
        expect['decisive'] = decisive
        import json
        blob = json.dumps(objects)
        assert json.dumps(decisive)[1:-1] in blob, (slug, 'decisive not in dump', decisive)
    write_case(slug, {'title': title, 'url': url, 'reported': reported, 'target': target, 'split': split(), 'expect': expect}, objects)

SPRING_BANNER = ['', '  .   ____          _            __ _ _', ' /\\\\ / ___\'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\', '( ( )\\___ | \'_ | \'_| | \'_ \\/ _` | \\ \\ \\ \\',
                 ' \\\\/  ___)| |_)| | | | | || (_| |  ) ) ) )', "  '  |____| .__|_| |_|_| |_\\__, | / / / /", ' =========|_|==============|___/=/_/_/_/']

# ================================================================ 1. crash.port-in-use: hostNetwork ingress vs a host process on :80
N = 'rke-single-1'
img = 'registry.k8s.io/ingress-nginx/controller:v1.11.3'
nd = node(N, labels={'node-role.kubernetes.io/worker': 'true', 'node-role.kubernetes.io/controlplane': 'true', 'node-role.kubernetes.io/etcd': 'true'})
nd['status']['addresses'] = [{'type': 'InternalIP', 'address': '10.20.30.41'}, {'type': 'Hostname', 'address': N}]
spec = {'hostNetwork': True, 'dnsPolicy': 'ClusterFirstWithHostNet', 'serviceAccountName': 'ingress-nginx',
        'containers': [{'name': 'controller', 'image': img, 'args': ['/nginx-ingress-controller', '--election-id=ingress-nginx-leader', '--controller-class=k8s.io/ingress-nginx', '--ingress-class=nginx', '--configmap=$(POD_NAMESPACE)/ingress-nginx-controller', '--watch-ingress-without-class=true'],
                        'ports': [{'name': 'http', 'containerPort': 80, 'hostPort': 80, 'protocol': 'TCP'}, {'name': 'https', 'containerPort': 443, 'hostPort': 443, 'protocol': 'TCP'}, {'name': 'webhook', 'containerPort': 8443, 'hostPort': 8443, 'protocol': 'TCP'}],
                        'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 10254}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'failureThreshold': 5},
                        'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 10254}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'failureThreshold': 3},
                        'resources': {'requests': {'cpu': '100m', 'memory': '90Mi'}}}]}
ds = dset('nginx-ingress-controller', 'ingress-nginx', {'app': 'ingress-nginx'}, 1, 0, spec)
pn = 'nginx-ingress-controller-7xk2p'
log = ['-------------------------------------------------------------------------------', 'NGINX Ingress controller', '  Release:       v1.11.3', '  Build:         0106de65cfccb74405a6dfa7d9daffc6f0a6ef1a',
       '  Repository:    https://github.com/kubernetes/ingress-nginx', '  nginx version: nginx/1.25.5', '', '-------------------------------------------------------------------------------', '',
       'I1121 09:56:02.114023       7 main.go:205] "Creating API client" host="https://10.43.0.1:443"',
       'I1121 09:56:02.120915       7 main.go:248] "Running in Kubernetes cluster" major="1" minor="30" git="v1.30.6+rke2r1" state="clean" commit="00f20d443ba0d7d3a5d2b3c4e5f6a7b8c9d0e1f2" platform="linux/amd64"',
       'I1121 09:56:02.303211       7 main.go:101] "SSL fake certificate created" file="/etc/ingress-controller/ssl/default-fake-certificate.pem"',
       'I1121 09:56:02.331875       7 ssl.go:535] "loading tls certificate" path="/usr/local/certificates/cert" key="/usr/local/certificates/key"',
       'I1121 09:56:02.349006       7 nginx.go:271] "Starting NGINX Ingress controller"',
       'I1121 09:56:02.361447       7 event.go:377] Event(v1.ObjectReference{Kind:"ConfigMap", Namespace:"ingress-nginx", Name:"ingress-nginx-controller", UID:"5b1d5c0e-6b7a-4d1e-9d9b-3f2e1a0c9b8d", APIVersion:"v1", ResourceVersion:"1183", FieldPath:""}): type: \'Normal\' reason: \'CREATE\' ConfigMap ingress-nginx/ingress-nginx-controller',
       'I1121 09:56:03.551230       7 nginx.go:317] "Starting NGINX process"',
       'I1121 09:56:03.551348       7 leaderelection.go:254] attempting to acquire leader lease ingress-nginx/ingress-nginx-leader...',
       'I1121 09:56:03.552904       7 controller.go:193] "Configuration changes detected, backend reload required"',
       '2026/11/21 09:56:03 [emerg] 28#28: bind() to 0.0.0.0:80 failed (98: Address already in use)',
       'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)',
       '2026/11/21 09:56:03 [emerg] 28#28: bind() to 0.0.0.0:443 failed (98: Address already in use)',
       'nginx: [emerg] bind() to 0.0.0.0:443 failed (98: Address already in use)',
       '2026/11/21 09:56:03 [notice] 28#28: try again to bind() after 500ms',
       '2026/11/21 09:56:04 [emerg] 28#28: bind() to 0.0.0.0:80 failed (98: Address already in use)',
       'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)',
       '2026/11/21 09:56:04 [emerg] 28#28: bind() to 0.0.0.0:443 failed (98: Address already in use)',
       'nginx: [emerg] bind() to 0.0.0.0:443 failed (98: Address already in use)',
       '2026/11/21 09:56:05 [emerg] 28#28: still could not bind()',
       'nginx: [emerg] still could not bind()',
       'E1121 09:56:05.557102       7 controller.go:205] Unexpected failure reloading the backend:',
       'exit status 1',
       'F1121 09:56:05.557219       7 nginx.go:399] "NGINX process has stopped" err="exit status 1"']
p = mk_pod(pn, 'ingress-nginx', N, spec['containers'], [clbo(pn, 'ingress-nginx', 'controller', img, 9, term(255, 'Error', 240, 234, seed='ing9'))], 1900,
           owner=('DaemonSet', 'nginx-ingress-controller'), labels={'app': 'ingress-nginx', 'controller-revision-hash': '6d8b9c7f5'}, spec_extra={k: v for k, v in spec.items() if k != 'containers'})
p['status']['podIP'] = p['status']['hostIP'] = '10.20.30.41'; p['status']['podIPs'] = [{'ip': '10.20.30.41'}]
agent_img = 'rancher/rancher-agent:v2.9.3'
agent = mk_pod('cattle-cluster-agent-5c6d9f7b8-qk2zt', 'cattle-system', N, [{'name': 'cluster-register', 'image': agent_img}], [running('cluster-register', agent_img, 86400 * 4)], 86400 * 4,
               owner=('ReplicaSet', 'cattle-cluster-agent-5c6d9f7b8'), labels={'app': 'cattle-cluster-agent'})
fp = 'spec.containers{controller}'
objs = [ns('ingress-nginx'), ns('cattle-system'), nd, ds, p, agent, kube_proxy(N),
        scheduled(p, N, 1900), *started(p, N, img, 'controller', 1895, '9.8s'), *restarted(p, N, img, 'controller', 9, 1850, 242),
        sev(p, 'RELOAD', 'NGINX reload triggered due to a change in configuration', 'Normal', count=10, first=1880, last=238, controller='nginx-ingress-controller', instance=pn),
        backoff(p, N, 'controller', 84, 1800, 20),
        podlog('ingress-nginx', pn, 'controller', log),
        node_event(nd, 'Starting', 'Starting kubelet.', last=86400 * 4, first=86400 * 4),
        ev(agent, 'Pulled', 'Container image "%s" already present on machine' % agent_img, 'Normal', last=86400 * 4, host=N, fieldPath='spec.containers{cluster-register}')]
case('ap-nginx-hostnetwork-bind-in-use', 'CrashLoopBackOff: a hostNetwork ingress controller cannot bind :80/:443, a process on the host (the Rancher server) already listens there',
     'https://github.com/rancher/rancher/issues/26209', '[emerg] 34#34: bind() to 0.0.0.0:80 failed (98: Address already in use)',
     'ingress-nginx/' + pn, 'crash.port-in-use', objs, decisive='bind() to 0.0.0.0:80 failed (98: Address already in use)', playbook=None)

# ================================================================ 2. crash.port-in-use: the controller's own port check, klog F line then a goroutine dump
N = 'k8s-worker-02'
img = 'registry.k8s.io/ingress-nginx/controller:v1.10.1'
nd = node(N, kernel='5.4.0-70-generic')
nd['status']['nodeInfo']['osImage'] = 'Ubuntu 20.04.2 LTS'
for c in nd['status']['conditions']:
    if c['type'] == 'Ready': c['lastTransitionTime'] = ago(2400)
spec = {'hostNetwork': True, 'dnsPolicy': 'ClusterFirstWithHostNet', 'containers': [{'name': 'controller', 'image': img, 'args': ['/nginx-ingress-controller', '--publish-service=$(POD_NAMESPACE)/ingress-nginx-controller', '--election-id=ingress-nginx-leader', '--controller-class=k8s.io/ingress-nginx', '--ingress-class=nginx'],
        'ports': [{'name': 'http', 'containerPort': 80, 'hostPort': 80}, {'name': 'https', 'containerPort': 443, 'hostPort': 443}],
        'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 10254}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'failureThreshold': 5}, 'resources': {'requests': {'cpu': '100m', 'memory': '90Mi'}}}]}
ds = dset('ingress-nginx-controller', 'ingress-nginx', {'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller'}, 3, 2, spec)
pn = 'ingress-nginx-controller-9hq4m'
log = ['-------------------------------------------------------------------------------', 'NGINX Ingress controller', '  Release:       v1.10.1', '  Build:         4fb5aac1dd3669daa3a14d9de3e3cdb371b4c518',
       '  Repository:    https://github.com/kubernetes/ingress-nginx', '  nginx version: nginx/1.25.3', '', '-------------------------------------------------------------------------------', '',
       'W1121 09:57:41.210336       7 client_config.go:618] Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.',
       'I1121 09:57:41.210551       7 main.go:205] "Creating API client" host="https://10.96.0.1:443"',
       'I1121 09:57:41.219812       7 main.go:248] "Running in Kubernetes cluster" major="1" minor="29" git="v1.29.10" state="clean" commit="f0c1ba5a5e2e7c6a5f6ddc3b7d1f0b0c0e6c1d55" platform="linux/amd64"',
       'I1121 09:57:41.224193       7 flags.go:208] "Watching for Ingress" class="nginx"',
       'W1121 09:57:41.224224       7 flags.go:213] Ingresses with an empty class will also be processed by this Ingress controller',
       'F1121 09:57:41.224516       7 main.go:68] port 80 is already in use. Please check the flag --http-port',
       'goroutine 1 [running]:',
       'k8s.io/klog/v2.stacks(0x1)', '\tk8s.io/klog/v2@v2.120.1/klog.go:1174 +0x8a',
       'k8s.io/klog/v2.(*loggingT).output(0x2f8a6a0, 0x3, 0xc0001f2d20, 0xc000462380, 0x1, {0x24e5f1b?, 0x2?}, 0xc00051a000?, 0x0)', '\tk8s.io/klog/v2@v2.120.1/klog.go:952 +0x6a9',
       'k8s.io/klog/v2.(*loggingT).printfDepth(0x2f8a6a0, 0x3, 0xc0001f2d20, {0x0, 0x0}, 0x1, {0x1d7bb3f, 0x40}, {0xc0004b1c60, 0x1, 0x1})', '\tk8s.io/klog/v2@v2.120.1/klog.go:737 +0x1f2',
       'k8s.io/klog/v2.(*loggingT).printf(...)', '\tk8s.io/klog/v2@v2.120.1/klog.go:718',
       'k8s.io/klog/v2.Fatalf(...)', '\tk8s.io/klog/v2@v2.120.1/klog.go:1624',
       'main.main()', '\tk8s.io/ingress-nginx/cmd/nginx/main.go:68 +0x3e5']
p = mk_pod(pn, 'ingress-nginx', N, spec['containers'], [clbo(pn, 'ingress-nginx', 'controller', img, 11, term(255, 'Error', 138, 138, seed='in11'))], 2350,
           owner=('DaemonSet', 'ingress-nginx-controller'), labels={'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller'}, spec_extra={'hostNetwork': True, 'dnsPolicy': 'ClusterFirstWithHostNet'})
p['status']['podIP'] = p['status']['hostIP'] = nd['status']['addresses'][0]['address']
peers = [mk_pod('ingress-nginx-controller-%s' % s, 'ingress-nginx', 'k8s-worker-0%d' % i, spec['containers'], [running('controller', img, 86400 * 12)], 86400 * 12,
                owner=('DaemonSet', 'ingress-nginx-controller'), labels={'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller'}, spec_extra={'hostNetwork': True}) for i, s in ((1, 'x7c2d'), (3, 'p4v8n'))]
cil_img = 'quay.io/cilium/cilium:v1.15.6'
cil = mk_pod('cilium-r5mzb', 'kube-system', N, [{'name': 'cilium-agent', 'image': cil_img}], [running('cilium-agent', cil_img, 2380, restarts=1)], 86400 * 40, owner=('DaemonSet', 'cilium'), labels={'k8s-app': 'cilium'})
objs = [ns('ingress-nginx'), nd, node('k8s-worker-01'), node('k8s-worker-03'), ds, p, *peers, cil, kube_proxy(N),
        node_event(nd, 'Starting', 'Starting kubelet.', last=2420, first=2420),
        node_event(nd, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (N, uid('boot' + N)), 'Warning', last=2415, first=2415),
        node_event(nd, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=2480, first=2480, component='node-controller'),
        node_event(nd, 'NodeReady', 'Node %s status is now: NodeReady' % N, last=2400, first=2400),
        *started(p, N, img, 'controller', 2340, present=True), *restarted(p, N, img, 'controller', 11, 2300, 140),
        backoff(p, N, 'controller', 97, 2280, 15),
        ev(cil, 'Unhealthy', 'Readiness probe failed: Get "http://127.0.0.1:9879/healthz": dial tcp 127.0.0.1:9879: connect: connection refused', count=4, first=2390, last=2360, host=N, fieldPath='spec.containers{cilium-agent}'),
        podlog('ingress-nginx', pn, 'controller', log)]
case('ap-ingress-port-80-in-use-after-reboot', 'CrashLoopBackOff after a node reboot: the hostNetwork ingress controller refuses to start, port 80 is taken on the node',
     'https://github.com/kubernetes/ingress-nginx/issues/6988', 'F0324 15:25:08.614516       7 main.go:68] port 80 is already in use. Please check the flag --http-port',
     'ingress-nginx/' + pn, 'crash.port-in-use', objs, decisive='port 80 is already in use. Please check the flag --http-port', playbook=None)

# ================================================================ 3. crash.inotify-limit: the node's per-UID inotify instances are used up
N = 'worker-a3'
img = 'openkruise/kruise-manager:v1.5.0'
nd = node(N, kernel='5.15.0-86-generic')
nd['status']['nodeInfo']['osImage'] = 'Ubuntu 22.04.3 LTS'
spec = {'containers': [{'name': 'manager', 'image': img, 'args': ['--enable-leader-election', '--metrics-addr=:8080', '--health-probe-addr=:8000', '--logtostderr=true', '--leader-election-namespace=kruise-system', '--v=4', '--feature-gates='],
        'ports': [{'containerPort': 9876, 'name': 'webhook-server'}], 'readinessProbe': {'httpGet': {'path': 'readyz', 'port': 8000}},
        'resources': {'limits': {'cpu': '200m', 'memory': '512Mi'}, 'requests': {'cpu': '100m', 'memory': '256Mi'}}}]}
d, rs = deploy('kruise-controller-manager', 'kruise-system', {'control-plane': 'controller-manager'}, 2, '6d4f6c7f7c', spec, available=1)
pn = 'kruise-controller-manager-6d4f6c7f7c-ggw6l'
pre = ['I1121 09:57:10.447201       1 main.go:163] setup "msg"="starting manager"',
       'I1121 09:57:10.447390       1 deleg.go:130] setup "msg"="wait webhook ready"',
       'I1121 09:57:10.448012       1 internal.go:360] "Starting server" path="/metrics" kind="metrics" addr="[::]:8080"',
       'I1121 09:57:10.448102       1 internal.go:360] "Starting server" kind="health probe" addr="[::]:8000"',
       'I1121 09:57:10.448577       1 leaderelection.go:250] attempting to acquire leader lease kruise-system/kruise-manager...',
       'I1121 09:57:10.502213       1 webhook_controller.go:153] CustomResourceDefinition daemonsets.apps.kruise.io added',
       'I1121 09:57:10.502249       1 webhook_controller.go:153] CustomResourceDefinition workloadspreads.apps.kruise.io added',
       'I1121 09:57:10.502266       1 webhook_controller.go:153] CustomResourceDefinition containerrecreaterequests.apps.kruise.io added',
       'I1121 09:57:10.502278       1 webhook_controller.go:153] CustomResourceDefinition persistentpodstates.apps.kruise.io added',
       'I1121 09:57:10.502290       1 webhook_controller.go:153] CustomResourceDefinition nodeimages.apps.kruise.io added',
       'I1121 09:57:10.502301       1 webhook_controller.go:153] CustomResourceDefinition statefulsets.apps.kruise.io added',
       'I1121 09:57:10.502313       1 webhook_controller.go:153] CustomResourceDefinition advancedcronjobs.apps.kruise.io added',
       'I1121 09:57:10.502325       1 webhook_controller.go:153] CustomResourceDefinition clonesets.apps.kruise.io added',
       'I1121 09:57:10.502336       1 webhook_controller.go:153] CustomResourceDefinition imagepulljobs.apps.kruise.io added',
       'I1121 09:57:10.502348       1 webhook_controller.go:153] CustomResourceDefinition broadcastjobs.apps.kruise.io added',
       'I1121 09:57:10.502360       1 webhook_controller.go:153] CustomResourceDefinition sidecarsets.apps.kruise.io added',
       'I1121 09:57:10.519114       1 reflector.go:289] Starting reflector *v1.Job (0s) from sigs.k8s.io/controller-runtime/pkg/cache/internal/informers.go:105',
       'panic: failed to new ca-cert watcher: too many open files',
       '',
       'goroutine 301 [running]:',
       'github.com/openkruise/kruise/pkg/webhook/util/health.Checker.func1()', '\t/workspace/pkg/webhook/util/health/checker.go:117 +0x185',
       'sync.(*Once).doSlow(0x0?, 0x0?)', '\t/usr/local/go/src/sync/once.go:74 +0xc2',
       'sync.(*Once).Do(...)', '\t/usr/local/go/src/sync/once.go:65',
       'github.com/openkruise/kruise/pkg/webhook/util/health.Checker(0xc10df924837590b9?)', '\t/workspace/pkg/webhook/util/health/checker.go:111 +0x5e',
       'github.com/openkruise/kruise/pkg/webhook.Checker(0x5?)', '\t/workspace/pkg/webhook/server.go:137 +0x35',
       'github.com/openkruise/kruise/pkg/webhook.WaitReady()', '\t/workspace/pkg/webhook/server.go:145 +0x71',
       'main.main.func2()', '\t/workspace/main.go:187 +0x65',
       'created by main.main in goroutine 1', '\t/workspace/main.go:185 +0xc8a']
p = mk_pod(pn, 'kruise-system', N, spec['containers'], [clbo(pn, 'kruise-system', 'manager', img, 5, term(2, 'Error', 172, 168, seed='kr5'))], 352,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'control-plane': 'controller-manager', 'pod-template-hash': '6d4f6c7f7c'})
other = mk_pod('kruise-controller-manager-6d4f6c7f7c-lw2tf', 'kruise-system', 'worker-a1', spec['containers'], [running('manager', img, 86400 * 2)], 86400 * 2,
               owner=('ReplicaSet', rs['metadata']['name']), labels={'control-plane': 'controller-manager', 'pod-template-hash': '6d4f6c7f7c'})
dimg = 'openkruise/kruise-manager:v1.5.0'
daemon = mk_pod('kruise-daemon-826q4', 'kruise-system', N, [{'name': 'daemon', 'image': dimg}], [running('daemon', dimg, 351)], 351, owner=('DaemonSet', 'kruise-daemon'), labels={'control-plane': 'daemon'})
prom_img = 'quay.io/prometheus/node-exporter:v1.8.2'
nexp = mk_pod('node-exporter-m2wq9', 'monitoring', N, [{'name': 'node-exporter', 'image': prom_img}], [running('node-exporter', prom_img, 86400 * 9)], 86400 * 9, owner=('DaemonSet', 'node-exporter'), labels={'app': 'node-exporter'})
objs = [ns('kruise-system'), ns('monitoring'), nd, node('worker-a1'), d, rs, p, other, daemon, nexp, kube_proxy(N),
        scheduled(p, N, 352), *started(p, N, img, 'manager', 350, '4.2s'), *restarted(p, N, img, 'manager', 5, 300, 175),
        backoff(p, N, 'manager', 21, 290, 14),
        ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://10.244.3.87:8000/readyz": dial tcp 10.244.3.87:8000: connect: connection refused', count=2, first=345, last=190, host=N, fieldPath='spec.containers{manager}'),
        podlog('kruise-system', pn, 'manager', pre)]
case('ap-inotify-instances-kruise', 'CrashLoopBackOff: the controller panics creating a file watcher, "too many open files" (the node\'s inotify instances are used up)',
     'https://github.com/openkruise/kruise/issues/1276', 'panic: failed to new ca-cert watcher: too many open files',
     'kruise-system/' + pn, 'crash.inotify-limit', objs, decisive='panic: failed to new ca-cert watcher: too many open files', playbook=None)

# ================================================================ 4. crash.app-exit: Spring Boot, a YAML parse error after the banner
N = 'ip-10-1-44-17.eu-central-1.compute.internal'
img = 'docker.stirlingpdf.com/stirlingtools/stirling-pdf:0.46.2'
settings = '\n'.join(['security:', '  enableLogin: false', '  csrfDisabled: true', '  loginAttemptCount: 5', '  loginResetTimeMinutes: 120', 'system:', '  defaultLocale: en-US', '  googlevisibility: false',
                      '  showUpdate: false', '  customHTMLFiles: false', 'ui:', '  appName: null', '  homeDescription: null', '  appNameNavbar: null', 'endpoints:', '  toRemove: []', '  groupsToRemove: []',
                      'metrics:', '  enabled: true', 'AutomaticallyGenerated:', '  key: 3f8e9a0c-7a61-4c0e-9e58-0f5c1bd0e6a2', '  UUID: 5c1e2b77-1f0b-4e9d-a1d8-2c7b0f9e4d11', 'processExecutor:',
                      '  sessionLimit:', '    libreOfficeSessionLimit: 1', '    pdfToHtmlSessionLimit: 1', '  timeoutMinutes:', '    libreOfficetimeoutMinutes: 30', 'legal:',
                      '  enabled: true # \'true\' to enable the legal footer', '    installBookFormats: false # Install calibre for book conversion', '  termsAndConditions: https://www.example.org/terms', ''])
spec = {'containers': [{'name': 'stirling-pdf', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}], 'env': [{'name': 'DOCKER_ENABLE_SECURITY', 'value': 'false'}, {'name': 'LANGS', 'value': 'en_GB'}],
        'volumeMounts': [{'name': 'configs', 'mountPath': '/configs'}], 'resources': {'requests': {'cpu': '250m', 'memory': '1Gi'}, 'limits': {'memory': '2Gi'}},
        'readinessProbe': {'httpGet': {'path': '/api/v1/info/status', 'port': 'http'}, 'periodSeconds': 10}}], 'volumes': [{'name': 'configs', 'configMap': {'name': 'stirling-pdf-settings'}}]}
d, rs = deploy('stirling-pdf', 'docs', {'app': 'stirling-pdf'}, 1, '7b9c6d5f4', spec, available=0)
pn = 'stirling-pdf-7b9c6d5f4-k8w2x'
log = ['Copying original files without overwriting existing files', 'Running Stirling-PDF as user stirlingpdfuser (uid 1000)', 'Setting permissions and ownership for necessary directories...',
       'Picked up JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=75 -Dfile.encoding=UTF-8', *SPRING_BANNER, ' :: Spring Boot ::                (v3.4.1)', '',
       '09:58:21.406 [main] INFO  stirling.software.SPDF.SPdfApplication - Starting SPdfApplication v0.46.2 using Java 21.0.5 with PID 1 (/app.jar started by stirlingpdfuser in /)',
       '09:58:21.409 [main] INFO  stirling.software.SPDF.SPdfApplication - No active profile set, falling back to 1 default profile: "default"',
       '09:58:21.772 [main] INFO  stirling.software.SPDF.config.ConfigInitializer - Loading settings from /configs/settings.yml',
       '09:58:21.801 [main] ERROR org.springframework.boot.SpringApplication - Application run failed',
       'org.yaml.snakeyaml.parser.ParserException: while parsing a block mapping',
       " in 'reader', line 29, column 3:",
       "      enabled: true # 'true' to enable ... ",
       '      ^',
       "expected <block end>, but found '<block mapping start>'",
       " in 'reader', line 30, column 5:",
       '        installBookFormats: false # Inst ... ',
       '        ^',
       '',
       '\tat org.yaml.snakeyaml.parser.ParserImpl$ParseBlockMappingKey.produce(ParserImpl.java:654)',
       '\tat org.yaml.snakeyaml.parser.ParserImpl.peekEvent(ParserImpl.java:161)',
       '\tat org.yaml.snakeyaml.comments.CommentEventsCollector$1.peek(CommentEventsCollector.java:57)',
       '\tat org.yaml.snakeyaml.comments.CommentEventsCollector.collectEvents(CommentEventsCollector.java:116)',
       '\tat org.yaml.snakeyaml.composer.Composer.composeMappingNode(Composer.java:286)',
       '\tat org.yaml.snakeyaml.composer.Composer.composeNode(Composer.java:207)',
       '\tat org.yaml.snakeyaml.composer.Composer.getNode(Composer.java:131)',
       '\tat org.yaml.snakeyaml.Yaml.load(Yaml.java:416)',
       '\tat stirling.software.SPDF.config.ConfigInitializer.ensureConfigExists(ConfigInitializer.java:64)',
       '\tat stirling.software.SPDF.config.ConfigInitializer.initialize(ConfigInitializer.java:35)',
       '\tat org.springframework.boot.SpringApplication.applyInitializers(SpringApplication.java:617)',
       '\tat org.springframework.boot.SpringApplication.prepareContext(SpringApplication.java:387)',
       '\tat org.springframework.boot.SpringApplication.run(SpringApplication.java:317)',
       '\tat stirling.software.SPDF.SPdfApplication.main(SPdfApplication.java:127)']
p = mk_pod(pn, 'docs', N, spec['containers'], [clbo(pn, 'docs', 'stirling-pdf', img, 6, term(1, 'Error', 104, 98, seed='sp6'))], 920,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'stirling-pdf', 'pod-template-hash': '7b9c6d5f4'}, spec_extra={'volumes': spec['volumes']})
old_rs = rs_for(d, 'stirling-pdf-58f7d9c6b'); old_rs['spec']['replicas'] = 0; old_rs['status'] = {'replicas': 0, 'observedGeneration': 2}
objs = [ns('docs'), node(N), d, rs, old_rs, p, cm('stirling-pdf-settings', 'docs', {'settings.yml': settings}, created=1000),
        sev(d, 'ScalingReplicaSet', 'Scaled up replica set stirling-pdf-7b9c6d5f4 to 1', 'Normal', count=1, first=925, controller='deployment-controller'),
        sev(rs, 'SuccessfulCreate', 'Created pod: ' + pn, 'Normal', count=1, first=922, controller='replicaset-controller'),
        scheduled(p, N, 921), *started(p, N, img, 'stirling-pdf', 918, '38.7s'), *restarted(p, N, img, 'stirling-pdf', 6, 860, 105),
        backoff(p, N, 'stirling-pdf', 38, 840, 25),
        podlog('docs', pn, 'stirling-pdf', log)]
case('ap-spring-settings-yaml-parse', 'CrashLoopBackOff: a Spring Boot app stops at start on a YAML parse error in its mounted settings file',
     'https://github.com/Stirling-Tools/Stirling-PDF/issues/808', "org.yaml.snakeyaml.parser.ParserException: while parsing a block mapping in 'reader', line 29, column 3",
     'docs/' + pn, 'crash.app-exit', objs, decisive='ParserException: while parsing a block mapping')

# ================================================================ 5. crash.app-exit: Go nil pointer panic (decisive: the panic line, not the last goroutine line)
img = 'openstorage/stork:24.3.1'
nodes5 = [node('px-node-%d' % i) for i in (1, 2, 3)]
spec = {'serviceAccountName': 'stork-account', 'containers': [{'name': 'stork', 'image': img, 'command': ['/stork', '--driver=pxd', '--verbose', '--leader-elect=true', '--health-monitor-interval=120', '--webhook-controller=true'],
        'resources': {'requests': {'cpu': '100m'}}}]}
d, rs = deploy('stork', 'kube-system', {'name': 'stork', 'tier': 'control-plane'}, 3, '5c7d9b8f6', spec, available=0)
log = ['time="2026-11-21T09:58:51Z" level=info msg="Starting stork version 24.3.1-4c2b6d1"',
       'time="2026-11-21T09:58:51Z" level=info msg="Using driver pxd"',
       'I1121 09:58:51.913410       1 leaderelection.go:250] attempting to acquire leader lease kube-system/stork...',
       'I1121 09:59:07.118251       1 leaderelection.go:260] successfully acquired lease kube-system/stork',
       'time="2026-11-21T09:59:07Z" level=info msg="Registered extender" extender=stork',
       'time="2026-11-21T09:59:07Z" level=info msg="Starting health monitor"',
       'I1121 09:59:07.137524       1 snapshot-controller.go:169] Starting snapshot controller',
       'I1121 09:59:07.137558       1 controller_utils.go:1041] Waiting for caches to sync for snapshot-controller controller',
       'panic: runtime error: invalid memory address or nil pointer dereference',
       '[signal SIGSEGV: segmentation violation code=0x1 addr=0x8 pc=0x108178b]',
       '',
       'goroutine 29 [running]:',
       'github.com/libopenstorage/stork/drivers/volume/portworx.(*portworx).InspectVolume(0xc4203393a0, {0xc4202c84e0, 0x28})',
       '\t/go/src/github.com/libopenstorage/stork/drivers/volume/portworx/portworx.go:100 +0x22b',
       'github.com/libopenstorage/stork/drivers/volume/portworx.(*portworx).GetPodVolumes(0xc4203393a0, 0xc42055c000, 0x30)',
       '\t/go/src/github.com/libopenstorage/stork/drivers/volume/portworx/portworx.go:194 +0x3f7',
       'github.com/libopenstorage/stork/pkg/monitor.(*Monitor).driverMonitor(0xc42021ef80)',
       '\t/go/src/github.com/libopenstorage/stork/pkg/monitor/monitor.go:91 +0x319',
       'created by github.com/libopenstorage/stork/pkg/monitor.(*Monitor).Start in goroutine 1',
       '\t/go/src/github.com/libopenstorage/stork/pkg/monitor/monitor.go:45 +0x12a']
objs5 = [ns('kube-system'), *nodes5, d, rs]
target5 = None
for i, sfx in enumerate(('8xk2m', 'q4d7t', 'z9w1c')):
    pn = 'stork-5c7d9b8f6-' + sfx
    N = 'px-node-%d' % (i + 1)
    p = mk_pod(pn, 'kube-system', N, spec['containers'], [clbo(pn, 'kube-system', 'stork', img, 14 + i, term(2, 'Error', 70 + 40 * i, 52 + 40 * i, seed='st%d' % i))], 3600,
               owner=('ReplicaSet', rs['metadata']['name']), labels={'name': 'stork', 'tier': 'control-plane', 'pod-template-hash': '5c7d9b8f6'})
    objs5 += [p, backoff(p, N, 'stork', 150 + i, 3400, 9 + i), *restarted(p, N, img, 'stork', 14 + i, 3500, 70 + 40 * i)] + ([podlog('kube-system', pn, 'stork', log)] if i == 0 else [])
    target5 = target5 or pn
pximg = 'portworx/oci-monitor:3.1.2'
for i in (1, 2, 3):
    objs5.append(mk_pod('portworx-%s' % hexid('px%d' % i, 5), 'kube-system', 'px-node-%d' % i, [{'name': 'portworx', 'image': pximg}], [running('portworx', pximg, 86400 * 6)], 86400 * 6, owner=('DaemonSet', 'portworx'), labels={'name': 'portworx'}))
case('ap-go-nil-pointer-stork', 'CrashLoopBackOff on all replicas: the scheduler extender panics with a nil pointer dereference right after start',
     'https://github.com/libopenstorage/stork/issues/45', 'panic: runtime error: invalid memory address or nil pointer dereference',
     'kube-system/' + target5, 'crash.app-exit', objs5, decisive='panic: runtime error: invalid memory address or nil pointer dereference')

# ================================================================ 6. crash.app-exit: Python traceback, the exception is the last line
N = 'edge-master-1'
img = 'kubeedge/sedna-kb:v0.5.0'
spec = {'containers': [{'name': 'kb', 'image': img, 'command': ['python', 'sedna/service/run_kb.py'], 'ports': [{'containerPort': 9020, 'name': 'kb'}],
        'env': [{'name': 'KB_SERVER', 'value': '0.0.0.0:9020'}], 'resources': {'limits': {'memory': '256Mi'}, 'requests': {'cpu': '100m', 'memory': '64Mi'}}}]}
d, rs = deploy('kb', 'sedna', {'sedna': 'kb'}, 1, '69f5d8c7b4', spec, available=0)
pn = 'kb-69f5d8c7b4-t2xqr'
log = ['Traceback (most recent call last):',
       '  File "/code/lib/sedna/service/run_kb.py", line 18, in <module>',
       '    from sedna.service.server.knowledgeBase.model import init_db',
       '  File "/code/lib/sedna/__init__.py", line 16, in <module>',
       '    import sedna.algorithms',
       '  File "/code/lib/sedna/algorithms/__init__.py", line 19, in <module>',
       '    from . import optical_flow',
       '  File "/code/lib/sedna/algorithms/optical_flow/__init__.py", line 19, in <module>',
       '    import cv2',
       "ModuleNotFoundError: No module named 'cv2'"]
p = mk_pod(pn, 'sedna', N, spec['containers'], [clbo(pn, 'sedna', 'kb', img, 12, term(1, 'Error', 183, 182, seed='kb12'))], 2900,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'sedna': 'kb', 'pod-template-hash': '69f5d8c7b4'})
gm_img = 'kubeedge/sedna-gm:v0.5.0'
gm = mk_pod('gm-7c8d9f6b5-m4k2p', 'sedna', N, [{'name': 'gm', 'image': gm_img}], [running('gm', gm_img, 2890)], 2900, owner=('ReplicaSet', 'gm-7c8d9f6b5'), labels={'sedna': 'gm'})
lc_img = 'kubeedge/sedna-lc:v0.5.0'
lc = mk_pod('lc-5w8hd', 'sedna', N, [{'name': 'lc', 'image': lc_img}], [running('lc', lc_img, 2880)], 2900, owner=('DaemonSet', 'lc'), labels={'sedna': 'lc'})
objs = [ns('sedna'), node(N), d, rs, p, gm, lc, service('kb', 'sedna', {'sedna': 'kb'}, ports=((9020, 9020),)),
        endpoints('kb', 'sedna', not_ready=[(p['status']['podIP'], pn, N)], port=9020),
        scheduled(p, N, 2900), *started(p, N, img, 'kb', 2895, '1m2.4s'), *restarted(p, N, img, 'kb', 12, 2800, 185),
        backoff(p, N, 'kb', 131, 2790, 11),
        ev(gm, 'Pulled', 'Container image "%s" already present on machine' % gm_img, 'Normal', last=2895, host=N, fieldPath='spec.containers{gm}'),
        podlog('sedna', pn, 'kb', log)]
case('ap-python-modulenotfound-sedna', 'CrashLoopBackOff: a Python service dies on import, the traceback ends with ModuleNotFoundError',
     'https://github.com/kubeedge/sedna/issues/320', "ModuleNotFoundError: No module named 'cv2'",
     'sedna/' + pn, 'crash.app-exit', objs, decisive="ModuleNotFoundError: No module named 'cv2'")

# ================================================================ 7. crash.app-exit: the database refuses the password (a reinstalled chart, the old volume keeps the old one)
N = 'aks-default-31415926-vmss000001'
kimg = 'docker.io/bitnami/keycloak:26.1.3-debian-12-r0'
pimg = 'docker.io/bitnami/postgresql:17.4.0-debian-12-r2'
kspec = {'containers': [{'name': 'keycloak', 'image': kimg, 'env': [{'name': 'KC_DB', 'value': 'postgres'}, {'name': 'KC_DB_URL', 'value': 'jdbc:postgresql://tpt-keycloak-postgresql:5432/bitnami_keycloak'},
         {'name': 'KC_DB_USERNAME', 'value': 'bn_keycloak'}, {'name': 'KC_DB_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'tpt-keycloak-postgresql', 'key': 'password'}}}],
         'ports': [{'containerPort': 8080, 'name': 'http'}], 'resources': {'requests': {'cpu': '500m', 'memory': '512Mi'}, 'limits': {'memory': '768Mi'}},
         'readinessProbe': {'httpGet': {'path': '/realms/master', 'port': 'http'}, 'initialDelaySeconds': 30, 'periodSeconds': 10}}]}
kst = sts('tpt-keycloak', 'tpt', {'app.kubernetes.io/name': 'keycloak', 'app.kubernetes.io/instance': 'tpt-keycloak'}, 1, kspec, ready=0)
pst = sts('tpt-keycloak-postgresql', 'tpt', {'app.kubernetes.io/name': 'postgresql', 'app.kubernetes.io/instance': 'tpt-keycloak'}, 1, {'containers': [{'name': 'postgresql', 'image': pimg}]})
pn = 'tpt-keycloak-0'
klog = ['keycloak 09:57:10.18 INFO  ==> ', 'keycloak 09:57:10.18 INFO  ==> Welcome to the Bitnami keycloak container', 'keycloak 09:57:10.19 INFO  ==> ** Starting keycloak setup **',
        'keycloak 09:57:10.20 INFO  ==> Validating settings in KEYCLOAK_* env vars...', 'keycloak 09:57:10.23 INFO  ==> Trying to connect to PostgreSQL server tpt-keycloak-postgresql...',
        'keycloak 09:57:10.25 INFO  ==> Found PostgreSQL server listening at tpt-keycloak-postgresql:5432', 'keycloak 09:57:10.26 INFO  ==> Configuring database settings',
        'keycloak 09:57:10.31 INFO  ==> ** keycloak setup finished! **', 'keycloak 09:57:10.33 INFO  ==> ** Starting keycloak **',
        'Appending additional Java properties to JAVA_OPTS',
        '2026-11-21 09:57:17,551 INFO  [org.keycloak.quarkus.runtime.storage.infinispan.CacheManagerFactory] (main) Starting Infinispan embedded cache manager',
        '2026-11-21 09:57:18,410 INFO  [org.keycloak.connections.infinispan.DefaultInfinispanConnectionProviderFactory] (main) Node name: tpt-keycloak-0, Site name: null',
        '2026-11-21 09:57:18,917 WARN  [io.agroal.pool] (agroal-11) Datasource \'<default>\': FATAL: password authentication failed for user "bn_keycloak"',
        '2026-11-21 09:57:18,918 WARN  [org.hibernate.engine.jdbc.env.internal.JdbcEnvironmentInitiator] (JPA Startup Thread) HHH000342: Could not obtain connection to query metadata: org.postgresql.util.PSQLException: FATAL: password authentication failed for user "bn_keycloak"',
        '2026-11-21 09:57:19,342 ERROR [org.keycloak.quarkus.runtime.cli.ExecutionExceptionHandler] (main) ERROR: Failed to start server in (production) mode',
        '2026-11-21 09:57:19,343 ERROR [org.keycloak.quarkus.runtime.cli.ExecutionExceptionHandler] (main) ERROR: Failed to obtain JDBC connection',
        '2026-11-21 09:57:19,343 ERROR [org.keycloak.quarkus.runtime.cli.ExecutionExceptionHandler] (main) ERROR: FATAL: password authentication failed for user "bn_keycloak"']
pglog = ['postgresql 2025-03-04 22:03:41.09 INFO  ==> ** Starting PostgreSQL **',
         '2025-03-04 22:03:41.118 GMT [1] LOG:  starting PostgreSQL 17.4 on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit',
         '2025-03-04 22:03:41.120 GMT [1] LOG:  database system is ready to accept connections',
         '2026-11-21 09:57:18.912 GMT [48211] FATAL:  password authentication failed for user "bn_keycloak"',
         '2026-11-21 09:57:18.912 GMT [48211] DETAIL:  Connection matched file "/opt/bitnami/postgresql/conf/pg_hba.conf" line 1: "host     all             all             0.0.0.0/0               md5"',
         '2026-11-21 09:57:18.915 GMT [48212] FATAL:  password authentication failed for user "bn_keycloak"',
         '2026-11-21 09:57:18.915 GMT [48212] DETAIL:  Connection matched file "/opt/bitnami/postgresql/conf/pg_hba.conf" line 1: "host     all             all             0.0.0.0/0               md5"']
p = mk_pod(pn, 'tpt', N, kspec['containers'], [clbo(pn, 'tpt', 'keycloak', kimg, 8, term(1, 'Error', 171, 151, seed='kc8'))], 1860,
           owner=('StatefulSet', 'tpt-keycloak'), labels={'app.kubernetes.io/name': 'keycloak', 'app.kubernetes.io/instance': 'tpt-keycloak', 'statefulset.kubernetes.io/pod-name': pn})
pg = mk_pod('tpt-keycloak-postgresql-0', 'tpt', 'aks-default-31415926-vmss000000', [{'name': 'postgresql', 'image': pimg, 'ports': [{'containerPort': 5432}]}], [running('postgresql', pimg, 86400 * 626)], 86400 * 626,
            owner=('StatefulSet', 'tpt-keycloak-postgresql'), labels={'app.kubernetes.io/name': 'postgresql', 'app.kubernetes.io/instance': 'tpt-keycloak'},
            spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-tpt-keycloak-postgresql-0'}}]})
claim = pvc('data-tpt-keycloak-postgresql-0', 'tpt', storage_class='managed-csi', phase='Bound', size='8Gi', volume='pvc-1e0c5b7a-3d2f-4c8e-9a61-7b5e2d9f0c34', created=86400 * 626)
objs = [ns('tpt'), node(N), node('aks-default-31415926-vmss000000'), kst, pst, p, pg, claim, service('tpt-keycloak-postgresql', 'tpt', {'app.kubernetes.io/name': 'postgresql'}, ports=((5432, 5432),)),
        scheduled(p, N, 1860), *started(p, N, kimg, 'keycloak', 1855, '21.3s'), *restarted(p, N, kimg, 'keycloak', 8, 1780, 175),
        backoff(p, N, 'keycloak', 71, 1700, 17),
        ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:8080/realms/master": dial tcp %s:8080: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), count=3, first=1810, last=1790, host=N, fieldPath='spec.containers{keycloak}'),
        sev(kst, 'SuccessfulCreate', 'create Pod tpt-keycloak-0 in StatefulSet tpt-keycloak successful', 'Normal', count=1, first=1861, controller='statefulset-controller'),
        podlog('tpt', pn, 'keycloak', klog), podlog('tpt', 'tpt-keycloak-postgresql-0', 'postgresql', pglog, previous=False)]
case('ap-keycloak-postgres-password', 'CrashLoopBackOff: Keycloak cannot log in to its PostgreSQL, "password authentication failed" (the database volume kept the password of an earlier install)',
     'https://github.com/bitnami/charts/issues/32279', 'FATAL: password authentication failed for user "bn_keycloak"',
     'tpt/' + pn, 'crash.app-exit', objs, decisive='FATAL: password authentication failed for user "bn_keycloak"')

# ================================================================ 8. container.start-error: CRLF in the entrypoint's shebang
N = 'aks-nodepool1-27182818-vmss000002'
img = 'contosoacr.azurecr.io/sftp:1.0.3'
spec = {'containers': [{'name': 'sftp', 'image': img, 'args': ['foo:pass:1001::upload'], 'ports': [{'containerPort': 22, 'name': 'ssh'}],
        'volumeMounts': [{'name': 'upload', 'mountPath': '/home/foo/upload'}], 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '256Mi'}}}],
        'volumes': [{'name': 'upload', 'persistentVolumeClaim': {'claimName': 'sftp-upload'}}]}
d, rs = deploy('sftp', 'file-exchange', {'app': 'sftp'}, 1, '6b5f8d9c47', spec, available=0)
pn = 'sftp-6b5f8d9c47-vq7nd'
p = mk_pod(pn, 'file-exchange', N, spec['containers'], [clbo(pn, 'file-exchange', 'sftp', img, 7, term(1, 'Error', 212, 212, seed='sf7'))], 1200,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'sftp', 'pod-template-hash': '6b5f8d9c47'}, spec_extra={'volumes': spec['volumes']})
claim = pvc('sftp-upload', 'file-exchange', storage_class='azurefile-csi', phase='Bound', size='100Gi', volume='pvc-8a2d4f61-0c7e-4b3a-9d15-6e2f7c0b9a48', created=86400 * 3, access=('ReadWriteMany',))
objs = [ns('file-exchange'), node(N), d, rs, p, claim,
        scheduled(p, N, 1200), *started(p, N, img, 'sftp', 1190, '2.9s'), *restarted(p, N, img, 'sftp', 7, 1150, 215),
        backoff(p, N, 'sftp', 52, 1140, 8),
        sev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "pvc-8a2d4f61-0c7e-4b3a-9d15-6e2f7c0b9a48"', 'Normal', count=1, first=1198, controller='attachdetach-controller'),
        podlog('file-exchange', pn, 'sftp', ['exec /entrypoint: no such file or directory'])]
case('ap-entrypoint-crlf-sftp', 'CrashLoopBackOff: the image\'s entrypoint script was saved with CRLF line endings, its shebang names an interpreter that does not exist',
     'https://github.com/atmoz/sftp/issues/309', 'standard_init_linux.go:228: exec user process caused: no such file or directory',
     'file-exchange/' + pn, 'container.start-error', objs, decisive='exec /entrypoint: no such file or directory')

# ================================================================ 9. image.wrong-arch: an arm64-only sidecar on amd64 nodes
N = 'gke-data-pool-2-9c1d7e3a-x8lz'
mimg = 'mongo:6.0.19'
simg = 'combor/k8s-mongo-labeler-sidecar:latest'
nd = node(N, labels={'kubernetes.io/arch': 'amd64', 'cloud.google.com/gke-nodepool': 'data-pool-2'})
spec = {'serviceAccountName': 'mongo-labeler', 'containers': [
    {'name': 'mongod', 'image': mimg, 'command': ['mongod', '--replSet', 'rs0', '--bind_ip_all'], 'ports': [{'containerPort': 27017}], 'resources': {'requests': {'cpu': '500m', 'memory': '2Gi'}}},
    {'name': 'mongo-labeler', 'image': simg, 'env': [{'name': 'LABEL_SELECTOR', 'value': 'app=mongo'}, {'name': 'NAMESPACE', 'value': 'data'}, {'name': 'DEBUG', 'value': 'true'}], 'resources': {'requests': {'cpu': '10m', 'memory': '16Mi'}}}]}
st = sts('mongo', 'data', {'app': 'mongo'}, 3, spec, ready=0)
objs9 = [ns('data'), nd, st]
tgt9 = 'mongo-0'
for i in range(3):
    pn = 'mongo-%d' % i
    p = mk_pod(pn, 'data', N if i == 0 else 'gke-data-pool-2-9c1d7e3a-%s' % ('q2mv', 'h7tk')[i - 1], spec['containers'],
               [running('mongod', mimg, 1500 - 90 * i), clbo(pn, 'data', 'mongo-labeler', simg, 6, term(1, 'Error', 190, 190, seed='ml%d' % i))], 1560 - 90 * i,
               owner=('StatefulSet', 'mongo'), labels={'app': 'mongo', 'statefulset.kubernetes.io/pod-name': pn})
    objs9 += [p, backoff(p, p['spec']['nodeName'], 'mongo-labeler', 44 - i, 1450 - 90 * i, 10 + i), podlog('data', pn, 'mongo-labeler', ['exec /primary-sidecar: exec format error'])]
    if i == 0:
        objs9 += [scheduled(p, N, 1560), *started(p, N, mimg, 'mongod', 1555, '7.9s'), *started(p, N, simg, 'mongo-labeler', 1546, '1.1s'), *restarted(p, N, simg, 'mongo-labeler', 6, 1500, 195)]
objs9 += [node('gke-data-pool-2-9c1d7e3a-q2mv', labels={'kubernetes.io/arch': 'amd64'}), node('gke-data-pool-2-9c1d7e3a-h7tk', labels={'kubernetes.io/arch': 'amd64'})]
case('ap-sidecar-exec-format-arm64', 'CrashLoopBackOff of a sidecar: its binary is built for arm64, the nodes are amd64 ("exec format error")',
     'https://github.com/combor/k8s-mongo-labeler-sidecar/issues/14', 'standard_init_linux.go:228: exec user process caused: exec format error',
     'data/' + tgt9, 'image.wrong-arch', objs9, decisive='exec /primary-sidecar: exec format error')

# ================================================================ 10. crash.app-exit: FallbackToLogsOnError termination message, the cause at the end of the text
N = 'ip-192-168-44-201.us-east-2.compute.internal'
img = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.49.0'
side = [('csi-provisioner', 'public.ecr.aws/eks-distro/kubernetes-csi/external-provisioner:v5.3.0-eks-1-33-13'), ('csi-attacher', 'public.ecr.aws/eks-distro/kubernetes-csi/external-attacher:v4.9.0-eks-1-33-13'),
        ('csi-snapshotter', 'public.ecr.aws/eks-distro/kubernetes-csi/external-snapshotter/csi-snapshotter:v8.3.0-eks-1-33-13'), ('csi-resizer', 'public.ecr.aws/eks-distro/kubernetes-csi/external-resizer:v1.14.0-eks-1-33-13'),
        ('liveness-probe', 'public.ecr.aws/eks-distro/kubernetes-csi/livenessprobe:v2.16.0-eks-1-33-13')]
spec = {'serviceAccountName': 'ebs-csi-controller-sa', 'priorityClassName': 'system-cluster-critical', 'containers': [
    {'name': 'ebs-plugin', 'image': img, 'args': ['controller', '--endpoint=$(CSI_ENDPOINT)', '--batching=true', '--logging-format=text', '--user-agent-extra=helm', '--v=2'],
     'terminationMessagePolicy': 'FallbackToLogsOnError', 'ports': [{'containerPort': 9808, 'name': 'healthz'}],
     'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 'healthz'}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'timeoutSeconds': 3, 'failureThreshold': 5},
     'resources': {'requests': {'cpu': '10m', 'memory': '40Mi'}, 'limits': {'memory': '256Mi'}}},
    *[{'name': n, 'image': i, 'terminationMessagePolicy': 'FallbackToLogsOnError', 'resources': {'requests': {'cpu': '10m', 'memory': '40Mi'}}} for n, i in side]]}
d, rs = deploy('ebs-csi-controller', 'kube-system', {'app': 'ebs-csi-controller', 'app.kubernetes.io/name': 'aws-ebs-csi-driver'}, 2, '55c6c84c5f', spec, available=0)
import datetime as _dt
def ebs_message(start_ago):
    t0 = NOW - _dt.timedelta(seconds=start_ago)
    ts = lambda off, us: (t0 + _dt.timedelta(seconds=off)).strftime('%m%d %H:%M:%S') + '.%06d' % us
    err = 'operation error EC2: DescribeAvailabilityZones, get identity: get credentials: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, canceled, context deadline exceeded'
    lines = ['I%s       1 main.go:163] "Initializing metadata"' % ts(1, 117304),
             'I%s       1 metadata.go:48] "Retrieving instance data from ec2 metadata"' % ts(1, 117391),
             'W%s       1 metadata.go:51] "Retrieving EC2 metadata failed" err="could not get EC2 instance identity metadata: operation error ec2imds: GetInstanceIdentityDocument, canceled, context deadline exceeded"' % ts(4, 121883),
             'I%s       1 metadata.go:55] "Retrieving instance data from Kubernetes API"' % ts(4, 121940),
             'I%s       1 metadata.go:60] "kubernetes API is available"' % ts(4, 133517),
             'I%s       1 driver.go:69] "Driver Information" Driver="ebs.csi.aws.com" Version="v1.49.0"' % ts(4, 141208),
             'I%s       1 controller.go:86] "batching" status=true' % ts(4, 141276),
             'I%s       1 cloud.go:466] "Running dry-run EC2 API call" timeout="5m0s"' % ts(4, 141612),
             *['W%s       1 cloud.go:474] "Dry-run EC2 API call failed, retrying" attempt=%d err="%s"' % (ts(off, us), n, err) for n, off, us in ((1, 16, 144920), (2, 30, 146377), (3, 46, 151002))],
             'E%s       1 driver.go:108] "Failed to start driver" err="rpc error: code = FailedPrecondition desc = Failed health check (verify network connection and IAM credentials): dry-run EC2 API call failed: %s"' % (ts(59, 774305), err)]
    full = '\n'.join(lines) + '\n'
    assert len(full) > 2048, len(full)
    return full[-2048:]
pods10 = []
for sfx, Nn, rc, fin in (('c48nn', N, 6, 140), ('w9f2k', 'ip-192-168-71-13.us-east-2.compute.internal', 6, 95)):
    pn = 'ebs-csi-controller-55c6c84c5f-' + sfx
    sts_ = [clbo(pn, 'kube-system', 'ebs-plugin', img, rc, term(1, 'Error', fin + 60, fin, message=ebs_message(fin + 60), seed='ebs' + sfx))] + [running(n, i, 1700) for n, i in side]
    pods10.append(mk_pod(pn, 'kube-system', Nn, spec['containers'], sts_, 1720, owner=('ReplicaSet', rs['metadata']['name']),
                         labels={'app': 'ebs-csi-controller', 'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'pod-template-hash': '55c6c84c5f'}, spec_extra={'serviceAccountName': 'ebs-csi-controller-sa'}))
p = pods10[0]
sa = serviceaccount('ebs-csi-controller-sa', 'kube-system', created=86400 * 2)
sa['metadata']['labels'] = {'app.kubernetes.io/name': 'aws-ebs-csi-driver', 'app.kubernetes.io/managed-by': 'Helm'}
nimg = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.49.0'
enode = mk_pod('ebs-csi-node-7hx4q', 'kube-system', N, [{'name': 'ebs-plugin', 'image': nimg}, {'name': 'node-driver-registrar', 'image': 'public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.14.0-eks-1-33-13'}],
               [running('ebs-plugin', nimg, 1700), running('node-driver-registrar', 'public.ecr.aws/eks-distro/kubernetes-csi/node-driver-registrar:v2.14.0-eks-1-33-13', 1700)], 1720,
               owner=('DaemonSet', 'ebs-csi-node'), labels={'app': 'ebs-csi-node'})
claim = pvc('data-grafana-0', 'monitoring', storage_class='gp3', phase='Pending', size='10Gi', created=900, annotations={'volume.beta.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com', 'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com'})
objs = [ns('kube-system'), ns('monitoring'), node(N), node('ip-192-168-71-13.us-east-2.compute.internal'), d, rs, *pods10, sa, enode, claim, storageclass('gp3', provisioner='ebs.csi.aws.com', default=True, params={'type': 'gp3'}),
        scheduled(p, N, 1720), *started(p, N, img, 'ebs-plugin', 1715, '1.8s'), *restarted(p, N, img, 'ebs-plugin', 6, 1500, 205),
        backoff(p, N, 'ebs-plugin', 33, 1400, 30), backoff(pods10[1], pods10[1]['spec']['nodeName'], 'ebs-plugin', 31, 1390, 22),
        ev(p, 'Unhealthy', 'Liveness probe failed: Get "http://%s:9808/healthz": dial tcp %s:9808: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), count=4, first=1690, last=260, host=N, fieldPath='spec.containers{ebs-plugin}'),
        ev(claim, 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", 'Normal', count=61, first=890, last=10, component='persistentvolume-controller')]
case('ap-ebs-csi-termination-message', 'CrashLoopBackOff of the EBS CSI controller: the termination message (FallbackToLogsOnError) ends with the real cause, no AWS credentials',
     'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/pull/2672', 'c error: code = FailedPrecondition desc = Failed health check (verify network connection and IAM credentials): dry-run EC2 API call failed: operation error EC2: DescribeAvailabilityZones, get identity: get credentials: failed to refresh cached credentia',
     'kube-system/' + p['metadata']['name'], 'crash.app-exit', objs, decisive='failed to refresh cached credentials, no EC2 IMDS role found')

# ================================================================ 11. crash.oomkilled: killed by the node's OOM killer well under its own limit
N = 'ip-10-0-211-82.us-west-1.compute.internal'
img = 'memcached:1.6.32-alpine'
nd = node(N, alloc={'cpu': '1930m', 'memory': '3364Mi', 'pods': '17', 'ephemeral-storage': '18Gi'})
nd['status']['capacity'] = {'cpu': '2', 'memory': '3922Mi', 'pods': '17', 'ephemeral-storage': '20Gi'}
spec = {'containers': [{'name': 'memcached', 'image': img, 'args': ['-m', '480', '-c', '4096'], 'ports': [{'containerPort': 11211}],
        'resources': {'requests': {'cpu': '50m', 'memory': '10Mi'}, 'limits': {'memory': '500Mi'}}}]}
d, rs = deploy('session-cache', 'web', {'app': 'session-cache'}, 10, '7f8b6c5d9', spec, available=8)
objs11 = [ns('web'), nd, d, rs]
tgt11 = None
for i, sfx in enumerate(('2xv7q', 'b8k4m', 'f3n9p', 'h6t2w', 'k1z5r', 'm7c3d', 'q9w4x')):
    pn = 'session-cache-7f8b6c5d9-' + sfx
    if i == 0:
        stt = [running('memcached', img, 260, restarts=3, last=term(137, 'OOMKilled', 1320, 262, seed='mc3'))]
    elif i in (1, 2):
        stt = [running('memcached', img, 300 + 60 * i, restarts=2, last=term(137, 'OOMKilled', 1500, 302 + 60 * i, seed='mc%d' % i))]
    else:
        stt = [running('memcached', img, 86400 - 100 * i)]
    p = mk_pod(pn, 'web', N, spec['containers'], stt, 86400, owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'session-cache', 'pod-template-hash': '7f8b6c5d9'})
    p['status']['qosClass'] = 'Burstable'
    objs11.append(p)
    if i == 0:
        tgt11 = pn
        objs11 += [*restarted(p, N, img, 'memcached', 3, 5200, 262)]
objs11 += [node_event(nd, 'SystemOOM', 'System OOM encountered, victim process: memcached, pid: %d' % pid, 'Warning', last=last, first=last) for pid, last in ((19214, 5203), (21877, 1504), (22410, 1442), (23817, 263))]
objs11 += [node_event(nd, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % N, last=86400 * 20, first=86400 * 20), kube_proxy(N)]
case('ap-system-oom-under-limit', 'Restarts with OOMKilled although memcached stays under its 500Mi limit: ten such pods overcommit a 4 GiB node and the node\'s OOM killer picks them',
     'https://github.com/kubernetes/kubernetes/issues/53669', '"exitCode": 137, "reason": "Error"',
     'web/' + tgt11, 'crash.oomkilled', objs11, decisive='System OOM encountered, victim process: memcached')

# ================================================================ 12. crash.app-exit: the JVM's own heap is exhausted, exit 1 (not an OOMKilled)
N = 'aks-user-40273819-vmss00000c'
img = 'hmctspublic.azurecr.io/reform-scan/blob-router:prod-2b91f3e-20260915083015'
spec = {'containers': [{'name': 'java', 'image': img, 'env': [{'name': 'JAVA_TOOL_OPTIONS', 'value': '-XX:InitialRAMPercentage=30.0 -XX:MaxRAMPercentage=30.0 -XX:MinRAMPercentage=30.0'}],
        'ports': [{'containerPort': 8584, 'name': 'http'}], 'resources': {'requests': {'cpu': '250m', 'memory': '1024Mi'}, 'limits': {'cpu': '1500m', 'memory': '2048Mi'}},
        'livenessProbe': {'httpGet': {'path': '/health/liveness', 'port': 8584}, 'initialDelaySeconds': 60, 'periodSeconds': 15, 'failureThreshold': 3}}]}
d, rs = deploy('reform-scan-blob-router', 'reform-scan', {'app.kubernetes.io/name': 'reform-scan-blob-router'}, 2, '6c9d7b8f5', spec, available=0)
log = ['Picked up JAVA_TOOL_OPTIONS: -XX:InitialRAMPercentage=30.0 -XX:MaxRAMPercentage=30.0 -XX:MinRAMPercentage=30.0', *SPRING_BANNER, ' :: Spring Boot ::                (v3.3.4)', '',
       '2026-11-21T09:57:33.412Z  INFO 1 --- [           main] uk.gov.hmcts.reform.blobrouter.Application : Starting Application v0.0.1 using Java 21.0.4 with PID 1 (/opt/app/blob-router-service.jar started by hmcts in /opt/app)',
       '2026-11-21T09:57:33.417Z  INFO 1 --- [           main] uk.gov.hmcts.reform.blobrouter.Application : No active profile set, falling back to 1 default profile: "default"',
       '2026-11-21T09:57:39.902Z  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port 8584 (http)',
       '2026-11-21T09:57:42.318Z  INFO 1 --- [           main] com.zaxxer.hikari.HikariDataSource       : HikariPool-1 - Start completed.',
       '2026-11-21T09:57:44.771Z  INFO 1 --- [           main] o.f.c.internal.command.DbMigrate         : Current version of schema "public": 47',
       '2026-11-21T09:57:45.006Z  INFO 1 --- [           main] u.g.h.r.b.services.EnvelopeCacheLoader   : Loading envelopes awaiting dispatch into memory: 1,284,117 rows',
       '2026-11-21T09:58:51.337Z  WARN 1 --- [           main] u.g.h.r.b.services.EnvelopeCacheLoader   : Envelope cache load slow: 612,000 rows after 66s',
       '2026-11-21T09:59:40.118Z ERROR 1 --- [           main] o.s.boot.SpringApplication               : Application run failed',
       '',
       'java.lang.OutOfMemoryError: Java heap space',
       '\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)',
       '\tat java.base/java.util.ArrayList.grow(ArrayList.java:237)',
       '\tat java.base/java.util.ArrayList.add(ArrayList.java:483)',
       '\tat uk.gov.hmcts.reform.blobrouter.services.EnvelopeCacheLoader.load(EnvelopeCacheLoader.java:58)',
       '\tat org.springframework.boot.SpringApplication.callRunner(SpringApplication.java:790)',
       '\tat org.springframework.boot.SpringApplication.run(SpringApplication.java:341)',
       '\tat uk.gov.hmcts.reform.blobrouter.Application.main(Application.java:21)',
       'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space']
objs12 = [ns('reform-scan'), node(N), d, rs]
for i, sfx in enumerate(('x4p8k', 'r2m7v')):
    pn = 'reform-scan-blob-router-6c9d7b8f5-' + sfx
    p = mk_pod(pn, 'reform-scan', N, spec['containers'], [clbo(pn, 'reform-scan', 'java', img, 5 - i, term(1, 'Error', 200 + 30 * i, 20 + 30 * i, seed='br%d' % i))], 1500 - 40 * i,
               owner=('ReplicaSet', rs['metadata']['name']), labels={'app.kubernetes.io/name': 'reform-scan-blob-router', 'pod-template-hash': '6c9d7b8f5'})
    objs12 += [p, backoff(p, N, 'java', 12 - i, 1000, 5 + i)] + ([podlog('reform-scan', pn, 'java', log)] if i == 0 else [])
    if i == 0:
        tgt12 = pn
        objs12 += [scheduled(p, N, 1500), *started(p, N, img, 'java', 1495, '14.2s'), *restarted(p, N, img, 'java', 5, 1240, 205),
                   ev(p, 'Unhealthy', 'Liveness probe failed: Get "http://%s:8584/health/liveness": dial tcp %s:8584: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), count=2, first=1420, last=1405, host=N, fieldPath='spec.containers{java}')]
case('ap-jvm-heap-exit-1', 'CrashLoopBackOff with exit code 1: the JVM runs out of heap (30% of a 2 GiB limit) while loading a cache at start, no OOM kill',
     'https://github.com/hmcts/cnp-flux-config/pull/4422', 'blob router pods in aat-01 get OutOfMemoryError: Java heap space',
     'reform-scan/' + tgt12, 'crash.app-exit', objs12, decisive='java.lang.OutOfMemoryError: Java heap space')

# ================================================================ 13. crash.probe-failing: exit 137 without OOMKilled, the liveness probe kills a slow-booting Spring app (250m CPU)
N = 'ip-10-12-3-88.eu-west-1.compute.internal'
img = 'registry.example.com/ftgo/ftgo-accounting-service:1.7.2'
spec = {'containers': [{'name': 'ftgo-accounting-service', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
        'env': [{'name': 'SPRING_DATASOURCE_URL', 'value': 'jdbc:mysql://ftgo-mysql/eventuate'}, {'name': 'EVENTUATELOCAL_KAFKA_BOOTSTRAP_SERVERS', 'value': 'ftgo-kafka:29092'}],
        'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'cpu': '250m', 'memory': '768Mi'}},
        'livenessProbe': {'httpGet': {'path': '/actuator/health', 'port': 8080}, 'initialDelaySeconds': 60, 'periodSeconds': 20, 'timeoutSeconds': 1, 'failureThreshold': 3},
        'readinessProbe': {'httpGet': {'path': '/actuator/health', 'port': 8080}, 'initialDelaySeconds': 60, 'periodSeconds': 20}}]}
d, rs = deploy('ftgo-accounting-service', 'ftgo', {'svc': 'ftgo-accounting-service'}, 1, '55bd94d788', spec, available=0)
pn = 'ftgo-accounting-service-55bd94d788-sh62d'
p = mk_pod(pn, 'ftgo', N, spec['containers'], [running('ftgo-accounting-service', img, 75, restarts=4, ready=False, last=term(137, 'Error', 205, 77, seed='acc4'))], 690,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'svc': 'ftgo-accounting-service', 'pod-template-hash': '55bd94d788'}, conditions=not_ready_conditions(690, 688, ['ftgo-accounting-service']))
ip = p['status']['podIP']
log = [*SPRING_BANNER, ' :: Spring Boot ::        (v2.7.18)', '',
       '2026-11-21 09:56:38.412  INFO 1 --- [           main] n.c.f.a.main.AccountingServiceMain       : Starting AccountingServiceMain using Java 17.0.9 on ftgo-accounting-service-55bd94d788-sh62d with PID 1 (/app.jar started by root in /)',
       '2026-11-21 09:56:38.509  INFO 1 --- [           main] n.c.f.a.main.AccountingServiceMain       : No active profile set, falling back to 1 default profile: "default"',
       '2026-11-21 09:57:02.774  INFO 1 --- [           main] .s.d.r.c.RepositoryConfigurationDelegate : Bootstrapping Spring Data JPA repositories in DEFAULT mode.',
       '2026-11-21 09:57:09.310  INFO 1 --- [           main] .s.d.r.c.RepositoryConfigurationDelegate : Finished Spring Data repository scanning in 6503 ms. Found 3 JPA repository interfaces.',
       '2026-11-21 09:57:41.188  INFO 1 --- [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port(s): 8080 (http)',
       '2026-11-21 09:57:42.007  INFO 1 --- [           main] o.apache.catalina.core.StandardService   : Starting service [Tomcat]',
       '2026-11-21 09:57:42.009  INFO 1 --- [           main] org.apache.catalina.core.StandardEngine  : Starting Servlet engine: [Apache Tomcat/9.0.83]',
       '2026-11-21 09:57:47.671  INFO 1 --- [           main] o.a.c.c.C.[Tomcat].[localhost].[/]       : Initializing Spring embedded WebApplicationContext',
       '2026-11-21 09:57:47.672  INFO 1 --- [           main] w.s.c.ServletWebServerApplicationContext : Root WebApplicationContext: initialization completed in 68891 ms',
       '2026-11-21 09:58:29.903  INFO 1 --- [           main] o.hibernate.jpa.internal.util.LogHelper  : HHH000204: Processing PersistenceUnitInfo [name: default]',
       '2026-11-21 09:58:41.552  INFO 1 --- [           main] org.hibernate.Version                    : HHH000412: Hibernate ORM core version 5.6.15.Final']
objs = [ns('ftgo'), node(N), d, rs, p, service('ftgo-accounting-service', 'ftgo', {'svc': 'ftgo-accounting-service'}, ports=((8080, 8080),)),
        endpoints('ftgo-accounting-service', 'ftgo', not_ready=[(ip, pn, N)], port=8080),
        scheduled(p, N, 690), *started(p, N, img, 'ftgo-accounting-service', 688, '6.6s'), *restarted(p, N, img, 'ftgo-accounting-service', 4, 560, 76),
        ev(p, 'Unhealthy', 'Liveness probe failed: Get "http://%s:8080/actuator/health": dial tcp %s:8080: connect: connection refused' % (ip, ip), count=15, first=620, last=80, host=N, fieldPath='spec.containers{ftgo-accounting-service}'),
        ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:8080/actuator/health": dial tcp %s:8080: connect: connection refused' % (ip, ip), count=16, first=622, last=17, host=N, fieldPath='spec.containers{ftgo-accounting-service}'),
        ev(p, 'Killing', 'Container ftgo-accounting-service failed liveness probe, will be restarted', 'Normal', count=4, first=580, last=107, host=N, fieldPath='spec.containers{ftgo-accounting-service}'),
        podlog('ftgo', pn, 'ftgo-accounting-service', log)]
case('ap-liveness-137-slow-boot', 'Restarts with exit code 137 but no OOMKilled: the liveness probe kills a Spring Boot service that needs longer than its probe allows to start on 250m CPU',
     'https://github.com/kubernetes/kubernetes/issues/62594', 'Liveness/Readiness probes are failing with getsockopt: connection refused (Exit code: 137, Reason: Error)',
     'ftgo/' + pn, 'crash.probe-failing', objs, decisive='failed liveness probe, will be restarted')

# ================================================================ 14. crash.probe-failing: a startup probe allowing 35 s kills a CPU-starved Quarkus start
N = 'worker-7.ocp.example.net'
img = 'quay.io/streamshub/console-api:0.8.1'
spec = {'containers': [{'name': 'console-api', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
        'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'cpu': '250m', 'memory': '512Mi'}},
        'startupProbe': {'httpGet': {'path': '/health/started', 'port': 'http', 'scheme': 'HTTP'}, 'initialDelaySeconds': 5, 'periodSeconds': 10, 'timeoutSeconds': 10, 'failureThreshold': 3},
        'livenessProbe': {'httpGet': {'path': '/health/live', 'port': 'http'}, 'periodSeconds': 10},
        'readinessProbe': {'httpGet': {'path': '/health/ready', 'port': 'http'}, 'periodSeconds': 10}},
       {'name': 'console-ui', 'image': 'quay.io/streamshub/console-ui:0.8.1', 'ports': [{'containerPort': 3000}], 'resources': {'requests': {'cpu': '50m', 'memory': '128Mi'}}}]}
d, rs = deploy('streamshub-console', 'kafka-console', {'app': 'streamshub-console'}, 1, '7d6c9f8b45', spec, available=0)
pn = 'streamshub-console-7d6c9f8b45-jr4wd'
p = mk_pod(pn, 'kafka-console', N, spec['containers'], [clbo(pn, 'kafka-console', 'console-api', img, 5, term(143, 'Error', 220, 175, seed='ca5')),
                                                        running('console-ui', 'quay.io/streamshub/console-ui:0.8.1', 1180)], 1200,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'streamshub-console', 'pod-template-hash': '7d6c9f8b45'}, runtime='cri-o')
for s_ in p['status']['containerStatuses']: s_['containerID'] = s_['containerID'].replace('containerd://', 'cri-o://')
ip = p['status']['podIP']
nd = node(N, runtime='cri-o://1.30.6-3.rhaos4.17.git49a8b7f.el9', kernel='5.14.0-427.42.1.el9_4.x86_64')
nd['status']['nodeInfo']['osImage'] = 'Red Hat Enterprise Linux CoreOS 417.94.202411131547-0'
log = ['__  ____  __  _____   ___  __ ____  ______ ', ' --/ __ \\/ / / / _ | / _ \\/ //_/ / / / __/ ', ' -/ /_/ / /_/ / __ |/ , _/ ,< / /_/ /\\ \\   ', '--\\___\\_\\____/_/ |_/_/|_/_/|_|\\____/___/   ',
       '2026-11-21 09:56:26,219 INFO  [io.qua.sma.ope.run.OpenApiRecorder] (main) Default CORS properties will be used, please use \'quarkus.http.cors\' properties instead',
       '2026-11-21 09:56:41,708 INFO  [com.git.str.con.api.ConsoleConfig] (main) Loading console configuration from /deployments/config/console-config.yaml',
       '2026-11-21 09:56:52,881 INFO  [com.git.str.con.api.ClientFactory] (main) Setting up Kafka admin clients for 2 configured clusters',
       '2026-11-21 09:57:03,450 INFO  [org.apa.kaf.com.uti.AppInfoParser] (main) Kafka version: 3.8.0',
       '2026-11-21 09:57:03,451 INFO  [org.apa.kaf.com.uti.AppInfoParser] (main) Kafka commitId: 771b9576b00ecf5b',
       '2026-11-21 09:57:05,012 INFO  [io.quarkus] (Shutdown thread) console-api stopped in 0.412s']
objs = [ns('kafka-console'), nd, d, rs, p,
        scheduled(p, N, 1200), *started(p, N, img, 'console-api', 1195, '12.4s'), *started(p, N, 'quay.io/streamshub/console-ui:0.8.1', 'console-ui', 1180, '4.0s'),
        *restarted(p, N, img, 'console-api', 5, 1150, 222),
        ev(p, 'Unhealthy', 'Startup probe failed: Get "http://%s:8080/health/started": dial tcp %s:8080: connect: connection refused' % (ip, ip), count=18, first=1185, last=180, host=N, fieldPath='spec.containers{console-api}'),
        ev(p, 'Killing', 'Container console-api failed startup probe, will be restarted', 'Normal', count=6, first=1160, last=177, host=N, fieldPath='spec.containers{console-api}'),
        backoff(p, N, 'console-api', 23, 900, 19),
        podlog('kafka-console', pn, 'console-api', log)]
case('ap-startup-probe-cpu-constrained', 'CrashLoopBackOff: a startup probe of 3 x 10 s kills a Quarkus API that needs longer to start under a 250m CPU limit',
     'https://github.com/streamshub/console/issues/2676', 'The current startup probes only allow for 3 failures, which may result in crash looping where CPU is constrained.',
     'kafka-console/' + pn, 'crash.probe-failing', objs, decisive='Container console-api failed startup probe, will be restarted')

# ================================================================ 15. readiness.failing: the app listens on 127.0.0.1, the kubelet probes the pod IP
N = 'gke-cf-default-pool-5e7b1d92-0x4m'
img = 'cloudfoundry/cloud-controller-ng:2d1d8ca0e1b0c8f6c7f4e4ac5d6b1c2a9f8e7d6c'
pimg = 'index.docker.io/istio/proxyv2:1.22.6'
spec = {'containers': [{'name': 'cf-api-worker', 'image': img, 'command': ['/cloud_controller_ng/jobs/local_worker'], 'env': [{'name': 'CLOUD_CONTROLLER_NG_CONFIG', 'value': '/config/cloud_controller_ng.yml'}],
        'ports': [{'containerPort': 4444, 'name': 'healthz'}], 'readinessProbe': {'tcpSocket': {'port': 4444}, 'periodSeconds': 10, 'failureThreshold': 3},
        'resources': {'requests': {'cpu': '300m', 'memory': '300Mi'}, 'limits': {'memory': '1Gi'}}},
       {'name': 'istio-proxy', 'image': pimg, 'ports': [{'containerPort': 15090, 'name': 'http-envoy-prom'}], 'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 15021}, 'periodSeconds': 2}}]}
d, rs = deploy('cf-api-worker', 'cf-system', {'app': 'cf-api-worker'}, 2, '6d9b7c8f4', spec, available=0)
objs15 = [ns('cf-system'), node(N), d, rs]
log = ['{"timestamp":"2026-11-21T09:19:02.411Z","message":"Starting local worker","log_level":"info","source":"cc.worker","data":{"queues":["cc-cf-api-worker-6d9b7c8f4-x2m9q"]}}',
       '{"timestamp":"2026-11-21T09:19:02.415Z","message":"health check server listening","log_level":"info","source":"cc.worker.health","data":{"bind":"127.0.0.1:4444"}}',
       '{"timestamp":"2026-11-21T09:19:03.902Z","message":"Delayed::Worker starting","log_level":"info","source":"cc.background","data":{"worker_name":"cf-api-worker.1"}}',
       '{"timestamp":"2026-11-21T09:58:41.118Z","message":"job completed","log_level":"info","source":"cc.background","data":{"job_guid":"3c4a1d0e-2f5b-4b7a-9e7c-1d2e3f4a5b6c","name":"buildpack.install"}}']
for i, sfx in enumerate(('x2m9q', 'b7n4k')):
    pn = 'cf-api-worker-6d9b7c8f4-' + sfx
    p = mk_pod(pn, 'cf-system', N, spec['containers'], [running('cf-api-worker', img, 2460 - 10 * i, ready=False), running('istio-proxy', pimg, 2462 - 10 * i)], 2480 - 10 * i,
               owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'cf-api-worker', 'pod-template-hash': '6d9b7c8f4'}, conditions=not_ready_conditions(2480 - 10 * i, 2478 - 10 * i, ['cf-api-worker']))
    ip = p['status']['podIP']
    objs15 += [p, sev(p, 'Unhealthy', 'Readiness probe failed: dial tcp %s:4444: connect: connection refused' % ip, count=245 - i, first=2450 - 10 * i, last=6 + i, instance=N, fieldPath='spec.containers{cf-api-worker}'),
               podlog('cf-system', pn, 'cf-api-worker', log, previous=False)]
    if i == 0:
        tgt15, ip15 = pn, ip
        objs15 += [scheduled(p, N, 2480), *started(p, N, img, 'cf-api-worker', 2475, '18.0s'), *started(p, N, pimg, 'istio-proxy', 2463, '2.2s'),
                   ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:15021/healthz/ready": dial tcp %s:15021: connect: connection refused' % (ip, ip), count=2, first=2461, last=2459, host=N, fieldPath='spec.containers{istio-proxy}')]
objs15 += [sev(rs, 'SuccessfulCreate', 'Created pod: cf-api-worker-6d9b7c8f4-x2m9q', 'Normal', count=1, first=2481, controller='replicaset-controller'),
           sev(d, 'ScalingReplicaSet', 'Scaled up replica set cf-api-worker-6d9b7c8f4 to 2', 'Normal', count=1, first=2482, controller='deployment-controller')]
case('ap-readiness-loopback-bind', 'Running, never Ready for 40 minutes: the worker\'s health port listens on 127.0.0.1, the TCP readiness probe dials the pod IP',
     'https://github.com/cloudfoundry/capi-k8s-release/issues/91', 'The probe are listening for `127.0.0.1`. However, Kubernetes uses PodIP:port to reach probe',
     'cf-system/' + tgt15, 'readiness.failing', objs15, decisive='Readiness probe failed: dial tcp %s:4444: connect: connection refused' % ip15)

# ================================================================ 16. crash.probe-failing: exec probes time out ("command ... timed out"), the sentinel is restarted
N = 'worker-node-14'
rimg = 'docker.io/bitnami/redis:7.4.1-debian-12-r2'
simg = 'docker.io/bitnami/redis-sentinel:7.4.1-debian-12-r2'
spec = {'containers': [
    {'name': 'redis', 'image': rimg, 'ports': [{'containerPort': 6379, 'name': 'redis'}],
     'livenessProbe': {'exec': {'command': ['sh', '-c', '/health/ping_liveness_local.sh 5']}, 'initialDelaySeconds': 20, 'periodSeconds': 5, 'timeoutSeconds': 6, 'failureThreshold': 5},
     'readinessProbe': {'exec': {'command': ['sh', '-c', '/health/ping_readiness_local.sh 1']}, 'initialDelaySeconds': 20, 'periodSeconds': 5, 'timeoutSeconds': 2, 'failureThreshold': 5},
     'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'cpu': '1', 'memory': '1Gi'}}},
    {'name': 'sentinel', 'image': simg, 'ports': [{'containerPort': 26379, 'name': 'redis-sentinel'}],
     'startupProbe': {'exec': {'command': ['sh', '-c', '/health/ping_sentinel.sh 5']}, 'initialDelaySeconds': 10, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 22},
     'livenessProbe': {'exec': {'command': ['sh', '-c', '/health/ping_sentinel.sh 5']}, 'initialDelaySeconds': 20, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 6},
     'readinessProbe': {'exec': {'command': ['sh', '-c', '/health/ping_sentinel.sh 4']}, 'initialDelaySeconds': 20, 'periodSeconds': 5, 'timeoutSeconds': 4, 'failureThreshold': 6},
     'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'cpu': '150m', 'memory': '192Mi'}}}]}
st = sts('redis-node', 'cache', {'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/component': 'node'}, 3, spec, ready=2)
pn = 'redis-node-1'
p = mk_pod(pn, 'cache', N, spec['containers'], [running('redis', rimg, 86400 * 3), running('sentinel', simg, 330, restarts=4, ready=False, last=term(0, 'Completed', 5200, 331, seed='sn4'))], 86400 * 3,
           owner=('StatefulSet', 'redis-node'), labels={'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/component': 'node', 'statefulset.kubernetes.io/pod-name': pn},
           conditions=not_ready_conditions(86400 * 3, 300, ['sentinel']))
fp = 'spec.containers{sentinel}'
slog = ['redis-sentinel 09:54:31.12 INFO  ==> about to run the command: redis-sentinel /opt/bitnami/redis-sentinel/etc/sentinel.conf',
        '1:X 21 Nov 2026 09:54:31.148 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo', '1:X 21 Nov 2026 09:54:31.148 * Redis version=7.4.1, bits=64, commit=00000000, modified=0, pid=1, just started',
        '1:X 21 Nov 2026 09:54:31.150 * Running mode=sentinel, port=26379.', '1:X 21 Nov 2026 09:54:31.152 # Sentinel ID is 2f1d3c7b9a8e6d5c4b3a2918f7e6d5c4b3a29180',
        '1:X 21 Nov 2026 09:54:31.152 # +monitor master mymaster 10.244.14.22 6379 quorum 2',
        '1:X 21 Nov 2026 09:55:16.904 * +sentinel sentinel 7e2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0 10.244.9.31 26379 @ mymaster 10.244.14.22 6379']
prev = ['1:X 21 Nov 2026 08:27:12.517 # +sdown sentinel 7e2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0 10.244.9.31 26379 @ mymaster 10.244.14.22 6379',
        '1:X 21 Nov 2026 08:27:14.002 # -sdown sentinel 7e2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0 10.244.9.31 26379 @ mymaster 10.244.14.22 6379',
        '1:signal-handler (1763719069) Received SIGTERM scheduling shutdown...', '1:X 21 Nov 2026 09:54:29.884 # User requested shutdown...', '1:X 21 Nov 2026 09:54:29.884 # Sentinel is now ready to exit, bye bye...']
others = [mk_pod('redis-node-%d' % i, 'cache', 'worker-node-%d' % n, spec['containers'], [running('redis', rimg, 86400 * 3), running('sentinel', simg, 86400 * 3)], 86400 * 3,
                 owner=('StatefulSet', 'redis-node'), labels={'app.kubernetes.io/name': 'redis', 'statefulset.kubernetes.io/pod-name': 'redis-node-%d' % i}) for i, n in ((0, 11), (2, 17))]
objs = [ns('cache'), node(N), node('worker-node-11'), node('worker-node-17'), st, p, *others,
        ev(p, 'Unhealthy', 'Readiness probe failed: command "sh -c /health/ping_sentinel.sh 4" timed out', count=412, first=86400 * 2, last=9, host=N, fieldPath=fp),
        ev(p, 'Unhealthy', 'Liveness probe failed: command "sh -c /health/ping_sentinel.sh 5" timed out', count=26, first=86400 * 2, last=335, host=N, fieldPath=fp),
        ev(p, 'Killing', 'Container sentinel failed liveness probe, will be restarted', 'Normal', count=4, first=86400 * 2, last=345, host=N, fieldPath=fp),
        ev(p, 'Pulled', 'Container image "%s" already present on machine' % simg, 'Normal', count=4, first=86400 * 2, last=332, host=N, fieldPath=fp),
        ev(p, 'Created', 'Created container sentinel', 'Normal', count=5, first=86400 * 3, last=332, host=N, fieldPath=fp),
        ev(p, 'Started', 'Started container sentinel', 'Normal', count=5, first=86400 * 3, last=331, host=N, fieldPath=fp),
        ev(p, 'Unhealthy', 'Readiness probe failed: command "sh -c /health/ping_readiness_local.sh 1" timed out', count=3, first=86400, last=7200, host=N, fieldPath='spec.containers{redis}'),
        podlog('cache', pn, 'sentinel', prev), podlog('cache', pn, 'sentinel', slog, previous=False)]
case('ap-exec-probe-timeout-sentinel', 'Sentinel container restarted by its liveness probe and not Ready: the exec probes hit their timeoutSeconds ("command ... timed out")',
     'https://github.com/bitnami/charts/issues/29985', 'Readiness probe failed: command "sh -c /health/ping_sentinel.sh 4" timed out',
     'cache/' + pn, 'crash.probe-failing', objs, decisive='command "sh -c /health/ping_sentinel.sh 5" timed out')

# ================================================================ 17. crash.probe-failing: the liveness probe checks the default port, the agent listens on another
N = 'node-pool-b-3'
img = 'hashicorp/consul:1.19.2'
spec = {'containers': [{'name': 'consul', 'image': img, 'command': ['/bin/sh', '-ec', 'exec /usr/local/bin/docker-entrypoint.sh consul agent -server -bootstrap-expect=3 -data-dir=/var/lib/consul -http-port=18500 -client=0.0.0.0 -retry-join=hissing-lynx-consul-0.hissing-lynx-consul -retry-join=hissing-lynx-consul-1.hissing-lynx-consul -retry-join=hissing-lynx-consul-2.hissing-lynx-consul'],
        'ports': [{'containerPort': 18500, 'name': 'http'}, {'containerPort': 8301, 'name': 'serflan'}, {'containerPort': 8300, 'name': 'server'}, {'containerPort': 8600, 'name': 'consuldns'}],
        'livenessProbe': {'exec': {'command': ['consul', 'members', '-http-addr=http://127.0.0.1:8500']}, 'initialDelaySeconds': 300, 'timeoutSeconds': 5, 'periodSeconds': 10, 'failureThreshold': 3},
        'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}}}]}
st = sts('hissing-lynx-consul', 'consul', {'component': 'hissing-lynx-consul'}, 3, spec, ready=0)
objs17 = [ns('consul'), st, service('hissing-lynx-consul', 'consul', {'component': 'hissing-lynx-consul'}, ports=((18500, 18500), (8301, 8301)))]
clog = ['==> Starting Consul agent...', '               Version: \'1.19.2\'', '            Build Date: \'2024-08-27 16:06:44 +0000 UTC\'', '               Node ID: \'9f2a4c1e-5b7d-4e3a-8c6f-0d1e2f3a4b5c\'',
        '             Node name: \'hissing-lynx-consul-0\'', '            Datacenter: \'dc1\' (Segment: \'<all>\')', '                Server: true (Bootstrap: false)',
        '           Client Addr: [0.0.0.0] (HTTP: 18500, HTTPS: -1, gRPC: -1, gRPC-TLS: 8503, DNS: 8600)', '          Cluster Addr: 10.244.5.17 (LAN: 8301, WAN: 8302)', '',
        '==> Log data will now stream in as it occurs:', '',
        '2026-11-21T09:52:44.104Z [INFO]  agent.server.raft: initial configuration: index=1 servers="[{Suffrage:Voter ID:9f2a4c1e-5b7d-4e3a-8c6f-0d1e2f3a4b5c Address:10.244.5.17:8300}]"',
        '2026-11-21T09:52:44.311Z [INFO]  agent: Joining cluster...: cluster=LAN',
        '2026-11-21T09:52:44.590Z [INFO]  agent: Join cluster completed. Synced with initial agents: cluster=LAN num_agents=3',
        '2026-11-21T09:52:49.120Z [INFO]  agent.server: New leader elected: payload=hissing-lynx-consul-1',
        '2026-11-21T09:52:50.004Z [INFO]  agent: Synced node info',
        '2026-11-21T09:57:55.771Z [INFO]  agent: Caught: signal=terminated',
        '2026-11-21T09:57:55.771Z [INFO]  agent: Graceful shutdown disabled. Exiting',
        '2026-11-21T09:57:55.774Z [INFO]  agent: Requesting shutdown',
        '2026-11-21T09:57:55.802Z [INFO]  agent: Endpoints down', '2026-11-21T09:57:55.803Z [INFO]  agent: Exit code: 1']
for i, n in enumerate(('node-pool-b-3', 'node-pool-b-1', 'node-pool-b-2')):
    pn = 'hissing-lynx-consul-%d' % i
    p = mk_pod(pn, 'consul', n, spec['containers'], [running('consul', img, 120 + 30 * i, restarts=5 - (i > 0), ready=False, last=term(1, 'Error', 455 + 30 * i, 124 + 30 * i, seed='cs%d' % i))], 3400 - 60 * i,
               owner=('StatefulSet', 'hissing-lynx-consul'), labels={'component': 'hissing-lynx-consul', 'statefulset.kubernetes.io/pod-name': pn}, conditions=not_ready_conditions(3400 - 60 * i, 125 + 30 * i, ['consul']))
    objs17 += [node(n), p,
               ev(p, 'Unhealthy', 'Liveness probe failed: Error retrieving members: Get "http://127.0.0.1:8500/v1/agent/members?segment=_all": dial tcp 127.0.0.1:8500: connect: connection refused',
                  count=15 - i, first=3050 - 60 * i, last=135 + 30 * i, host=n, fieldPath='spec.containers{consul}'),
               ev(p, 'Killing', 'Container consul failed liveness probe, will be restarted', 'Normal', count=5 - (i > 0), first=3030 - 60 * i, last=132 + 30 * i, host=n, fieldPath='spec.containers{consul}'),
               podlog('consul', pn, 'consul', clog)]
    if i == 0:
        objs17 += [scheduled(p, n, 3400), *started(p, n, img, 'consul', 3395, '5.1s'), *restarted(p, n, img, 'consul', 5, 3030, 122)]
case('ap-liveness-wrong-port-consul', 'Consul servers restarted every 5 minutes: HTTP runs on 18500 but the liveness probe asks 127.0.0.1:8500',
     'https://github.com/helm/charts/issues/9521', 'When using a different `HttpPort`, `livenessProbe` fails because its trying to get members in the consul cluster using the default port `8500`.',
     'consul/hissing-lynx-consul-0', 'crash.probe-failing', objs17, decisive='dial tcp 127.0.0.1:8500: connect: connection refused')

# ================================================================ 18. dns.coredns-down: an app crash-loops on DNS while CoreDNS crash-loops on a forwarding loop
N = 'devb-k8s-0'
nd = node(N, kernel='5.15.0-125-generic', kubelet='v1.28.15', labels={'node-role.kubernetes.io/control-plane': ''})
nd['status']['nodeInfo']['osImage'] = 'Ubuntu 22.04.5 LTS'
cimg = 'registry.k8s.io/coredns/coredns:v1.10.1'
cspec = {'priorityClassName': 'system-cluster-critical', 'dnsPolicy': 'Default', 'containers': [{'name': 'coredns', 'image': cimg, 'args': ['-conf', '/etc/coredns/Corefile'],
         'ports': [{'containerPort': 53, 'name': 'dns', 'protocol': 'UDP'}, {'containerPort': 53, 'name': 'dns-tcp', 'protocol': 'TCP'}, {'containerPort': 9153, 'name': 'metrics'}],
         'livenessProbe': {'httpGet': {'path': '/health', 'port': 8080}, 'initialDelaySeconds': 60, 'timeoutSeconds': 5, 'failureThreshold': 5},
         'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8181}}, 'resources': {'requests': {'cpu': '100m', 'memory': '70Mi'}, 'limits': {'memory': '170Mi'}}}]}
cd, crs = deploy('coredns', 'kube-system', {'k8s-app': 'kube-dns'}, 2, '5dd5756b68', cspec, available=0)
corefile = '.:53 {\n    errors\n    health {\n       lameduck 5s\n    }\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n       fallthrough in-addr.arpa ip6.arpa\n       ttl 30\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf {\n       max_concurrent 1000\n    }\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n'
clog = ['.:53', '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908',
        'CoreDNS-1.10.1', 'linux/amd64, go1.20, 055b2c3',
        '[FATAL] plugin/loop: Loop (127.0.0.1:58203 -> :53) detected for zone ".", see https://coredns.io/plugins/loop#troubleshooting. Query: "HINFO 2393871453473593034.6218962402093530719."']
objs18 = [ns('kube-system'), ns('shop'), nd, cd, crs, cm('coredns', 'kube-system', {'Corefile': corefile}, created=86400 * 2)]
cpods = []
for sfx, rc in (('ds6cj', 9), ('gnhp9', 9)):
    pn = 'coredns-5dd5756b68-' + sfx
    p = mk_pod(pn, 'kube-system', N, cspec['containers'], [clbo(pn, 'kube-system', 'coredns', cimg, rc, term(1, 'Error', 240 + len(sfx), 234, seed='cd' + sfx))], 2400,
               owner=('ReplicaSet', crs['metadata']['name']), labels={'k8s-app': 'kube-dns', 'pod-template-hash': '5dd5756b68'}, spec_extra={'dnsPolicy': 'Default', 'priorityClassName': 'system-cluster-critical'})
    cpods.append(p)
    objs18 += [p, backoff(p, N, 'coredns', 48, 2300, 14), *restarted(p, N, cimg, 'coredns', rc, 2380, 240), podlog('kube-system', pn, 'coredns', clog)]
objs18 += [service('kube-dns', 'kube-system', {'k8s-app': 'kube-dns'}, ports=((53, 53), (9153, 9153))),
           endpoints('kube-dns', 'kube-system', not_ready=[(q['status']['podIP'], q['metadata']['name'], N) for q in cpods], port=53)]
objs18[-2]['spec']['clusterIP'] = '10.96.0.10'
fimg = 'docker.io/flannel/flannel:v0.25.7'
objs18.append(mk_pod('kube-flannel-ds-85qzj', 'kube-flannel', N, [{'name': 'kube-flannel', 'image': fimg}], [running('kube-flannel', fimg, 2500)], 2520, owner=('DaemonSet', 'kube-flannel-ds'), labels={'app': 'flannel'}))
objs18.append(ns('kube-flannel'))
for comp in ('etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'):
    im = 'registry.k8s.io/etcd:3.5.15-0' if comp == 'etcd' else 'registry.k8s.io/%s:v1.28.15' % comp
    objs18.append(mk_pod('%s-%s' % (comp, N), 'kube-system', N, [{'name': comp, 'image': im}], [running(comp, im, 2700)], 2700, labels={'component': comp, 'tier': 'control-plane'},
                         spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'}, status_extra={'qosClass': 'Burstable'}))
objs18.append(kube_proxy(N, created=2700))
aimg = 'registry.example.com/shop/orders-api:2.3.0'
aspec = {'containers': [{'name': 'orders-api', 'image': aimg, 'env': [{'name': 'DATABASE_URL', 'value': 'postgres://orders@postgres:5432/orders?sslmode=disable'}], 'ports': [{'containerPort': 8080}],
         'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '256Mi'}}}]}
ad, ars = deploy('orders-api', 'shop', {'app': 'orders-api'}, 1, '84c6d9b7f5', aspec, available=0)
apn = 'orders-api-84c6d9b7f5-m2x8v'
ap = mk_pod(apn, 'shop', N, aspec['containers'], [clbo(apn, 'shop', 'orders-api', aimg, 7, term(1, 'Error', 92, 60, seed='oa7'))], 1900,
            owner=('ReplicaSet', ars['metadata']['name']), labels={'app': 'orders-api', 'pod-template-hash': '84c6d9b7f5'})
aip = ap['status']['podIP']
alog = ['2026/11/21 09:58:29 orders-api 2.3.0 starting (go1.22.8)', '2026/11/21 09:58:29 config: http=:8080 db=postgres:5432/orders pool=10',
        '2026/11/21 09:58:39 db ping failed (attempt 1/3): dial tcp: lookup postgres on 10.96.0.10:53: read udp %s:41877->10.96.0.10:53: i/o timeout' % aip,
        '2026/11/21 09:58:49 db ping failed (attempt 2/3): dial tcp: lookup postgres on 10.96.0.10:53: read udp %s:52310->10.96.0.10:53: i/o timeout' % aip,
        '2026/11/21 09:58:59 db ping failed (attempt 3/3): dial tcp: lookup postgres on 10.96.0.10:53: read udp %s:38814->10.96.0.10:53: read: connection refused' % aip,
        '2026/11/21 09:58:59 fatal: cannot open database: dial tcp: lookup postgres on 10.96.0.10:53: read udp %s:38814->10.96.0.10:53: read: connection refused' % aip]
pgimg = 'docker.io/library/postgres:16.4'
pg = mk_pod('postgres-0', 'shop', N, [{'name': 'postgres', 'image': pgimg}], [running('postgres', pgimg, 2300)], 2320, owner=('StatefulSet', 'postgres'), labels={'app': 'postgres'})
objs18 += [ad, ars, ap, pg, service('postgres', 'shop', {'app': 'postgres'}, ports=((5432, 5432),)), endpoints('postgres', 'shop', ready=[(pg['status']['podIP'], 'postgres-0', N)], port=5432),
           scheduled(ap, N, 1900), *started(ap, N, aimg, 'orders-api', 1895, '2.4s'), *restarted(ap, N, aimg, 'orders-api', 7, 1800, 94),
           backoff(ap, N, 'orders-api', 39, 1700, 21), podlog('shop', apn, 'orders-api', alog),
           ev(cpods[0], 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', count=18, first=2390, last=236, host=N, fieldPath='spec.containers{coredns}')]
case('ap-coredns-loop-app-dns', 'An app crash-loops on "lookup postgres on 10.96.0.10:53": both CoreDNS pods crash-loop, the loop plugin finds a forwarding loop (the node\'s resolv.conf points back at a local stub resolver)',
     'https://github.com/coredns/coredns/issues/2795', '[FATAL] plugin/loop: Loop (127.0.0.1:34614 -> :53) detected for zone ".", see https://coredns.io/plugins/loop#troubleshooting. Query: "HINFO 6074102630077018525.5798689655824409358.',
     'shop/' + apn, 'dns.coredns-down', objs18, decisive='plugin/loop: Loop (127.0.0.1:58203 -> :53) detected for zone "."', playbook=None)

# ================================================================ 19. evicted.node-pressure: DiskPressure evicts many pods; image GC cannot free enough
N = 'oct-03-03-compute'
nd = node(N, runtime='cri-o://1.29.10-3.rhaos4.16.git3d48a9a.el9', kernel='5.14.0-427.40.1.el9_4.x86_64', kubelet='v1.29.10+67d3387',
          conditions_extra=None, taints=[{'key': 'node.kubernetes.io/disk-pressure', 'effect': 'NoSchedule', 'timeAdded': ago(2700)}],
          alloc={'cpu': '31500m', 'memory': '125Gi', 'pods': '250', 'ephemeral-storage': '107Gi'})
nd['status']['nodeInfo']['osImage'] = 'Red Hat Enterprise Linux CoreOS 416.94.202410211619-0'
nd['status']['capacity']['ephemeral-storage'] = '119Gi'
for c in nd['status']['conditions']:
    if c['type'] == 'DiskPressure': c.update({'status': 'True', 'reason': 'KubeletHasDiskPressure', 'message': 'kubelet has disk pressure', 'lastTransitionTime': ago(2700)})
thr = 'Threshold quantity: 12779090001, available: 11213652Ki. '
def evicted(name, ns_, owner, containers, usage, created, at, labels):
    msg = 'The node was low on resource: ephemeral-storage. ' + thr + ''.join('Container %s was using %s, request is 0, has larger consumption of ephemeral-storage. ' % (c['name'], u) for c, u in zip(containers, usage))
    st_ = [{'name': c['name'], 'ready': False, 'started': False, 'restartCount': 0, 'image': c['image'], 'imageID': img_id(c['image']),
            'state': {'terminated': {'exitCode': 137, 'reason': 'ContainerStatusUnknown', 'message': 'The container could not be located when the pod was terminated', 'startedAt': None, 'finishedAt': None}},
            'lastState': {}} for c in containers]
    conds = [{'type': 'DisruptionTarget', 'status': 'True', 'reason': 'TerminationByKubelet', 'message': msg, 'lastTransitionTime': ago(at)},
             {'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(at - 20)}, {'type': 'Initialized', 'status': 'True', 'lastTransitionTime': ago(created - 2)},
             {'type': 'Ready', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(at - 20)}, {'type': 'ContainersReady', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(at - 20)},
             {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(created - 1)}]
    q = mk_pod(name, ns_, N, containers, st_, created, owner=owner, labels=labels, phase='Failed', conditions=conds, runtime='cri-o', status_extra={'reason': 'Evicted', 'message': msg})
    return q, msg
tools_img = 'registry.redhat.io/odf4/rook-ceph-rhel9-operator@sha256:%s' % hexid('rook', 64)
tp, tmsg19 = evicted('rook-ceph-tools-5d85d6fc7-xwsv5', 'openshift-storage', ('ReplicaSet', 'rook-ceph-tools-5d85d6fc7'), [{'name': 'rook-ceph-tools', 'image': tools_img}], ['1964Ki'], 86400 * 9, 2650, {'app': 'rook-ceph-tools'})
prov = [{'name': n, 'image': 'registry.redhat.io/openshift4/ose-csi-external-%s@sha256:%s' % (n.split('-', 1)[1], hexid(n, 64))} for n in ('csi-provisioner', 'csi-resizer', 'csi-attacher', 'csi-snapshotter')]
pp, _ = evicted('csi-rbdplugin-provisioner-6f4cc98cdf-v6p99', 'openshift-storage', ('ReplicaSet', 'csi-rbdplugin-provisioner-6f4cc98cdf'), prov, ['41024Ki', '27840Ki', '26564Ki', '26820Ki'], 86400 * 9, 2660, {'app': 'csi-rbdplugin-provisioner'})
pl_img = 'quay.io/opendatahub/ds-pipelines-launcher:v2.0.0'
plp, _ = evicted('aicoe-pipelinerun-7a2802e6-239c-4f8c-9a8c-79dde19792c5-in-l6q42', 'opf-ci-pipelines', None, [{'name': 'step-build', 'image': pl_img}], ['5218044Ki'], 3100, 2690, {'tekton.dev/pipelineRun': 'aicoe-pipelinerun-7a2802e6'})
rbd_img = 'registry.redhat.io/odf4/cephcsi-rhel9@sha256:%s' % hexid('cephcsi', 64)
rj_msg = 'Pod was rejected: The node had condition: [DiskPressure]. '
rj = mk_pod('csi-rbdplugin-qtr59', 'openshift-storage', N, [{'name': 'csi-rbdplugin', 'image': rbd_img}],
            [{'name': 'csi-rbdplugin', 'ready': False, 'started': False, 'restartCount': 0, 'image': rbd_img, 'imageID': '', 'state': {'waiting': {'reason': 'ContainerCreating'}}}], 2200,
            owner=('DaemonSet', 'csi-rbdplugin'), labels={'app': 'csi-rbdplugin'}, phase='Failed', runtime='cri-o', status_extra={'reason': 'Evicted', 'message': rj_msg},
            conditions=[{'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(2200)}])
rj['status'].pop('podIP', None); rj['status'].pop('podIPs', None)
repl = mk_pod('rook-ceph-tools-5d85d6fc7-9kq2m', 'openshift-storage', 'oct-03-09-compute', [{'name': 'rook-ceph-tools', 'image': tools_img}], [running('rook-ceph-tools', tools_img, 2600, runtime='cri-o')], 2640,
              owner=('ReplicaSet', 'rook-ceph-tools-5d85d6fc7'), labels={'app': 'rook-ceph-tools'}, runtime='cri-o')
gc = 'Failed to garbage collect required amount of images. Attempted to free 15823165849 bytes, but only found 0 bytes eligible to free.'
objs = [ns('openshift-storage'), ns('opf-ci-pipelines'), nd, node('oct-03-09-compute', runtime='cri-o://1.29.10-3.rhaos4.16.git3d48a9a.el9'), tp, pp, plp, rj, repl,
        workload('ReplicaSet', 'rook-ceph-tools-5d85d6fc7', 'openshift-storage', {'app': 'rook-ceph-tools'}),
        node_event(nd, 'NodeHasDiskPressure', 'Node %s status is now: NodeHasDiskPressure' % N, last=2700, first=2700),
        node_event(nd, 'EvictionThresholdMet', 'Attempting to reclaim ephemeral-storage', 'Warning', count=14, first=2700, last=40),
        node_event(nd, 'FreeDiskSpaceFailed', gc, 'Warning', count=9, first=2690, last=95),
        node_event(nd, 'ImageGCFailed', gc, 'Warning', count=9, first=2690, last=95),
        node_event(nd, 'NodeHasNoDiskPressure', 'Node %s status is now: NodeHasNoDiskPressure' % N, last=86400 * 6, first=86400 * 6),
        ev(tp, 'Evicted', tmsg19, count=1, first=2650, last=2650, host=N),
        ev(tp, 'Killing', 'Stopping container rook-ceph-tools', 'Normal', count=1, first=2650, last=2650, host=N, fieldPath='spec.containers{rook-ceph-tools}'),
        ev(pp, 'Evicted', pp['status']['message'], count=1, first=2660, last=2660, host=N),
        ev(plp, 'Evicted', plp['status']['message'], count=1, first=2690, last=2690, host=N),
        ev(rj, 'Evicted', 'The node had condition: [DiskPressure]. ', count=1, first=2200, last=2200, host=N),
        sev(repl, 'Scheduled', 'Successfully assigned openshift-storage/rook-ceph-tools-5d85d6fc7-9kq2m to oct-03-09-compute', 'Normal', count=1, first=2640, controller='default-scheduler', action='Binding')]
case('ap-diskpressure-evictions', 'Evicted: the node ran low on ephemeral storage (DiskPressure); image GC could not free enough and the kubelet evicted pod after pod',
     'https://github.com/operate-first/apps/issues/1352', 'The node was low on resource: ephemeral-storage. Container rook-ceph-tools was using 1964Ki, which exceeds its request of 0.',
     'openshift-storage/rook-ceph-tools-5d85d6fc7-xwsv5', 'evicted.node-pressure', objs, decisive='The node was low on resource: ephemeral-storage')

# ================================================================ 20. node.not-ready: a new node never gets a CNI config (aws-node not ready)
N = 'ip-192-168-101-22.us-west-2.compute.internal'
cni_msg = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'
nd = node(N, kernel='6.1.112-124.190.amzn2023.x86_64', kubelet='v1.30.4-eks-a737599', runtime='containerd://1.7.22',
          labels={'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'spot', 'node.kubernetes.io/instance-type': 'c6a.2xlarge', 'topology.kubernetes.io/zone': 'us-west-2b'},
          notready_msg=cni_msg)
nd['status']['nodeInfo']['osImage'] = 'Amazon Linux 2023.6.20241031'
nd['metadata']['creationTimestamp'] = ago(1260)
for c in nd['status']['conditions']:
    c['lastTransitionTime'] = ago(1250)
nimg = '602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1'
iimg = '602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni-init:v1.18.5-eksbuild.1'
aws = mk_pod('aws-node-9zq7r', 'kube-system', N, [{'name': 'aws-node', 'image': nimg, 'readinessProbe': {'exec': {'command': ['/app/grpc-health-probe', '-addr=:50051', '-connect-timeout=5s', '-rpc-timeout=5s']}, 'initialDelaySeconds': 1, 'timeoutSeconds': 10},
                                                  'livenessProbe': {'exec': {'command': ['/app/grpc-health-probe', '-addr=:50051', '-connect-timeout=5s', '-rpc-timeout=5s']}, 'initialDelaySeconds': 60, 'timeoutSeconds': 10}},
                                                 {'name': 'aws-eks-nodeagent', 'image': '602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon/aws-network-policy-agent:v1.1.3-eksbuild.1'}],
             [running('aws-node', nimg, 1180, restarts=3, ready=False, last=term(137, 'Error', 1240, 1182, seed='an3')), running('aws-eks-nodeagent', '602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon/aws-network-policy-agent:v1.1.3-eksbuild.1', 1235)],
             1250, owner=('DaemonSet', 'aws-node'), labels={'k8s-app': 'aws-node'}, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'}, conditions=not_ready_conditions(1250, 1240, ['aws-node']))
aws['spec']['initContainers'] = [{'name': 'aws-vpc-cni-init', 'image': iimg}]
aws['status']['initContainerStatuses'] = [{'name': 'aws-vpc-cni-init', 'ready': True, 'started': False, 'restartCount': 0, 'image': iimg, 'imageID': img_id(iimg), 'containerID': cid('init' + N),
                                            'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(1246), 'finishedAt': ago(1244), 'containerID': cid('init' + N)}}}]
aws['status']['podIP'] = aws['status']['hostIP'] = '192.168.101.22'
ebsimg = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.36.0'
ebs = mk_pod('ebs-csi-node-l4x8c', 'kube-system', N, [{'name': 'ebs-plugin', 'image': ebsimg}],
             [{'name': 'ebs-plugin', 'ready': False, 'started': False, 'restartCount': 0, 'image': ebsimg, 'imageID': '', 'state': {'waiting': {'reason': 'ContainerCreating'}}}], 1250,
             owner=('DaemonSet', 'ebs-csi-node'), labels={'app': 'ebs-csi-node'}, phase='Pending', conditions=not_ready_conditions(1250, 1250, ['ebs-plugin']))
ebs['status'].pop('podIP', None); ebs['status'].pop('podIPs', None)
kp = kube_proxy(N, created=1250)
alog = ['{"level":"info","ts":"2026-11-21T09:40:20.512Z","caller":"entrypoint.sh","msg":"Validating env variables ..."}',
        '{"level":"info","ts":"2026-11-21T09:40:20.514Z","caller":"entrypoint.sh","msg":"Install CNI binaries.."}',
        '{"level":"info","ts":"2026-11-21T09:40:20.541Z","caller":"entrypoint.sh","msg":"Starting IPAM daemon in the background ... "}',
        '{"level":"info","ts":"2026-11-21T09:40:20.552Z","caller":"entrypoint.sh","msg":"Checking for IPAM connectivity ... "}',
        '{"level":"info","ts":"2026-11-21T09:40:22.601Z","caller":"entrypoint.sh","msg":"Retrying waiting for IPAM-D"}',
        '{"level":"info","ts":"2026-11-21T09:40:24.650Z","caller":"entrypoint.sh","msg":"Retrying waiting for IPAM-D"}',
        '{"level":"info","ts":"2026-11-21T09:40:26.699Z","caller":"entrypoint.sh","msg":"Retrying waiting for IPAM-D"}']
objs = [ns('kube-system'), nd, aws, ebs, kp, dset('aws-node', 'kube-system', {'k8s-app': 'aws-node'}, 14, 13, {'containers': [{'name': 'aws-node', 'image': nimg}]}),
        node_event(nd, 'Starting', 'Starting kubelet.', last=1252, first=1252),
        node_event(nd, 'InvalidDiskCapacity', 'invalid capacity 0 on image filesystem', 'Warning', last=1252, first=1252),
        node_event(nd, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % N, count=2, first=1252, last=1251),
        node_event(nd, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', last=1251, first=1251),
        node_event(nd, 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (N, N), last=1248, first=1248, component='node-controller'),
        sev(nd, 'Registered', 'Status condition transitioned, Type: Registered, Status: Unknown -> True, Reason: Registered', 'Normal', count=1, first=1245, controller='karpenter'),
        ev(aws, 'Unhealthy', 'Readiness probe failed: {"level":"info","ts":"2026-11-21T09:59:51.238Z","caller":"/root/sdk/go1.22.7/src/runtime/proc.go:272","msg":"timeout: failed to connect service \\":50051\\" within 5s"}',
           count=118, first=1230, last=9, host=N, fieldPath='spec.containers{aws-node}'),
        ev(aws, 'Killing', 'Container aws-node failed liveness probe, will be restarted', 'Normal', count=3, first=1200, last=1183, host=N, fieldPath='spec.containers{aws-node}'),
        ev(ebs, 'NetworkNotReady', 'network is not ready: ' + cni_msg, count=75, first=1240, last=5, host=N),
        podlog('kube-system', 'aws-node-9zq7r', 'aws-node', alog, previous=False)]
case('ap-node-cni-not-initialized', 'Node NotReady since it joined: the VPC CNI agent never becomes ready, "cni plugin not initialized"',
     'https://github.com/aws/karpenter-provider-aws/issues/1391', 'KubeletNotReady runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
     'node/' + N, 'node.not-ready', objs, decisive='Network plugin returns error: cni plugin not initialized')

# ================================================================ 21. node.runtime-unresponsive: PLEG is not healthy for hours
N = 'ip-10-42-10-121.us-west-2.compute.internal'
pleg = 'PLEG is not healthy: pleg was last seen active 2h33m12.704970756s ago; threshold is 3m0s'
nd = node(N, kernel='5.10.227-219.884.amzn2.x86_64', kubelet='v1.30.4-eks-a737599', runtime='containerd://1.7.22', notready_msg=pleg,
          labels={'eks.amazonaws.com/nodegroup': 'managed-system', 'node.kubernetes.io/instance-type': 'm5.large'})
nd['status']['nodeInfo']['osImage'] = 'Amazon Linux 2'
for c in nd['status']['conditions']:
    if c['type'] == 'Ready': c['lastTransitionTime'] = ago(9000)
for t in nd['spec']['taints']: t['timeAdded'] = ago(9000)
objs21 = [nd, ns('assets'), ns('catalog')]
for pn, nsn, img_, ago_ in (('assets-7ccc84cb4d-wq2kc', 'assets', 'public.ecr.aws/aws-containers/retail-store-sample-assets:0.4.0', 86400),
                            ('catalog-857f89d57d-9txv7', 'catalog', 'public.ecr.aws/aws-containers/retail-store-sample-catalog:0.4.0', 86400)):
    q = mk_pod(pn, nsn, N, [{'name': pn.split('-')[0], 'image': img_}], [running(pn.split('-')[0], img_, ago_ - 20, ready=False)], ago_,
               owner=('ReplicaSet', pn.rsplit('-', 1)[0]), labels={'app.kubernetes.io/name': pn.split('-')[0]}, conditions=not_ready_conditions(ago_, 9000, [pn.split('-')[0]]))
    objs21 += [q, ev(q, 'NodeNotReady', 'Node is not ready', count=1, first=8990, last=8990, component='node-controller')]
stuck = mk_pod('catalog-mysql-0', 'catalog', N, [{'name': 'mysql', 'image': 'public.ecr.aws/docker/library/mysql:8.0'}], [running('mysql', 'public.ecr.aws/docker/library/mysql:8.0', 86400, ready=False)], 86400,
               owner=('StatefulSet', 'catalog-mysql'), labels={'app.kubernetes.io/name': 'catalog'}, meta_extra={'deletionTimestamp': ago(8500), 'deletionGracePeriodSeconds': 30},
               conditions=not_ready_conditions(86400, 9000, ['mysql']))
objs21 += [stuck, kube_proxy(N),
           node_event(nd, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=9000, first=9000),
           node_event(nd, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=8995, first=8995, component='node-controller'),
           node_event(nd, 'ContainerGCFailed', 'rpc error: code = DeadlineExceeded desc = context deadline exceeded', 'Warning', count=148, first=9020, last=60),
           ev(stuck, 'Killing', 'Stopping container mysql', 'Normal', count=1, first=8500, last=8500, host=N, fieldPath='spec.containers{mysql}'),
           ev(stuck, 'FailedKillPod', 'error killing pod: [failed to "KillContainer" for "mysql" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded", failed to "KillPodSandbox" for "%s" with KillPodSandboxError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"]' % uid('podcatalogcatalog-mysql-0'),
              count=41, first=8370, last=170, host=N)]
case('ap-node-pleg-unhealthy', 'Node NotReady for two and a half hours: "PLEG is not healthy", the kubelet cannot list containers from the runtime',
     'https://github.com/aws-samples/eks-workshop-v2/issues/447', 'kubelet.go:2055] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 2h33m12.704970756s ago; threshold is 3m0s"',
     'node/' + N, 'node.runtime-unresponsive', objs21, decisive='PLEG is not healthy: pleg was last seen active 2h33m12.704970756s ago')

# ================================================================ 22. node.pressure: MemoryPressure, burstable pods without limits grow until the kubelet evicts
N = 'ip-10-250-28-124.eu-west-1.compute.internal'
nd = node(N, kernel='5.15.0-1071-aws', taints=[{'key': 'node.kubernetes.io/memory-pressure', 'effect': 'NoSchedule', 'timeAdded': ago(760)}], alloc={'cpu': '3920m', 'memory': '14532Mi', 'pods': '110', 'ephemeral-storage': '45Gi'})
nd['status']['capacity'].update({'cpu': '4', 'memory': '15842Mi'})
for c in nd['status']['conditions']:
    if c['type'] == 'MemoryPressure': c.update({'status': 'True', 'reason': 'KubeletHasInsufficientMemory', 'message': 'kubelet has insufficient memory available', 'lastTransitionTime': ago(760)})
objs22 = [ns('shoot--dev--app'), nd]
gimg = 'eu.gcr.io/acme/report-renderer:4.12.0'
for i, (sfx, since) in enumerate((('r8p2d', 86400), ('x5w9k', 86400), ('c2m7q', 5400))):
    q = mk_pod('report-renderer-6bf7d8c9d4-' + sfx, 'shoot--dev--app', N, [{'name': 'renderer', 'image': gimg, 'resources': {'requests': {'cpu': '200m', 'memory': '512Mi'}}}],
               [running('renderer', gimg, since - 10)], since, owner=('ReplicaSet', 'report-renderer-6bf7d8c9d4'), labels={'app': 'report-renderer'})
    objs22.append(q)
emsg = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 87344Ki. Container renderer was using 4519840Ki, request is 512Mi, has larger consumption of memory. '
ev_p = mk_pod('report-renderer-6bf7d8c9d4-n4v6b', 'shoot--dev--app', N, [{'name': 'renderer', 'image': gimg, 'resources': {'requests': {'cpu': '200m', 'memory': '512Mi'}}}],
              [{'name': 'renderer', 'ready': False, 'started': False, 'restartCount': 0, 'image': gimg, 'imageID': img_id(gimg), 'state': {'terminated': {'exitCode': 137, 'reason': 'Error', 'startedAt': ago(86400), 'finishedAt': ago(700), 'containerID': cid('ev22')}}}],
              86400, owner=('ReplicaSet', 'report-renderer-6bf7d8c9d4'), labels={'app': 'report-renderer'}, phase='Failed', status_extra={'reason': 'Evicted', 'message': emsg},
              conditions=[{'type': 'DisruptionTarget', 'status': 'True', 'reason': 'TerminationByKubelet', 'message': emsg, 'lastTransitionTime': ago(730)}, {'type': 'Ready', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(700)}])
objs22 += [ev_p, kube_proxy(N),
           node_event(nd, 'NodeHasInsufficientMemory', 'Node %s status is now: NodeHasInsufficientMemory' % N, last=760, first=760),
           node_event(nd, 'EvictionThresholdMet', 'Attempting to reclaim memory', 'Warning', count=6, first=760, last=45),
           node_event(nd, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % N, last=86400 * 3, first=86400 * 3),
           node_event(nd, 'SystemOOM', 'System OOM encountered, victim process: renderer, pid: 31822', 'Warning', last=86400 * 3 - 60, first=86400 * 3 - 60),
           ev(ev_p, 'Evicted', emsg, count=1, first=730, last=730, host=N), ev(ev_p, 'Killing', 'Stopping container renderer', 'Normal', count=1, first=730, last=730, host=N, fieldPath='spec.containers{renderer}')]
case('ap-node-memory-pressure', 'Node under MemoryPressure: burstable pods without memory limits grow until the kubelet evicts them, the node is tainted memory-pressure',
     'https://github.com/gardener/machine-controller-manager/issues/208', 'Warning  EvictionThresholdMet  Attempting to reclaim memory',
     'node/' + N, 'node.pressure', objs22, decisive='kubelet has insufficient memory available', playbook=None)

# ================================================================ 23. node.kubelet-cert-expired: the kubelet's client certificate expired, the API server refuses it
N = 'k8s-node-07'
nd = node(N, lost_since=4300, kernel='5.4.0-200-generic', runtime='containerd://1.7.12')
nd['status']['nodeInfo']['osImage'] = 'Ubuntu 18.04.6 LTS'
nip = nd['status']['addresses'][0]['address']
apimg = 'registry.k8s.io/kube-apiserver:v1.28.15'
api = mk_pod('kube-apiserver-k8s-master-01', 'kube-system', 'k8s-master-01', [{'name': 'kube-apiserver', 'image': apimg}], [running('kube-apiserver', apimg, 86400 * 41)], 86400 * 41,
             labels={'component': 'kube-apiserver', 'tier': 'control-plane'}, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
alines = []
for k, t in enumerate(('08:48:02.114527', '08:48:12.209217', '09:12:44.601133', '09:41:19.018274', '09:58:03.223687')):
    alines.append('E1121 %s       1 authentication.go:73] "Unable to authenticate the request" err="[x509: certificate has expired or is not yet valid: current time 2026-11-21T%sZ is after 2026-11-21T08:47:51Z, verifying certificate SN=229151083349102477386027311250541017812, SKID=, AKID=4B:9E:12:0C:77:51:8A:DF:3E:21:9C:60:55:D1:7A:08:BE:93:2C:41 failed: x509: certificate has expired or is not yet valid: current time 2026-11-21T%sZ is after 2026-11-21T08:47:51Z]"' % (t, t[:8], t[:8]))
    alines.append('I1121 %s       1 log.go:245] http: TLS handshake error from %s:%d: EOF' % (t, nip, 52376 + 22 * k))
alines.append('I1121 09:58:05.001442       1 controller.go:624] quota admission added evaluator for: leases.coordination.k8s.io')
objs23 = [ns('kube-system'), ns('payments'), nd, node('k8s-master-01', labels={'node-role.kubernetes.io/control-plane': ''}), api, podlog('kube-system', 'kube-apiserver-k8s-master-01', 'kube-apiserver', alines, previous=False),
          node_event(nd, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=4300, first=4300, component='node-controller')]
pimg = 'registry.example.com/payments/ledger:7.4.1'
for sfx in ('q7m2x', 'z3k8v'):
    q = mk_pod('ledger-5f8c7d6b9-' + sfx, 'payments', N, [{'name': 'ledger', 'image': pimg}], [running('ledger', pimg, 86400 * 5, ready=False)], 86400 * 5,
               owner=('ReplicaSet', 'ledger-5f8c7d6b9'), labels={'app': 'ledger'}, conditions=not_ready_conditions(86400 * 5, 4290, ['ledger']),
               meta_extra={'deletionTimestamp': ago(3960), 'deletionGracePeriodSeconds': 30})
    q['status']['conditions'].insert(0, {'type': 'DisruptionTarget', 'status': 'True', 'reason': 'DeletionByTaintManager', 'message': 'Taint manager: deleting due to NoExecute taint', 'lastTransitionTime': ago(3990)})
    objs23 += [q, ev(q, 'NodeNotReady', 'Node is not ready', count=1, first=4290, last=4290, component='node-controller'),
               ev(q, 'TaintManagerEviction', 'Marking for deletion Pod payments/%s' % q['metadata']['name'], 'Normal', count=1, first=3990, last=3990, component='taint-eviction-controller')]
case('ap-kubelet-client-cert-expired', 'Node NotReady ("Kubelet stopped posting node status"): the kubelet\'s client certificate expired and the API server rejects it',
     'https://github.com/kubernetes/kubernetes/issues/106499', 'authentication.go:65] Unable to authenticate the request due to an error: x509: certificate has expired or is not yet valid',
     'node/' + N, 'node.kubelet-cert-expired', objs23, decisive='x509: certificate has expired or is not yet valid', playbook=None)

# ================================================================ 24. node.graceful-shutdown: pods left Failed by a graceful node shutdown, replacements run elsewhere
N = 'yp-test2-worker-0dd0512820d9'
img = 'nginx:1.27.2'
spec = {'containers': [{'name': 'nginx', 'image': img, 'ports': [{'containerPort': 80}], 'resources': {'requests': {'cpu': '50m', 'memory': '32Mi'}}}]}
d, rs = deploy('shutdown-test-deploy', 'shutdown-test', {'app': 'shutdown-test'}, 4, '69cff7d9b7', spec)
nd = node(N, kernel='6.1.0-26-amd64')
for c in nd['status']['conditions']:
    if c['type'] == 'Ready': c['lastTransitionTime'] = ago(1900)
smsg = 'Pod was terminated in response to imminent node shutdown.'
def shut(sfx, started_at):
    pn = 'shutdown-test-deploy-69cff7d9b7-' + sfx
    st_ = [{'name': 'nginx', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': img_id(img), 'containerID': cid(pn),
            'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(started_at), 'finishedAt': ago(2150), 'containerID': cid(pn)}}}]
    conds = [{'type': 'DisruptionTarget', 'status': 'True', 'reason': 'TerminationByKubelet', 'message': smsg, 'lastTransitionTime': ago(2160)},
             {'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(2140)}, {'type': 'Initialized', 'status': 'True', 'lastTransitionTime': ago(started_at + 2)},
             {'type': 'Ready', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(2150)}, {'type': 'ContainersReady', 'status': 'False', 'reason': 'PodFailed', 'lastTransitionTime': ago(2150)},
             {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(started_at + 4)}]
    q = mk_pod(pn, 'shutdown-test', N, spec['containers'], st_, started_at + 5, owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'shutdown-test', 'pod-template-hash': '69cff7d9b7'},
               phase='Failed', conditions=conds, status_extra={'reason': 'Terminated', 'message': smsg})
    return q
s1, s2 = shut('bvzj9', 86400 * 2), shut('gncbf', 86400 * 2)
live = [mk_pod('shutdown-test-deploy-69cff7d9b7-' + sfx, 'shutdown-test', n, spec['containers'], [running('nginx', img, 2100)], 2140, owner=('ReplicaSet', rs['metadata']['name']),
               labels={'app': 'shutdown-test', 'pod-template-hash': '69cff7d9b7'}) for sfx, n in (('6glvw', 'yp-test2-worker-800c11be6e97'), ('blspc', N), ('rkpkz', 'yp-test2-worker-800c11be6e97'), ('mv7bd', N))]
objs = [ns('shutdown-test'), nd, node('yp-test2-worker-800c11be6e97'), d, rs, s1, s2, *live,
        node_event(nd, 'NodeShutdown', 'Shutdown manager detected shutdown event', last=2165, first=2165),
        node_event(nd, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=2160, first=2160),
        node_event(nd, 'Starting', 'Starting kubelet.', last=1930, first=1930),
        node_event(nd, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (N, uid('boot' + N)), 'Warning', last=1925, first=1925),
        node_event(nd, 'NodeReady', 'Node %s status is now: NodeReady' % N, last=1900, first=1900),
        ev(s1, 'Killing', 'Stopping container nginx', 'Normal', count=1, first=2160, last=2160, host=N, fieldPath='spec.containers{nginx}'),
        ev(s2, 'Killing', 'Stopping container nginx', 'Normal', count=1, first=2160, last=2160, host=N, fieldPath='spec.containers{nginx}'),
        sev(rs, 'SuccessfulCreate', 'Created pod: shutdown-test-deploy-69cff7d9b7-6glvw', 'Normal', count=4, first=2150, last=2140, controller='replicaset-controller')]
case('ap-graceful-shutdown-leftover', 'Failed pods left behind by a graceful node shutdown ("Pod was terminated in response to imminent node shutdown."), the Deployment already replaced them',
     'https://github.com/kubernetes/kubernetes/issues/98012', 'when node is shutdown kubelet will mark the pods as "Shutdown" and in v1.PodFailed phase',
     'shutdown-test/' + s1['metadata']['name'], 'node.graceful-shutdown', objs, decisive='Pod was terminated in response to imminent node shutdown.', playbook=None)

# ================================================================ 25. admission.kubelet-rejected: UnexpectedAdmissionError, the GPU device plugin was not back after a reboot
N = 'gke-ml-gpu-pool-7b3e9c1d-k2xq'
nd = node(N, kernel='6.1.100+', kubelet='v1.30.1-gke.1329003', runtime='containerd://1.7.15',
          labels={'cloud.google.com/gke-accelerator': 'nvidia-l4', 'cloud.google.com/gke-nodepool': 'ml-gpu-pool'}, alloc={'cpu': '7910m', 'memory': '27Gi', 'pods': '110', 'nvidia.com/gpu': '1', 'ephemeral-storage': '47Gi'})
nd['status']['nodeInfo']['osImage'] = 'Container-Optimized OS from Google'
img = 'us-docker.pkg.dev/acme-ml/train/llm-finetune:2026.11.3'
amsg = 'Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected'
p = mk_pod('finetune-llama-r7', 'ml', N, [{'name': 'trainer', 'image': img, 'resources': {'limits': {'nvidia.com/gpu': '1', 'memory': '24Gi'}, 'requests': {'cpu': '4', 'memory': '24Gi', 'nvidia.com/gpu': '1'}}}],
           [{'name': 'trainer', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': '', 'state': {'waiting': {'reason': 'ContainerCreating'}}}], 86400,
           phase='Failed', labels={'app': 'finetune', 'run': 'r7'}, status_extra={'reason': 'UnexpectedAdmissionError', 'message': 'Pod was rejected: ' + amsg},
           conditions=[{'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(86400)}], spec_extra={'restartPolicy': 'Never', 'tolerations': [{'key': 'nvidia.com/gpu', 'operator': 'Exists', 'effect': 'NoSchedule'}]})
p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
dpimg = 'gke.gcr.io/nvidia-gpu-device-plugin@sha256:%s' % hexid('nvdp', 64)
dp = mk_pod('nvidia-gpu-device-plugin-small-cos-x7m2p', 'kube-system', N, [{'name': 'nvidia-gpu-device-plugin', 'image': dpimg}], [running('nvidia-gpu-device-plugin', dpimg, 1620, restarts=1, last=term(255, 'Unknown', 86400 * 3, 1700, seed='dp1'))], 86400 * 3,
            owner=('DaemonSet', 'nvidia-gpu-device-plugin-small-cos'), labels={'k8s-app': 'nvidia-gpu-device-plugin'})
objs = [ns('ml'), ns('kube-system'), nd, p, dp, kube_proxy(N),
        ev(p, 'UnexpectedAdmissionError', amsg, count=1, first=1655, last=1655, host=N),
        node_event(nd, 'Starting', 'Starting kubelet.', last=1665, first=1665),
        node_event(nd, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (N, uid('boot' + N)), 'Warning', last=1662, first=1662),
        node_event(nd, 'NodeReady', 'Node %s status is now: NodeReady' % N, last=1640, first=1640),
        ev(dp, 'Pulled', 'Container image "%s" already present on machine' % dpimg, 'Normal', count=1, first=1625, last=1625, host=N, fieldPath='spec.containers{nvidia-gpu-device-plugin}'),
        ev(dp, 'Started', 'Started container nvidia-gpu-device-plugin', 'Normal', count=1, first=1620, last=1620, host=N, fieldPath='spec.containers{nvidia-gpu-device-plugin}')]
case('ap-unexpected-admission-gpu', 'Failed with UnexpectedAdmissionError after a node reboot: the kubelet re-admitted the GPU pod before the device plugin registered again',
     'https://github.com/kubernetes/kubernetes/issues/125579', 'Warning  UnexpectedAdmissionError  84s  kubelet  Allocate failed due to no healthy devices present; cannot allocate unhealthy devices xxx, which is unexpected',
     'ml/finetune-llama-r7', 'admission.kubelet-rejected', objs, decisive='Allocate failed due to no healthy devices present')

# ================================================================ 26. admission.kubelet-rejected: OutOfcpu for a running pod after a kubelet restart with a larger kube-reserved
N = 'bm-worker-16'
nd = node(N, alloc={'cpu': '8', 'memory': '60Gi', 'pods': '110', 'ephemeral-storage': '400Gi'})
nd['status']['capacity'].update({'cpu': '16', 'memory': '62Gi'})
img = 'registry.example.com/analytics/aggregator:5.2.0'
spec = {'containers': [{'name': 'aggregator', 'image': img, 'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}, 'limits': {'cpu': '1', 'memory': '2Gi'}}}]}
d, rs = deploy('aggregator', 'analytics', {'app': 'aggregator'}, 8, '7c5b9d8f6', spec, available=8)
omsg = "Node didn't have enough resource: cpu, requested: 1000, used: 8000, capacity: 8000"
rej = mk_pod('aggregator-7c5b9d8f6-h2k9w', 'analytics', N, spec['containers'],
             [{'name': 'aggregator', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': img_id(img), 'containerID': cid('agg-h2k9w'),
               'state': {'terminated': {'exitCode': 137, 'reason': 'ContainerStatusUnknown', 'message': 'The container could not be located when the pod was terminated', 'startedAt': None, 'finishedAt': None}}}],
             86400 * 2, owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'aggregator', 'pod-template-hash': '7c5b9d8f6'}, phase='Failed',
             status_extra={'reason': 'OutOfcpu', 'message': 'Pod was rejected: ' + omsg, 'qosClass': 'Guaranteed'}, conditions=[{'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(86400 * 2)}])
objs26 = [ns('analytics'), nd, node('bm-worker-15'), d, rs, rej, ev(rej, 'OutOfcpu', omsg, count=1, first=1320, last=1320, host=N),
          node_event(nd, 'Starting', 'Starting kubelet.', last=1330, first=1330),
          node_event(nd, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', last=1328, first=1328),
          node_event(nd, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % N, last=1329, first=1329),
          sev(rs, 'SuccessfulCreate', 'Created pod: aggregator-7c5b9d8f6-d8q4t', 'Normal', count=1, first=1318, controller='replicaset-controller')]
for sfx, n in (('t5x2m', N), ('w7c3p', N), ('m9q1z', N), ('k4v8d', N), ('b2n6r', N), ('f3h7y', N), ('p8s1c', N), ('d8q4t', 'bm-worker-15')):
    objs26.append(mk_pod('aggregator-7c5b9d8f6-' + sfx, 'analytics', n, spec['containers'], [running('aggregator', img, 86400 * 2 if n == N else 1300)], 86400 * 2 if n == N else 1318,
                         owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'aggregator', 'pod-template-hash': '7c5b9d8f6'}, status_extra={'qosClass': 'Guaranteed'}))
case('ap-outofcpu-after-kubelet-restart', 'Failed with OutOfcpu: a pod that was running is rejected when the kubelet restarts with a larger kube-reserved (allocatable 8 of 16 CPUs)',
     'https://github.com/kubernetes/kubernetes/issues/105523', 'Restart: Always pods went into OutOfCpu error state after kubelet restart.',
     'analytics/aggregator-7c5b9d8f6-h2k9w', 'admission.kubelet-rejected', objs26, decisive="Node didn't have enough resource: cpu, requested: 1000")

# ================================================================ 27. admission.kubelet-rejected: NodeAffinity after a node label was removed and the kubelet restarted
N = 'hpc-node-04'
nd = node(N, labels={'node-role.kubernetes.io/worker': ''})
img = 'registry.example.com/hpc/solver:3.1.7'
aff = {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'hpc', 'operator': 'In', 'values': ['true']}]}]}}}
spec = {'affinity': aff, 'containers': [{'name': 'solver', 'image': img, 'resources': {'requests': {'cpu': '8', 'memory': '32Gi'}}}]}
st = sts('solver', 'hpc', {'app': 'solver'}, 2, spec, ready=1)
namsg = "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
rj = mk_pod('solver-1', 'hpc', N, spec['containers'], [{'name': 'solver', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': img_id(img), 'containerID': cid('solver1'),
             'state': {'terminated': {'exitCode': 137, 'reason': 'ContainerStatusUnknown', 'message': 'The container could not be located when the pod was terminated', 'startedAt': None, 'finishedAt': None}}}],
            86400 * 6, owner=('StatefulSet', 'solver'), labels={'app': 'solver', 'statefulset.kubernetes.io/pod-name': 'solver-1'}, phase='Failed',
            status_extra={'reason': 'NodeAffinity', 'message': 'Pod was rejected: ' + namsg}, spec_extra={'affinity': aff},
            conditions=[{'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(86400 * 6)}])
ok = mk_pod('solver-0', 'hpc', 'hpc-node-03', spec['containers'], [running('solver', img, 86400 * 6)], 86400 * 6, owner=('StatefulSet', 'solver'), labels={'app': 'solver'}, spec_extra={'affinity': aff})
objs = [ns('hpc'), nd, node('hpc-node-03', labels={'hpc': 'true'}), st, rj, ok,
        ev(rj, 'NodeAffinity', namsg, count=1, first=700, last=700, host=N),
        node_event(nd, 'Starting', 'Starting kubelet.', last=705, first=705),
        node_event(nd, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', last=703, first=703)]
case('ap-nodeaffinity-label-removed', 'Failed with NodeAffinity: the node lost the label the pod requires, and a kubelet restart re-ran admission and rejected the running pod',
     'https://github.com/kubernetes/kubernetes/issues/123859', 'Restarting kubelet results in Pod rejection with the error message: NodeAffinity failed',
     'hpc/solver-1', 'admission.kubelet-rejected', objs, decisive='Predicate NodeAffinity failed')

# ================================================================ 28. evicted.preempted: the scheduler preempts a running pod for a higher-priority one
N = 'ip-10-26-171-40.us-west-2.compute.internal'
img = 'registry.example.com/infra/make8-server:1804.2'
spec = {'priorityClassName': 'batch-low', 'terminationGracePeriodSeconds': 180, 'containers': [{'name': 'server', 'image': img, 'resources': {'requests': {'cpu': '6', 'memory': '12Gi'}}}]}
d, rs = deploy('make8-server-1804', 'infra-super-prod', {'app': 'make8-server-1804'}, 1, '7bb8cddd6', spec, available=0)
hp_uid = uid('podinfra-super-prodsim-replay-0')
vic = mk_pod('make8-server-1804-7bb8cddd6-r52xj', 'infra-super-prod', N, spec['containers'], [running('server', img, 86400 * 3)], 86400 * 3,
             owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'make8-server-1804', 'pod-template-hash': '7bb8cddd6'},
             spec_extra={'priorityClassName': 'batch-low', 'priority': 1000, 'terminationGracePeriodSeconds': 180},
             meta_extra={'deletionTimestamp': ago(-90), 'deletionGracePeriodSeconds': 180})
vic['status']['conditions'].insert(0, {'type': 'DisruptionTarget', 'status': 'True', 'reason': 'PreemptionByScheduler', 'message': 'default-scheduler: preempting to accommodate a higher priority pod', 'lastTransitionTime': ago(90)})
hp = pod('sim-replay-0', 'infra-super-prod', node_name=None, image='registry.example.com/infra/sim-replay:9.0.1', cname='replay', phase='Pending', created=95, owner=('StatefulSet', 'sim-replay'),
         statuses=[], conditions=[{'type': 'PodScheduled', 'status': 'False', 'reason': 'Unschedulable', 'lastTransitionTime': ago(94),
                                   'message': '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.'}],
         spec_extra={'priorityClassName': 'realtime-high', 'priority': 100000}, status_extra={'nominatedNodeName': N})
hp['metadata']['uid'] = hp_uid
hp['status'].pop('containerStatuses', None)
repl = pod('make8-server-1804-7bb8cddd6-t8w3n', 'infra-super-prod', node_name=None, image=img, cname='server', phase='Pending', created=85, owner=('ReplicaSet', rs['metadata']['name']), statuses=[],
           conditions=[{'type': 'PodScheduled', 'status': 'False', 'reason': 'Unschedulable', 'lastTransitionTime': ago(84), 'message': '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.'}],
           spec_extra={'priorityClassName': 'batch-low', 'priority': 1000}, labels={'app': 'make8-server-1804', 'pod-template-hash': '7bb8cddd6'})
repl['status'].pop('containerStatuses', None)
pcs = [{'apiVersion': 'scheduling.k8s.io/v1', 'kind': 'PriorityClass', 'metadata': {'name': n, 'uid': uid('pc' + n), 'creationTimestamp': ago(86400 * 300)}, 'value': v, 'preemptionPolicy': 'PreemptLowerPriority', 'globalDefault': False}
       for n, v in (('batch-low', 1000), ('realtime-high', 100000))]
objs = [ns('infra-super-prod'), node(N, alloc={'cpu': '7800m', 'memory': '30Gi', 'pods': '110', 'ephemeral-storage': '95Gi'}), node('ip-10-26-171-41.us-west-2.compute.internal'), node('ip-10-26-171-42.us-west-2.compute.internal'),
        d, rs, vic, hp, repl, *pcs,
        sev(vic, 'Preempted', 'Preempted by pod %s on node %s' % (hp_uid, N), 'Normal', count=1, first=90, controller='default-scheduler', instance='default-scheduler-ip-10-26-171-17', action='Preempting'),
        ev(vic, 'Killing', 'Stopping container server', 'Normal', count=1, first=89, last=89, host=N, fieldPath='spec.containers{server}'),
        sev(hp, 'FailedScheduling', hp['status']['conditions'][0]['message'], count=1, first=94, controller='default-scheduler', instance='default-scheduler-ip-10-26-171-17', action='Scheduling'),
        sev(repl, 'FailedScheduling', repl['status']['conditions'][0]['message'], count=3, first=84, last=20, controller='default-scheduler', instance='default-scheduler-ip-10-26-171-17', action='Scheduling')]
case('ap-preempted-by-priority', 'A running pod is being deleted out of the blue: the scheduler preempted it for a higher-priority pod that needs its node',
     'https://github.com/kubernetes/kubernetes/issues/106046', '"verb":"delete","user":{"username":"system:kube-scheduler"} ... "objectRef":{"resource":"pods","namespace":"infra-super-prod","name":"make8-server-1804-7bb8cddd6-r52xj"}',
     'infra-super-prod/make8-server-1804-7bb8cddd6-r52xj', 'evicted.preempted', objs, decisive='preempting to accommodate a higher priority pod', playbook=None)

# ================================================================ negatives: healthy pods and nodes with realistic benign noise
# N1. OOMKilled once 45 minutes ago, stable and Ready since
N = 'ip-10-0-7-19.eu-west-1.compute.internal'
img = 'registry.example.com/search/indexer:8.2.1'
spec = {'containers': [{'name': 'indexer', 'image': img, 'resources': {'requests': {'cpu': '500m', 'memory': '1536Mi'}, 'limits': {'memory': '2Gi'}},
        'readinessProbe': {'httpGet': {'path': '/ready', 'port': 9200}, 'periodSeconds': 10}}]}
d, rs = deploy('indexer', 'search', {'app': 'indexer'}, 2, '5b8d6f7c9', spec)
pn = 'indexer-5b8d6f7c9-l2p8s'
p = mk_pod(pn, 'search', N, spec['containers'], [running('indexer', img, 2700, restarts=1, last=term(137, 'OOMKilled', 86400 * 2, 2702, seed='ix1'))], 86400 * 2,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'indexer', 'pod-template-hash': '5b8d6f7c9'}, conditions=ready_conditions(86400 * 2, 2670))
other = mk_pod('indexer-5b8d6f7c9-v9c3n', 'search', 'ip-10-0-7-20.eu-west-1.compute.internal', spec['containers'], [running('indexer', img, 86400 * 2)], 86400 * 2,
               owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'indexer', 'pod-template-hash': '5b8d6f7c9'})
objs = [ns('search'), node(N), node('ip-10-0-7-20.eu-west-1.compute.internal'), d, rs, p, other,
        ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=1, first=2701, last=2701, host=N, fieldPath='spec.containers{indexer}'),
        ev(p, 'Created', 'Created container indexer', 'Normal', count=1, first=2700, last=2700, host=N, fieldPath='spec.containers{indexer}'),
        ev(p, 'Started', 'Started container indexer', 'Normal', count=1, first=2700, last=2700, host=N, fieldPath='spec.containers{indexer}'),
        ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:9200/ready": dial tcp %s:9200: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), count=3, first=2695, last=2675, host=N, fieldPath='spec.containers{indexer}')]
case('ap-neg-oomkilled-once-recovered', 'Ready, one restart 45 minutes ago (OOMKilled during a reindex), stable since: nothing to report',
     'https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts', 'After containers in a Pod run for 10 minutes without any problems, the kubelet resets the restart backoff timer for the container.',
     'search/' + pn, None, objs)

# N2. A slow but successful start: Warning "Startup probe failed" x7, Ready for 18 minutes
N = 'aks-app-19283746-vmss000004'
img = 'artifactory.example.com/shop/checkout:12.4.0'
spec = {'containers': [{'name': 'checkout', 'image': img, 'ports': [{'containerPort': 9080}],
        'startupProbe': {'httpGet': {'path': '/actuator/health/livenessState', 'port': 9080, 'scheme': 'HTTP'}, 'failureThreshold': 30, 'periodSeconds': 10, 'timeoutSeconds': 3},
        'livenessProbe': {'httpGet': {'path': '/actuator/health/livenessState', 'port': 9080}, 'periodSeconds': 10},
        'readinessProbe': {'httpGet': {'path': '/actuator/health/readinessState', 'port': 9080}, 'periodSeconds': 10},
        'resources': {'requests': {'cpu': '500m', 'memory': '768Mi'}, 'limits': {'memory': '1Gi'}}}]}
d, rs = deploy('checkout', 'shop', {'app': 'checkout'}, 3, '86f77646d5', spec)
pn = 'checkout-86f77646d5-vd8ks'
p = mk_pod(pn, 'shop', N, spec['containers'], [running('checkout', img, 1178)], 1190, owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'checkout', 'pod-template-hash': '86f77646d5'},
           conditions=ready_conditions(1190, 1090))
ip = p['status']['podIP']
objs = [ns('shop'), node(N), d, rs, p, scheduled(p, N, 1190), *started(p, N, img, 'checkout', 1186, '5.709s'),
        ev(p, 'Unhealthy', 'Startup probe failed: Get "http://%s:9080/actuator/health/livenessState": dial tcp %s:9080: connect: connection refused' % (ip, ip), count=7, first=1165, last=1105, host=N, fieldPath='spec.containers{checkout}'),
        sev(d, 'ScalingReplicaSet', 'Scaled up replica set checkout-86f77646d5 to 3 from 2', 'Normal', count=1, first=1192, controller='deployment-controller'),
        sev(rs, 'SuccessfulCreate', 'Created pod: ' + pn, 'Normal', count=1, first=1191, controller='replicaset-controller')]
case('ap-neg-startup-probe-slow-start', 'Ready: a Spring app needed 75 s to start, the startup probe failed 7 times as designed (failureThreshold 30) and then passed',
     'https://github.com/kubernetes/kubernetes/issues/131346', 'Warning  Unhealthy  18s (x7 over 90s)  kubelet  Startup probe failed: Get "http://100.65.0.75:9080/actuator/health/livenessState": dial tcp 10',
     'shop/' + pn, None, objs)

# N3. Readiness failed a few times at start-up only; the sidecar restarted once at start-up; Ready for 48 minutes
N = 'gke-prod-default-7c2e9a1b-h4d2'
img = 'gcr.io/acme-prod/billing-api:3.9.2'
pimg = 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1'
spec = {'serviceAccountName': 'billing-api', 'containers': [
    {'name': 'billing-api', 'image': img, 'ports': [{'containerPort': 8080}], 'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 8080}, 'periodSeconds': 5}, 'resources': {'requests': {'cpu': '250m', 'memory': '256Mi'}}},
    {'name': 'cloud-sql-proxy', 'image': pimg, 'args': ['--structured-logs', '--port=5432', 'acme-prod:europe-west1:billing'], 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}]}
d, rs = deploy('billing-api', 'billing', {'app': 'billing-api'}, 2, '7d9c5b6f8', spec)
pn = 'billing-api-7d9c5b6f8-q2w7e'
p = mk_pod(pn, 'billing', N, spec['containers'], [running('billing-api', img, 2990), running('cloud-sql-proxy', pimg, 2960, restarts=1, last=term(1, 'Error', 2992, 2975, seed='csp1'))], 3000,
           owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'billing-api', 'pod-template-hash': '7d9c5b6f8'}, conditions=ready_conditions(3000, 2950))
ip = p['status']['podIP']
plog = ['{"severity":"INFO","timestamp":"2026-11-21T09:10:41.402Z","message":"Authorizing with Application Default Credentials"}',
        '{"severity":"INFO","timestamp":"2026-11-21T09:10:41.913Z","message":"[acme-prod:europe-west1:billing] Listening on 127.0.0.1:5432"}',
        '{"severity":"INFO","timestamp":"2026-11-21T09:10:41.913Z","message":"The proxy has started successfully and is ready for new connections!"}']
objs = [ns('billing'), node(N), d, rs, p, scheduled(p, N, 3000), *started(p, N, img, 'billing-api', 2996, '2.3s'), *started(p, N, pimg, 'cloud-sql-proxy', 2994, '1.1s'),
        ev(p, 'Pulled', 'Container image "%s" already present on machine' % pimg, 'Normal', count=1, first=2962, last=2962, host=N, fieldPath='spec.containers{cloud-sql-proxy}'),
        ev(p, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', count=4, first=2985, last=2955, host=N, fieldPath='spec.containers{billing-api}'),
        podlog('billing', pn, 'cloud-sql-proxy', plog, previous=False),
        podlog('billing', pn, 'cloud-sql-proxy', ['{"severity":"ERROR","timestamp":"2026-11-21T09:10:24.118Z","message":"failed to get token from metadata server: Get \\"http://169.254.169.254/computeMetadata/v1/instance/service-accounts/default/token\\": dial tcp 169.254.169.254:80: connect: connection refused"}'])]
case('ap-neg-startup-noise-sidecar-restart', 'Ready for 48 minutes: readiness answered 503 four times while the app warmed up, and the Cloud SQL sidecar restarted once at start-up before the metadata server answered',
     'https://github.com/knative/serving/issues/1773', 'a lot of times these warnings are red herring. For example, if you have the warning during Pod start up for the first 10 seconds you will still see the same listed a very long time later.',
     'billing/' + pn, None, objs)

# N4. A completed Job pod whose native istio-proxy sidecar ended with 137 when the kubelet stopped it
N = 'gke-batch-pool-3a9c7e1f-m8n2'
img = 'gcr.io/acme-prod/nightly-export:2.1.0'
pimg = 'docker.io/istio/proxyv2:1.23.2'
job = workload('Job', 'nightly-export-29381160', 'reporting', {'batch.kubernetes.io/job-name': 'nightly-export-29381160'}, template_spec={'containers': [{'name': 'export', 'image': img}], 'restartPolicy': 'Never'})
job['metadata']['ownerReferences'] = [{'apiVersion': 'batch/v1', 'kind': 'CronJob', 'name': 'nightly-export', 'uid': uid('CronJobreportingnightly-export'), 'controller': True, 'blockOwnerDeletion': True}]
job['status'] = {'startTime': ago(1500), 'completionTime': ago(600), 'succeeded': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
                 'conditions': [{'type': 'SuccessCriteriaMet', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(600), 'lastTransitionTime': ago(600)},
                                {'type': 'Complete', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(600), 'lastTransitionTime': ago(600)}]}
cj = workload('CronJob', 'nightly-export', 'reporting', {'app': 'nightly-export'})
cj['spec'] = {'schedule': '0 9 * * *', 'concurrencyPolicy': 'Forbid', 'jobTemplate': {'spec': {'template': job['spec']['template']}}}
cj['status'] = {'lastScheduleTime': ago(1500), 'lastSuccessfulTime': ago(600)}
pn = 'nightly-export-29381160-7xq4d'
p = mk_pod(pn, 'reporting', N, [{'name': 'export', 'image': img}],
           [{'name': 'export', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': img_id(img), 'containerID': cid('exp' + pn),
             'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(1490), 'finishedAt': ago(605), 'containerID': cid('exp' + pn)}}}], 1500,
           owner=('Job', 'nightly-export-29381160'), labels={'batch.kubernetes.io/job-name': 'nightly-export-29381160', 'job-name': 'nightly-export-29381160'}, phase='Succeeded',
           spec_extra={'restartPolicy': 'Never', 'initContainers': [{'name': 'istio-init', 'image': pimg}, {'name': 'istio-proxy', 'image': pimg, 'restartPolicy': 'Always', 'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 15021}}}]},
           conditions=[{'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(590)}, {'type': 'Initialized', 'status': 'True', 'reason': 'PodCompleted', 'lastTransitionTime': ago(1495)},
                       {'type': 'Ready', 'status': 'False', 'reason': 'PodCompleted', 'lastTransitionTime': ago(600)}, {'type': 'ContainersReady', 'status': 'False', 'reason': 'PodCompleted', 'lastTransitionTime': ago(600)},
                       {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(1500)}])
p['status']['initContainerStatuses'] = [
    {'name': 'istio-init', 'ready': True, 'started': False, 'restartCount': 0, 'image': pimg, 'imageID': img_id(pimg), 'containerID': cid('ii' + pn), 'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(1497), 'finishedAt': ago(1496), 'containerID': cid('ii' + pn)}}},
    {'name': 'istio-proxy', 'ready': False, 'started': False, 'restartCount': 0, 'image': pimg, 'imageID': img_id(pimg), 'containerID': cid('ip' + pn), 'state': {'terminated': {'exitCode': 137, 'reason': 'Error', 'startedAt': ago(1495), 'finishedAt': ago(570), 'containerID': cid('ip' + pn)}}}]
objs = [ns('reporting'), node(N), cj, job, p, scheduled(p, N, 1500),
        *started(p, N, pimg, 'istio-init', 1499, '1.9s', init=True), *started(p, N, pimg, 'istio-proxy', 1496, present=True, init=True), *started(p, N, img, 'export', 1492, '6.3s'),
        ev(p, 'Killing', 'Stopping container istio-proxy', 'Normal', count=1, first=600, last=600, host=N, fieldPath='spec.initContainers{istio-proxy}'),
        sev(job, 'SuccessfulCreate', 'Created pod: ' + pn, 'Normal', count=1, first=1500, controller='job-controller'),
        sev(job, 'Completed', 'Job completed', 'Normal', count=1, first=600, controller='job-controller'),
        sev(cj, 'SawCompletedJob', 'Saw completed job: nightly-export-29381160, condition: Complete', 'Normal', count=1, first=599, controller='cronjob-controller'),
        podlog('reporting', pn, 'export', ['2026-11-21T09:00:14Z exporting ledger partitions 2026-11-20', '2026-11-21T09:14:52Z wrote 18 files (2.4 GiB) to gs://acme-exports/2026-11-20/', '2026-11-21T09:14:55Z done'], previous=False)]
case('ap-neg-job-native-sidecar-137', 'Completed Job pod: the export finished with 0, the native istio-proxy sidecar ended with 137 when the kubelet stopped it after completion',
     'https://github.com/buildkite/agent-stack-k8s/pull/862', 'When a pod completes, native sidecar init containers (restartPolicy: Always) are terminated by the kubelet. If any sidecar exits with a non-zero code — either from SIGKILL (137) ... — their non-zero exit codes during pod shutdown are expected, not failures.',
     'reporting/' + pn, None, objs)

# N5. A node rebooted 3 hours ago for a kernel update: old NodeNotReady and Rebooted events, Ready since
N = 'compute-0'
nd = node(N, kernel='5.14.0-427.42.1.el9_4.x86_64', runtime='cri-o://1.29.10-3.rhaos4.16.git3d48a9a.el9', labels={'node-role.kubernetes.io/worker': ''})
for c in nd['status']['conditions']:
    c['lastTransitionTime'] = ago(10740)
nd['status']['nodeInfo']['bootID'] = uid('boot2' + N)
objs = [nd, ns('openshift-dns'), ns('openshift-machine-config-operator'),
        node_event(nd, 'Cordon', 'Cordoned node to apply update', last=11100, first=11100, component='machineconfigdaemon'),
        node_event(nd, 'Drain', 'Drain node to apply update', last=11095, first=11095, component='machineconfigdaemon'),
        node_event(nd, 'NodeNotSchedulable', 'Node %s status is now: NodeNotSchedulable' % N, last=11090, first=11090),
        node_event(nd, 'Reboot', 'Node will reboot into config rendered-worker-9c3a77e2b1f04d6e8a0c5b2d7f1e3a49', last=10930, first=10930, component='machineconfigdaemon'),
        node_event(nd, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=10880, first=10880, component='node-controller'),
        node_event(nd, 'Starting', 'Starting kubelet.', last=10770, first=10770),
        node_event(nd, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (N, uid('boot2' + N)), 'Warning', last=10765, first=10765),
        node_event(nd, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % N, count=2, first=10768, last=10767),
        node_event(nd, 'NodeReady', 'Node %s status is now: NodeReady' % N, last=10740, first=10740),
        node_event(nd, 'NodeSchedulable', 'Node %s status is now: NodeSchedulable' % N, last=10600, first=10600),
        node_event(nd, 'Uncordon', 'Update completed for config rendered-worker-9c3a77e2b1f04d6e8a0c5b2d7f1e3a49 and node has been uncordoned', last=10598, first=10598, component='machineconfigdaemon')]
for pn, nsn, img_ in (('dns-default-8kq2v', 'openshift-dns', 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:%s' % hexid('dns', 64)),
                      ('machine-config-daemon-t7x4m', 'openshift-machine-config-operator', 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:%s' % hexid('mcd', 64))):
    objs.append(mk_pod(pn, nsn, N, [{'name': pn.rsplit('-', 1)[0], 'image': img_}], [running(pn.rsplit('-', 1)[0], img_, 10700, restarts=1, last=term(255, 'Unknown', 86400 * 20, 10880, seed=pn, runtime='cri-o'), runtime='cri-o')], 86400 * 20,
                       owner=('DaemonSet', pn.rsplit('-', 1)[0]), labels={'app': pn.rsplit('-', 1)[0]}, runtime='cri-o'))
case('ap-neg-node-rebooted-3h', 'Node Ready for three hours after a planned reboot: the NodeNotReady and Rebooted events of the reboot are history',
     'https://github.com/red-hat-storage/ocs-ci/issues/2936', 'Warning  Rebooted  4m58s  kubelet, compute-0  Node compute-0 has been rebooted, boot id: a5204015-3948-433a-a5d2-0644efaea085',
     'node/' + N, None, objs)
