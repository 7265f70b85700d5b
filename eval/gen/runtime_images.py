# Evaluation corpus, area "container runtime, images, sandbox/CNI and security context" (slug
# prefix rt-). Every case is a real public report (url), re-dressed as the objects
# `kubectl get -o yaml` would show in a Kubernetes 1.27-1.31 cluster (containerd 1.6/1.7,
# CRI-O 1.30), with the noise of a real cluster around the decisive line.
#
#   python3 eval/gen/runtime_images.py      # writes eval/corpus/rt-*/{case.yaml,objects.yaml}
#
# Expected ids are chosen by the mechanism the report's maintainers named, never by what the
# product says; new ids are defined in eval/gen/PROPOSED-runtime-images.md.
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403

# ------------------------------------------------------------------ local helpers ----------

sev = make_sev('rtsev', 104729, 911)

def fp(c): return 'spec.containers{%s}' % c
def ifp(c): return 'spec.initContainers{%s}' % c

def scheduled(p, node_name, at):
    return sev(p, 'Scheduled', 'Successfully assigned %s/%s to %s' % (p['metadata']['namespace'], p['metadata']['name'], node_name), 'Normal', count=1, first=at,
               controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Binding')

def started(p, node_name, image, cname, at, pulled_in='3.1s', size=48213392, init=False, present=False):
    """The normal start-up history of one container."""
    f = ifp(cname) if init else fp(cname)
    if present:
        pull = [ev(p, 'Pulled', 'Container image "%s" already present on machine' % image, 'Normal', last=at, first=at, host=node_name, fieldPath=f)]
    else:
        pull = [ev(p, 'Pulling', 'Pulling image "%s"' % image, 'Normal', last=at, first=at, host=node_name, fieldPath=f),
                ev(p, 'Pulled', 'Successfully pulled image "%s" in %s (%s including waiting). Image size: %d bytes.' % (image, pulled_in, pulled_in, size), 'Normal', last=at - 3, first=at - 3, host=node_name, fieldPath=f)]
    return pull + [ev(p, 'Created', 'Created container %s' % cname, 'Normal', last=at - 4, first=at - 4, host=node_name, fieldPath=f),
                   ev(p, 'Started', 'Started container %s' % cname, 'Normal', last=at - 4, first=at - 4, host=node_name, fieldPath=f)]

def imgid(image):
    return '%s@sha256:%s' % (image.rsplit(':', 1)[0] if ':' in image.split('/')[-1] else image, hexid(image))

def running(name, image, since, restarts=0, ready=True, rt='containerd', last=None):
    s = {'name': name, 'ready': ready, 'started': True, 'restartCount': restarts, 'image': image, 'imageID': imgid(image),
         'containerID': '%s://%s' % (rt, hexid(name + image + str(since))), 'state': {'running': {'startedAt': ago(since)}}}
    if last: s['lastState'] = {'terminated': last}
    return s

def waiting(name, image, reason, message=None, restarts=0, last=None, pulled=False, rt='containerd'):
    s = {'name': name, 'ready': False, 'started': False, 'restartCount': restarts, 'image': image, 'imageID': imgid(image) if pulled else '',
         'state': {'waiting': {'reason': reason}}}
    if message: s['state']['waiting']['message'] = message
    if last: s['lastState'] = {'terminated': last}
    if pulled and restarts: s['containerID'] = '%s://%s' % (rt, hexid(name + image + 'last'))
    return s

def term(code, reason, started_at, finished_at, message=None, seed='x', rt='containerd'):
    t = {'exitCode': code, 'reason': reason, 'startedAt': ago(started_at) if started_at is not None else '1970-01-01T00:00:00Z', 'finishedAt': ago(finished_at),
         'containerID': '%s://%s' % (rt, hexid('term' + seed))}
    if message: t['message'] = message
    return t

def crashloop_msg(p, cname):
    md = p['metadata']
    return 'back-off 5m0s restarting failed container=%s pod=%s_%s(%s)' % (cname, md['name'], md['namespace'], md['uid'])

def backoff_ev_msg(p, cname):
    md = p['metadata']
    return 'Back-off restarting failed container %s in pod %s_%s(%s)' % (cname, md['name'], md['namespace'], md['uid'])

def not_ready(p, names, since, reason='ContainersNotReady'):
    msg = 'containers with unready status: [%s]' % ' '.join(names)
    for c in p['status']['conditions']:
        if c['type'] in ('Ready', 'ContainersReady'):
            c.update({'status': 'False', 'reason': reason, 'message': msg, 'lastTransitionTime': ago(since)})

def no_sandbox(p, since):
    """A pod whose sandbox never came up: no IP, PodReadyToStartContainers False."""
    for k in ('podIP', 'podIPs'): p['status'].pop(k, None)
    p['status']['conditions'].insert(0, {'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(since)})

def sandbox_ready(p, since):
    p['status']['conditions'].insert(0, {'type': 'PodReadyToStartContainers', 'status': 'True', 'lastTransitionTime': ago(since)})

def on_node(p, n):
    p['status']['hostIP'] = n['status']['addresses'][0]['address']
    p['status']['hostIPs'] = [{'ip': p['status']['hostIP']}]
    if p['spec'].get('hostNetwork'):
        p['status']['podIP'] = p['status']['hostIP']; p['status']['podIPs'] = [{'ip': p['status']['hostIP']}]
    return p

def mknode(name, runtime='containerd://1.7.22', kernel='6.1.0-27-amd64', kubelet='v1.30.6', os_image=None, arch='amd64', labels=None, created=None, **kw):
    lab = {'kubernetes.io/arch': arch, 'beta.kubernetes.io/arch': arch, 'beta.kubernetes.io/os': 'linux', **(labels or {})}
    n = node(name, runtime=runtime, kernel=kernel, kubelet=kubelet, labels=lab, **kw)
    n['status']['nodeInfo']['architecture'] = arch
    if os_image: n['status']['nodeInfo']['osImage'] = os_image
    if created is not None:
        n['metadata']['creationTimestamp'] = ago(created)
        for c in n['status']['conditions']:
            if c['status'] != 'Unknown': c['lastTransitionTime'] = ago(min(created - 30, 86400 * 20))
    return n

def deploy(name, namespace, labels, replicas, hash_, spec, ready=None):
    d = workload('Deployment', name, namespace, labels, replicas=replicas, template_spec=spec)
    d['spec']['template']['metadata']['labels'] = dict(labels)
    rs = rs_for(d, '%s-%s' % (name, hash_))
    rs['spec']['template']['metadata']['labels'] = {**labels, 'pod-template-hash': hash_}
    rs['spec']['selector']['matchLabels'] = {**labels, 'pod-template-hash': hash_}
    r = replicas if ready is None else ready
    d['status'] = {'observedGeneration': 3, 'replicas': replicas, 'updatedReplicas': replicas, 'readyReplicas': r, 'availableReplicas': r,
                   'unavailableReplicas': replicas - r if replicas - r else None,
                   'conditions': [{'type': 'Available', 'status': 'True' if r >= max(1, replicas - 1) else 'False', 'reason': 'MinimumReplicasAvailable' if r >= max(1, replicas - 1) else 'MinimumReplicasUnavailable',
                                   'message': 'Deployment has minimum availability.' if r >= max(1, replicas - 1) else 'Deployment does not have minimum availability.', 'lastTransitionTime': ago(3600), 'lastUpdateTime': ago(3600)},
                                  {'type': 'Progressing', 'status': 'True', 'reason': 'NewReplicaSetAvailable' if r == replicas else 'ReplicaSetUpdated',
                                   'message': 'ReplicaSet "%s" %s.' % (rs['metadata']['name'], 'has successfully progressed' if r == replicas else 'is progressing'), 'lastTransitionTime': ago(86400), 'lastUpdateTime': ago(600)}]}
    d['status'] = {k: v for k, v in d['status'].items() if v is not None}
    rs['status'] = {'replicas': replicas, 'fullyLabeledReplicas': replicas, 'readyReplicas': r, 'availableReplicas': r, 'observedGeneration': 1}
    return d, rs

def ds(name, namespace, labels, desired, ready, spec=None):
    o = workload('DaemonSet', name, namespace, labels, template_spec=spec)
    o['spec']['template']['metadata']['labels'] = dict(labels)
    o['status'] = {'currentNumberScheduled': desired, 'desiredNumberScheduled': desired, 'numberAvailable': ready, 'numberMisscheduled': 0,
                   'numberReady': ready, 'observedGeneration': 3, 'updatedNumberScheduled': desired}
    if desired - ready: o['status']['numberUnavailable'] = desired - ready
    return o

def ownref(p, owner):
    p['metadata']['ownerReferences'] = [{'apiVersion': owner['apiVersion'], 'kind': owner['kind'], 'name': owner['metadata']['name'], 'uid': owner['metadata']['uid'],
                                         'controller': True, 'blockOwnerDeletion': True}]
    return p

def sbx(seed): return hexid('sandbox' + seed)

def node_boot(n, at, host=None):
    """The events a node writes when its kubelet starts."""
    h = host or n['metadata']['name']
    return [ev(n, 'Starting', 'Starting kubelet.', 'Normal', last=at, first=at, host=h),
            ev(n, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % h, 'Normal', count=2, last=at - 1, first=at, host=h),
            ev(n, 'NodeHasNoDiskPressure', 'Node %s status is now: NodeHasNoDiskPressure' % h, 'Normal', count=2, last=at - 1, first=at, host=h),
            ev(n, 'NodeHasSufficientPID', 'Node %s status is now: NodeHasSufficientPID' % h, 'Normal', count=2, last=at - 1, first=at, host=h),
            ev(n, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', 'Normal', last=at - 1, first=at - 1, host=h)]

def kubelog(lines, t0, step=2):
    """Prefix klog-style timestamps onto lines (t0 seconds ago, step seconds apart)."""
    out = []
    for i, l in enumerate(lines):
        out.append(l.replace('{ts}', ago(t0 - i * step)))
    return out

def meta(title, url, reported, target, split, first, decisive=None, playbook='omit', acceptable=None):
    e = {'first': first}
    if acceptable: e['acceptable'] = acceptable
    if playbook != 'omit': e['playbook'] = playbook
    if decisive is not None: e['decisive'] = decisive
    return {'title': title, 'url': url, 'reported': reported, 'target': target, 'split': split, 'expect': e}

def _strings(o):
    if isinstance(o, str): yield o
    elif isinstance(o, dict):
        for v in o.values(): yield from _strings(v)
    elif isinstance(o, list):
        for v in o: yield from _strings(v)

CASES = []
def case(slug, m, objs):
    if m['expect'].get('decisive'):
        d = m['expect']['decisive']
        assert 20 <= len(d) <= 80, (slug, len(d))
        assert any(d in t for t in _strings(objs)), (slug, 'decisive not in dump')
    objs = [o for o in objs if not (o.get('kind') == 'Event' and _age(o) > 3600)]
    CASES.append(slug)
    write_case(slug, m, objs)

def _age(e):
    import datetime
    t = e.get('lastTimestamp') or (e.get('series') or {}).get('lastObservedTime') or e.get('eventTime')
    t = datetime.datetime.strptime(t[:19], '%Y-%m-%dT%H:%M:%S').replace(tzinfo=datetime.timezone.utc)
    return (NOW - t).total_seconds()

# =============================================================================================
# 1. CRI-O: a short image name, no alias and no unqualified-search registries (ImageInspectError)
# =============================================================================================
def c_crio_short_name():
    N = 'worker-2.lab.internal'; N1 = 'worker-1.lab.internal'
    rt = 'cri-o'
    mk = lambda n: mknode(n, runtime='cri-o://1.30.4', kernel='5.14.0-427.31.1.el9_4.x86_64', kubelet='v1.30.5', os_image='Rocky Linux 9.4 (Blue Onyx)')
    n, n1 = mk(N), mk(N1)
    img = 'kicbase/echo-server:1.0'; side = 'quay.io/prometheus/statsd-exporter:v0.27.1'
    spec = {'containers': [{'name': 'echo-server', 'image': img, 'ports': [{'containerPort': 8080}]}, {'name': 'metrics', 'image': side}]}
    d, rs = deploy('hello-minikube', 'demo', {'app': 'hello-minikube'}, 1, '5c898d8489', spec, ready=0)
    p = pod('hello-minikube-5c898d8489-8gh5t', 'demo', node_name=N, image=img, cname='echo-server', phase='Pending', created=1500, runtime=rt,
            labels={'app': 'hello-minikube', 'pod-template-hash': '5c898d8489'},
            statuses=[waiting('echo-server', img, 'ImageInspectError', 'Failed to inspect image "%s": rpc error: code = Unknown desc = short-name "%s" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"' % (img, img)),
                      running('metrics', side, 1470, rt=rt)],
            containers=[{'name': 'echo-server', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8080, 'protocol': 'TCP'}], 'resources': {}},
                        {'name': 'metrics', 'image': side, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 9102, 'protocol': 'TCP'}], 'resources': {}}])
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 1490); not_ready(p, ['echo-server'], 1490)
    p['status']['phase'] = 'Pending'
    msg = 'Failed to inspect image "%s": rpc error: code = Unknown desc = short-name "%s" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"' % (img, img)
    # a neighbour in the same namespace with fully qualified images runs fine on the same nodes
    rimg = 'docker.io/library/redis:7.2.5'
    r = pod('redis-0', 'demo', node_name=N1, image=rimg, cname='redis', created=86400 * 6, runtime=rt, labels={'app': 'redis'}, owner=('StatefulSet', 'redis'),
            statuses=[running('redis', rimg, 86400 * 6 - 20, rt=rt)])
    on_node(r, n1)
    sts = workload('StatefulSet', 'redis', 'demo', {'app': 'redis'}, replicas=1, template_spec={'containers': [{'name': 'redis', 'image': rimg}]})
    sts['status'] = {'replicas': 1, 'readyReplicas': 1, 'currentReplicas': 1, 'updatedReplicas': 1, 'availableReplicas': 1, 'observedGeneration': 1}
    objs = [ns('demo'), n, n1, d, rs, p, sts, r,
            sev(d, 'ScalingReplicaSet', 'Scaled up replica set hello-minikube-5c898d8489 to 1', 'Normal', count=1, first=1502, controller='deployment-controller'),
            sev(rs, 'SuccessfulCreate', 'Created pod: hello-minikube-5c898d8489-8gh5t', 'Normal', count=1, first=1501, controller='replicaset-controller'),
            scheduled(p, N, 1500),
            *started(p, N, side, 'metrics', 1492, pulled_in='1.804s', size=8412303),
            sev(p, 'InspectFailed', msg, count=132, last=14, first=1494, instance=N, fieldPath=fp('echo-server')),
            ev(p, 'Failed', 'Error: ImageInspectError', count=132, last=14, first=1494, host=N, fieldPath=fp('echo-server'))]
    case('rt-crio-short-name', meta(
        'ImageInspectError on CRI-O: the short name kicbase/echo-server did not resolve to an alias and no unqualified-search registries are defined',
        'https://github.com/kubernetes/minikube/pull/19395',
        'Failed to inspect image "kicbase/echo-server:1.0": rpc error: code = Unknown desc = short-name "kicbase/echo-server:1.0" did not resolve to an alias and no unqualified-search registries are defined in "/etc/containers/registries.conf"',
        'demo/hello-minikube-5c898d8489-8gh5t', 'dev', 'image.short-name',
        decisive='did not resolve to an alias and no unqualified-search registries are defined', playbook=None), objs)

# =============================================================================================
# 2. An amd64-only image on an arm64 node: "no match for platform in manifest: not found"
# =============================================================================================
def c_no_match_platform():
    N = 'kind-control-plane'
    n = mknode(N, runtime='containerd://1.7.18', kernel='6.10.4-linuxkit', kubelet='v1.30.0', os_image='Debian GNU/Linux 12 (bookworm)', arch='arm64',
               labels={'node-role.kubernetes.io/control-plane': ''}, created=3 * 3600)
    img = 'foundationdb/fdb-kubernetes-operator:v2.6.0'
    spec = {'serviceAccountName': 'fdb-kubernetes-operator-controller-manager', 'containers': [{'name': 'manager', 'image': img}]}
    d, rs = deploy('fdb-kubernetes-operator-controller-manager', 'default', {'app': 'fdb-kubernetes-operator-controller-manager'}, 1, '7f5575c8dd', spec, ready=0)
    full = 'docker.io/' + img
    err = 'rpc error: code = NotFound desc = failed to pull and unpack image "%s": no match for platform in manifest: not found' % full
    p = pod('fdb-kubernetes-operator-controller-manager-7f5575c8dd-6gprn', 'default', node_name=N, image=img, cname='manager', phase='Pending', created=333,
            labels={'app': 'fdb-kubernetes-operator-controller-manager', 'pod-template-hash': '7f5575c8dd'},
            statuses=[waiting('manager', img, 'ImagePullBackOff', 'Back-off pulling image "%s"' % img)],
            containers=[{'name': 'manager', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'command': ['/manager'], 'args': ['--leader-elect'],
                         'resources': {'limits': {'cpu': '500m', 'memory': '256Mi'}, 'requests': {'cpu': '500m', 'memory': '256Mi'}},
                         'securityContext': {'allowPrivilegeEscalation': False, 'privileged': False, 'readOnlyRootFilesystem': True}}],
            spec_extra={'serviceAccountName': 'fdb-kubernetes-operator-controller-manager', 'securityContext': {'runAsGroup': 4059, 'runAsUser': 4059, 'fsGroup': 4059}})
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 328); not_ready(p, ['manager'], 330)
    # a multi-arch image on the same node is fine
    lp_img = 'docker.io/kindest/local-path-provisioner:v20240513-b9bba138'
    lp = pod('local-path-provisioner-988d74bc-2xqtk', 'local-path-storage', node_name=N, image=lp_img, cname='local-path-provisioner', created=3 * 3600 - 60,
             labels={'app': 'local-path-provisioner', 'pod-template-hash': '988d74bc'}, statuses=[running('local-path-provisioner', lp_img, 3 * 3600 - 90)])
    on_node(lp, n)
    objs = [ns('default'), ns('local-path-storage'), n, d, rs, p, lp, serviceaccount('fdb-kubernetes-operator-controller-manager', 'default', created=400),
            sev(rs, 'SuccessfulCreate', 'Created pod: fdb-kubernetes-operator-controller-manager-7f5575c8dd-6gprn', 'Normal', count=1, first=334, controller='replicaset-controller'),
            scheduled(p, N, 333),
            ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=5, last=60, first=331, host=N, fieldPath=fp('manager')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err), count=5, last=58, first=329, host=N, fieldPath=fp('manager')),
            ev(p, 'Failed', 'Error: ErrImagePull', count=5, last=58, first=329, host=N, fieldPath=fp('manager')),
            ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=14, last=9, first=316, host=N, fieldPath=fp('manager')),
            ev(p, 'Failed', 'Error: ImagePullBackOff', count=14, last=9, first=316, host=N, fieldPath=fp('manager'))]
    case('rt-no-match-platform-arm64', meta(
        'ImagePullBackOff on an arm64 kind node: the operator image has no linux/arm64 entry ("no match for platform in manifest")',
        'https://github.com/FoundationDB/fdb-kubernetes-operator/issues/2294',
        'Failed to pull image "foundationdb/fdb-kubernetes-operator:v2.6.0": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/foundationdb/fdb-kubernetes-operator:v2.6.0": no match for platform in manifest: not found',
        'default/fdb-kubernetes-operator-controller-manager-7f5575c8dd-6gprn', 'dev', 'image.wrong-arch',
        decisive='no match for platform in manifest: not found'), objs)

# =============================================================================================
# 3. containerd 1.6 on a node without the apparmor package: every container create fails
# =============================================================================================
def c_apparmor_parser_missing():
    N = 'racknerd-4f290c'
    n = mknode(N, runtime='containerd://1.6.28', kernel='5.15.0-119-generic', kubelet='v1.27.16', os_image='Ubuntu 22.04.4 LTS', created=5 * 3600)
    msg = 'failed to create containerd container: get apparmor_parser version: exec: "apparmor_parser": executable file not found in $PATH'
    img = 'docker.io/library/nginx:1.25.5'
    spec = {'containers': [{'name': 'nginx', 'image': img, 'ports': [{'containerPort': 80}]}]}
    d, rs = deploy('nginx-demo', 'default', {'app': 'nginx-demo'}, 2, '7c79c4bf97', spec, ready=0)
    pods = []; objs = [ns('default'), ns('kube-system'), n, d, rs]
    for i, (name, created) in enumerate([('nginx-demo-7c79c4bf97-2xk8p', 2700), ('nginx-demo-7c79c4bf97-q9wls', 2700)]):
        p = pod(name, 'default', node_name=N, image=img, cname='nginx', phase='Pending', created=created,
                labels={'app': 'nginx-demo', 'pod-template-hash': '7c79c4bf97'}, statuses=[waiting('nginx', img, 'CreateContainerError', msg)],
                containers=[{'name': 'nginx', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 80, 'protocol': 'TCP'}]}])
        ownref(p, rs); on_node(p, n); sandbox_ready(p, created - 6); not_ready(p, ['nginx'], created - 6)
        objs += [p, scheduled(p, N, created), *started(p, N, img, 'nginx', created - 8, pulled_in='4.212s', size=70984823)[:2],
                 ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=118, last=19 + i, first=created - 30, host=N, fieldPath=fp('nginx')),
                 sev(p, 'Failed', 'Error: ' + msg, count=131, last=19 + i, first=created - 12, instance=N, fieldPath=fp('nginx'))]
        # started() yields Pulling, Pulled, Created, Started: keep only the pull
    kp_img = 'registry.k8s.io/kube-proxy:v1.27.16'
    kds = ds('kube-proxy', 'kube-system', {'k8s-app': 'kube-proxy'}, 1, 0, spec={'containers': [{'name': 'kube-proxy', 'image': kp_img}], 'hostNetwork': True})
    kp = pod('kube-proxy-7hm2d', 'kube-system', node_name=N, image=kp_img, cname='kube-proxy', phase='Pending', created=5 * 3600 - 120, labels={'k8s-app': 'kube-proxy'},
             statuses=[waiting('kube-proxy', kp_img, 'CreateContainerError', msg)], spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
    ownref(kp, kds); on_node(kp, n); sandbox_ready(kp, 5 * 3600 - 125); not_ready(kp, ['kube-proxy'], 5 * 3600 - 125)
    objs += [kds, kp, ev(kp, 'Failed', 'Error: ' + msg, count=1362, last=11, first=5 * 3600 - 130, host=N, fieldPath=fp('kube-proxy')),
             ev(kp, 'Pulled', 'Container image "%s" already present on machine' % kp_img, 'Normal', count=1362, last=11, first=5 * 3600 - 130, host=N, fieldPath=fp('kube-proxy')),
             *node_boot(n, 5 * 3600),
             ev(n, 'NodeReady', 'Node %s status is now: NodeReady' % N, 'Normal', last=5 * 3600 - 40, first=5 * 3600 - 40, host=N),
             ev(n, 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (N, N), 'Normal', last=5 * 3600 - 35, first=5 * 3600 - 35, component='node-controller')]
    # drop the Created/Started events that started() added: this container never started
    objs = [o for o in objs if not (o.get('kind') == 'Event' and o.get('reason') in ('Created', 'Started') and o['involvedObject']['name'].startswith('nginx-demo'))]
    case('rt-apparmor-parser-missing', meta(
        'CreateContainerError on every pod of one node: containerd 1.6 sees AppArmor enabled but the node lacks apparmor_parser',
        'https://github.com/containerd/containerd/issues/7547',
        '"CreateContainer in sandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to create containerd container: get apparmor_parser version: exec: \\"apparmor_parser\\": executable file not found in $PATH"',
        'default/nginx-demo-7c79c4bf97-2xk8p', 'holdout', 'container.create-error',
        decisive='get apparmor_parser version: exec: "apparmor_parser": executable file not found'), objs)


# =============================================================================================
# 4. The containerd shim binary the runtime is configured for is not installed on the node
# =============================================================================================
def c_shim_missing():
    N = 'flatcar-worker-03'
    n = mknode(N, runtime='containerd://1.7.21', kernel='6.6.54-flatcar', kubelet='v1.29.8', os_image='Flatcar Container Linux by Kinvolk 3975.2.1 (Oklo)', created=4 * 3600)
    err = 'failed to create containerd task: failed to start shim: failed to resolve runtime path: runtime "io.containerd.runc.v1" binary not installed "containerd-shim-runc-v1": file does not exist: unknown'
    objs = [ns('kube-system'), ns('monitoring'), n]
    kp_img = 'registry.k8s.io/kube-proxy:v1.29.8'
    kds = ds('kube-proxy', 'kube-system', {'k8s-app': 'kube-proxy'}, 3, 2, spec={'containers': [{'name': 'kube-proxy', 'image': kp_img}], 'hostNetwork': True})
    kp = pod('kube-proxy-f5972', 'kube-system', node_name=N, image=kp_img, cname='kube-proxy', phase='Pending', created=4 * 3600 - 90, labels={'k8s-app': 'kube-proxy'},
             statuses=[waiting('kube-proxy', kp_img, 'ContainerCreating')],
             containers=[{'name': 'kube-proxy', 'image': kp_img, 'command': ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
                          'securityContext': {'privileged': True}}],
             spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'kube-proxy'})
    ownref(kp, kds); on_node(kp, n); no_sandbox(kp, 4 * 3600 - 90); not_ready(kp, ['kube-proxy'], 4 * 3600 - 90)
    objs += [kds, kp, scheduled(kp, N, 4 * 3600 - 90),
             sev(kp, 'FailedCreatePodSandBox', 'Failed to create pod sandbox: rpc error: code = Unknown desc = ' + err, count=1031, last=13, first=4 * 3600 - 88, instance=N)]
    ne_img = 'quay.io/prometheus/node-exporter:v1.8.2'
    nds = ds('node-exporter', 'monitoring', {'app.kubernetes.io/name': 'node-exporter'}, 3, 2, spec={'containers': [{'name': 'node-exporter', 'image': ne_img}], 'hostNetwork': True})
    ne = pod('node-exporter-9rq4t', 'monitoring', node_name=N, image=ne_img, cname='node-exporter', phase='Pending', created=4 * 3600 - 85, labels={'app.kubernetes.io/name': 'node-exporter'},
             statuses=[waiting('node-exporter', ne_img, 'ContainerCreating')], spec_extra={'hostNetwork': True, 'hostPID': True})
    ownref(ne, nds); on_node(ne, n); no_sandbox(ne, 4 * 3600 - 85); not_ready(ne, ['node-exporter'], 4 * 3600 - 85)
    objs += [nds, ne, scheduled(ne, N, 4 * 3600 - 85),
             sev(ne, 'FailedCreatePodSandBox', 'Failed to create pod sandbox: rpc error: code = Unknown desc = ' + err, count=1029, last=27, first=4 * 3600 - 83, instance=N)]
    # the two older workers run the same DaemonSets fine
    for i, w in enumerate(['flatcar-worker-01', 'flatcar-worker-02']):
        wn = mknode(w, runtime='containerd://1.7.21', kernel='6.6.54-flatcar', kubelet='v1.29.8', os_image='Flatcar Container Linux by Kinvolk 3975.2.1 (Oklo)')
        wp = pod('kube-proxy-%s' % ['m2xvd', 'tq8kz'][i], 'kube-system', node_name=w, image=kp_img, cname='kube-proxy', created=86400 * 20, labels={'k8s-app': 'kube-proxy'},
                 statuses=[running('kube-proxy', kp_img, 86400 * 20 - 10)], spec_extra={'hostNetwork': True})
        ownref(wp, kds); on_node(wp, wn)
        objs += [wn, wp]
    objs += [*node_boot(n, 4 * 3600), ev(n, 'NodeReady', 'Node %s status is now: NodeReady' % N, 'Normal', last=4 * 3600 - 30, first=4 * 3600 - 30, host=N),
             ev(n, 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (N, N), 'Normal', last=4 * 3600 - 20, first=4 * 3600 - 20, component='node-controller')]
    case('rt-shim-binary-missing', meta(
        'Every pod on a new Flatcar worker stays ContainerCreating: containerd is configured for the runc v1 shim, whose binary the node does not ship',
        'https://github.com/flatcar/Flatcar/issues/201',
        'CreatePodSandbox for pod "kube-proxy-f5972_kube-system(31ad14fb-fea3-46cb-8dce-7436816fb596)" failed: rpc error: code = Unknown desc = failed to create containerd task: runtime "io.containerd.runc.v1" binary not installed "containerd-shim-runc-v1": file does not exist: unknown',
        'kube-system/kube-proxy-f5972', 'dev', 'sandbox.create-failed',
        decisive='binary not installed "containerd-shim-runc-v1": file does not exist'), objs)

# =============================================================================================
# 5. A RuntimeClass whose handler the node's containerd does not have ("nvidia")
# =============================================================================================
def c_runtimeclass_handler():
    N = 'i-071a4e5a302e4025b'; C = 'i-0a93b1c77de2f5640'
    n = mknode(N, runtime='containerd://1.7.13', kernel='5.15.0-1063-aws', kubelet='v1.28.11', os_image='Ubuntu 22.04.4 LTS',
               labels={'node.kubernetes.io/instance-type': 'g4dn.xlarge', 'nvidia.com/gpu.present': 'true', 'feature.node.kubernetes.io/pci-10de.present': 'true',
                       'kops.k8s.io/instancegroup': 'gpu-nodes', 'topology.kubernetes.io/zone': 'eu-west-1a'}, created=7 * 3600,
               alloc={'cpu': '3920m', 'memory': '15Gi', 'pods': '110', 'ephemeral-storage': '118Gi'})
    c = mknode(C, runtime='containerd://1.7.13', kernel='5.15.0-1063-aws', kubelet='v1.28.11', os_image='Ubuntu 22.04.4 LTS',
               labels={'node.kubernetes.io/instance-type': 'm5.large', 'kops.k8s.io/instancegroup': 'nodes', 'node-role.kubernetes.io/node': ''})
    rc = {'apiVersion': 'node.k8s.io/v1', 'kind': 'RuntimeClass', 'metadata': {'name': 'nvidia', 'uid': uid('rc-nvidia'), 'creationTimestamp': ago(86400 * 7),
          'labels': {'app.kubernetes.io/component': 'gpu-operator'}, 'ownerReferences': [{'apiVersion': 'nvidia.com/v1', 'kind': 'ClusterPolicy', 'name': 'cluster-policy', 'uid': uid('cp'), 'controller': True, 'blockOwnerDeletion': True}]},
          'handler': 'nvidia'}
    err = 'failed to get sandbox runtime: no runtime for "nvidia" is configured'
    objs = [ns('gpu-operator'), n, c, rc]
    dp_img = 'nvcr.io/nvidia/k8s-device-plugin:v0.14.5-ubi8'; val = 'nvcr.io/nvidia/cloud-native/gpu-operator-validator:v23.9.2'
    dds = ds('nvidia-device-plugin-daemonset', 'gpu-operator', {'app': 'nvidia-device-plugin-daemonset'}, 1, 0,
             spec={'runtimeClassName': 'nvidia', 'nodeSelector': {'nvidia.com/gpu.deploy.device-plugin': 'true'}, 'containers': [{'name': 'nvidia-device-plugin', 'image': dp_img}]})
    p = pod('nvidia-device-plugin-daemonset-w72xb', 'gpu-operator', node_name=N, image=dp_img, cname='nvidia-device-plugin', phase='Pending', created=6 * 3600 + 131,
            labels={'app': 'nvidia-device-plugin-daemonset', 'controller-revision-hash': '5b4c7f9d8c', 'pod-template-generation': '1'},
            statuses=[waiting('nvidia-device-plugin', dp_img, 'PodInitializing')],
            containers=[{'name': 'nvidia-device-plugin', 'image': dp_img, 'command': ['nvidia-device-plugin'], 'env': [{'name': 'PASS_DEVICE_SPECS', 'value': 'true'}, {'name': 'FAIL_ON_INIT_ERROR', 'value': 'true'}],
                         'securityContext': {'privileged': True}}],
            spec_extra={'runtimeClassName': 'nvidia', 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'nvidia-device-plugin',
                        'nodeSelector': {'nvidia.com/gpu.deploy.device-plugin': 'true'},
                        'initContainers': [{'name': 'toolkit-validation', 'image': val, 'command': ['sh', '-c'], 'args': ['until [ -f /run/nvidia/validations/toolkit-ready ]; do echo waiting for nvidia container stack to be setup; sleep 5; done']}]})
    p['status']['initContainerStatuses'] = [waiting('toolkit-validation', val, 'PodInitializing')]
    ownref(p, dds); on_node(p, n); no_sandbox(p, 6 * 3600 + 130)
    for cnd in p['status']['conditions']:
        if cnd['type'] == 'Initialized': cnd.update({'status': 'False', 'reason': 'ContainersNotInitialized', 'message': 'containers with incomplete status: [toolkit-validation]'})
    not_ready(p, ['nvidia-device-plugin'], 6 * 3600 + 130)
    objs += [dds, p, scheduled(p, N, 6 * 3600 + 131),
             sev(p, 'FailedCreatePodSandBox', 'Failed to create pod sandbox: rpc error: code = Unknown desc = ' + err, count=1694, last=12, first=6 * 3600 + 130, instance=N)]
    # the other operands that use the runtime class are stuck the same way; the operator itself runs
    gfd_img = 'nvcr.io/nvidia/gpu-feature-discovery:v0.8.2-ubi8'
    gds = ds('gpu-feature-discovery', 'gpu-operator', {'app': 'gpu-feature-discovery'}, 1, 0, spec={'runtimeClassName': 'nvidia', 'containers': [{'name': 'gpu-feature-discovery', 'image': gfd_img}]})
    g = pod('gpu-feature-discovery-6tk4h', 'gpu-operator', node_name=N, image=gfd_img, cname='gpu-feature-discovery', phase='Pending', created=6 * 3600 + 128,
            labels={'app': 'gpu-feature-discovery'}, statuses=[waiting('gpu-feature-discovery', gfd_img, 'PodInitializing')], spec_extra={'runtimeClassName': 'nvidia'})
    ownref(g, gds); on_node(g, n); no_sandbox(g, 6 * 3600 + 128); not_ready(g, ['gpu-feature-discovery'], 6 * 3600 + 128)
    tk_img = 'nvcr.io/nvidia/k8s/container-toolkit:v1.14.6-ubuntu20.04'
    tds = ds('nvidia-container-toolkit-daemonset', 'gpu-operator', {'app': 'nvidia-container-toolkit-daemonset'}, 1, 1, spec={'containers': [{'name': 'nvidia-container-toolkit-ctr', 'image': tk_img}]})
    t = pod('nvidia-container-toolkit-daemonset-8wq2l', 'gpu-operator', node_name=N, image=tk_img, cname='nvidia-container-toolkit-ctr', created=6 * 3600 + 140,
            labels={'app': 'nvidia-container-toolkit-daemonset'}, statuses=[running('nvidia-container-toolkit-ctr', tk_img, 6 * 3600 + 60)],
            containers=[{'name': 'nvidia-container-toolkit-ctr', 'image': tk_img, 'env': [{'name': 'RUNTIME', 'value': 'containerd'}, {'name': 'CONTAINERD_RUNTIME_CLASS', 'value': 'nvidia'},
                         {'name': 'CONTAINERD_CONFIG', 'value': '/runtime/config-dir/config.toml'}, {'name': 'CONTAINERD_SOCKET', 'value': '/runtime/sock-dir/containerd.sock'}]}])
    ownref(t, tds); on_node(t, n)
    op_img = 'nvcr.io/nvidia/gpu-operator:v23.9.2'
    od, ors = deploy('gpu-operator', 'gpu-operator', {'app': 'gpu-operator'}, 1, '6c8649c88c', {'containers': [{'name': 'gpu-operator', 'image': op_img}]})
    op = pod('gpu-operator-6c8649c88c-h7vzn', 'gpu-operator', node_name=C, image=op_img, cname='gpu-operator', created=86400 * 7, labels={'app': 'gpu-operator', 'pod-template-hash': '6c8649c88c'},
             statuses=[running('gpu-operator', op_img, 86400 * 7 - 30)])
    ownref(op, ors); on_node(op, c)
    objs += [gds, g, tds, t, od, ors, op, scheduled(g, N, 6 * 3600 + 128),
             sev(g, 'FailedCreatePodSandBox', 'Failed to create pod sandbox: rpc error: code = Unknown desc = ' + err, count=1690, last=25, first=6 * 3600 + 126, instance=N),
             scheduled(t, N, 6 * 3600 + 140), *started(t, N, tk_img, 'nvidia-container-toolkit-ctr', 6 * 3600 + 135, pulled_in='21.4s', size=143722019)]
    case('rt-runtimeclass-handler-missing', meta(
        'GPU operator pods stay ContainerCreating: their RuntimeClass handler "nvidia" is not configured in the node\'s containerd',
        'https://github.com/NVIDIA/gpu-operator/issues/730',
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured',
        'gpu-operator/nvidia-device-plugin-daemonset-w72xb', 'dev', 'runtime.handler-missing',
        decisive='no runtime for "nvidia" is configured', playbook=None), objs)

# =============================================================================================
# 6. A hostPath file that is missing on the node, mounted onto a file of the image
# =============================================================================================
def c_mount_file_dir():
    N = 'k3s-agent-1'
    n = mknode(N, runtime='containerd://1.7.22-k3s1', kernel='5.15.0-125-generic', kubelet='v1.30.6+k3s1', os_image='Ubuntu 22.04.5 LTS',
               labels={'node.kubernetes.io/instance-type': 'k3s', 'node-role.kubernetes.io/worker': 'true'})
    img = 'registry.example.com/crm/customer-portal:3.2.1'
    vol = {'name': 'customer', 'hostPath': {'path': '/srv/customer/profile.json', 'type': ''}}
    spec = {'containers': [{'name': 'portal', 'image': img, 'volumeMounts': [{'name': 'customer', 'mountPath': '/customer/profile.json'}]}], 'volumes': [vol]}
    d, rs = deploy('customer-portal', 'crm', {'app': 'customer-portal'}, 1, '58d9c7f6b4', spec, ready=0)
    old_rs = rs_for(d, 'customer-portal-6b77f4c9d5')
    old_rs['spec']['replicas'] = 0; old_rs['status'] = {'replicas': 0, 'observedGeneration': 2}
    old_rs['metadata']['annotations'] = {'deployment.kubernetes.io/revision': '2'}
    err = ('failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: '
           'error during container init: error mounting "/srv/customer/profile.json" to rootfs at "/customer/profile.json": '
           'mount /srv/customer/profile.json:/customer/profile.json (via /proc/self/fd/6), flags: 0x5000: not a directory: unknown')
    p = pod('customer-portal-58d9c7f6b4-jx2wq', 'crm', node_name=N, image=img, cname='portal', created=1900, labels={'app': 'customer-portal', 'pod-template-hash': '58d9c7f6b4'},
            statuses=[waiting('portal', img, 'CrashLoopBackOff', None, restarts=7, pulled=True,
                              last=term(128, 'StartError', None, 212, message=err, seed='portal7'))],
            containers=[{'name': 'portal', 'image': img, 'ports': [{'containerPort': 8080, 'protocol': 'TCP'}], 'volumeMounts': [{'name': 'customer', 'mountPath': '/customer/profile.json'}],
                         'resources': {'requests': {'cpu': '200m', 'memory': '384Mi'}, 'limits': {'memory': '768Mi'}}}],
            spec_extra={'volumes': [vol]})
    p['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(p, 'portal')
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 1895); not_ready(p, ['portal'], 1895)
    objs = [ns('crm'), n, d, rs, old_rs, p,
            sev(d, 'ScalingReplicaSet', 'Scaled up replica set customer-portal-58d9c7f6b4 to 1', 'Normal', count=1, first=1902, controller='deployment-controller'),
            sev(d, 'ScalingReplicaSet', 'Scaled down replica set customer-portal-6b77f4c9d5 to 0 from 1', 'Normal', count=1, first=1901, controller='deployment-controller'),
            # the previous revision declared type: File and was refused by the kubelet's type check
            ev({'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'customer-portal-6b77f4c9d5-m4kq8', 'namespace': 'crm', 'uid': uid('oldportal')}}, 'FailedMount',
               'MountVolume.SetUp failed for volume "customer" : hostPath type check failed: /srv/customer/profile.json is not a file', count=9, last=1950, first=2900, host=N),
            scheduled(p, N, 1900), *started(p, N, img, 'portal', 1896, pulled_in='7.83s', size=211043517)[:2],
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=7, last=215, first=1870, host=N, fieldPath=fp('portal')),
            ev(p, 'Created', 'Created container portal', 'Normal', count=8, last=214, first=1890, host=N, fieldPath=fp('portal')),
            sev(p, 'Failed', 'Error: ' + err, count=8, last=212, first=1889, instance=N, fieldPath=fp('portal')),
            ev(p, 'BackOff', backoff_ev_msg(p, 'portal'), count=84, last=8, first=1860, host=N, fieldPath=fp('portal'))]
    case('rt-mount-file-onto-dir', meta(
        'StartError "not a directory": a hostPath file missing on the node is created as a directory and mounted onto a file of the image',
        'https://github.com/k3s-io/k3s/issues/1810',
        "The 'not a directory' error is coming back from the actual Unix mount command",
        'crm/customer-portal-58d9c7f6b4-jx2wq', 'holdout', 'container.mount-type-mismatch',
        decisive='/customer/profile.json (via /proc/self/fd/6), flags: 0x5000: not a directory', playbook=None), objs)

# =============================================================================================
# 7. exec format error from an entrypoint script without a shebang (amd64 image, amd64 node)
# =============================================================================================
def c_exec_format_shebang():
    N = 'ip-10-0-18-77.eu-central-1.compute.internal'
    n = mknode(N, runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', kubelet='v1.30.4-eks-a737599', os_image='Amazon Linux 2023.6.20241031',
               labels={'node.kubernetes.io/instance-type': 'm6i.large', 'eks.amazonaws.com/nodegroup': 'workers', 'topology.kubernetes.io/zone': 'eu-central-1b'})
    img = 'registry.example.com/tasks/celery-app:1.8.0'
    env = [{'name': 'LOGLEVEL', 'value': 'info'}, {'name': 'CELERY_BROKER_URL', 'valueFrom': {'secretKeyRef': {'name': 'celery-broker', 'key': 'url'}}}]
    wspec = {'containers': [{'name': 'worker', 'image': img, 'env': env}]}
    d, rs = deploy('celery-worker', 'tasks', {'app': 'celery-worker'}, 2, '6d9f7b8c4d', wspec, ready=0)
    p = pod('celery-worker-6d9f7b8c4d-n8r2k', 'tasks', node_name=N, image=img, cname='worker', created=1320, labels={'app': 'celery-worker', 'pod-template-hash': '6d9f7b8c4d'},
            statuses=[waiting('worker', img, 'CrashLoopBackOff', None, restarts=6, pulled=True, last=term(1, 'Error', 244, 244, seed='cw6'))],
            containers=[{'name': 'worker', 'image': img, 'env': env, 'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}}])
    p['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(p, 'worker')
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 1315); not_ready(p, ['worker'], 1315)
    # the beat scheduler runs the same image with an explicit command and is fine
    bd, brs = deploy('celery-beat', 'tasks', {'app': 'celery-beat'}, 1, '7b5c8d9f6a', {'containers': [{'name': 'beat', 'image': img, 'command': ['celery', '-A', 'tasks', 'beat']}]})
    b = pod('celery-beat-7b5c8d9f6a-wq4dm', 'tasks', node_name=N, image=img, cname='beat', created=1325, labels={'app': 'celery-beat', 'pod-template-hash': '7b5c8d9f6a'},
            statuses=[running('beat', img, 1300)], containers=[{'name': 'beat', 'image': img, 'command': ['celery', '-A', 'tasks', 'beat', '--loglevel=info'], 'env': env}])
    ownref(b, brs); on_node(b, n)
    objs = [ns('tasks'), n, d, rs, p, bd, brs, b,
            sev(d, 'ScalingReplicaSet', 'Scaled up replica set celery-worker-6d9f7b8c4d to 2', 'Normal', count=1, first=1322, controller='deployment-controller'),
            scheduled(p, N, 1320), *started(p, N, img, 'worker', 1316, pulled_in='9.913s', size=187331046),
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=6, last=246, first=1290, host=N, fieldPath=fp('worker')),
            ev(p, 'Created', 'Created container worker', 'Normal', count=6, last=245, first=1290, host=N, fieldPath=fp('worker')),
            ev(p, 'Started', 'Started container worker', 'Normal', count=6, last=245, first=1290, host=N, fieldPath=fp('worker')),
            ev(p, 'BackOff', backoff_ev_msg(p, 'worker'), count=57, last=6, first=1280, host=N, fieldPath=fp('worker')),
            scheduled(b, N, 1325), *started(b, N, img, 'beat', 1318, present=True),
            podlog('tasks', 'celery-worker-6d9f7b8c4d-n8r2k', 'worker', ['exec /app/entrypoint.sh: exec format error'], previous=True),
            podlog('tasks', 'celery-beat-7b5c8d9f6a-wq4dm', 'beat', kubelog([
                '[{ts} INFO/MainProcess] beat: Starting...',
                '[{ts} INFO/MainProcess] Scheduler: Sending due task cleanup-expired-sessions (tasks.cleanup_sessions)',
                '[{ts} INFO/MainProcess] Scheduler: Sending due task refresh-exchange-rates (tasks.refresh_rates)'], 1290, step=300), previous=False)]
    case('rt-exec-format-no-shebang', meta(
        'CrashLoopBackOff "exec format error" on an amd64 node with an amd64 image: the new entrypoint script has no shebang line',
        'https://github.com/opencontainers/runc/issues/1773',
        'standard_init_linux.go:195: exec user process caused "exec format error"',
        'tasks/celery-worker-6d9f7b8c4d-n8r2k', 'dev', 'container.start-error',
        decisive='exec /app/entrypoint.sh: exec format error'), objs)

# =============================================================================================
# 8. permission denied on the entrypoint: the rebuilt image lost the script's execute bit
# =============================================================================================
def c_entrypoint_permission():
    N = 'worker-db-2'
    n = mknode(N, runtime='containerd://1.7.20', kernel='6.8.0-45-generic', kubelet='v1.29.9', os_image='Ubuntu 24.04.1 LTS')
    img = 'registry.example.com/db/galera-mariadb:10.11-custom'
    err = 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/entrypoint.sh": permission denied: unknown'
    vct = [{'metadata': {'name': 'data'}, 'spec': {'accessModes': ['ReadWriteOnce'], 'storageClassName': 'local-ssd', 'resources': {'requests': {'storage': '50Gi'}}}}]
    sts = workload('StatefulSet', 'galera', 'db', {'app': 'galera'}, replicas=3,
                   template_spec={'containers': [{'name': 'galera', 'image': img, 'ports': [{'containerPort': 3306}, {'containerPort': 4567}, {'containerPort': 4568}, {'containerPort': 4444}],
                                                  'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/mysql'}]}]})
    sts['spec']['volumeClaimTemplates'] = vct; sts['spec']['serviceName'] = 'galera'
    sts['status'] = {'replicas': 1, 'readyReplicas': 0, 'currentReplicas': 1, 'updatedReplicas': 1, 'observedGeneration': 1, 'availableReplicas': 0}
    p = pod('galera-0', 'db', node_name=N, image=img, cname='galera', created=1700, labels={'app': 'galera', 'statefulset.kubernetes.io/pod-name': 'galera-0'},
            statuses=[waiting('galera', img, 'CrashLoopBackOff', None, restarts=6, pulled=True, last=term(128, 'StartError', None, 190, message=err, seed='g6'))],
            containers=[{'name': 'galera', 'image': img, 'env': [{'name': 'MYSQL_ROOT_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'galera-root', 'key': 'password'}}},
                                                                 {'name': 'CLUSTER_NAME', 'value': 'galera'}],
                         'ports': [{'containerPort': 3306, 'name': 'mysql'}, {'containerPort': 4567, 'name': 'galera-repl'}], 'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/mysql'}]}],
            spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-galera-0'}}], 'hostname': 'galera-0', 'subdomain': 'galera'})
    p['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(p, 'galera')
    ownref(p, sts); on_node(p, n); sandbox_ready(p, 1680); not_ready(p, ['galera'], 1680)
    claim = pvc('data-galera-0', 'db', storage_class='local-ssd', phase='Bound', size='50Gi', volume='pvc-7a1c2e94-33b0-4d1f-9c55-0e2b8d6f1a47', created=1700)
    vol = pv('pvc-7a1c2e94-33b0-4d1f-9c55-0e2b8d6f1a47', claim=claim, driver='local.csi.openebs.io', handle='pvc-7a1c2e94-33b0-4d1f-9c55-0e2b8d6f1a47', size='50Gi', storage_class='local-ssd',
             node_affinity={'required': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'kubernetes.io/hostname', 'operator': 'In', 'values': [N]}]}]}})
    sc = storageclass('local-ssd', provisioner='local.csi.openebs.io')
    objs = [ns('db'), n, sts, p, claim, vol, sc, service('galera', 'db', {'app': 'galera'}, ports=((3306, 3306),)),
            sev(sts, 'SuccessfulCreate', 'create Pod galera-0 in StatefulSet galera successful', 'Normal', count=1, first=1701, controller='statefulset-controller'),
            sev(sts, 'SuccessfulCreate', 'create Claim data-galera-0 Pod galera-0 in StatefulSet galera success', 'Normal', count=1, first=1702, controller='statefulset-controller'),
            sev(claim, 'ProvisioningSucceeded', 'Successfully provisioned volume pvc-7a1c2e94-33b0-4d1f-9c55-0e2b8d6f1a47', 'Normal', count=1, first=1695, controller='local.csi.openebs.io_openebs-localpv-provisioner-7d9d8b7c5-q2w8e'),
            scheduled(p, N, 1694), *started(p, N, img, 'galera', 1688, pulled_in='14.02s', size=402113887)[:2],
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=6, last=192, first=1650, host=N, fieldPath=fp('galera')),
            ev(p, 'Created', 'Created container galera', 'Normal', count=7, last=191, first=1684, host=N, fieldPath=fp('galera')),
            sev(p, 'Failed', 'Error: ' + err, count=7, last=190, first=1683, instance=N, fieldPath=fp('galera')),
            ev(p, 'BackOff', backoff_ev_msg(p, 'galera'), count=73, last=16, first=1640, host=N, fieldPath=fp('galera'))]
    case('rt-entrypoint-permission-denied', meta(
        'StartError "permission denied": the rebuilt Galera image\'s /entrypoint.sh is not executable',
        'https://github.com/severalnines/galera-docker-mariadb/issues/7',
        'Error: failed to start container "galera": Error response from daemon: oci runtime error: container_linux.go:265: starting container process caused "exec: \\"/entrypoint.sh\\": permission denied"',
        'db/galera-0', 'dev', 'container.start-error',
        decisive='exec: "/entrypoint.sh": permission denied'), objs)

# =============================================================================================
# 9. runc cannot write the CPU quota into the container's cgroup (kernel cgroup bug)
# =============================================================================================
def c_cgroup_quota():
    N = 'k8s-onprem-w07'
    n = mknode(N, runtime='containerd://1.6.33', kernel='4.19.0-6-amd64', kubelet='v1.27.16', os_image='Debian GNU/Linux 10 (buster)')
    img = 'registry.example.com/analytics/collector:5.4.2'
    spec = {'containers': [{'name': 'collector', 'image': img, 'resources': {'requests': {'cpu': '1', 'memory': '1Gi'}, 'limits': {'cpu': '2', 'memory': '2Gi'}}}]}
    d, rs = deploy('sla-collector', 'sladev', {'app': 'sla-collector'}, 3, '77cbd9cbb9', spec, ready=2)
    pu = uid('podsladevsla-collector-77cbd9cbb9-9q88h')
    cid = hexid('collector-new')
    err = ('failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: '
           'error setting cgroup config for procHooks process: failed to write "200000": write /sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod%s/%s/cpu.cfs_quota_us: invalid argument: unknown' % (pu, cid))
    p = pod('sla-collector-77cbd9cbb9-9q88h', 'sladev', node_name=N, image=img, cname='collector', created=86400 * 2, labels={'app': 'sla-collector', 'pod-template-hash': '77cbd9cbb9'},
            statuses=[waiting('collector', img, 'CrashLoopBackOff', None, restarts=14, pulled=True, last=term(128, 'StartError', None, 150, message=err, seed='col14'))],
            containers=spec['containers'])
    p['metadata']['uid'] = pu
    p['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(p, 'collector')
    p['status']['qosClass'] = 'Burstable'
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 86400 * 2 - 5); not_ready(p, ['collector'], 3100)
    # the two sibling replicas run on other workers; other pods on this node run (no CPU limit)
    objs = [ns('sladev'), n, d, rs, p]
    for i, w in enumerate(['k8s-onprem-w03', 'k8s-onprem-w05']):
        wn = mknode(w, runtime='containerd://1.6.33', kernel='5.10.0-32-amd64', kubelet='v1.27.16', os_image='Debian GNU/Linux 11 (bullseye)')
        q = pod('sla-collector-77cbd9cbb9-%s' % ['k2v7d', 'p5x9m'][i], 'sladev', node_name=w, image=img, cname='collector', created=86400 * 2,
                labels={'app': 'sla-collector', 'pod-template-hash': '77cbd9cbb9'}, statuses=[running('collector', img, 86400 * 2 - 30)], containers=spec['containers'])
        ownref(q, rs); on_node(q, wn); objs += [wn, q]
    fl_img = 'cr.fluentbit.io/fluent/fluent-bit:3.1.9'
    fds = ds('fluent-bit', 'logging', {'app.kubernetes.io/name': 'fluent-bit'}, 9, 9, spec={'containers': [{'name': 'fluent-bit', 'image': fl_img}]})
    f = pod('fluent-bit-z4tjv', 'logging', node_name=N, image=fl_img, cname='fluent-bit', created=86400 * 30, labels={'app.kubernetes.io/name': 'fluent-bit'},
            statuses=[running('fluent-bit', fl_img, 86400 * 30 - 20)], containers=[{'name': 'fluent-bit', 'image': fl_img, 'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}])
    ownref(f, fds); on_node(f, n)
    objs += [ns('logging'), fds, f,
             ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=14, last=152, first=3090, host=N, fieldPath=fp('collector')),
             ev(p, 'Created', 'Created container collector', 'Normal', count=14, last=151, first=3090, host=N, fieldPath=fp('collector')),
             sev(p, 'Failed', 'Error: ' + err, count=14, last=150, first=3088, instance=N, fieldPath=fp('collector')),
             ev(p, 'BackOff', backoff_ev_msg(p, 'collector'), count=131, last=21, first=3050, host=N, fieldPath=fp('collector'))]
    case('rt-cgroup-cfs-quota', meta(
        'A collector pod killed once never comes back: runc gets "invalid argument" writing cpu.cfs_quota_us on a 4.19.0-6 kernel',
        'https://github.com/kubernetes/kubernetes/issues/72878',
        'OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:402: container init caused \\"process_linux.go:367: setting cgroup config for procHooks process caused \\\\\\"failed to write 200000 to cpu.cfs_quota_us: write /sys/fs/cgroup/cpu,cpuacct/container.slice/kubepods/burstable/pod6ba8075b-132e-11e9-ab2e-246e9674888c/a5f752a5a36fafeab7f16beb4763521cf2370efc3ba961e85a8ac1faef721b48/cpu.cfs_quota_us: invalid argument\\\\\\"\\"": unknown',
        'sladev/sla-collector-77cbd9cbb9-9q88h', 'holdout', 'runtime.cgroup-write-failed',
        decisive='cpu.cfs_quota_us: invalid argument', playbook=None), objs)

# =============================================================================================
# 10. An AppArmor profile that is not loaded on the node the pod landed on (kubelet 1.29)
# =============================================================================================
def c_apparmor_profile():
    nodes = [mknode('pool-a-%d' % i, runtime='containerd://1.7.20', kernel='6.5.0-1025-azure', kubelet='v1.29.9', os_image='Ubuntu 22.04.5 LTS',
                    labels={'agentpool': 'poola'}) for i in (1, 2)]
    N = 'pool-a-3'
    n = mknode(N, runtime='containerd://1.7.20', kernel='6.5.0-1025-azure', kubelet='v1.29.9', os_image='Ubuntu 22.04.5 LTS', labels={'agentpool': 'poola'}, created=50 * 60)
    prof = 'k8s-pdf-renderer-deny-write'
    img = 'registry.example.com/payments/pdf-renderer:4.0.3'
    ann = {'container.apparmor.security.beta.kubernetes.io/renderer': 'localhost/' + prof}
    spec = {'containers': [{'name': 'renderer', 'image': img}]}
    d, rs = deploy('pdf-renderer', 'payments', {'app': 'pdf-renderer'}, 3, '5f7d8c9b6d', spec, ready=2)
    d['spec']['template']['metadata']['annotations'] = dict(ann); rs['spec']['template']['metadata']['annotations'] = dict(ann)
    msg = 'Cannot enforce AppArmor: profile "%s" is not loaded' % prof
    objs = [ns('payments'), *nodes, n, d, rs]
    for i, nn in enumerate(nodes):
        q = pod('pdf-renderer-5f7d8c9b6d-%s' % ['b2x4v', 'h8k3p'][i], 'payments', node_name=nn['metadata']['name'], image=img, cname='renderer', created=86400 * 9,
                labels={'app': 'pdf-renderer', 'pod-template-hash': '5f7d8c9b6d'}, statuses=[running('renderer', img, 86400 * 9 - 25)], meta_extra={'annotations': dict(ann)})
        q['metadata']['labels'] = {'app': 'pdf-renderer', 'pod-template-hash': '5f7d8c9b6d'}
        ownref(q, rs); on_node(q, nn); objs.append(q)
    p = pod('pdf-renderer-5f7d8c9b6d-t6wzq', 'payments', node_name=N, image=img, cname='renderer', phase='Pending', created=41 * 60,
            statuses=[waiting('renderer', img, 'Blocked')], meta_extra={'annotations': dict(ann)},
            status_extra={'reason': 'AppArmor', 'message': msg},
            containers=[{'name': 'renderer', 'image': img, 'ports': [{'containerPort': 8443}], 'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '2Gi'}},
                         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}, 'runAsNonRoot': True, 'runAsUser': 10001}}])
    p['metadata']['labels'] = {'app': 'pdf-renderer', 'pod-template-hash': '5f7d8c9b6d'}
    ownref(p, rs); on_node(p, n); not_ready(p, ['renderer'], 41 * 60 - 2)
    for k in ('podIP', 'podIPs'): p['status'].pop(k, None)
    objs += [p,
             sev(rs, 'SuccessfulCreate', 'Created pod: pdf-renderer-5f7d8c9b6d-t6wzq', 'Normal', count=1, first=41 * 60 + 1, controller='replicaset-controller'),
             scheduled(p, N, 41 * 60),
             ev(p, 'AppArmor', msg, count=1, last=41 * 60 - 1, first=41 * 60 - 1, host=N),
             *node_boot(n, 50 * 60), ev(n, 'NodeReady', 'Node %s status is now: NodeReady' % N, 'Normal', last=50 * 60 - 45, first=50 * 60 - 45, host=N),
             ev(n, 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (N, N), 'Normal', last=50 * 60 - 40, first=50 * 60 - 40, component='node-controller'),
             # the pool was scaled out and the evicted replica went to the new node
             sev(nodes[0], 'NodeNotSchedulable', 'Node pool-a-1 status is now: NodeNotSchedulable', 'Normal', count=1, first=44 * 60, controller='kubelet', instance='pool-a-1'),
             sev(nodes[0], 'NodeSchedulable', 'Node pool-a-1 status is now: NodeSchedulable', 'Normal', count=1, first=30 * 60, controller='kubelet', instance='pool-a-1')]
    case('rt-apparmor-profile-not-loaded', meta(
        'Pending, container Blocked: the pod\'s localhost AppArmor profile is loaded on the old nodes but not on the node added 50 minutes ago',
        'https://kubernetes.io/docs/tutorials/security/apparmor/',
        'Pod Cannot enforce AppArmor: profile "k8s-apparmor-example-allow-write" is not loaded',
        'payments/pdf-renderer-5f7d8c9b6d-t6wzq', 'dev', 'security.profile-missing',
        decisive='Cannot enforce AppArmor: profile "k8s-pdf-renderer-deny-write" is not loaded', playbook=None), objs)

# =============================================================================================
# 11. A Localhost seccomp profile that does not exist under the node's /var/lib/kubelet/seccomp
# =============================================================================================
def c_seccomp_profile():
    N = 'lenevo-ts-w2'
    n = mknode(N, runtime='containerd://1.7.23-k3s2', kernel='5.14.0-503.15.1.el9_5.x86_64', kubelet='v1.31.4+rke2r1', os_image='Rocky Linux 9.5 (Blue Onyx)',
               labels={'kubevirt.io/schedulable': 'true', 'node-role.kubernetes.io/worker': 'true'})
    img = 'quay.io/kubev2v/forklift-virt-v2v:2.7.5'
    err = ('failed to create containerd container: cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/unshare.json": '
           'open /var/lib/kubelet/seccomp/profiles/unshare.json: no such file or directory')
    claim_name = 'new-b0cc1a0bf56a0e6eb29ea2c472f400eaa27c-b74kr'
    vols = [{'name': claim_name, 'persistentVolumeClaim': {'claimName': claim_name}}, {'name': 'libvirt-domain-xml', 'emptyDir': {}},
            {'name': 'store-pv', 'persistentVolumeClaim': {'claimName': 'ova-store-pvc-plan-ova-import'}}, {'name': 'secret-volume', 'secret': {'secretName': 'plan-ova-import-kbzbd', 'defaultMode': 420}}]
    p = pod('plan-ova-import-vm-41-kx7tq', 'virtualmachines', node_name=N, image=img, cname='virt-v2v', phase='Pending', created=1500,
            labels={'forklift.app': 'virt-v2v', 'migration': '6b3c1d4e-9f2a-4d8b-a7c1-2e5f8d9b0c13', 'plan': 'c3a2f0d1-7b8e-4a9c-b2d5-1f0e9c8a7b64', 'vmID': 'vm-41'},
            statuses=[waiting('virt-v2v', img, 'CreateContainerError', err)],
            containers=[{'name': 'virt-v2v', 'image': img, 'env': [{'name': 'V2V_vmName', 'value': 'win2019-app01'}, {'name': 'V2V_source', 'value': 'ova'}],
                         'resources': {'limits': {'cpu': '4', 'devices.kubevirt.io/kvm': '1', 'memory': '8Gi'}, 'requests': {'cpu': '1', 'devices.kubevirt.io/kvm': '1', 'memory': '1Gi'}},
                         'securityContext': {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}},
                         'volumeMounts': [{'mountPath': '/mnt/disks/disk0', 'name': claim_name}, {'mountPath': '/mnt/v2v', 'name': 'libvirt-domain-xml'},
                                          {'mountPath': '/ova', 'name': 'store-pv'}, {'mountPath': '/etc/secret', 'name': 'secret-volume', 'readOnly': True}]}],
            spec_extra={'restartPolicy': 'Never', 'nodeSelector': {'kubevirt.io/schedulable': 'true'}, 'volumes': vols,
                        'securityContext': {'fsGroup': 107, 'runAsNonRoot': True, 'runAsUser': 107, 'seccompProfile': {'type': 'Localhost', 'localhostProfile': 'profiles/unshare.json'}}})
    on_node(p, n); sandbox_ready(p, 1440); not_ready(p, ['virt-v2v'], 1440)
    c1 = pvc(claim_name, 'virtualmachines', storage_class='longhorn', phase='Bound', size='80Gi', volume='pvc-0e6b1f3a-2c7d-4e59-8a1b-9d4c7f2e6a15', created=1560)
    c2 = pvc('ova-store-pvc-plan-ova-import', 'virtualmachines', storage_class=None, phase='Bound', size='200Gi', volume='ova-server-nfs-pv', created=86400, access=('ReadOnlyMany',))
    objs = [ns('virtualmachines'), n, p, c1, c2,
            scheduled(p, N, 1500),
            sev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "pvc-0e6b1f3a-2c7d-4e59-8a1b-9d4c7f2e6a15"', 'Normal', count=1, first=1480, controller='attachdetach-controller'),
            ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', last=1450, first=1450, host=N, fieldPath=fp('virt-v2v')),
            ev(p, 'Pulled', 'Successfully pulled image "%s" in 38.114s (38.114s including waiting). Image size: 1432110931 bytes.' % img, 'Normal', last=1412, first=1412, host=N, fieldPath=fp('virt-v2v')),
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=8, last=95, first=1400, host=N, fieldPath=fp('virt-v2v')),
            sev(p, 'Failed', 'Error: ' + err, count=8, last=95, first=1411, instance=N, fieldPath=fp('virt-v2v'))]
    case('rt-seccomp-profile-missing', meta(
        'CreateContainerError: the pod asks for the Localhost seccomp profile profiles/unshare.json, which the node does not have',
        'https://github.com/kubev2v/forklift/issues/1942',
        'Error: failed to create containerd container: cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/unshare.json": open /var/lib/kubelet/seccomp/profiles/unshare.json: no such file or directory',
        'virtualmachines/plan-ova-import-vm-41-kx7tq', 'dev', 'security.profile-missing',
        decisive='cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/unshare.json"', playbook=None), objs)

# =============================================================================================
# 12. readOnlyRootFilesystem: nginx cannot create its cache directories and exits
# =============================================================================================
def c_readonly_rootfs():
    N = 'gke-prod-default-pool-3f1a9c2e-x7kd'
    n = mknode(N, runtime='containerd://1.7.24', kernel='6.1.100+', kubelet='v1.30.5-gke.1014001', os_image='Container-Optimized OS from Google',
               labels={'cloud.google.com/gke-nodepool': 'default-pool', 'node.kubernetes.io/instance-type': 'e2-standard-4'})
    img = 'nginx:1.27.2'
    ctr = {'name': 'nginx', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
           'securityContext': {'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 101, 'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}},
           'volumeMounts': [{'name': 'tmp', 'mountPath': '/tmp'}, {'name': 'conf', 'mountPath': '/etc/nginx/conf.d'}],
           'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}, 'limits': {'memory': '128Mi'}}}
    vols = [{'name': 'tmp', 'emptyDir': {}}, {'name': 'conf', 'configMap': {'name': 'web-frontend-nginx', 'defaultMode': 420}}]
    d, rs = deploy('web-frontend', 'storefront', {'app': 'web-frontend'}, 2, '84c6f5d7b9', {'containers': [ctr], 'volumes': vols}, ready=0)
    logs = ['/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
            '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
            '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
            '10-listen-on-ipv6-by-default.sh: info: can not modify /etc/nginx/conf.d/default.conf (read-only file system?)',
            '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
            '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
            '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
            '/docker-entrypoint.sh: Configuration complete; ready for start up',
            '{ts} [warn] 1#1: the "user" directive makes sense only if the master process runs with super-user privileges, ignored in /etc/nginx/nginx.conf:2',
            'nginx: [warn] the "user" directive makes sense only if the master process runs with super-user privileges, ignored in /etc/nginx/nginx.conf:2',
            '{ts} [emerg] 1#1: mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)',
            'nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)']
    logs = [l.replace('{ts}', ago(180).replace('-', '/').replace('T', ' ').replace('Z', '')) for l in logs]
    objs = [ns('storefront'), n, d, rs,
            {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'web-frontend-nginx', 'namespace': 'storefront', 'uid': uid('cm-wfn'), 'creationTimestamp': ago(86400 * 30)},
             'data': {'default.conf': 'server {\n    listen 8080;\n    location / { root /usr/share/nginx/html; try_files $uri /index.html; }\n}\n'}},
            sev(d, 'ScalingReplicaSet', 'Scaled up replica set web-frontend-84c6f5d7b9 to 2', 'Normal', count=1, first=1260, controller='deployment-controller')]
    for i, name in enumerate(['web-frontend-84c6f5d7b9-5lq9x', 'web-frontend-84c6f5d7b9-zr7cn']):
        p = pod(name, 'storefront', node_name=N, image=img, cname='nginx', created=1258, labels={'app': 'web-frontend', 'pod-template-hash': '84c6f5d7b9'},
                statuses=[waiting('nginx', img, 'CrashLoopBackOff', None, restarts=7, pulled=True, last=term(1, 'Error', 181 + i, 180 + i, seed='ng%d' % i))],
                containers=[ctr], spec_extra={'volumes': vols, 'securityContext': {'fsGroup': 101, 'seccompProfile': {'type': 'RuntimeDefault'}}})
        p['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(p, 'nginx')
        ownref(p, rs); on_node(p, n); sandbox_ready(p, 1254); not_ready(p, ['nginx'], 1254)
        objs += [p, scheduled(p, N, 1258), *started(p, N, img, 'nginx', 1255, pulled_in='2.551s', size=72955450),
                 ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=7, last=182 + i, first=1230, host=N, fieldPath=fp('nginx')),
                 ev(p, 'Created', 'Created container nginx', 'Normal', count=7, last=181 + i, first=1230, host=N, fieldPath=fp('nginx')),
                 ev(p, 'Started', 'Started container nginx', 'Normal', count=7, last=181 + i, first=1230, host=N, fieldPath=fp('nginx')),
                 ev(p, 'BackOff', backoff_ev_msg(p, 'nginx'), count=96, last=4 + i, first=1200, host=N, fieldPath=fp('nginx')),
                 podlog('storefront', name, 'nginx', logs, previous=True)]
    case('rt-readonly-rootfs-nginx', meta(
        'CrashLoopBackOff after hardening: readOnlyRootFilesystem is on and nginx cannot create /var/cache/nginx/client_temp',
        'https://github.com/namespacelabs/foundation/issues/47',
        'nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)',
        'storefront/web-frontend-84c6f5d7b9-5lq9x', 'holdout', 'security.read-only-rootfs',
        decisive='mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)', playbook=None), objs)

# =============================================================================================
# 13. Calico: calico-node never started on a new worker, the CNI plugin finds no nodename
# =============================================================================================
def c_cni_calico():
    N = 'k8s-worker-02'; M = 'k8s-master-01'
    n = mknode(N, runtime='containerd://1.7.20', kernel='4.18.0-305.el8.x86_64', kubelet='v1.28.13', os_image='Red Hat Enterprise Linux 8.4 (Ootpa)', created=2 * 3600)
    m = mknode(M, runtime='containerd://1.7.20', kernel='4.18.0-305.el8.x86_64', kubelet='v1.28.13', os_image='Red Hat Enterprise Linux 8.4 (Ootpa)',
               labels={'node-role.kubernetes.io/control-plane': ''}, taints=[{'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}])
    m['status']['conditions'].insert(0, {'type': 'NetworkUnavailable', 'status': 'False', 'reason': 'CalicoIsUp', 'message': 'Calico is running on this node',
                                         'lastHeartbeatTime': ago(86400 * 9), 'lastTransitionTime': ago(86400 * 9)})
    cimg = 'docker.io/calico/cni:v3.26.4'; nimg = 'docker.io/calico/node:v3.26.4'
    cds = ds('calico-node', 'kube-system', {'k8s-app': 'calico-node'}, 2, 1, spec={'hostNetwork': True, 'containers': [{'name': 'calico-node', 'image': nimg}]})
    inits = [{'name': 'upgrade-ipam', 'image': cimg, 'command': ['/opt/cni/bin/calico-ipam', '-upgrade']},
             {'name': 'install-cni', 'image': cimg, 'command': ['/opt/cni/bin/install']},
             {'name': 'mount-bpffs', 'image': nimg, 'command': ['calico-node', '-init', '-best-effort']}]
    cn = pod('calico-node-mxtr9', 'kube-system', node_name=N, image=nimg, cname='calico-node', phase='Pending', created=2 * 3600 - 60, labels={'k8s-app': 'calico-node'},
             statuses=[waiting('calico-node', nimg, 'PodInitializing')],
             containers=[{'name': 'calico-node', 'image': nimg, 'env': [{'name': 'DATASTORE_TYPE', 'value': 'kubernetes'}, {'name': 'CALICO_NETWORKING_BACKEND', 'value': 'bird'}],
                          'volumeMounts': [{'name': 'var-lib-calico', 'mountPath': '/var/lib/calico'}], 'securityContext': {'privileged': True}}],
             spec_extra={'hostNetwork': True, 'initContainers': inits, 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'calico-node',
                         'volumes': [{'name': 'var-lib-calico', 'hostPath': {'path': '/var/lib/calico', 'type': 'DirectoryOrCreate'}}]})
    cn['status']['initContainerStatuses'] = [
        {**running('upgrade-ipam', cimg, 7100), 'ready': True, 'started': False, 'state': {'terminated': term(0, 'Completed', 7100, 7099, seed='ui')}},
        {**running('install-cni', cimg, 7095), 'ready': True, 'started': False, 'state': {'terminated': term(0, 'Completed', 7095, 7093, seed='ic')}},
        waiting('mount-bpffs', nimg, 'CrashLoopBackOff', None, restarts=24, pulled=True, last=term(1, 'Error', 112, 111, seed='mb24'))]
    cn['status']['initContainerStatuses'][2]['state']['waiting']['message'] = crashloop_msg(cn, 'mount-bpffs')
    for c in cn['status']['conditions']:
        if c['type'] == 'Initialized': c.update({'status': 'False', 'reason': 'ContainersNotInitialized', 'message': 'containers with incomplete status: [mount-bpffs]'})
    ownref(cn, cds); on_node(cn, n); not_ready(cn, ['calico-node'], 7140)
    kimg = 'registry.k8s.io/kube-proxy:v1.28.13'
    kds = ds('kube-proxy', 'kube-system', {'k8s-app': 'kube-proxy'}, 2, 1, spec={'hostNetwork': True, 'containers': [{'name': 'kube-proxy', 'image': kimg}]})
    kp = pod('kube-proxy-8qq9t', 'kube-system', node_name=N, image=kimg, cname='kube-proxy', created=2 * 3600 - 60, labels={'k8s-app': 'kube-proxy'},
             statuses=[waiting('kube-proxy', kimg, 'CrashLoopBackOff', None, restarts=23, pulled=True, last=term(1, 'Error', 150, 121, seed='kp23'))], spec_extra={'hostNetwork': True})
    kp['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(kp, 'kube-proxy')
    ownref(kp, kds); on_node(kp, n); not_ready(kp, ['kube-proxy'], 7000)
    # the workload pod that cannot get a network
    img = 'registry.example.com/shop/inventory-api:2.11.0'
    d, rs = deploy('inventory-api', 'shop', {'app': 'inventory-api'}, 3, '6f8b9c7d5d', {'containers': [{'name': 'api', 'image': img}]}, ready=2)
    err = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="calico" failed (add): '
           'stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/')
    p = pod('inventory-api-6f8b9c7d5d-w9t2c', 'shop', node_name=N, image=img, cname='api', phase='Pending', created=1800, labels={'app': 'inventory-api', 'pod-template-hash': '6f8b9c7d5d'},
            statuses=[waiting('api', img, 'ContainerCreating')])
    ownref(p, rs); on_node(p, n); no_sandbox(p, 1800); not_ready(p, ['api'], 1800)
    sandboxes = [sev(p, 'FailedCreatePodSandBox', err % sbx('inv%d' % k), count=1, first=1790 - k * 15) for k in range(3)]
    others = []
    for i, nm in enumerate(['inventory-api-6f8b9c7d5d-4hjx8', 'inventory-api-6f8b9c7d5d-qk2mz']):
        q = pod(nm, 'shop', node_name=M, image=img, cname='api', created=86400 * 5, labels={'app': 'inventory-api', 'pod-template-hash': '6f8b9c7d5d'},
                statuses=[running('api', img, 86400 * 5 - 20)], spec_extra={'tolerations': [{'key': 'node-role.kubernetes.io/control-plane', 'operator': 'Exists', 'effect': 'NoSchedule'}]})
        ownref(q, rs); on_node(q, m); others.append(q)
    objs = [ns('kube-system'), ns('shop'), n, m, cds, cn, kds, kp, d, rs, p, *others,
            scheduled(p, N, 1800), *sandboxes,
            ev(p, 'FailedCreatePodSandBox', '(combined from similar events): ' + err % sbx('inv-last'), count=97, last=18, first=1740, host=N),
            ev(cn, 'BackOff', backoff_ev_msg(cn, 'mount-bpffs'), count=511, last=20, first=6900, host=N, fieldPath=ifp('mount-bpffs')),
            ev(cn, 'Pulled', 'Container image "%s" already present on machine' % nimg, 'Normal', count=24, last=113, first=7090, host=N, fieldPath=ifp('mount-bpffs')),
            ev(kp, 'BackOff', backoff_ev_msg(kp, 'kube-proxy'), count=498, last=33, first=6950, host=N, fieldPath=fp('kube-proxy')),
            *node_boot(n, 2 * 3600), ev(n, 'NodeReady', 'Node %s status is now: NodeReady' % N, 'Normal', last=2 * 3600 - 60, first=2 * 3600 - 60, host=N),
            ev(n, 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (N, N), 'Normal', last=2 * 3600 - 50, first=2 * 3600 - 50, component='node-controller')]
    case('rt-cni-calico-nodename', meta(
        'ContainerCreating on a new worker: calico-node is stuck in Init:CrashLoopBackOff there, so the Calico CNI finds no /var/lib/calico/nodename',
        'https://github.com/projectcalico/calico/issues/6309',
        'Final result of CNI ADD was an error. error=stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
        'shop/inventory-api-6f8b9c7d5d-w9t2c', 'dev', 'sandbox.create-failed',
        decisive='stat /var/lib/calico/nodename: no such file or directory'), objs)

# =============================================================================================
# 14. Flannel: the node has no podCIDR, kube-flannel crash-loops and never writes subnet.env
# =============================================================================================
def c_cni_flannel():
    N = 'oracle-k1'
    n = mknode(N, runtime='containerd://1.7.22', kernel='5.15.0-208.159.3.el8uek.x86_64', kubelet='v1.29.10', os_image='Oracle Linux Server 8.10',
               labels={'node-role.kubernetes.io/control-plane': ''}, created=47 * 3600)
    n['spec'] = {}  # no podCIDR: the controller-manager runs without --allocate-node-cidrs
    fimg = 'docker.io/flannel/flannel:v0.26.1'; pimg = 'docker.io/flannel/flannel-cni-plugin:v1.5.1-flannel2'
    fds = ds('kube-flannel-ds', 'kube-flannel', {'app': 'flannel', 'k8s-app': 'flannel'}, 1, 0, spec={'hostNetwork': True, 'containers': [{'name': 'kube-flannel', 'image': fimg}]})
    fp_ = pod('kube-flannel-ds-lzs2p', 'kube-flannel', node_name=N, image=fimg, cname='kube-flannel', created=46 * 3600, labels={'app': 'flannel', 'k8s-app': 'flannel'},
              statuses=[waiting('kube-flannel', fimg, 'CrashLoopBackOff', None, restarts=541, pulled=True, last=term(1, 'Error', 200, 199, seed='kf541'))],
              containers=[{'name': 'kube-flannel', 'image': fimg, 'command': ['/opt/bin/flanneld'], 'args': ['--ip-masq', '--kube-subnet-mgr'],
                           'env': [{'name': 'POD_NAME', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}}, {'name': 'EVENT_QUEUE_DEPTH', 'value': '5000'}]}],
              spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'flannel',
                          'initContainers': [{'name': 'install-cni-plugin', 'image': pimg, 'command': ['cp'], 'args': ['-f', '/flannel', '/opt/cni/bin/flannel']},
                                             {'name': 'install-cni', 'image': fimg, 'command': ['cp'], 'args': ['-f', '/etc/kube-flannel/cni-conf.json', '/etc/cni/net.d/10-flannel.conflist']}]})
    fp_['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(fp_, 'kube-flannel')
    fp_['status']['initContainerStatuses'] = [
        {**running('install-cni-plugin', pimg, 46 * 3600 - 10), 'ready': True, 'started': False, 'state': {'terminated': term(0, 'Completed', 46 * 3600 - 10, 46 * 3600 - 10, seed='icp')}},
        {**running('install-cni', fimg, 46 * 3600 - 8), 'ready': True, 'started': False, 'state': {'terminated': term(0, 'Completed', 46 * 3600 - 8, 46 * 3600 - 8, seed='icn')}}]
    ownref(fp_, fds); on_node(fp_, n); not_ready(fp_, ['kube-flannel'], 46 * 3600 - 5)
    t = ago(201)[11:19]
    flog = [l.replace('{ts}', '1121 %s.%06d' % (t, 120000 + 731 * k)) for k, l in enumerate([
        'I{ts}       1 main.go:211] CLI flags config: {etcdEndpoints:http://127.0.0.1:4001,http://127.0.0.1:2379 etcdPrefix:/coreos.com/network etcdKeyfile: etcdCertfile: etcdCAFile: etcdUsername: etcdPassword: version:false kubeSubnetMgr:true kubeApiUrl: kubeAnnotationPrefix:flannel.alpha.coreos.com kubeConfigFile: iface:[] ifaceRegex:[] ipMasq:true ifaceCanReach: subnetFile:/run/flannel/subnet.env publicIP: publicIPv6: subnetLeaseRenewMargin:60 healthzIP:0.0.0.0 healthzPort:0 iptablesResyncSeconds:5 iptablesForwardRules:true netConfPath:/etc/kube-flannel/net-conf.json setNodeNetworkUnavailable:true}',
        'W{ts}       1 client_config.go:659] Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.',
        'I{ts}       1 kube.go:139] Waiting 10m0s for node controller to sync',
        'I{ts}       1 kube.go:469] Starting kube subnet manager',
        'I{ts}       1 kube.go:146] Node controller sync successful',
        'I{ts}       1 main.go:231] Created subnet manager: Kubernetes Subnet Manager - oracle-k1',
        'I{ts}       1 main.go:234] Installing signal handlers',
        'I{ts}       1 main.go:452] Found network config - Backend type: vxlan',
        'I{ts}       1 kube.go:669] List of node(oracle-k1) annotations: map[string]string{"kubeadm.alpha.kubernetes.io/cri-socket":"unix:///var/run/containerd/containerd.sock", "node.alpha.kubernetes.io/ttl":"0", "volumes.kubernetes.io/controller-managed-attach-detach":"true"}',
        'I{ts}       1 match.go:211] Determining IP address of default interface',
        'I{ts}       1 match.go:264] Using interface with name enp0s6 and address 10.0.0.144',
        'I{ts}       1 match.go:286] Defaulting external address to interface address (10.0.0.144)',
        'I{ts}       1 vxlan.go:141] VXLAN config: VNI=1 Port=0 GBP=false Learning=false DirectRouting=false',
        'E{ts}       1 main.go:359] Error registering network: failed to acquire lease: node "oracle-k1" pod cidr not assigned',
        'I{ts}       1 main.go:432] Stopping shutdownHandler...'])]
    cimg = 'registry.k8s.io/coredns/coredns:v1.11.1'
    cd, crs = deploy('coredns', 'kube-system', {'k8s-app': 'kube-dns'}, 2, '76f75df574', {'containers': [{'name': 'coredns', 'image': cimg}]}, ready=0)
    err = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="flannel" failed (add): '
           'loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory')
    objs = [ns('kube-system'), ns('kube-flannel'), ns('cert-manager'), n, fds, fp_, cd, crs]
    for i, name in enumerate(['coredns-76f75df574-5f892', 'coredns-76f75df574-ztq2c']):
        p = pod(name, 'kube-system', node_name=N, image=cimg, cname='coredns', phase='Pending', created=47 * 3600 - 100, labels={'k8s-app': 'kube-dns', 'pod-template-hash': '76f75df574'},
                statuses=[waiting('coredns', cimg, 'ContainerCreating')],
                spec_extra={'priorityClassName': 'system-cluster-critical', 'tolerations': [{'key': 'CriticalAddonsOnly', 'operator': 'Exists'}, {'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}]})
        ownref(p, crs); on_node(p, n); no_sandbox(p, 47 * 3600 - 100); not_ready(p, ['coredns'], 47 * 3600 - 100)
        objs += [p, ev(p, 'FailedCreatePodSandBox', '(combined from similar events): ' + err % sbx('cd%d' % i), count=12440, last=9 + 4 * i, first=46 * 3600, host=N),
                 ]
    cm_img = 'quay.io/jetstack/cert-manager-controller:v1.16.1'
    cm = pod('cert-manager-6f568fc986-rbhsb', 'cert-manager', node_name=N, image=cm_img, cname='cert-manager-controller', phase='Pending', created=43 * 3600,
             labels={'app': 'cert-manager', 'pod-template-hash': '6f568fc986'}, statuses=[waiting('cert-manager-controller', cm_img, 'ContainerCreating')], owner=('ReplicaSet', 'cert-manager-6f568fc986'))
    on_node(cm, n); no_sandbox(cm, 43 * 3600); not_ready(cm, ['cert-manager-controller'], 43 * 3600)
    kcm_img = 'registry.k8s.io/kube-controller-manager:v1.29.10'
    kcm = pod('kube-controller-manager-oracle-k1', 'kube-system', node_name=N, image=kcm_img, cname='kube-controller-manager', created=47 * 3600,
              labels={'component': 'kube-controller-manager', 'tier': 'control-plane'}, statuses=[running('kube-controller-manager', kcm_img, 47 * 3600 - 20)],
              containers=[{'name': 'kube-controller-manager', 'image': kcm_img, 'command': ['kube-controller-manager', '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
                           '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf', '--bind-address=127.0.0.1', '--client-ca-file=/etc/kubernetes/pki/ca.crt',
                           '--cluster-name=kubernetes', '--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt', '--cluster-signing-key-file=/etc/kubernetes/pki/ca.key',
                           '--controllers=*,bootstrapsigner,tokencleaner', '--kubeconfig=/etc/kubernetes/controller-manager.conf', '--leader-elect=true',
                           '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt', '--root-ca-file=/etc/kubernetes/pki/ca.crt',
                           '--service-account-private-key-file=/etc/kubernetes/pki/sa.key', '--use-service-account-credentials=true']}],
              spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'},
              meta_extra={'annotations': {'kubernetes.io/config.source': 'file', 'kubernetes.io/config.mirror': hexid('kcm', 32), 'kubernetes.io/config.hash': hexid('kcm', 32)},
                          'ownerReferences': [{'apiVersion': 'v1', 'kind': 'Node', 'name': N, 'uid': n['metadata']['uid'], 'controller': True}]})
    on_node(kcm, n)
    objs += [cm, kcm,
             ev(cm, 'FailedCreatePodSandBox', '(combined from similar events): ' + err % sbx('cm'), count=11530, last=31, first=43 * 3600, host=N),
             ev(fp_, 'BackOff', backoff_ev_msg(fp_, 'kube-flannel'), count=12007, last=24, first=46 * 3600 - 60, host=N, fieldPath=fp('kube-flannel')),
             ev(fp_, 'Pulled', 'Container image "%s" already present on machine' % fimg, 'Normal', count=541, last=202, first=46 * 3600 - 9, host=N, fieldPath=fp('kube-flannel')),
             podlog('kube-flannel', 'kube-flannel-ds-lzs2p', 'kube-flannel', flog, previous=True)]
    case('rt-cni-flannel-podcidr', meta(
        'CoreDNS ContainerCreating for two days: kube-flannel crash-loops because the node has no pod CIDR, so /run/flannel/subnet.env never appears',
        'https://github.com/flannel-io/flannel/issues/1558',
        'Error registering network: failed to acquire lease: node "oracle-k1" pod cidr not assigned',
        'kube-system/coredns-76f75df574-5f892', 'dev', 'sandbox.create-failed',
        decisive='failed to acquire lease: node "oracle-k1" pod cidr not assigned'), objs)

# =============================================================================================
# 15. Cilium: the agent on the node crash-loops, cilium-cni cannot reach its socket
# =============================================================================================
def c_cni_cilium():
    N = 'storage-04'
    n = mknode(N, runtime='containerd://1.7.27', kernel='6.8.0-62-generic', kubelet='v1.31.9', os_image='Ubuntu 24.04.2 LTS',
               labels={'node-role.kubernetes.io/storage': '', 'topology.rook.io/rack': 'rack-2'})
    n['status']['conditions'].insert(0, {'type': 'NetworkUnavailable', 'status': 'False', 'reason': 'CiliumIsUp', 'message': 'Cilium is running on this node',
                                         'lastHeartbeatTime': ago(86400 * 3), 'lastTransitionTime': ago(86400 * 3)})
    aimg = 'quay.io/cilium/cilium:v1.17.5@sha256:baf8541723ee0b72d6c489c741c81a6fdc5228940d66cb76ef5ea2ce3c639ea6'
    cds = ds('cilium', 'kube-system', {'k8s-app': 'cilium'}, 6, 5, spec={'hostNetwork': True, 'containers': [{'name': 'cilium-agent', 'image': aimg}]})
    ca = pod('cilium-hnswx', 'kube-system', node_name=N, image=aimg, cname='cilium-agent', created=86400 * 3, labels={'k8s-app': 'cilium', 'app.kubernetes.io/part-of': 'cilium'},
             statuses=[waiting('cilium-agent', aimg, 'CrashLoopBackOff', None, restarts=19, pulled=True, last=term(1, 'Error', 310, 148, seed='ca19'))],
             containers=[{'name': 'cilium-agent', 'image': aimg, 'command': ['cilium-agent'], 'args': ['--config-dir=/tmp/cilium/config-map'],
                          'startupProbe': {'httpGet': {'host': '127.0.0.1', 'path': '/healthz', 'port': 9879}, 'failureThreshold': 105, 'periodSeconds': 2},
                          'livenessProbe': {'httpGet': {'host': '127.0.0.1', 'path': '/healthz', 'port': 9879}, 'periodSeconds': 30, 'failureThreshold': 10}}],
             spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'cilium'})
    ca['metadata']['uid'] = '13b0884b-069a-47af-8c62-6ea08763e404'
    ca['status']['containerStatuses'][0]['state']['waiting']['message'] = crashloop_msg(ca, 'cilium-agent')
    ownref(ca, cds); on_node(ca, n); sandbox_ready(ca, 2400); not_ready(ca, ['cilium-agent'], 2350)
    img = 'quay.io/ceph/ceph:v18.2.4'
    d, rs = deploy('rook-ceph-osd-7', 'rook-ceph', {'app': 'rook-ceph-osd', 'ceph-osd-id': '7'}, 1, '5d8bb6c9f7', {'containers': [{'name': 'osd', 'image': img}]}, ready=0)
    err = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="cilium-cni" failed (add): '
           'unable to connect to Cilium agent: failed to create cilium agent client after 30.000000 seconds timeout: Get "http://localhost/v1/config": '
           'dial unix /var/run/cilium/cilium.sock: connect: no such file or directory')
    p = pod('rook-ceph-osd-7-5d8bb6c9f7-zq4mr', 'rook-ceph', node_name=N, image=img, cname='osd', phase='Pending', created=2300,
            labels={'app': 'rook-ceph-osd', 'ceph-osd-id': '7', 'pod-template-hash': '5d8bb6c9f7'}, statuses=[waiting('osd', img, 'PodInitializing')],
            spec_extra={'initContainers': [{'name': 'activate', 'image': img}, {'name': 'chown-container-data-dir', 'image': img}], 'nodeSelector': {'kubernetes.io/hostname': N}})
    p['status']['initContainerStatuses'] = [waiting('activate', img, 'PodInitializing'), waiting('chown-container-data-dir', img, 'PodInitializing')]
    for c in p['status']['conditions']:
        if c['type'] == 'Initialized': c.update({'status': 'False', 'reason': 'ContainersNotInitialized', 'message': 'containers with incomplete status: [activate chown-container-data-dir]'})
    ownref(p, rs); on_node(p, n); no_sandbox(p, 2300); not_ready(p, ['osd'], 2300)
    sandboxes = [sev(p, 'FailedCreatePodSandBox', err % sbx('osd%d' % k), count=1, first=2260 - 75 * k, instance=N) for k in range(4)]
    # a healthy agent elsewhere, for contrast
    N2 = 'storage-03'
    n2 = mknode(N2, runtime='containerd://1.7.27', kernel='6.8.0-62-generic', kubelet='v1.31.9', os_image='Ubuntu 24.04.2 LTS', labels={'node-role.kubernetes.io/storage': ''})
    ca2 = pod('cilium-7xk2p', 'kube-system', node_name=N2, image=aimg, cname='cilium-agent', created=86400 * 3, labels={'k8s-app': 'cilium'},
              statuses=[running('cilium-agent', aimg, 86400 * 3 - 40)], spec_extra={'hostNetwork': True})
    ownref(ca2, cds); on_node(ca2, n2)
    objs = [ns('kube-system'), ns('rook-ceph'), n, n2, cds, ca, ca2, d, rs, p, scheduled(p, N, 2300), *sandboxes,
            ev(p, 'FailedCreatePodSandBox', '(combined from similar events): ' + err % sbx('osd-last'), count=31, last=41, first=1900, host=N),
            ev(ca, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=2400, first=2400, host=N),
            ev(ca, 'Pulled', 'Container image "%s" already present on machine' % aimg, 'Normal', count=19, last=312, first=2390, host=N, fieldPath=fp('cilium-agent')),
            ev(ca, 'Created', 'Created container cilium-agent', 'Normal', count=19, last=311, first=2390, host=N, fieldPath=fp('cilium-agent')),
            ev(ca, 'Started', 'Started container cilium-agent', 'Normal', count=19, last=311, first=2390, host=N, fieldPath=fp('cilium-agent')),
            ev(ca, 'BackOff', backoff_ev_msg(ca, 'cilium-agent'), count=27, last=28, first=2200, host=N, fieldPath=fp('cilium-agent'))]
    case('rt-cni-cilium-agent-down', meta(
        'A Ceph OSD pod cannot get a network on storage-04: the cilium agent there crash-loops, the CNI plugin finds no cilium.sock',
        'https://github.com/cilium/cilium/issues/40345',
        'failed to setup network for sandbox "eda8bab9e1914ec43190de3df221354a5a9db9b2385bddc2afe02b271d11668b": plugin type="cilium-cni" failed (add): unable to connect to Cilium agent: failed to create cilium agent client after 30.000000 seconds timeout: Get "http://localhost/v1/config": dial unix /var/run/cilium/cilium.sock: connect: no such file or directory',
        'rook-ceph/rook-ceph-osd-7-5d8bb6c9f7-zq4mr', 'holdout', 'sandbox.create-failed',
        decisive='dial unix /var/run/cilium/cilium.sock: connect: no such file or directory'), objs)

# =============================================================================================
# 16. AWS VPC CNI: no free IP address on the instance for one more pod
# =============================================================================================
def c_cni_aws_ip():
    N = 'ip-10-1-6-216.eu-west-1.compute.internal'
    n = mknode(N, runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', kubelet='v1.30.4-eks-a737599', os_image='Amazon Linux 2023.6.20241031',
               labels={'node.kubernetes.io/instance-type': 't3.medium', 'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'spot',
                       'topology.kubernetes.io/zone': 'eu-west-1a', 'eks.amazonaws.com/compute-type': 'ec2'},
               alloc={'cpu': '1930m', 'memory': '3388Mi', 'pods': '110', 'ephemeral-storage': '18242267924'}, created=9 * 3600)
    n['status']['capacity'] = {'cpu': '2', 'memory': '3943348Ki', 'pods': '110', 'ephemeral-storage': '20959212Ki'}
    an_img = '602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1'
    ads = ds('aws-node', 'kube-system', {'k8s-app': 'aws-node'}, 7, 7, spec={'hostNetwork': True, 'containers': [{'name': 'aws-node', 'image': an_img}]})
    an = pod('aws-node-x9c82', 'kube-system', node_name=N, image=an_img, cname='aws-node', created=9 * 3600 - 30, labels={'k8s-app': 'aws-node'},
             statuses=[running('aws-node', an_img, 9 * 3600 - 20), running('aws-eks-nodeagent', '602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon/aws-network-policy-agent:v1.1.4-eksbuild.1', 9 * 3600 - 20)],
             spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
    ownref(an, ads); on_node(an, n)
    img = 'registry.example.com/test/ahoy-hello-world:0.4.2'
    d, rs = deploy('ahoy-hello-world', 'test', {'app': 'ahoy-hello-world'}, 20, '79f545d68', {'containers': [{'name': 'hello', 'image': img}]}, ready=16)
    err = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="aws-cni" name="aws-cni" failed (add): '
           'add cmd: failed to assign an IP address to container')
    p = pod('ahoy-hello-world-79f545d68-ztz4r', 'test', node_name=N, image=img, cname='hello', phase='Pending', created=900, labels={'app': 'ahoy-hello-world', 'pod-template-hash': '79f545d68'},
            statuses=[waiting('hello', img, 'ContainerCreating')], containers=[{'name': 'hello', 'image': img, 'resources': {'requests': {'cpu': '10m', 'memory': '16Mi'}}}])
    ownref(p, rs); on_node(p, n); no_sandbox(p, 900); not_ready(p, ['hello'], 900)
    objs = [ns('kube-system'), ns('test'), n, ads, an, d, rs, p]
    # the node already runs the pods that took its secondary IPs
    for k in range(14):
        q = pod('ahoy-hello-world-79f545d68-%s' % hexid('ahoy%d' % k, 5), 'test', node_name=N, image=img, cname='hello', created=1000 + k * 7,
                labels={'app': 'ahoy-hello-world', 'pod-template-hash': '79f545d68'}, statuses=[running('hello', img, 990 + k * 7)],
                containers=[{'name': 'hello', 'image': img, 'resources': {'requests': {'cpu': '10m', 'memory': '16Mi'}}}])
        q['status']['podIP'] = '10.1.6.%d' % (20 + k); q['status']['podIPs'] = [{'ip': q['status']['podIP']}]
        ownref(q, rs); on_node(q, n); objs.append(q)
    objs += [scheduled(p, N, 900),
             *[sev(p, 'FailedCreatePodSandBox', err % sbx('ahoy%d' % k), count=1, first=898 - 12 * k, instance=N) for k in range(3)],
             ev(p, 'FailedCreatePodSandBox', '(combined from similar events): ' + err % sbx('ahoy-last'), count=61, last=15, first=860, host=N),
             sev(d, 'ScalingReplicaSet', 'Scaled up replica set ahoy-hello-world-79f545d68 to 20 from 5', 'Normal', count=1, first=1010, controller='deployment-controller')]
    case('rt-cni-aws-ip-exhausted', meta(
        'ContainerCreating on a t3.medium: the VPC CNI has no free IP address left on the instance ("failed to assign an IP address to container")',
        'https://github.com/aws/amazon-vpc-cni-k8s/issues/668',
        'Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "9234234234de67e8234cdc5c23423dce7e20842b8334208a6bff3a8" network for pod "custom-test-endpoint-5659dd6f47-92rj7": NetworkPlugin cni failed to set up pod "custom-test-endpoint-523422f47-92rj7_default" network: add cmd: failed to assign an IP address to container',
        'test/ahoy-hello-world-79f545d68-ztz4r', 'dev', 'sandbox.create-failed',
        decisive='add cmd: failed to assign an IP address to container'), objs)

# =============================================================================================
# 17. 403 Forbidden from the registry for this node's address (not a credentials problem)
# =============================================================================================
def c_pull_403():
    N = 'agent-4-8gb-nbg1-kxq'; N2 = 'agent-3-4gb-nbg1-pzt'
    mk = lambda nn: mknode(nn, runtime='containerd://1.7.22-k3s1', kernel='6.11.8-1-default', kubelet='v1.30.6+k3s1', os_image='openSUSE MicroOS',
                           labels={'node.kubernetes.io/instance-type': 'cpx31', 'topology.kubernetes.io/region': 'nbg1'})
    n, n2 = mk(N), mk(N2)
    reg = 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1'; drv = 'docker.io/hetznercloud/hcloud-csi-driver:v2.10.0'; lp = 'registry.k8s.io/sig-storage/livenessprobe:v2.13.1'
    cds = ds('hcloud-csi-node', 'kube-system', {'app.kubernetes.io/name': 'hcloud-csi', 'app.kubernetes.io/component': 'node'}, 4, 3,
             spec={'containers': [{'name': 'csi-node-driver-registrar', 'image': reg}, {'name': 'hcloud-csi-driver', 'image': drv}, {'name': 'liveness-probe', 'image': lp}]})
    def err_for(image):
        repo, tag = image.split('registry.k8s.io/')[1].rsplit(':', 1)
        return ('failed to pull and unpack image "%s": failed to resolve reference "%s": unexpected status from HEAD request to '
                'https://europe-west3-docker.pkg.dev/v2/k8s-artifacts-prod/images/%s/manifests/%s: 403 Forbidden') % (image, image, repo, tag)
    p = pod('hcloud-csi-node-7rq2f', 'kube-system', node_name=N, image=reg, cname='csi-node-driver-registrar', created=2400,
            labels={'app.kubernetes.io/name': 'hcloud-csi', 'app.kubernetes.io/component': 'node'},
            statuses=[waiting('csi-node-driver-registrar', reg, 'ImagePullBackOff', 'Back-off pulling image "%s"' % reg),
                      running('hcloud-csi-driver', drv, 2330, ready=False),
                      waiting('liveness-probe', lp, 'ImagePullBackOff', 'Back-off pulling image "%s"' % lp)],
            containers=[{'name': 'csi-node-driver-registrar', 'image': reg, 'args': ['--kubelet-registration-path=/var/lib/kubelet/plugins/csi.hetzner.cloud/socket']},
                        {'name': 'hcloud-csi-driver', 'image': drv, 'command': ['/bin/hcloud-csi-driver-node'], 'ports': [{'containerPort': 9189, 'name': 'metrics'}, {'containerPort': 9808, 'name': 'healthz'}],
                         'livenessProbe': {'httpGet': {'path': '/healthz', 'port': 'healthz'}, 'periodSeconds': 2, 'failureThreshold': 5}, 'securityContext': {'privileged': True}},
                        {'name': 'liveness-probe', 'image': lp}],
            spec_extra={'priorityClassName': 'system-node-critical', 'tolerations': [{'operator': 'Exists', 'effect': 'NoExecute'}, {'operator': 'Exists', 'effect': 'NoSchedule'}]})
    ownref(p, cds); on_node(p, n); sandbox_ready(p, 2395); not_ready(p, ['csi-node-driver-registrar', 'hcloud-csi-driver', 'liveness-probe'], 2395)
    q = pod('hcloud-csi-node-m5d8x', 'kube-system', node_name=N2, image=reg, cname='csi-node-driver-registrar', created=86400 * 12,
            labels={'app.kubernetes.io/name': 'hcloud-csi', 'app.kubernetes.io/component': 'node'},
            statuses=[running('csi-node-driver-registrar', reg, 86400 * 12 - 30), running('hcloud-csi-driver', drv, 86400 * 12 - 28), running('liveness-probe', lp, 86400 * 12 - 27)])
    ownref(q, cds); on_node(q, n2)
    objs = [ns('kube-system'), n, n2, cds, p, q, scheduled(p, N, 2400)]
    for c, im, off in (('csi-node-driver-registrar', reg, 0), ('liveness-probe', lp, 2)):
        objs += [ev(p, 'Pulling', 'Pulling image "%s"' % im, 'Normal', count=9, last=300 + off, first=2390 - off, host=N, fieldPath=fp(c)),
                 ev(p, 'Failed', 'Failed to pull image "%s": %s' % (im, err_for(im)), count=9, last=299 + off, first=2389 - off, host=N, fieldPath=fp(c)),
                 ev(p, 'Failed', 'Error: ErrImagePull', count=9, last=299 + off, first=2389 - off, host=N, fieldPath=fp(c)),
                 ev(p, 'BackOff', 'Back-off pulling image "%s"' % im, 'Normal', count=101, last=7 + off, first=2380 - off, host=N, fieldPath=fp(c)),
                 ev(p, 'Failed', 'Error: ImagePullBackOff', count=101, last=7 + off, first=2380 - off, host=N, fieldPath=fp(c))]
    objs += [*started(p, N, drv, 'hcloud-csi-driver', 2335, pulled_in='5.21s', size=21456780),
             sev(p, 'Unhealthy', 'Liveness probe failed: Get "http://10.42.3.7:9808/healthz": dial tcp 10.42.3.7:9808: connect: connection refused', count=12, last=2300, first=2330, instance=N, fieldPath=fp('hcloud-csi-driver'))]
    case('rt-pull-403-forbidden', meta(
        'ErrImagePull on one Hetzner node only: registry.k8s.io\'s backend answers 403 Forbidden to this node\'s address, other nodes pull fine',
        'https://github.com/mysticaltech/terraform-hcloud-kube-hetzner/issues/451',
        'Failed to pull image "k8s.gcr.io/sig-storage/csi-node-driver-registrar:v2.2.0": rpc error: code = Unknown desc = failed to pull and unpack image "k8s.gcr.io/sig-storage/csi-node-driver-registrar:v2.2.0": failed to resolve reference "k8s.gcr.io/sig-storage/csi-node-driver-registrar:v2.2.0": pulling from host k8s.gcr.io failed with status code [manifests v2.2.0]: 403 Forbidden',
        'kube-system/hcloud-csi-node-7rq2f', 'dev', 'image.forbidden',
        decisive='csi-node-driver-registrar/manifests/v2.11.1: 403 Forbidden', playbook=None), objs)

# =============================================================================================
# 18. containerd's HTTPS_PROXY points at an http proxy with an https:// scheme
# =============================================================================================
def c_pull_proxy_scheme():
    N = 'k8s-wrk-07.corp.example.net'
    n = mknode(N, runtime='containerd://1.7.22', kernel='5.14.0-503.14.1.el9_5.x86_64', kubelet='v1.30.6', os_image='Red Hat Enterprise Linux 9.5 (Plow)', created=86400 * 60)
    img = 'docker.io/library/postgres:16.4'
    sts = workload('StatefulSet', 'postgres', 'billing', {'app': 'postgres'}, replicas=1, template_spec={'containers': [{'name': 'postgres', 'image': img}]})
    sts['status'] = {'replicas': 1, 'readyReplicas': 0, 'currentReplicas': 1, 'updatedReplicas': 1, 'observedGeneration': 4, 'availableReplicas': 0}
    err = ('failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: Head "https://registry-1.docker.io/v2/library/postgres/manifests/16.4": '
           'proxyconnect tcp: tls: first record does not look like a TLS handshake') % (img, img)
    p = pod('postgres-0', 'billing', node_name=N, image=img, cname='postgres', phase='Pending', created=1150, labels={'app': 'postgres', 'statefulset.kubernetes.io/pod-name': 'postgres-0'},
            statuses=[waiting('postgres', img, 'ImagePullBackOff', 'Back-off pulling image "%s"' % img)],
            containers=[{'name': 'postgres', 'image': img, 'env': [{'name': 'PGDATA', 'value': '/var/lib/postgresql/data/pgdata'}], 'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/postgresql/data'}]}],
            spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-postgres-0'}}]})
    ownref(p, sts); on_node(p, n); sandbox_ready(p, 1140); not_ready(p, ['postgres'], 1140)
    claim = pvc('data-postgres-0', 'billing', storage_class='vsphere-csi', phase='Bound', size='100Gi', volume='pvc-5e1d7c2b-8a4f-4b6e-9f3d-2c7a1b0e8d64', created=86400 * 60)
    # an older pod on the same node runs from an image pulled before the proxy change
    aimg = 'registry.corp.example.net/billing/invoice-api:3.3.0'
    a = pod('invoice-api-5c7f9d8b6-lm4qz', 'billing', node_name=N, image=aimg, cname='api', created=86400 * 4, owner=('ReplicaSet', 'invoice-api-5c7f9d8b6'),
            labels={'app': 'invoice-api'}, statuses=[running('api', aimg, 86400 * 4 - 20)])
    on_node(a, n)
    objs = [ns('billing'), n, sts, p, claim, a,
            sev(sts, 'SuccessfulCreate', 'create Pod postgres-0 in StatefulSet postgres successful', 'Normal', count=1, first=1151, controller='statefulset-controller'),
            scheduled(p, N, 1150),
            sev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "pvc-5e1d7c2b-8a4f-4b6e-9f3d-2c7a1b0e8d64"', 'Normal', count=1, first=1145, controller='attachdetach-controller'),
            ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=8, last=190, first=1139, host=N, fieldPath=fp('postgres')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err), count=8, last=190, first=1139, host=N, fieldPath=fp('postgres')),
            ev(p, 'Failed', 'Error: ErrImagePull', count=8, last=190, first=1139, host=N, fieldPath=fp('postgres')),
            ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=44, last=11, first=1120, host=N, fieldPath=fp('postgres')),
            ev(p, 'Failed', 'Error: ImagePullBackOff', count=44, last=11, first=1120, host=N, fieldPath=fp('postgres'))]
    case('rt-pull-proxy-https-scheme', meta(
        'ImagePullBackOff after a proxy change: containerd\'s HTTPS_PROXY uses an https:// URL for a proxy that speaks plain HTTP',
        'https://github.com/docker/for-linux/issues/415',
        'proxyconnect tcp: tls: first record does not look like a TLS handshake',
        'billing/postgres-0', 'holdout', 'image.registry-unreachable',
        decisive='proxyconnect tcp: tls: first record does not look like a TLS handshake'), objs)

# =============================================================================================
# 19. The node's disk fills up while extracting a 2 GB layer
# =============================================================================================
def c_pull_disk_full():
    N = 'kind-portal-control-plane'
    n = mknode(N, runtime='containerd://1.7.18', kernel='6.8.0-1017-azure', kubelet='v1.31.0', os_image='Debian GNU/Linux 12 (bookworm)',
               labels={'node-role.kubernetes.io/control-plane': ''}, created=40 * 60)
    n['status']['capacity']['ephemeral-storage'] = '75085112Ki'; n['status']['allocatable']['ephemeral-storage'] = '75085112Ki'
    img = 'mcr.microsoft.com/playwright:v1.57.0'
    job = workload('Job', '693aaed96a83b8a012de9b5f', 'testkube', {'testworkflowid': '693aaed96a83b8a012de9b5f'},
                   template_spec={'restartPolicy': 'Never', 'containers': [{'name': '1', 'image': img}]})
    job['spec']['backoffLimit'] = 0
    job['status'] = {'active': 1, 'ready': 0, 'startTime': ago(420), 'uncountedTerminatedPods': {}}
    err = ('failed to pull and unpack image "%s": failed to extract layer sha256:ba314c14dc6d1f56b259ac2195601b3ce7c1da6d2a7ba35c1766cead711a61a7: '
           'write /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/604/fs/usr/lib/x86_64-linux-gnu/libLLVM.so.20.1: no space left on device: unknown') % img
    p = pod('693aaed96a83b8a012de9b5f-fk7xn', 'testkube', node_name=N, image=img, cname='1', phase='Pending', created=420,
            labels={'testworkflowid': '693aaed96a83b8a012de9b5f', 'batch.kubernetes.io/job-name': '693aaed96a83b8a012de9b5f', 'test-workflow': 'kind-portal-playwright'},
            statuses=[waiting('1', img, 'ErrImagePull', err)],
            containers=[{'name': '1', 'image': img, 'command': ['/.tktw/init', '1'], 'workingDir': '/data/repo/tests/portal'}],
            spec_extra={'restartPolicy': 'Never', 'initContainers': [{'name': 'tktw-init', 'image': 'docker.io/kubeshop/testkube-tw-init:2.1.161'}]})
    p['status']['initContainerStatuses'] = [{**running('tktw-init', 'docker.io/kubeshop/testkube-tw-init:2.1.161', 410), 'ready': True, 'started': False,
                                             'state': {'terminated': term(0, 'Completed', 410, 405, seed='tk')}}]
    ownref(p, job); on_node(p, n); sandbox_ready(p, 415); not_ready(p, ['1'], 405)
    others = []
    for nsn, nm, im in (('portal', 'portal-frontend-6d8b7c5f9d-h2k4l', 'ghcr.io/suxess-it/portal-frontend:1.14.0'), ('argocd', 'argocd-server-7c5d8b9f6-qx8vz', 'quay.io/argoproj/argocd:v2.13.1'),
                        ('monitoring', 'prometheus-kube-prometheus-stack-prometheus-0', 'quay.io/prometheus/prometheus:v2.55.1')):
        q = pod(nm, nsn, node_name=N, image=im, cname=nm.split('-')[0], created=38 * 60, statuses=[running(nm.split('-')[0], im, 37 * 60)])
        on_node(q, n); others.append(q)
    objs = [ns('testkube'), ns('portal'), ns('argocd'), ns('monitoring'), n, job, p, *others,
            sev(job, 'SuccessfulCreate', 'Created pod: 693aaed96a83b8a012de9b5f-fk7xn', 'Normal', count=1, first=421, controller='job-controller'),
            scheduled(p, N, 420), *started(p, N, 'docker.io/kubeshop/testkube-tw-init:2.1.161', 'tktw-init', 414, pulled_in='1.46s', size=9321004, init=True),
            ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', last=404, first=404, host=N, fieldPath=fp('1')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err), last=38, first=38, host=N, fieldPath=fp('1')),
            ev(p, 'Failed', 'Error: ErrImagePull', last=38, first=38, host=N, fieldPath=fp('1')),
            ev(n, 'FreeDiskSpaceFailed', 'Failed to garbage collect required amount of images. Attempted to free 6029154918 bytes, but only found 0 bytes eligible to free.', count=1, last=30, first=30, host=N)]
    case('rt-pull-disk-full', meta(
        'ErrImagePull on a CI kind node: extracting the 2 GB playwright layer fills the node\'s disk ("no space left on device")',
        'https://github.com/suxess-it/kubriX/issues/1825',
        'Failed to pull image "mcr.microsoft.com/playwright:v1.57.0": failed to pull and unpack image "mcr.microsoft.com/playwright:v1.57.0": failed to extract layer sha256:ba314c14dc6d1f56b259ac2195601b3ce7c1da6d2a7ba35c1766cead711a61a7: write /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/604/fs/usr/lib/x86_64-linux-gnu/libLLVM.so.20.1: no space left on device: unknown',
        'testkube/693aaed96a83b8a012de9b5f-fk7xn', 'dev', 'image.node-disk-full',
        decisive='libLLVM.so.20.1: no space left on device', playbook=None), objs)

# =============================================================================================
# 20. The registry drops the connection mid-layer: "failed size validation"
# =============================================================================================
def c_pull_size_validation():
    N = 'gpu-pool-b-3'; H = 'infra-1'
    n = mknode(N, runtime='containerd://1.7.20', kernel='5.15.0-125-generic', kubelet='v1.29.10', os_image='Ubuntu 22.04.5 LTS', labels={'nvidia.com/gpu.present': 'true'})
    h = mknode(H, runtime='containerd://1.7.20', kernel='5.15.0-125-generic', kubelet='v1.29.10', os_image='Ubuntu 22.04.5 LTS', labels={'node-role.kubernetes.io/infra': ''})
    img = 'harbor.example.com/analytics/jupyter-gpu:2024.11'
    l1 = 'b1c6924e343981c217de54f85d33645572c88d4b2121435f3f4b94374c32c045'; l2 = '769439b142249af1cc92bf05d50ba38e79699b9b33491b2f0d13caf1998e0e61'
    def err(layer, got, want):
        return ('rpc error: code = FailedPrecondition desc = failed to pull and unpack image "%s": failed commit on ref "layer-sha256:%s": '
                '"layer-sha256:%s" failed size validation: %d != %d: failed precondition') % (img, layer, layer, got, want)
    sts = workload('StatefulSet', 'notebook-ana', 'analytics', {'app': 'notebook-ana'}, replicas=1, template_spec={'containers': [{'name': 'notebook', 'image': img}]})
    sts['status'] = {'replicas': 1, 'readyReplicas': 0, 'currentReplicas': 1, 'updatedReplicas': 1, 'observedGeneration': 2, 'availableReplicas': 0}
    p = pod('notebook-ana-0', 'analytics', node_name=N, image=img, cname='notebook', phase='Pending', created=2700, labels={'app': 'notebook-ana'},
            statuses=[waiting('notebook', img, 'ImagePullBackOff', 'Back-off pulling image "%s"' % img)],
            containers=[{'name': 'notebook', 'image': img, 'resources': {'limits': {'nvidia.com/gpu': '1', 'memory': '24Gi'}, 'requests': {'cpu': '4', 'memory': '16Gi'}}}],
            spec_extra={'imagePullSecrets': [{'name': 'harbor-pull'}]})
    ownref(p, sts); on_node(p, n); sandbox_ready(p, 2695); not_ready(p, ['notebook'], 2695)
    core_img = 'goharbor/harbor-core:v2.11.1'
    hc = pod('harbor-core-7d9c6b5f8-4xw2n', 'harbor', node_name=H, image=core_img, cname='core', created=86400 * 40, owner=('ReplicaSet', 'harbor-core-7d9c6b5f8'),
             labels={'app': 'harbor', 'component': 'core'}, statuses=[running('core', core_img, 86400 * 40 - 60)])
    on_node(hc, h)
    url = '/v2/analytics/jupyter-gpu/blobs/sha256:%s' % l1
    def bl(t, lvl, where, msg): return '%s [%s] [%s]: %s' % (ago(t)[:19].replace('T', ' ').replace('-', '/'), lvl, where, msg)
    core_log = [bl(700 - 3 * k, 'I', 'router.go:1091', '|  10.42.7.19| 200 | %7.3fms|   match| GET      /api/v2.0/ping   r:/api/v2.0/ping' % (0.8 + k / 10)) for k in range(6)] + [
        bl(590, 'I', 'router.go:1091', '|  10.42.3.11| 200 | 41.204ms|   match| GET      /service/token   r:/service/token'),
        bl(588, 'I', 'router.go:1091', '|  10.42.3.11| 200 | 213.551ms|   match| HEAD     /v2/analytics/jupyter-gpu/manifests/2024.11   r:/v2/*'),
        bl(587, 'I', 'router.go:1091', '|  10.42.3.11| 200 | 98.020ms|   match| GET      /v2/analytics/jupyter-gpu/manifests/sha256:0f6e2a91c7d5b8e34a1f9c02d6b7e85a3c4d1f2e9b8a7c6d5e4f3a2b1c0d9e8f   r:/v2/*'),
        bl(316, 'C', 'panic.go:114', ' the request url is  ' + url),
        bl(316, 'C', 'panic.go:114', ' Handler crashed with error net/http: abort Handler'),
        bl(316, 'C', 'panic.go:114', ' /usr/local/go/src/runtime/panic.go:770'),
        bl(316, 'C', 'panic.go:114', ' /usr/local/go/src/net/http/httputil/reverseproxy.go:518'),
        bl(316, 'C', 'panic.go:114', ' /harbor/src/server/middleware/repoproxy/proxy.go:176')]
    objs = [ns('analytics'), ns('harbor'), n, h, sts, p, hc,
            {'apiVersion': 'v1', 'kind': 'Secret', 'type': 'kubernetes.io/dockerconfigjson', 'metadata': {'name': 'harbor-pull', 'namespace': 'analytics', 'uid': uid('sec-harbor-pull'), 'creationTimestamp': ago(86400 * 200)},
             'data': {'.dockerconfigjson': 'eyJhdXRocyI6eyJoYXJib3IuZXhhbXBsZS5jb20iOnsiYXV0aCI6IlJFREFDVEVEIn19fQ=='}},
            scheduled(p, N, 2700),
            ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=6, last=900, first=2690, host=N, fieldPath=fp('notebook')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err(l2, 5842118, 5865091)), count=2, last=1900, first=2310, host=N, fieldPath=fp('notebook')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err(l1, 2150392, 2167557)), count=4, last=316, first=1500, host=N, fieldPath=fp('notebook')),
            ev(p, 'Failed', 'Error: ErrImagePull', count=6, last=316, first=2310, host=N, fieldPath=fp('notebook')),
            ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=37, last=20, first=2290, host=N, fieldPath=fp('notebook')),
            ev(p, 'Failed', 'Error: ImagePullBackOff', count=37, last=20, first=2290, host=N, fieldPath=fp('notebook')),
            podlog('harbor', 'harbor-core-7d9c6b5f8-4xw2n', 'core', core_log, previous=False)]
    case('rt-pull-size-validation', meta(
        'ImagePullBackOff for a large image from Harbor: harbor-core aborts the blob stream, containerd gets fewer bytes than the layer size',
        'https://github.com/goharbor/harbor/issues/15751',
        'Failed to pull image "harbor.example.com/redacted/redactedrepo:latest": rpc error: code = FailedPrecondition desc = failed to pull and unpack image "harbor.example.com/redacted/redactedrepo:latest": failed commit on ref "layer-sha256:b1c6924e343981c217de54f85d33645572c88d4b2121435f3f4b94374c32c045": "layer-sha256:b1c6924e343981c217de54f85d33645572c88d4b2121435f3f4b94374c32c045" failed size validation: 2150392 != 2167557: failed precondition',
        'analytics/notebook-ana-0', 'dev', 'image.transfer-interrupted',
        decisive='failed size validation: 2150392 != 2167557: failed precondition', playbook=None), objs)

# =============================================================================================
# 21. CRI-O refuses an unsigned image: the namespace's signature policy requires a signature
# =============================================================================================
def c_crio_signature():
    rt = 'cri-o'
    N = 'fcos-worker-5'
    mk = lambda nn: mknode(nn, runtime='cri-o://1.30.6', kernel='6.10.12-200.fc40.x86_64', kubelet='v1.30.5', os_image='Fedora CoreOS 40.20241019.3.0')
    n = mk(N); n2 = mk('fcos-worker-4')
    new = 'quay.io/acme/payments-api:2.4.0'; old = 'quay.io/acme/payments-api:2.3.9'
    d, rs_new = deploy('payments-api', 'payments', {'app': 'payments-api'}, 3, '8d6c9f7b5c', {'containers': [{'name': 'api', 'image': new}]}, ready=3)
    rs_old = rs_for(d, 'payments-api-64b7d9c8f5')
    rs_old['spec']['replicas'] = 3; rs_old['status'] = {'replicas': 3, 'readyReplicas': 3, 'availableReplicas': 3, 'observedGeneration': 1}
    rs_old['spec']['template']['spec'] = {'containers': [{'name': 'api', 'image': old}]}
    rs_new['spec']['replicas'] = 1; rs_new['status'] = {'replicas': 1, 'readyReplicas': 0, 'availableReplicas': 0, 'observedGeneration': 1}
    d['status'].update({'replicas': 4, 'updatedReplicas': 1, 'readyReplicas': 3, 'availableReplicas': 3, 'unavailableReplicas': 1})
    d['status']['conditions'][1].update({'reason': 'ReplicaSetUpdated', 'message': 'ReplicaSet "payments-api-8d6c9f7b5c" is progressing.'})
    msg = 'SignatureValidationFailed: Source image rejected: A signature was required, but no signature exists'
    p = pod('payments-api-8d6c9f7b5c-qv5rn', 'payments', node_name=N, image=new, cname='api', phase='Pending', created=1380, runtime=rt,
            labels={'app': 'payments-api', 'pod-template-hash': '8d6c9f7b5c'}, statuses=[waiting('api', new, 'ImagePullBackOff', 'Back-off pulling image "%s"' % new)])
    ownref(p, rs_new); on_node(p, n); sandbox_ready(p, 1375); not_ready(p, ['api'], 1375)
    objs = [ns('payments'), n, n2, d, rs_old, rs_new, p]
    for k in range(3):
        q = pod('payments-api-64b7d9c8f5-%s' % ['c2w8d', 'j4n7t', 'x9p3r'][k], 'payments', node_name=['fcos-worker-4', N, 'fcos-worker-4'][k], image=old, cname='api', created=86400 * 6, runtime=rt,
                labels={'app': 'payments-api', 'pod-template-hash': '64b7d9c8f5'}, statuses=[running('api', old, 86400 * 6 - 15, rt=rt)])
        ownref(q, rs_old); on_node(q, n if k == 1 else n2); objs.append(q)
    objs += [sev(d, 'ScalingReplicaSet', 'Scaled up replica set payments-api-8d6c9f7b5c to 1', 'Normal', count=1, first=1382, controller='deployment-controller'),
             scheduled(p, N, 1380),
             ev(p, 'Pulling', 'Pulling image "%s"' % new, 'Normal', count=8, last=260, first=1372, host=N, fieldPath=fp('api')),
             ev(p, 'Failed', 'Failed to pull image "%s": %s' % (new, msg), count=8, last=257, first=1369, host=N, fieldPath=fp('api')),
             ev(p, 'Failed', 'Error: SignatureValidationFailed', count=8, last=257, first=1369, host=N, fieldPath=fp('api')),
             ev(p, 'BackOff', 'Back-off pulling image "%s"' % new, 'Normal', count=56, last=13, first=1350, host=N, fieldPath=fp('api')),
             ev(p, 'Failed', 'Error: ImagePullBackOff', count=56, last=13, first=1350, host=N, fieldPath=fp('api'))]
    case('rt-crio-signature-rejected', meta(
        'A rollout stalls at ImagePullBackOff: CRI-O\'s signature policy for the namespace requires a signature and the new tag was pushed unsigned',
        'https://kubernetes.io/blog/2023/06/29/container-image-signature-verification/',
        'Failed to pull image "quay.io/crio/unsigned": SignatureValidationFailed: Source image rejected: A signature was required, but no signature exists',
        'payments/payments-api-8d6c9f7b5c-qv5rn', 'holdout', 'image.signature-rejected',
        decisive='Source image rejected: A signature was required, but no signature exists', playbook=None), objs)

# =============================================================================================
# 22. A slow disk: RunPodSandbox times out, the retry finds the sandbox name still reserved
# =============================================================================================
def c_reserve_sandbox():
    N = 'node-a17.dc1.example.net'
    n = mknode(N, runtime='containerd://1.7.13', kernel='5.15.0-97-generic', kubelet='v1.28.6', os_image='Ubuntu 22.04.4 LTS')
    img = 'registry.example.com/data/ingest:7.2.0'
    job = workload('Job', 'ingest-b181ca13', 'default', {'batch.kubernetes.io/job-name': 'ingest-b181ca13'}, template_spec={'restartPolicy': 'Never', 'containers': [{'name': 'ingest', 'image': img}]})
    job['status'] = {'active': 1, 'ready': 0, 'startTime': ago(1500), 'uncountedTerminatedPods': {}}
    puid = 'f4fc0242-4fb4-4015-a7eb-3e4a9cd73293'
    name = 'ingest-b181ca13-z7d7p'
    p = pod(name, 'default', node_name=N, image=img, cname='ingest', phase='Pending', created=1500,
            labels={'batch.kubernetes.io/job-name': 'ingest-b181ca13', 'batch.kubernetes.io/controller-uid': uid('Jobdefaultingest-b181ca13')},
            statuses=[waiting('ingest', img, 'ContainerCreating')], spec_extra={'restartPolicy': 'Never'})
    p['metadata']['uid'] = puid
    ownref(p, job); on_node(p, n); no_sandbox(p, 1500); not_ready(p, ['ingest'], 1500)
    sbname = '%s_default_%s_0' % (name, puid)
    reserved = 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to reserve sandbox name "%s": name "%s" is reserved for "%s"' % (sbname, sbname, hexid('reserved-sbx'))
    # other pods on the node are busy writing; one of them restarted after a slow probe
    wimg = 'registry.example.com/data/compactor:3.9.1'
    w = pod('compactor-6f9d8c7b5-r2t9x', 'default', node_name=N, image=wimg, cname='compactor', created=86400 * 2, owner=('ReplicaSet', 'compactor-6f9d8c7b5'),
            labels={'app': 'compactor'}, statuses=[running('compactor', wimg, 2900, restarts=1, last=term(137, 'Error', 86400 * 2 - 30, 2910, seed='comp'))])
    on_node(w, n)
    objs = [ns('default'), n, job, p, w,
            sev(job, 'SuccessfulCreate', 'Created pod: %s' % name, 'Normal', count=1, first=1501, controller='job-controller'),
            scheduled(p, N, 1500),
            ev(p, 'FailedCreatePodSandBox', 'Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded', last=1260, first=1260, host=N),
            ev(p, 'FailedCreatePodSandBox', reserved, count=47, last=22, first=1248, host=N),
            ev(w, 'Unhealthy', 'Liveness probe failed: Get "http://10.244.17.42:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)', count=3, last=2930, first=2990, host=N, fieldPath=fp('compactor')),
            ev(w, 'Killing', 'Container compactor failed liveness probe, will be restarted', 'Normal', last=2925, first=2925, host=N, fieldPath=fp('compactor'))]
    case('rt-reserve-sandbox-name', meta(
        'ContainerCreating for 25 minutes: RunPodSandbox timed out on a slow disk and every retry finds the sandbox name still reserved',
        'https://github.com/containerd/containerd/issues/9947',
        'RunPodSandbox for &PodSandboxMetadata{Name:podX-b181ca13-z7d7p,Uid:f4fc0242-4fb4-4015-a7eb-3e4a9cd73293,Namespace:default,Attempt:0,} failed, error" error="failed to reserve sandbox name',
        'default/ingest-b181ca13-z7d7p', 'dev', 'sandbox.create-failed', acceptable=['container.create-error'],
        decisive='failed to reserve sandbox name'), objs)

# =============================================================================================
# Negatives: healthy pods with benign runtime/image noise
# =============================================================================================
def n_imagepull_recovered():
    N = 'ip-10-0-44-18.eu-west-1.compute.internal'
    n = mknode(N, runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', kubelet='v1.30.4-eks-a737599', os_image='Amazon Linux 2023.6.20241031',
               labels={'node.kubernetes.io/instance-type': 'm6i.xlarge'})
    img = 'registry.example.com/orders/checkout:5.12.0'
    d, rs = deploy('checkout', 'orders', {'app': 'checkout'}, 2, '7d5b9c8f6a', {'containers': [{'name': 'checkout', 'image': img}]}, ready=2)
    p = pod('checkout-7d5b9c8f6a-t8m2x', 'orders', node_name=N, image=img, cname='checkout', created=3000, labels={'app': 'checkout', 'pod-template-hash': '7d5b9c8f6a'},
            statuses=[running('checkout', img, 2400)],
            containers=[{'name': 'checkout', 'image': img, 'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8080}, 'periodSeconds': 10}}])
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 2995)
    for c in p['status']['conditions']:
        if c['type'] in ('Ready', 'ContainersReady'): c['lastTransitionTime'] = ago(2390)
    err = ('failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: Head "https://registry.example.com/v2/orders/checkout/manifests/5.12.0": '
           'dial tcp 10.20.0.15:443: i/o timeout') % (img, img)
    q = pod('checkout-7d5b9c8f6a-b4n9k', 'orders', node_name=N, image=img, cname='checkout', created=3010, labels={'app': 'checkout', 'pod-template-hash': '7d5b9c8f6a'},
            statuses=[running('checkout', img, 2380)])
    ownref(q, rs); on_node(q, n)
    objs = [ns('orders'), n, d, rs, p, q,
            sev(d, 'ScalingReplicaSet', 'Scaled up replica set checkout-7d5b9c8f6a to 2', 'Normal', count=1, first=3012, controller='deployment-controller'),
            scheduled(p, N, 3000),
            ev(p, 'Pulling', 'Pulling image "%s"' % img, 'Normal', count=4, last=2530, first=2995, host=N, fieldPath=fp('checkout')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (img, err), count=3, last=2745, first=2965, host=N, fieldPath=fp('checkout')),
            ev(p, 'Failed', 'Error: ErrImagePull', count=3, last=2745, first=2965, host=N, fieldPath=fp('checkout')),
            ev(p, 'BackOff', 'Back-off pulling image "%s"' % img, 'Normal', count=5, last=2560, first=2950, host=N, fieldPath=fp('checkout')),
            ev(p, 'Failed', 'Error: ImagePullBackOff', count=5, last=2560, first=2950, host=N, fieldPath=fp('checkout')),
            ev(p, 'Pulled', 'Successfully pulled image "%s" in 2m6.114s (2m6.114s including waiting). Image size: 96120388 bytes.' % img, 'Normal', last=2404, first=2404, host=N, fieldPath=fp('checkout')),
            ev(p, 'Created', 'Created container checkout', 'Normal', last=2402, first=2402, host=N, fieldPath=fp('checkout')),
            ev(p, 'Started', 'Started container checkout', 'Normal', last=2401, first=2401, host=N, fieldPath=fp('checkout')),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://10.0.44.87:8080/ready": dial tcp 10.0.44.87:8080: connect: connection refused', count=2, last=2392, first=2398, host=N, fieldPath=fp('checkout')),
            scheduled(q, N, 3010), *started(q, N, img, 'checkout', 2390, present=True)]
    case('rt-neg-imagepull-recovered', meta(
        'Healthy: a registry timeout caused ImagePullBackOff 45 minutes ago; the pull succeeded 40 minutes ago and the pod has been Ready since',
        'https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff',
        'Kubernetes will keep trying to pull the image, with an increasing back-off delay.',
        'orders/checkout-7d5b9c8f6a-t8m2x', 'dev', None), objs)

def n_dns_config_forming():
    N = 'hel1-node-07'
    n = mknode(N, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', kubelet='v1.30.6', os_image='Debian GNU/Linux 12 (bookworm)')
    img = 'docker.io/kubeovn/kube-ovn:v1.13.2'
    dset = ds('kube-ovn-pinger', 'kube-ovn', {'app': 'kube-ovn-pinger'}, 8, 8, spec={'containers': [{'name': 'pinger', 'image': img}]})
    p = pod('kube-ovn-pinger-kf7xw', 'kube-ovn', node_name=N, image=img, cname='pinger', created=86400 * 4, labels={'app': 'kube-ovn-pinger', 'component': 'network', 'type': 'infra'},
            statuses=[running('pinger', img, 86400 * 4 - 25)],
            containers=[{'name': 'pinger', 'image': img, 'command': ['/kube-ovn/kube-ovn-pinger', '--external-address=1.1.1.1', '--external-dns=kube-ovn.io.']}],
            spec_extra={'dnsPolicy': 'Default', 'priorityClassName': 'system-node-critical'},
            meta_extra={'annotations': {'ovn.kubernetes.io/allocated': 'true', 'ovn.kubernetes.io/ip_address': '10.16.0.4', 'ovn.kubernetes.io/logical_switch': 'ovn-default'}})
    ownref(p, dset); on_node(p, n); sandbox_ready(p, 86400 * 4 - 10)
    objs = [ns('kube-ovn'), n, dset, p,
            sev(p, 'DNSConfigForming', 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 213.133.100.100 213.133.99.99 213.133.98.98',
                count=1138, last=83, first=3550, instance=N)]
    case('rt-neg-dns-config-forming', meta(
        'Healthy: a Running pod with a repeated DNSConfigForming warning (the node lists more than three nameservers)',
        'https://github.com/kubeovn/kube-ovn/issues/497',
        'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 213.133.100.100 213.133.99.99 213.133.98.98',
        'kube-ovn/kube-ovn-pinger-kf7xw', 'holdout', None), objs)

def n_node_boot_warnings():
    N = 'worker-hz-3'
    n = mknode(N, runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', kubelet='v1.30.6', os_image='Debian GNU/Linux 12 (bookworm)')
    n['status']['nodeInfo']['bootID'] = uid('boot2' + N)
    for c in n['status']['conditions']:
        c['lastTransitionTime'] = ago(35 * 60 - 20)
    img = 'registry.example.com/web/blog:2.8.1'
    d, rs = deploy('blog', 'web', {'app': 'blog'}, 1, '5b8f7c6d9e', {'containers': [{'name': 'blog', 'image': img}]}, ready=1)
    p = pod('blog-5b8f7c6d9e-9kq2w', 'web', node_name=N, image=img, cname='blog', created=86400 * 9, labels={'app': 'blog', 'pod-template-hash': '5b8f7c6d9e'},
            statuses=[running('blog', img, 33 * 60, restarts=1, last=term(255, 'Unknown', 86400 * 9 - 30, 35 * 60 + 40, seed='blogboot'))])
    ownref(p, rs); on_node(p, n); sandbox_ready(p, 33 * 60 + 5)
    for c in p['status']['conditions']:
        if c['type'] in ('Ready', 'ContainersReady'): c['lastTransitionTime'] = ago(33 * 60 - 10)
    h = N
    t = 35 * 60
    objs = [ns('web'), n, d, rs, p,
            ev(n, 'Starting', 'Starting kubelet.', 'Normal', last=t, first=t, host=h),
            ev(n, 'InvalidDiskCapacity', 'invalid capacity 0 on image filesystem', last=t, first=t, host=h),
            ev(n, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % h, 'Normal', count=2, last=t - 1, first=t, host=h),
            ev(n, 'NodeHasNoDiskPressure', 'Node %s status is now: NodeHasNoDiskPressure' % h, 'Normal', count=2, last=t - 1, first=t, host=h),
            ev(n, 'NodeHasSufficientPID', 'Node %s status is now: NodeHasSufficientPID' % h, 'Normal', count=2, last=t - 1, first=t, host=h),
            ev(n, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods', 'Normal', last=t - 1, first=t - 1, host=h),
            ev(n, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (h, n['status']['nodeInfo']['bootID']), last=t - 1, first=t - 1, host=h),
            ev(n, 'ContainerGCFailed', 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"',
               last=t - 2, first=t - 2, host=h),
            ev(n, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % h, 'Normal', last=t + 60, first=t + 60, component='node-controller'),
            ev(n, 'NodeReady', 'Node %s status is now: NodeReady' % h, 'Normal', last=t - 20, first=t - 20, host=h),
            ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=t - 25, first=t - 25, host=h),
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', last=33 * 60 + 8, first=33 * 60 + 8, host=h, fieldPath=fp('blog')),
            ev(p, 'Created', 'Created container blog', 'Normal', last=33 * 60 + 6, first=33 * 60 + 6, host=h, fieldPath=fp('blog')),
            ev(p, 'Started', 'Started container blog', 'Normal', last=33 * 60 + 5, first=33 * 60 + 5, host=h, fieldPath=fp('blog'))]
    case('rt-neg-node-boot-warnings', meta(
        'Healthy: after a node reboot 35 minutes ago the node shows InvalidDiskCapacity and ContainerGCFailed from kubelet start-up; the pod came back Ready',
        'https://github.com/k0sproject/k0s/issues/897',
        'invalid capacity 0 on image filesystem',
        'web/blog-5b8f7c6d9e-9kq2w', 'dev', None), objs)

def n_sandbox_boot_retried():
    N = 'samywj'
    n = mknode(N, runtime='containerd://2.0.5', kernel='6.8.0-71-generic', kubelet='v1.31.9', os_image='Ubuntu 24.04.3 LTS', labels={'node-role.kubernetes.io/control-plane': ''})
    for c in n['status']['conditions']:
        c['lastTransitionTime'] = ago(52 * 60 - 30)
    fimg = 'ghcr.io/flannel-io/flannel:v0.27.3'
    fds = ds('kube-flannel-ds', 'kube-flannel', {'app': 'flannel'}, 1, 1, spec={'hostNetwork': True, 'containers': [{'name': 'kube-flannel', 'image': fimg}]})
    fl = pod('kube-flannel-ds-snv4l', 'kube-flannel', node_name=N, image=fimg, cname='kube-flannel', created=86400 * 6, labels={'app': 'flannel'},
             statuses=[running('kube-flannel', fimg, 51 * 60 + 10, restarts=5, last=term(255, 'Unknown', 86400, 52 * 60 + 30, seed='flboot'))], spec_extra={'hostNetwork': True})
    ownref(fl, fds); on_node(fl, n); sandbox_ready(fl, 51 * 60 + 20)
    cimg = 'registry.k8s.io/coredns/coredns:v1.11.3'
    cd, crs = deploy('coredns', 'kube-system', {'k8s-app': 'kube-dns'}, 2, '7d764666f9', {'containers': [{'name': 'coredns', 'image': cimg}]}, ready=2)
    err = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="flannel" failed (add): '
           "failed to load flannel 'subnet.env' file: open /run/flannel/subnet.env: no such file or directory. Check the flannel pod log for this node.")
    objs = [ns('kube-system'), ns('kube-flannel'), n, fds, fl, cd, crs,
            ev(fl, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=51 * 60 + 40, first=51 * 60 + 40, host=N),
            ev(fl, 'Started', 'Started container kube-flannel', 'Normal', last=51 * 60 + 10, first=51 * 60 + 10, host=N, fieldPath=fp('kube-flannel'))]
    for i, name in enumerate(['coredns-7d764666f9-d62dz', 'coredns-7d764666f9-f8n44']):
        p = pod(name, 'kube-system', node_name=N, image=cimg, cname='coredns', created=86400 * 6, labels={'k8s-app': 'kube-dns', 'pod-template-hash': '7d764666f9'},
                statuses=[running('coredns', cimg, 50 * 60 + 30 - i * 4, restarts=5, last=term(255, 'Unknown', 86400, 52 * 60 + 30, seed='cdboot%d' % i))],
                containers=[{'name': 'coredns', 'image': cimg, 'args': ['-conf', '/etc/coredns/Corefile'],
                             'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8181}, 'periodSeconds': 10}, 'livenessProbe': {'httpGet': {'path': '/health', 'port': 8080}, 'initialDelaySeconds': 60}}],
                spec_extra={'priorityClassName': 'system-cluster-critical'})
        ownref(p, crs); on_node(p, n); sandbox_ready(p, 50 * 60 + 35 - i * 4)
        for c in p['status']['conditions']:
            if c['type'] in ('Ready', 'ContainersReady'): c['lastTransitionTime'] = ago(50 * 60 + 20 - i * 4)
        objs += [p,
                 ev(p, 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.', 'Normal', last=51 * 60 + 45, first=51 * 60 + 45, host=N),
                 sev(p, 'FailedCreatePodSandBox', err % sbx('cdb%d' % i), count=2, last=51 * 60 + 5, first=51 * 60 + 38, instance=N),
                 ev(p, 'Pulled', 'Container image "%s" already present on machine' % cimg, 'Normal', last=50 * 60 + 33 - i * 4, first=50 * 60 + 33 - i * 4, host=N, fieldPath=fp('coredns')),
                 ev(p, 'Created', 'Created container coredns', 'Normal', last=50 * 60 + 32 - i * 4, first=50 * 60 + 32 - i * 4, host=N, fieldPath=fp('coredns')),
                 ev(p, 'Started', 'Started container coredns', 'Normal', last=50 * 60 + 31 - i * 4, first=50 * 60 + 31 - i * 4, host=N, fieldPath=fp('coredns')),
                 ev(p, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', count=2, last=50 * 60 + 21 - i * 4, first=50 * 60 + 28 - i * 4, host=N, fieldPath=fp('coredns'))]
    objs += [ev(n, 'Starting', 'Starting kubelet.', 'Normal', last=52 * 60, first=52 * 60, host=N),
             ev(n, 'Rebooted', 'Node %s has been rebooted, boot id: %s' % (N, n['status']['nodeInfo']['bootID']), last=52 * 60 - 1, first=52 * 60 - 1, host=N),
             ev(n, 'NodeReady', 'Node %s status is now: NodeReady' % N, 'Normal', last=52 * 60 - 30, first=52 * 60 - 30, host=N)]
    case('rt-neg-sandbox-boot-retried', meta(
        'Healthy: CoreDNS could not get a sandbox for half a minute after a reboot (flannel had not written subnet.env yet); it has been Ready for 50 minutes',
        'https://github.com/flannel-io/flannel/issues/2437',
        "failed to load flannel 'subnet.env' file: open /run/flannel/subnet.env: no such file or directory. Check the flannel pod log for this node.",
        'kube-system/coredns-7d764666f9-d62dz', 'dev', None), objs)

# ----------------------------------------------------------------------------- write all ----
if __name__ == '__main__':
    for f in (c_crio_short_name, c_no_match_platform, c_apparmor_parser_missing,      # 1 2 3h
              c_shim_missing, c_runtimeclass_handler, c_mount_file_dir,               # 4 5 6h
              c_exec_format_shebang, c_entrypoint_permission, c_cgroup_quota,         # 7 8 9h
              c_apparmor_profile, c_seccomp_profile, c_readonly_rootfs,               # 10 11 12h
              c_cni_calico, c_cni_flannel, c_cni_cilium,                              # 13 14 15h
              c_cni_aws_ip, c_pull_403, c_pull_proxy_scheme,                          # 16 17 18h
              c_pull_disk_full, c_pull_size_validation, c_crio_signature,             # 19 20 21h
              c_reserve_sandbox, n_imagepull_recovered, n_dns_config_forming,         # 22 23 24h
              n_node_boot_warnings, n_sandbox_boot_retried):                          # 25 26
        f()
    print('%d cases: %s' % (len(CASES), ' '.join(CASES)))
