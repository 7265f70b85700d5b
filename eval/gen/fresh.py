# Evaluation corpus, FRESH split (slug prefix fr-): incidents nobody used to build the rules.
# Sixteen real reports over every area (scheduling, storage, owners/admission, images, sandbox,
# crashes/probes, nodes/evictions, networking/DNS, Jobs) plus three reports of benign noise.
# Each dump is written in current (Kubernetes 1.29-1.31, containerd 1.7) wording with the noise
# of a real cluster. The expected rule was decided from the report's mechanism before any run;
# these cases are never tuned to the product. Run: python3 eval/gen/fresh.py  (writes eval/corpus/fr-*/)
import os, sys, copy, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403
from common import _meta

# ---------------------------------------------------------------- helpers (this file only)
sev = make_sev('frsev', 104711, 29)

def fp(c): return 'spec.containers{%s}' % c
def ifp(c): return 'spec.initContainers{%s}' % c

def scheduled(p, node_name, at):
    return sev(p, 'Scheduled', 'Successfully assigned %s/%s to %s' % (p['metadata']['namespace'], p['metadata']['name'], node_name), 'Normal', count=1, first=at,
               controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Binding')

def failed_scheduling(p, msg, count, last, first):
    return sev(p, 'FailedScheduling', msg, count=count, last=last, first=first, controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Scheduling')

def started(p, node_name, image, cname, at, pulled_in='3.1s', size=48213392, init=False, present=False):
    f = ifp(cname) if init else fp(cname)
    pull = [ev(p, 'Pulled', 'Container image "%s" already present on machine' % image, 'Normal', last=at, host=node_name, fieldPath=f)] if present else [
        ev(p, 'Pulling', 'Pulling image "%s"' % image, 'Normal', last=at, host=node_name, fieldPath=f),
        ev(p, 'Pulled', 'Successfully pulled image "%s" in %s (%s including waiting). Image size: %d bytes.' % (image, pulled_in, pulled_in, size), 'Normal', last=at - 3, host=node_name, fieldPath=f)]
    return pull + [ev(p, 'Created', 'Created container %s' % cname, 'Normal', last=at - 4, host=node_name, fieldPath=f),
                   ev(p, 'Started', 'Started container %s' % cname, 'Normal', last=at - 4, host=node_name, fieldPath=f)]

def restarted(p, node_name, image, cname, count, first, last, init=False):
    f = ifp(cname) if init else fp(cname)
    return [ev(p, 'Pulled', 'Container image "%s" already present on machine' % image, 'Normal', count=count, first=first, last=last, host=node_name, fieldPath=f),
            ev(p, 'Created', 'Created container %s' % cname, 'Normal', count=count + 1, first=first + 40, last=last, host=node_name, fieldPath=f),
            ev(p, 'Started', 'Started container %s' % cname, 'Normal', count=count + 1, first=first + 40, last=last, host=node_name, fieldPath=f)]

def imgid(image):
    repo = image.split('@')[0]
    if ':' in repo.split('/')[-1]: repo = repo.rsplit(':', 1)[0]
    return '%s@sha256:%s' % (repo, hexid(image))

def cid(seed): return 'containerd://' + hexid(seed)

def running(name, image, since, restarts=0, ready=True, last=None, started_=True):
    s = {'name': name, 'ready': ready, 'started': started_, 'restartCount': restarts, 'image': image, 'imageID': imgid(image),
         'containerID': cid(name + image + str(restarts) + str(since)), 'state': {'running': {'startedAt': ago(since)}}}
    if last: s['lastState'] = last
    return s

def term(code, reason, started_at, finished_at, message=None, seed='x'):
    t = {'exitCode': code, 'reason': reason, 'startedAt': ago(started_at), 'finishedAt': ago(finished_at), 'containerID': cid(seed)}
    if message: t['message'] = message
    return {'terminated': t}

def waiting(name, image, reason, message=None, restarts=0, last=None, pulled=True):
    w = {'reason': reason}
    if message: w['message'] = message
    s = {'name': name, 'ready': False, 'started': False, 'restartCount': restarts, 'image': image, 'imageID': imgid(image) if pulled else '', 'state': {'waiting': w}}
    if last: s['lastState'] = last
    return s

def clbo(p, cname, image, restarts, last, backoff='5m0s'):
    md = p['metadata']
    return waiting(cname, image, 'CrashLoopBackOff', 'back-off %s restarting failed container=%s pod=%s_%s(%s)' % (backoff, cname, md['name'], md['namespace'], md['uid']), restarts, last)

def backoff(p, node_name, cname, count, first, last=12, init=False):
    md = p['metadata']
    return ev(p, 'BackOff', 'Back-off restarting failed container %s in pod %s_%s(%s)' % (cname, md['name'], md['namespace'], md['uid']), count=count, first=first, last=last,
              host=node_name, fieldPath=ifp(cname) if init else fp(cname))

def conds(created, ready, since=None, msg=None, reason='ContainersNotReady', initialized=True, sandbox=True, containers_ready=None):
    since = since if since is not None else created - 20
    cr = ready if containers_ready is None else containers_ready
    c = [{'type': 'PodReadyToStartContainers', 'status': 'True' if sandbox else 'False', 'lastTransitionTime': ago(created - 3)},
         {'type': 'Initialized', 'status': 'True' if initialized else 'False', 'lastTransitionTime': ago(created - 2)},
         {'type': 'Ready', 'status': 'True' if ready else 'False', 'lastTransitionTime': ago(since)},
         {'type': 'ContainersReady', 'status': 'True' if cr else 'False', 'lastTransitionTime': ago(since)},
         {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(created - 1)}]
    if not ready: c[2].update({'reason': reason, 'message': msg or ''})
    if not cr: c[3].update({'reason': 'ContainersNotReady', 'message': msg or ''})
    if not initialized: c[1].update({'reason': 'ContainersNotInitialized', 'message': msg or ''})
    return c

def mkpod(name, namespace, node_name, containers, statuses, created, owner=None, labels=None, phase='Running', spec_extra=None, conditions=None, init=None, init_statuses=None, sa='default', host_ip=None):
    p = pod(name, namespace, node_name=node_name, image=containers[0]['image'], cname=containers[0]['name'], phase=phase, created=created, owner=owner,
            statuses=statuses, containers=containers, labels=labels, conditions=conditions if conditions is not None else conds(created, all(s.get('ready') for s in statuses)))
    p['spec'].update({'serviceAccountName': sa, 'dnsPolicy': 'ClusterFirst', 'schedulerName': 'default-scheduler', 'enableServiceLinks': True, 'preemptionPolicy': 'PreemptLowerPriority', 'priority': 0,
                      'tolerations': [{'key': 'node.kubernetes.io/not-ready', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300},
                                      {'key': 'node.kubernetes.io/unreachable', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300}]})
    if spec_extra: p['spec'].update(spec_extra)
    if init:
        p['spec']['initContainers'] = init
        p['status']['initContainerStatuses'] = init_statuses or []
    host_ip = host_ip or NODE_IPS.get(node_name)
    if host_ip and node_name: p['status']['hostIP'] = host_ip; p['status']['hostIPs'] = [{'ip': host_ip}]
    if node_name and p['spec'].get('hostNetwork') and host_ip: p['status']['podIP'] = host_ip; p['status']['podIPs'] = [{'ip': host_ip}]
    if owner and owner[0] == 'ReplicaSet':
        p['metadata']['generateName'] = owner[1] + '-'
    return p

def mknode(name, kubelet='v1.30.6', runtime='containerd://1.7.22', kernel='6.1.0-27-amd64', os_image=None, labels=None, created=86400 * 90, ip=None, **kw):
    n = node(name, runtime=runtime, kernel=kernel, kubelet=kubelet, labels={'kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', **(labels or {})}, **kw)
    n['metadata']['creationTimestamp'] = ago(created)
    if os_image: n['status']['nodeInfo']['osImage'] = os_image
    if ip: n['status']['addresses'][0]['address'] = ip
    NODE_IPS[name] = n['status']['addresses'][0]['address']
    return n

NODE_IPS = {}

def node_ip(n): return n['status']['addresses'][0]['address']

def deploy(name, namespace, labels, replicas, hash_, spec, ready=None, updated=None, conditions=None, created=86400 * 30, generation=4, strategy=None, extra_spec=None):
    ready = replicas if ready is None else ready
    updated = replicas if updated is None else updated
    d = workload('Deployment', name, namespace, labels, replicas=replicas, template_spec=spec)
    d['metadata'].update({'creationTimestamp': ago(created), 'generation': generation, 'labels': dict(labels), 'annotations': {'deployment.kubernetes.io/revision': str(generation)}})
    d['spec'].update({'strategy': strategy or {'type': 'RollingUpdate', 'rollingUpdate': {'maxSurge': '25%', 'maxUnavailable': '25%'}}, 'progressDeadlineSeconds': 600, 'revisionHistoryLimit': 10})
    if extra_spec: d['spec'].update(extra_spec)
    st = {'observedGeneration': generation, 'replicas': max(replicas, updated + ready if updated < replicas else replicas), 'updatedReplicas': updated}
    if ready: st.update({'readyReplicas': ready, 'availableReplicas': ready})
    if replicas > ready: st['unavailableReplicas'] = replicas - ready
    st['conditions'] = conditions or [
        {'type': 'Available', 'status': 'True' if ready >= replicas else 'False', 'reason': 'MinimumReplicasAvailable' if ready >= replicas else 'MinimumReplicasUnavailable',
         'message': 'Deployment has minimum availability.' if ready >= replicas else 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(created - 60), 'lastTransitionTime': ago(created - 60)},
        {'type': 'Progressing', 'status': 'True', 'reason': 'NewReplicaSetAvailable', 'message': 'ReplicaSet "%s-%s" has successfully progressed.' % (name, hash_), 'lastUpdateTime': ago(created - 60), 'lastTransitionTime': ago(created - 120)}]
    d['status'] = st
    rs = replicaset(d, hash_, replicas, ready, spec, created=created)
    return d, rs

def replicaset(d, hash_, replicas, ready, spec, created=86400 * 30, revision=None):
    name = '%s-%s' % (d['metadata']['name'], hash_)
    rs = rs_for(d, name)
    labels = d['spec']['selector']['matchLabels']
    rs['metadata'].update({'creationTimestamp': ago(created), 'labels': {**labels, 'pod-template-hash': hash_},
                           'annotations': {'deployment.kubernetes.io/desired-replicas': str(d['spec']['replicas']), 'deployment.kubernetes.io/max-replicas': str(d['spec']['replicas'] + 1),
                                           'deployment.kubernetes.io/revision': str(revision or d['metadata']['generation'])}})
    rs['spec']['replicas'] = replicas
    rs['spec']['selector'] = {'matchLabels': {**labels, 'pod-template-hash': hash_}}
    rs['spec']['template'] = {'metadata': {'labels': {**labels, 'pod-template-hash': hash_}}, 'spec': copy.deepcopy(spec)}
    rs['status'] = {'replicas': replicas, 'fullyLabeledReplicas': replicas, 'observedGeneration': 1}
    if ready: rs['status'].update({'readyReplicas': ready, 'availableReplicas': ready})
    return rs

def daemonset(name, namespace, labels, desired, ready, spec, created=86400 * 60):
    o = workload('DaemonSet', name, namespace, labels, template_spec=spec)
    o['metadata']['creationTimestamp'] = ago(created)
    o['spec']['updateStrategy'] = {'type': 'RollingUpdate', 'rollingUpdate': {'maxUnavailable': 1, 'maxSurge': 0}}
    o['status'] = {'currentNumberScheduled': desired, 'desiredNumberScheduled': desired, 'numberAvailable': ready, 'numberMisscheduled': 0, 'numberReady': ready,
                   'observedGeneration': 2, 'updatedNumberScheduled': desired, **({'numberUnavailable': desired - ready} if ready < desired else {})}
    return o

def ds_pod(ds, node_name, image, cname, created, namespace='kube-system', restarts=0, suffix=None, labels=None):
    name = '%s-%s' % (ds['metadata']['name'], suffix or hexid(ds['metadata']['name'] + node_name, 5).replace('0', 'k').replace('1', 'z'))
    return mkpod(name, namespace, node_name, [{'name': cname, 'image': image}], [running(cname, image, created - 15, restarts=restarts)], created,
                 owner=('DaemonSet', ds['metadata']['name']), labels=labels or dict(ds['spec']['selector']['matchLabels']), host_ip=None)

def kube_proxy(node_name, created=86400 * 40, version='v1.30.6'):
    img = 'registry.k8s.io/kube-proxy:%s' % version
    name = 'kube-proxy-' + hexid('kp' + node_name, 5).replace('0', 'q').replace('1', 'w')
    return mkpod(name, 'kube-system', node_name, [{'name': 'kube-proxy', 'image': img}], [running('kube-proxy', img, created - 10)], created,
                 owner=('DaemonSet', 'kube-proxy'), labels={'k8s-app': 'kube-proxy'}, spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})

def coredns(node_names, created=86400 * 40, image='registry.k8s.io/coredns/coredns:v1.11.3', hash_='76f75df574'):
    out = []
    for i, n in enumerate(node_names[:2]):
        out.append(mkpod('coredns-%s-%s' % (hash_, ['5m2xq', 'h8kfz'][i]), 'kube-system', n, [{'name': 'coredns', 'image': image}], [running('coredns', image, created - 30)], created,
                         owner=('ReplicaSet', 'coredns-' + hash_), labels={'k8s-app': 'kube-dns', 'pod-template-hash': hash_}, spec_extra={'priorityClassName': 'system-cluster-critical'}))
    return out

def node_event(n, reason, message, type_='Normal', count=1, last=30, first=None, component='kubelet'):
    return ev(n, reason, message, type_, count=count, last=last, first=first, component=component, host=n['metadata']['name'] if component == 'kubelet' else None)

def ctrl_ev(obj, reason, msg, component, type_='Normal', count=1, last=30, first=None):
    return ev(obj, reason, msg, type_, count=count, last=last, first=first if first is not None else last, component=component)

def claim(name, namespace, sc, phase, size, volume=None, created=900, provisioner=None, selected_node=None, access=('ReadWriteOnce',), labels=None):
    ann = {}
    if phase == 'Bound': ann.update({'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes'})
    if provisioner: ann.update({'volume.beta.kubernetes.io/storage-provisioner': provisioner, 'volume.kubernetes.io/storage-provisioner': provisioner})
    if selected_node: ann['volume.kubernetes.io/selected-node'] = selected_node
    c = pvc(name, namespace, storage_class=sc, phase=phase, size=size, volume=volume, created=created, access=access, annotations=ann or None)
    c['metadata']['finalizers'] = ['kubernetes.io/pvc-protection']
    if labels: c['metadata']['labels'] = labels
    return c

def obj(kind, api, name, namespace=None, created=86400 * 30, **fields):
    o = _meta(kind, api, name, namespace, created)
    o.update(fields)
    return o

def secret(name, namespace, keys, created=86400 * 30, type_='Opaque', labels=None):
    import base64
    o = _meta('Secret', 'v1', name, namespace, created)
    if labels: o['metadata']['labels'] = labels
    o['type'] = type_
    o['data'] = {k: base64.b64encode(('%s-%s' % (name, k)).encode()).decode() for k in keys}
    return o

def configmap(name, namespace, data, created=86400 * 30):
    o = _meta('ConfigMap', 'v1', name, namespace, created)
    o['data'] = data
    return o

def klog_lines(t0, lines, step=3, level='I', pid=1):
    """klog-formatted lines starting at NOW - t0 seconds."""
    out = []
    for i, (lvl, src, text) in enumerate(lines):
        t = NOW_MINUS(t0 - i * step)
        out.append('%s%s %s %7d %s] %s' % (lvl or level, t.strftime('%m%d'), t.strftime('%H:%M:%S.%f'), pid, src, text))
    return out

def NOW_MINUS(s):
    import datetime
    return NOW - datetime.timedelta(seconds=s)

def ts(s, fmt='%Y-%m-%dT%H:%M:%S.%fZ'):
    return NOW_MINUS(s).strftime(fmt)

def _strings(o):
    if isinstance(o, str): yield o
    elif isinstance(o, dict):
        for v in o.values(): yield from _strings(v)
    elif isinstance(o, list):
        for v in o: yield from _strings(v)

def case(slug, title, url, reported, target, first, objects, decisive=None, playbook='omit', acceptable=None):
    assert slug.startswith('fr-'), slug
    expect = {'first': first}
    if acceptable: expect['acceptable'] = acceptable
    if playbook != 'omit': expect['playbook'] = playbook
    if decisive is not None:
        assert 20 <= len(decisive) <= 80, (slug, len(decisive), decisive)
        assert any(decisive in s for s in _strings(objects)), (slug, 'decisive line not in the dump', decisive)
        expect['decisive'] = decisive
    ns_, name = target.split('/')
    assert any(o.get('kind') in ('Pod', 'Deployment', 'StatefulSet', 'Job', 'DaemonSet', 'CronJob', 'ReplicaSet') and o['metadata']['name'] == name and o['metadata'].get('namespace') == ns_ for o in objects), (slug, 'target missing')
    write_case(slug, {'title': title, 'url': url, 'reported': reported, 'target': target, 'split': 'fresh', 'expect': expect}, objects)

CASES = []
def register(f):
    CASES.append(f)
    return f


# =====================================================================================
# 1. volume.multi-attach: the node was stopped (not removed); the DO volume stays attached to it
# =====================================================================================
@register
def multi_attach_node_stopped():
    A = 'pool-k8s-main-c3xty'; B = 'pool-k8s-main-c3xtg'
    lab = lambda n, i: {'doks.digitalocean.com/node-pool': 'pool-k8s-main', 'doks.digitalocean.com/node-id': uid('doid' + n), 'region': 'fra1',
                        'topology.kubernetes.io/region': 'fra1', 'node.kubernetes.io/instance-type': 's-4vcpu-8gb', 'doks.digitalocean.com/version': '1.30.5-do.0'}
    na = mknode(A, kubelet='v1.30.5', runtime='containerd://1.7.22', kernel='6.1.0-25-amd64', os_image='Debian GNU/Linux 12 (bookworm)', labels=lab(A, 1), lost_since=780, ip='10.114.0.4')
    nb = mknode(B, kubelet='v1.30.5', runtime='containerd://1.7.22', kernel='6.1.0-25-amd64', os_image='Debian GNU/Linux 12 (bookworm)', labels=lab(B, 2), ip='10.114.0.5')
    for n, did in ((na, '418512337'), (nb, '418512341')): n['spec']['providerID'] = 'digitalocean://' + did
    sc = storageclass('do-block-storage', 'dobs.csi.digitalocean.com', 'Immediate', default=True)
    pvname = 'pvc-30c134ca-377c-4c29-8000-7e29c0850b7e'
    c = claim('io-mysql-data', 'io', 'do-block-storage', 'Bound', '10Gi', volume=pvname, created=86400 * 21, provisioner='dobs.csi.digitalocean.com')
    v = pv(pvname, c, driver='dobs.csi.digitalocean.com', handle='5f1b2c3d-8e4a-11ef-9a2b-0a58ac14c2d1', size='10Gi', storage_class='do-block-storage')
    v['metadata']['annotations'] = {'pv.kubernetes.io/provisioned-by': 'dobs.csi.digitalocean.com'}
    v['metadata']['finalizers'] = ['kubernetes.io/pv-protection', 'external-attacher/dobs-csi-digitalocean-com']
    v['spec']['csi']['volumeAttributes'] = {'storage.kubernetes.io/csiProvisionerIdentity': '1729071235512-8081-dobs.csi.digitalocean.com'}
    va = volumeattachment(pvname, A, attacher='dobs.csi.digitalocean.com', attached=True, created=86400 * 3, handle='5f1b2c3d-8e4a-11ef-9a2b-0a58ac14c2d1')
    va['status']['attachmentMetadata'] = {'csi.digitalocean.com/volume-name': pvname}
    va['metadata']['finalizers'] = ['external-attacher/dobs-csi-digitalocean-com']
    img = 'mysql:8.0.39'
    spec = {'containers': [{'name': 'mysql', 'image': img, 'ports': [{'containerPort': 3306, 'name': 'mysql'}],
                            'env': [{'name': 'MYSQL_ROOT_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'io-mysql', 'key': 'root-password'}}}],
                            'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/mysql'}],
                            'readinessProbe': {'exec': {'command': ['mysqladmin', 'ping', '-h', '127.0.0.1']}, 'periodSeconds': 10},
                            'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '2Gi'}}}],
            'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'io-mysql-data'}}]}
    d, rs = deploy('io-mysql', 'io', {'app': 'io-mysql'}, 1, '7f4fdf4c66', spec, ready=0, created=86400 * 21, generation=6, strategy={'type': 'Recreate'})
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 6}
    old = mkpod('io-mysql-7f4fdf4c66-n6788', 'io', A, spec['containers'], [running('mysql', img, 86400 * 3 - 40)], 86400 * 3, owner=('ReplicaSet', rs['metadata']['name']),
                labels={'app': 'io-mysql', 'pod-template-hash': '7f4fdf4c66'}, spec_extra={'volumes': spec['volumes']}, conditions=conds(86400 * 3, True), host_ip='10.114.0.4')
    old['status']['conditions'][2] = {'type': 'Ready', 'status': 'False', 'lastTransitionTime': ago(740)}
    old['status']['conditions'].insert(0, {'type': 'DisruptionTarget', 'status': 'True', 'reason': 'DeletionByTaintManager', 'message': 'Taint manager: deleting due to NoExecute taint', 'lastTransitionTime': ago(480)})
    old['metadata'].update({'deletionTimestamp': ago(450), 'deletionGracePeriodSeconds': 30})
    new = mkpod('io-mysql-7f4fdf4c66-vq2lp', 'io', B, spec['containers'], [waiting('mysql', img, 'ContainerCreating', pulled=False)], 478, owner=('ReplicaSet', rs['metadata']['name']),
                labels={'app': 'io-mysql', 'pod-template-hash': '7f4fdf4c66'}, spec_extra={'volumes': spec['volumes']}, phase='Pending',
                conditions=conds(478, False, msg='containers with unready status: [mysql]', sandbox=False), host_ip='10.114.0.5')
    new['status'].pop('podIP'); new['status'].pop('podIPs')
    csi_img = 'digitalocean/do-csi-plugin:v4.12.0'
    csi_ds = daemonset('csi-do-node', 'kube-system', {'app': 'csi-do-node'}, 2, 1, {'containers': [{'name': 'csi-do-plugin', 'image': csi_img}]})
    csi_b = ds_pod(csi_ds, B, csi_img, 'csi-do-plugin', 86400 * 21)
    csi_a = ds_pod(csi_ds, A, csi_img, 'csi-do-plugin', 86400 * 21)
    csi_a['status']['conditions'] = conds(86400 * 21, True)
    csi_a['status']['conditions'][2] = {'type': 'Ready', 'status': 'False', 'lastTransitionTime': ago(740)}
    cil = daemonset('cilium', 'kube-system', {'k8s-app': 'cilium'}, 2, 1, {'containers': [{'name': 'cilium-agent', 'image': 'ghcr.io/digitalocean-packages/cilium:v1.15.8-conformance-do.1'}]})
    unreachable = 'Node is not ready'
    objs = [ns('io'), ns('kube-system'), na, nb, sc, c, v, va, d, rs, old, new, csi_ds, csi_a, csi_b, cil,
            ds_pod(cil, A, 'ghcr.io/digitalocean-packages/cilium:v1.15.8-conformance-do.1', 'cilium-agent', 86400 * 21),
            ds_pod(cil, B, 'ghcr.io/digitalocean-packages/cilium:v1.15.8-conformance-do.1', 'cilium-agent', 86400 * 21),
            kube_proxy(A, version='v1.30.5'), kube_proxy(B, version='v1.30.5'), *coredns([B, B]),
            node_event(na, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % A, last=780, first=780, component='node-controller'),
            ev(old, 'NodeNotReady', unreachable, 'Warning', last=778, component='node-controller'),
            ev(old, 'TaintManagerEviction', 'Marking for deletion Pod io/io-mysql-7f4fdf4c66-n6788', 'Normal', last=480, component='taint-eviction-controller'),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: io-mysql-7f4fdf4c66-vq2lp', 'replicaset-controller', last=478),
            scheduled(new, B, 477),
            sev(new, 'FailedAttachVolume', 'Multi-Attach error for volume "%s" Volume is already used by pod(s) io-mysql-7f4fdf4c66-n6788' % pvname, count=1, first=476, last=476,
                controller='attachdetach-controller', instance='kube-controller-manager'),
            ev(new, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data], failed to process volumes=[]: context deadline exceeded',
               count=3, first=353, last=105, host=B),
            ev(csi_a, 'NodeNotReady', unreachable, 'Warning', last=778, component='node-controller')]
    case('fr-multi-attach-node-stopped',
         'ContainerCreating after a node was stopped: the MySQL volume is still attached to the stopped droplet and its old pod is stuck Terminating there (Multi-Attach)',
         'https://github.com/digitalocean/csi-digitalocean/issues/186',
         'Multi-Attach error for volume "pvc-30c134ca-377c-4c29-8000-7e29c0850b7e" Volume is already used by pod(s) io-mysql-7f4fdf4c66-n6788',
         'io/io-mysql-7f4fdf4c66-vq2lp', 'volume.multi-attach', objs, decisive='Volume is already used by pod(s) io-mysql-7f4fdf4c66-n6788')


# =====================================================================================
# 2. volume.mount-failed: the RBD image's ext4 has errors fsck -a cannot fix; MountDevice fails forever
# =====================================================================================
@register
def rbd_fsck_uncorrectable():
    N = 'k8s-test-0-114'; M = 'k8s-test-0-115'
    kern = '4.18.0-513.5.1.el8_9.x86_64'; osi = 'Rocky Linux 8.9 (Green Obsidian)'
    na = mknode(N, kubelet='v1.29.9', runtime='containerd://1.7.21', kernel=kern, os_image=osi, ip='10.10.0.114')
    nb = mknode(M, kubelet='v1.29.9', runtime='containerd://1.7.21', kernel=kern, os_image=osi, ip='10.10.0.115')
    drv = 'rook-ceph.rbd.csi.ceph.com'
    sc = storageclass('rook-ceph-block', drv, 'Immediate', default=True, params={'clusterID': 'rook-ceph', 'pool': 'replicapool', 'imageFormat': '2', 'imageFeatures': 'layering',
                                                                                   'csi.storage.k8s.io/fstype': 'ext4'})
    sc['reclaimPolicy'] = 'Retain'
    pvname = 'pvc-9d3e5b0a-4c61-4f0e-8a2d-6b1c7e5f3a92'
    handle = '0001-0009-rook-ceph-0000000000000002-3c8f2a6e-1b7d-4e95-a0c4-7d2e9b6f1a58'
    c = claim('data-gitea-postgresql-0', 'gitea', 'rook-ceph-block', 'Bound', '20Gi', volume=pvname, created=86400 * 160, provisioner=drv,
              labels={'app.kubernetes.io/instance': 'gitea', 'app.kubernetes.io/name': 'postgresql'})
    v = pv(pvname, c, driver=drv, handle=handle, size='20Gi', storage_class='rook-ceph-block')
    v['spec']['persistentVolumeReclaimPolicy'] = 'Retain'
    v['spec']['csi'].update({'volumeAttributes': {'clusterID': 'rook-ceph', 'imageFeatures': 'layering', 'imageFormat': '2', 'imageName': 'csi-vol-3c8f2a6e-1b7d-4e95-a0c4-7d2e9b6f1a58',
                                                  'journalPool': 'replicapool', 'pool': 'replicapool', 'storage.kubernetes.io/csiProvisionerIdentity': '1716288015371-2517-rook-ceph.rbd.csi.ceph.com'},
                             'nodeStageSecretRef': {'name': 'rook-csi-rbd-node', 'namespace': 'rook-ceph'}, 'controllerExpandSecretRef': {'name': 'rook-csi-rbd-provisioner', 'namespace': 'rook-ceph'}})
    va = volumeattachment(pvname, N, attacher=drv, attached=True, created=1480, handle=handle)
    img = 'docker.io/bitnami/postgresql:16.4.0-debian-12-r14'
    tmpl = {'securityContext': {'fsGroup': 1001}, 'containers': [{'name': 'postgresql', 'image': img, 'ports': [{'name': 'tcp-postgresql', 'containerPort': 5432}],
                                                                   'volumeMounts': [{'name': 'data', 'mountPath': '/bitnami/postgresql'}],
                                                                   'resources': {'requests': {'cpu': '250m', 'memory': '256Mi'}, 'limits': {'memory': '1Gi'}}}]}
    s = workload('StatefulSet', 'gitea-postgresql', 'gitea', {'app.kubernetes.io/instance': 'gitea', 'app.kubernetes.io/name': 'postgresql'}, replicas=1, template_spec=tmpl)
    s['spec'].update({'serviceName': 'gitea-postgresql-hl', 'podManagementPolicy': 'OrderedReady', 'updateStrategy': {'type': 'RollingUpdate'},
                      'volumeClaimTemplates': [{'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'metadata': {'name': 'data'}, 'spec': {'accessModes': ['ReadWriteOnce'], 'resources': {'requests': {'storage': '20Gi'}}}}]})
    s['status'] = {'observedGeneration': 2, 'replicas': 1, 'currentReplicas': 1, 'updatedReplicas': 1, 'availableReplicas': 0, 'currentRevision': 'gitea-postgresql-6b8d9f7c54', 'updateRevision': 'gitea-postgresql-6b8d9f7c54', 'collisionCount': 0}
    p = mkpod('gitea-postgresql-0', 'gitea', N, tmpl['containers'], [waiting('postgresql', img, 'ContainerCreating', pulled=False)], 1500, owner=('StatefulSet', 'gitea-postgresql'),
              labels={'app.kubernetes.io/instance': 'gitea', 'app.kubernetes.io/name': 'postgresql', 'statefulset.kubernetes.io/pod-name': 'gitea-postgresql-0', 'apps.kubernetes.io/pod-index': '0'},
              spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-gitea-postgresql-0'}}], 'securityContext': {'fsGroup': 1001}, 'hostname': 'gitea-postgresql-0', 'subdomain': 'gitea-postgresql-hl'},
              phase='Pending', conditions=conds(1500, False, msg='containers with unready status: [postgresql]', sandbox=False), host_ip='10.10.0.114')
    p['status'].pop('podIP'); p['status'].pop('podIPs')
    gimg = 'docker.gitea.com/gitea:1.22.3-rootless'
    gd, grs = deploy('gitea', 'gitea', {'app.kubernetes.io/name': 'gitea'}, 1, '5d9c7b8f6d', {'containers': [{'name': 'gitea', 'image': gimg}]}, ready=0, created=86400 * 160)
    gp = mkpod('gitea-5d9c7b8f6d-2qvkt', 'gitea', M, [{'name': 'gitea', 'image': gimg}], [running('gitea', gimg, 1450, restarts=7, ready=False, last=term(1, 'Error', 1560, 1452, seed='gt7'))], 1600,
               owner=('ReplicaSet', grs['metadata']['name']), labels={'app.kubernetes.io/name': 'gitea', 'pod-template-hash': '5d9c7b8f6d'}, conditions=conds(1600, False, since=1452, msg='containers with unready status: [gitea]'))
    plug_img = 'quay.io/cephcsi/cephcsi:v3.12.2'
    plug_ds = daemonset('csi-rbdplugin', 'rook-ceph', {'app': 'csi-rbdplugin'}, 2, 2, {'containers': [{'name': 'driver-registrar', 'image': 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1'}, {'name': 'csi-rbdplugin', 'image': plug_img}]})
    plug = mkpod('csi-rbdplugin-qtscn', 'rook-ceph', N, [{'name': 'driver-registrar', 'image': 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1'}, {'name': 'csi-rbdplugin', 'image': plug_img}],
                 [running('driver-registrar', 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.11.1', 1620), running('csi-rbdplugin', plug_img, 1620)], 86400 * 60,
                 owner=('DaemonSet', 'csi-rbdplugin'), labels={'app': 'csi-rbdplugin'}, spec_extra={'hostNetwork': True, 'hostPID': True, 'priorityClassName': 'system-node-critical'})
    dev = '/dev/rbd3'
    stage = '/var/lib/kubelet/plugins/kubernetes.io/csi/%s/2677416184d1804456c8cda2e754b18d3359f0d524484b48ec7f534aba3fe540/globalmount/%s' % (drv, handle)
    fsck = ("'fsck' found errors on device %s but could not correct them: fsck from util-linux 2.32.1\n%s contains a file system with errors, check forced.\n"
            "%s: Inode 1180173 has an invalid extent node (blk 4751361, lblk 0)\n\n\n%s: UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY.\n\t(i.e., without -a or -p options)\n" % (dev, dev, dev, dev))
    log = []
    for i, t in enumerate(range(1440, 60, -125)):
        rid = 290500 + i * 7
        T = NOW_MINUS(t)
        stamp = T.strftime('%m%d %H:%M:%S.%f')
        log += ['I%s    2028 utils.go:198] ID: %d Req-ID: %s GRPC call: /csi.v1.Node/NodeStageVolume' % (stamp, rid, handle),
                'I%s    2028 rbd_attach.go:522] ID: %d Req-ID: %s rbd: map mon 10.10.0.21:6789,10.10.0.22:6789,10.10.0.23:6789' % (stamp, rid, handle),
                'I%s    2028 nodeserver.go:431] ID: %d Req-ID: %s rbd image: replicapool/csi-vol-3c8f2a6e-1b7d-4e95-a0c4-7d2e9b6f1a58 was successfully mapped at %s' % (stamp, rid, handle, dev),
                'I%s    2028 mount_linux.go:452] `fsck` error fsck from util-linux 2.32.1' % stamp,
                '%s contains a file system with errors, check forced.' % dev,
                '%s: Inode 1180173 has an invalid extent node (blk 4751361, lblk 0)' % dev,
                '%s: UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY.' % dev,
                '\t(i.e., without -a or -p options)',
                'E%s    2028 nodeserver.go:842] ID: %d Req-ID: %s failed to mount device path (%s) to staging path (%s) for volume (%s) error: %s' % (stamp, rid, handle, dev, stage, handle, fsck.split('\n')[0]),
                'E%s    2028 utils.go:203] ID: %d Req-ID: %s GRPC error: rpc error: code = Internal desc = %s' % (stamp, rid, handle, fsck.split('\n')[0])]
    objs = [ns('gitea'), ns('rook-ceph'), na, nb, sc, c, v, va, s, p, gd, grs, gp, plug_ds, plug, csidriver_obj(drv),
            kube_proxy(N, version='v1.29.9'), kube_proxy(M, version='v1.29.9'), *coredns([M, N]),
            podlog('rook-ceph', 'csi-rbdplugin-qtscn', 'csi-rbdplugin', log, previous=False),
            node_event(na, 'Starting', 'Starting kubelet.', last=1640, first=1640),
            node_event(na, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % N, last=1650, first=1650),
            node_event(na, 'NodeReady', 'Node %s status is now: NodeReady' % N, last=1610, first=1610),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod gitea-postgresql-0 in StatefulSet gitea-postgresql successful', 'statefulset-controller', last=1500),
            scheduled(p, N, 1499),
            sev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvname, 'Normal', count=1, first=1478, controller='attachdetach-controller', instance='kube-controller-manager'),
            ev(p, 'FailedMount', 'MountVolume.MountDevice failed for volume "%s" : rpc error: code = Internal desc = %s' % (pvname, fsck), count=12, first=1440, last=65, host=N),
            ev(p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[]: context deadline exceeded', count=11, first=1375, last=70, host=N),
            backoff(gp, M, 'gitea', 31, 1400, 40),
            ev(gp, 'Unhealthy', 'Readiness probe failed: dial tcp 10.244.1.37:3000: connect: connection refused', count=140, first=1440, last=25, host=M, fieldPath=fp('gitea'))]
    case('fr-rbd-fsck-uncorrectable',
         'ContainerCreating after a containerd restart: the RBD volume of gitea-postgresql-0 maps, but fsck -a finds ext4 errors it cannot fix, so every MountDevice fails',
         'https://github.com/ceph/ceph-csi/issues/1285',
         "kubernetes.io/csi: attacher.MountDevice failed: rpc error: code = Internal desc = 'fsck' found errors on device /dev/rbd3 but could not correct them: fsck from util-linux 2.32.1",
         'gitea/gitea-postgresql-0', 'volume.mount-failed', objs, decisive="'fsck' found errors on device /dev/rbd3 but could not correct them", playbook=None)


def csidriver_obj(name, attach=True):
    o = _meta('CSIDriver', 'storage.k8s.io/v1', name, None, 86400 * 120)
    o['spec'] = {'attachRequired': attach, 'podInfoOnMount': False, 'fsGroupPolicy': 'File', 'requiresRepublish': False, 'storageCapacity': False, 'volumeLifecycleModes': ['Persistent'], 'seLinuxMount': False}
    return o


# =====================================================================================
# 3. pending.hostport-conflict: a hostNetwork Deployment on a one-node cluster cannot roll (the old pod holds the ports)
# =====================================================================================
@register
def hostport_hostnetwork_rollout():
    N = 'k3s-edge-01'
    n = mknode(N, kubelet='v1.30.6+k3s1', runtime='containerd://1.7.22-k3s1', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS', ip='192.168.1.40',
               labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true', 'node.kubernetes.io/instance-type': 'k3s'})
    cimg = 'newrelic/nri-kubernetes:3.29.6'; aimg = 'newrelic/k8s-events-forwarder:1.57.2'
    ports = [{'name': 'http-metrics', 'containerPort': 8080, 'hostPort': 8080, 'protocol': 'TCP'}]
    aports = [{'name': 'agent-api', 'containerPort': 8003, 'hostPort': 8003, 'protocol': 'TCP'}]
    def spec(ver):
        return {'hostNetwork': True, 'dnsPolicy': 'ClusterFirstWithHostNet', 'serviceAccountName': 'nri-bundle-nrk8s-controlplane',
                'containers': [{'name': 'controlplane', 'image': cimg, 'ports': ports, 'env': [{'name': 'NRI_KUBERNETES_VERBOSE', 'value': ver}],
                                'resources': {'requests': {'cpu': '100m', 'memory': '150M'}, 'limits': {'memory': '300M'}}},
                               {'name': 'agent', 'image': aimg, 'ports': aports, 'resources': {'requests': {'cpu': '100m', 'memory': '150M'}, 'limits': {'memory': '300M'}}}]}
    labels = {'app.kubernetes.io/name': 'nrk8s-controlplane', 'app.kubernetes.io/instance': 'nri-bundle'}
    new_spec = spec('true'); old_spec = spec('false')
    d, rs_new = deploy('nri-bundle-nrk8s-controlplane', 'newrelic', labels, 1, 'c4c6dfb5', new_spec, ready=1, updated=1, created=86400 * 40, generation=5,
                       conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 9), 'lastTransitionTime': ago(86400 * 9)},
                                   {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "nri-bundle-nrk8s-controlplane-c4c6dfb5" has timed out progressing.',
                                    'lastUpdateTime': ago(3790), 'lastTransitionTime': ago(3790)}])
    d['status'].update({'replicas': 2, 'updatedReplicas': 1, 'readyReplicas': 1, 'availableReplicas': 1, 'unavailableReplicas': 1})
    rs_new['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    rs_new['metadata']['creationTimestamp'] = ago(4392)
    rs_old = replicaset(d, '7b5f9c8d94', 1, 1, old_spec, created=86400 * 9, revision=4)
    old = mkpod('nri-bundle-nrk8s-controlplane-7b5f9c8d94-m2kpx', 'newrelic', N, old_spec['containers'], [running('controlplane', cimg, 86400 * 9 - 30), running('agent', aimg, 86400 * 9 - 30)], 86400 * 9,
                owner=('ReplicaSet', rs_old['metadata']['name']), labels={**labels, 'pod-template-hash': '7b5f9c8d94'}, spec_extra={k: v for k, v in old_spec.items() if k != 'containers'},
                sa='nri-bundle-nrk8s-controlplane', host_ip='192.168.1.40')
    old['status']['podIP'] = '192.168.1.40'; old['status']['podIPs'] = [{'ip': '192.168.1.40'}]
    msg = '0/1 nodes are available: 1 node(s) didn\'t have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.'
    p = pending_pod_(rs_new, 'nri-bundle-nrk8s-controlplane-c4c6dfb5-s9c55', 'newrelic', msg, new_spec, 4390, labels={**labels, 'pod-template-hash': 'c4c6dfb5'})
    kimg = 'newrelic/nri-kube-events:2.11.4'
    kd, krs = deploy('nri-bundle-nri-kube-events', 'newrelic', {'app.kubernetes.io/name': 'nri-kube-events'}, 1, '6f8b9d7c5', {'containers': [{'name': 'kube-events', 'image': kimg}]}, created=86400 * 40)
    kp = mkpod('nri-bundle-nri-kube-events-6f8b9d7c5-x8q2w', 'newrelic', N, [{'name': 'kube-events', 'image': kimg}], [running('kube-events', kimg, 86400 * 9)], 86400 * 9,
               owner=('ReplicaSet', krs['metadata']['name']), labels={'app.kubernetes.io/name': 'nri-kube-events', 'pod-template-hash': '6f8b9d7c5'})
    kubelet_ds = daemonset('nri-bundle-nrk8s-kubelet', 'newrelic', {'app.kubernetes.io/name': 'nrk8s-kubelet'}, 1, 1, {'hostNetwork': True, 'containers': [{'name': 'kubelet', 'image': cimg}]})
    kl = ds_pod(kubelet_ds, N, cimg, 'kubelet', 4380, namespace='newrelic')
    objs = [ns('newrelic'), ns('kube-system'), n, d, rs_new, rs_old, old, p, kd, krs, kp, kubelet_ds, kl, *coredns([N, N], image='rancher/mirrored-coredns-coredns:1.11.3', hash_='ccb96694c'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set nri-bundle-nrk8s-controlplane-c4c6dfb5 from 0 to 1', 'deployment-controller', last=4392),
            ctrl_ev(rs_new, 'SuccessfulCreate', 'Created pod: nri-bundle-nrk8s-controlplane-c4c6dfb5-s9c55', 'replicaset-controller', last=4390),
            failed_scheduling(p, msg, 72, 105, 4389),
            *started(kl, N, cimg, 'kubelet', 4375, present=True),
            ev(kl, 'Unhealthy', 'Readiness probe failed: Get "http://192.168.1.40:10250/healthz": dial tcp 192.168.1.40:10250: connect: connection refused', count=2, first=4370, last=4360, host=N, fieldPath=fp('kubelet'))]
    case('fr-hostport-hostnetwork-rollout',
         'Rollout stuck for 73 minutes on a one-node cluster: the new hostNetwork control-plane pod cannot schedule while the old one holds ports 8080/8003',
         'https://github.com/newrelic/nri-kubernetes/issues/356',
         "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.",
         'newrelic/nri-bundle-nrk8s-controlplane-c4c6dfb5-s9c55', 'pending.hostport-conflict', objs, decisive="didn't have free ports for the requested pod ports")


def pending_pod_(owner_rs, name, namespace, msg, spec, created, labels, reason='Unschedulable', kind='ReplicaSet'):
    p = pod(name, namespace, node_name=None, phase='Pending', created=created, statuses=[], owner=(kind, owner_rs['metadata']['name']) if owner_rs else None, containers=spec['containers'], labels=labels,
            conditions=[{'type': 'PodScheduled', 'status': 'False', 'reason': reason, 'message': msg, 'lastTransitionTime': ago(created - 1), 'lastProbeTime': None}])
    del p['status']['containerStatuses']
    p['status'].pop('startTime', None)
    p['spec'].update({k: v for k, v in spec.items() if k != 'containers'})
    p['spec'].update({'schedulerName': 'default-scheduler', 'priority': 0, 'preemptionPolicy': 'PreemptLowerPriority', 'enableServiceLinks': True})
    p['spec'].setdefault('serviceAccountName', 'default')
    p['spec'].setdefault('dnsPolicy', 'ClusterFirst')
    p['spec']['tolerations'] = [{'key': 'node.kubernetes.io/not-ready', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300},
                                {'key': 'node.kubernetes.io/unreachable', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300}]
    if owner_rs and kind == 'ReplicaSet': p['metadata']['generateName'] = owner_rs['metadata']['name'] + '-'
    return p


# =====================================================================================
# 4. pending.insufficient-resources: CI pods request more ephemeral-storage than any node has
# =====================================================================================
@register
def insufficient_ephemeral_storage():
    workers = ['origin-ci-ig-n-%s' % s for s in ('0ckt', '1f8q', '2mzx', '3b7d', '4kwp', '5r2h', '6tns', '7vq3', '8xg5', '9c4m', 'a6lp', 'bd9w', 'c2fj', 'd7ks', 'e3hb')]
    masters = ['origin-ci-ig-m-%s' % s for s in ('k2v7', 'p5q1', 'z8r4')]
    nodes = []
    for i, w in enumerate(workers):
        n = mknode(w, kubelet='v1.29.10', kernel='5.14.0-427.42.1.el9_4.x86_64', os_image='Red Hat Enterprise Linux CoreOS 416.94.202411070111-0', ip='10.142.0.%d' % (20 + i),
                   labels={'node-role.kubernetes.io/worker': '', 'cloud.google.com/machine-family': 'n2', 'node.kubernetes.io/instance-type': 'n2-standard-16',
                           'topology.kubernetes.io/zone': 'us-east1-%s' % 'bcd'[i % 3]})
        n['status']['capacity'] = {'cpu': '16', 'memory': '64312716Ki', 'pods': '250', 'ephemeral-storage': '104322028Ki'}
        n['status']['allocatable'] = {'cpu': '15500m', 'memory': '62113164Ki', 'pods': '250', 'ephemeral-storage': '94993097194'}
        nodes.append(n)
    for i, m in enumerate(masters):
        n = mknode(m, kubelet='v1.29.10', kernel='5.14.0-427.42.1.el9_4.x86_64', os_image='Red Hat Enterprise Linux CoreOS 416.94.202411070111-0', ip='10.142.0.%d' % (2 + i),
                   labels={'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/instance-type': 'n2-standard-8'},
                   taints=[{'key': 'node-role.kubernetes.io/master', 'effect': 'NoSchedule'}])
        nodes.append(n)
    img = 'registry.ci.openshift.org/ci/ci-operator:latest'
    spec = {'nodeSelector': {'node-role.kubernetes.io/worker': ''}, 'serviceAccountName': 'ci-operator', 'restartPolicy': 'Never',
            'containers': [{'name': 'test', 'image': img, 'command': ['ci-operator'], 'args': ['--give-pr-author-access-to-namespace=true', '--target=e2e-aws', '--secret-dir=/usr/local/e2e-aws-cluster-profile'],
                            'resources': {'requests': {'cpu': '10m', 'memory': '200Mi', 'ephemeral-storage': '120Gi'}, 'limits': {'ephemeral-storage': '120Gi'}}}],
            'tolerations': []}
    name = '6f0c1e8a-a7f2-11ef-9a41-0a580a800b26'
    msg = ("0/18 nodes are available: 15 Insufficient ephemeral-storage, 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/18 nodes are available: "
           "15 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.")
    p = pending_pod_(None, name, 'ci', msg, spec, 760, labels={'created-by-prow': 'true', 'prow.k8s.io/type': 'presubmit', 'prow.k8s.io/job': 'pull-ci-openshift-origin-master-e2e-aws',
                                                               'prow.k8s.io/refs.org': 'openshift', 'prow.k8s.io/refs.repo': 'origin', 'prow.k8s.io/refs.pull': '29341'})
    p['metadata']['annotations'] = {'prow.k8s.io/job': 'pull-ci-openshift-origin-master-e2e-aws', 'prow.k8s.io/context': 'ci/prow/e2e-aws'}
    # a pod of an older job (no ephemeral request) that runs fine, and the prow components
    other = mkpod('5a91b7c2-a7f1-11ef-9a41-0a580a800b26', 'ci', workers[3], [{'name': 'test', 'image': img}], [running('test', img, 3000)], 3010,
                  labels={'created-by-prow': 'true', 'prow.k8s.io/type': 'periodic', 'prow.k8s.io/job': 'periodic-ci-openshift-release-master-nightly-4.17-e2e-aws'},
                  spec_extra={'restartPolicy': 'Never', 'serviceAccountName': 'ci-operator'})
    plank_img = 'gcr.io/k8s-prow/prow-controller-manager:v20241114-2c5cbd1c6'
    pd, prs = deploy('prow-controller-manager', 'ci', {'app': 'prow-controller-manager'}, 1, '7f9d8c6b54', {'containers': [{'name': 'prow-controller-manager', 'image': plank_img}]}, created=86400 * 80)
    pp = mkpod('prow-controller-manager-7f9d8c6b54-9vxqz', 'ci', workers[0], [{'name': 'prow-controller-manager', 'image': plank_img}], [running('prow-controller-manager', plank_img, 86400 * 2)], 86400 * 2,
               owner=('ReplicaSet', prs['metadata']['name']), labels={'app': 'prow-controller-manager', 'pod-template-hash': '7f9d8c6b54'})
    objs = [ns('ci'), ns('kube-system'), *nodes, p, other, pd, prs, pp,
            failed_scheduling(p, msg, 909, 20, 745),
            ev(p, 'NotTriggerScaleUp', "pod didn't trigger scale-up (it wouldn't fit if a new node is added)", 'Normal', count=50, first=735, last=55, component='cluster-autoscaler'),
            scheduled(other, workers[3], 3009), *started(other, workers[3], img, 'test', 3005, '2.4s'),
            node_event(nodes[6], 'FreeDiskSpaceFailed', 'Failed to garbage collect required amount of images. Attempted to free 3452813312 bytes, but only found 0 bytes eligible to free.', 'Warning', last=86400, first=86400)]
    case('fr-insufficient-ephemeral-storage',
         'Pending CI pods: every worker has 95 GB of allocatable ephemeral storage and the job now requests 120Gi, so no node (and no new node) fits',
         'https://github.com/openshift/release/pull/4216',
         "0/18 nodes are available: 18 Insufficient ephemeral-storage, 3 node(s) didn't match node selector.",
         'ci/' + name, 'pending.insufficient-resources', objs, decisive='15 Insufficient ephemeral-storage')


# =====================================================================================
# 5. image.not-found: a rollout to a tag that was never pushed stalls at ImagePullBackOff (ProgressDeadlineExceeded)
# =====================================================================================
@register
def rollout_tag_missing():
    A = 'ip-10-40-3-118.eu-west-1.compute.internal'; B = 'ip-10-40-5-27.eu-west-1.compute.internal'
    na = mknode(A, kubelet='v1.30.4-eks-a737599', runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241031', ip='10.40.3.118',
                labels={'eks.amazonaws.com/nodegroup': 'apps', 'topology.kubernetes.io/zone': 'eu-west-1a'})
    nb = mknode(B, kubelet='v1.30.4-eks-a737599', runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241031', ip='10.40.5.27',
                labels={'eks.amazonaws.com/nodegroup': 'apps', 'topology.kubernetes.io/zone': 'eu-west-1b'})
    old_img = 'shotgunhq/shotgun:v98'; new_img = 'shotgunhq/shotgun:v99'
    def spec(img):
        return {'imagePullSecrets': [{'name': 'dockerhub-shotgunhq'}], 'containers': [{'name': 'shotgun', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'containerPort': 8000, 'name': 'http'}],
                'readinessProbe': {'httpGet': {'path': '/ready', 'port': 'http'}, 'periodSeconds': 5}, 'resources': {'requests': {'cpu': '200m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}]}
    labels = {'app': 'shotgun'}
    d, rs_new = deploy('shotgun', 'test', labels, 1, '5c9d7b8f4', spec(new_img), ready=1, updated=1, created=86400 * 19, generation=12,
                       extra_spec={'minReadySeconds': 5, 'progressDeadlineSeconds': 120},
                       conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 2), 'lastTransitionTime': ago(86400 * 2)},
                                   {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "shotgun-5c9d7b8f4" has timed out progressing.',
                                    'lastUpdateTime': ago(1030), 'lastTransitionTime': ago(1030)}])
    d['spec']['progressDeadlineSeconds'] = 120
    d['status'].update({'replicas': 2, 'updatedReplicas': 1, 'readyReplicas': 1, 'availableReplicas': 1, 'unavailableReplicas': 1})
    rs_new['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    rs_new['metadata']['creationTimestamp'] = ago(1152)
    rs_old = replicaset(d, '79c6b5d8f', 1, 1, spec(old_img), created=86400 * 2, revision=11)
    old = mkpod('shotgun-79c6b5d8f-8q88v', 'test', B, spec(old_img)['containers'], [running('shotgun', old_img, 86400 * 2 - 20)], 86400 * 2, owner=('ReplicaSet', rs_old['metadata']['name']),
                labels={**labels, 'pod-template-hash': '79c6b5d8f'}, spec_extra={'imagePullSecrets': [{'name': 'dockerhub-shotgunhq'}]}, host_ip='10.40.5.27')
    pn = 'shotgun-5c9d7b8f4-bvq79'
    err = ('failed to pull and unpack image "docker.io/shotgunhq/shotgun:v99": failed to resolve reference "docker.io/shotgunhq/shotgun:v99": '
           'docker.io/shotgunhq/shotgun:v99: not found')
    p = mkpod(pn, 'test', A, spec(new_img)['containers'], [waiting('shotgun', new_img, 'ImagePullBackOff', 'Back-off pulling image "shotgunhq/shotgun:v99"', pulled=False)], 1150,
              owner=('ReplicaSet', rs_new['metadata']['name']), labels={**labels, 'pod-template-hash': '5c9d7b8f4'}, spec_extra={'imagePullSecrets': [{'name': 'dockerhub-shotgunhq'}]},
              phase='Pending', conditions=conds(1150, False, msg='containers with unready status: [shotgun]'), host_ip='10.40.3.118')
    vpc = '602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1'
    aws_ds = daemonset('aws-node', 'kube-system', {'k8s-app': 'aws-node'}, 2, 2, {'containers': [{'name': 'aws-node', 'image': vpc}]})
    wimg = 'shotgunhq/shotgun-worker:v98'
    wd, wrs = deploy('shotgun-worker', 'test', {'app': 'shotgun-worker'}, 2, '6b7f5c9d8', {'containers': [{'name': 'worker', 'image': wimg}]}, created=86400 * 19)
    wps = [mkpod('shotgun-worker-6b7f5c9d8-%s' % s, 'test', n_, [{'name': 'worker', 'image': wimg}], [running('worker', wimg, 86400 * 2)], 86400 * 2, owner=('ReplicaSet', wrs['metadata']['name']),
                 labels={'app': 'shotgun-worker', 'pod-template-hash': '6b7f5c9d8'}) for s, n_ in (('hx2lm', A), ('p9c4t', B))]
    objs = [ns('test'), ns('kube-system'), na, nb, d, rs_new, rs_old, old, p, wd, wrs, *wps, aws_ds, ds_pod(aws_ds, A, vpc, 'aws-node', 86400 * 30), ds_pod(aws_ds, B, vpc, 'aws-node', 86400 * 30),
            kube_proxy(A, version='v1.30.4-eksbuild.6'), kube_proxy(B, version='v1.30.4-eksbuild.6'), *coredns([A, B], image='602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns:v1.11.3-eksbuild.1'),
            secret('dockerhub-shotgunhq', 'test', ['.dockerconfigjson'], type_='kubernetes.io/dockerconfigjson', created=86400 * 300),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set shotgun-5c9d7b8f4 from 0 to 1', 'deployment-controller', last=1152),
            ctrl_ev(rs_new, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=1150),
            scheduled(p, A, 1149),
            ev(p, 'Pulling', 'Pulling image "%s"' % new_img, 'Normal', count=8, first=1147, last=228, host=A, fieldPath=fp('shotgun')),
            ev(p, 'Failed', 'Failed to pull image "%s": %s' % (new_img, err), count=8, first=1146, last=227, host=A, fieldPath=fp('shotgun')),
            ev(p, 'Failed', 'Error: ErrImagePull', count=8, first=1146, last=227, host=A, fieldPath=fp('shotgun')),
            ev(p, 'BackOff', 'Back-off pulling image "%s"' % new_img, 'Normal', count=52, first=1140, last=14, host=A, fieldPath=fp('shotgun')),
            ev(p, 'Failed', 'Error: ImagePullBackOff', count=52, first=1140, last=14, host=A, fieldPath=fp('shotgun')),
            ev(old, 'Unhealthy', 'Readiness probe failed: Get "http://10.40.5.91:8000/ready": dial tcp 10.40.5.91:8000: connect: connection refused', count=2, first=86400 * 2 - 10, last=86400 * 2 - 15, host=B, fieldPath=fp('shotgun'))]
    case('fr-rollout-tag-missing',
         'Rollout stalls past its progress deadline: the new ReplicaSet\'s pod is in ImagePullBackOff because tag v99 was never pushed to the private Docker Hub repository',
         'https://github.com/kubernetes/kubernetes/issues/40207',
         'a pod spec for a single-container pod with a non existing-image:tag (the image exists in my private dockerhub registry, the tag does not)',
         'test/' + pn, 'image.not-found', objs, decisive='docker.io/shotgunhq/shotgun:v99: not found')


# =====================================================================================
# 6. readiness.gate-not-ready (proposed): containers Ready, the pod is not: the ALB target-health gate condition never appears
# =====================================================================================
@register
def readiness_gate_alb():
    A = 'ip-172-31-18-204.us-west-2.compute.internal'; B = 'ip-172-31-42-77.us-west-2.compute.internal'; C = 'ip-172-31-71-9.us-west-2.compute.internal'
    nodes = [mknode(n, kubelet='v1.31.2-eks-94953ac', runtime='containerd://1.7.23', kernel='6.1.115-126.197.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241121', ip=ip,
                    labels={'eks.amazonaws.com/nodegroup': 'general', 'topology.kubernetes.io/zone': z}) for n, ip, z in ((A, '172.31.18.204', 'us-west-2a'), (B, '172.31.42.77', 'us-west-2b'), (C, '172.31.71.9', 'us-west-2c'))]
    gate = 'target-health.elbv2.k8s.aws/k8s-shop-storefro-3f2a9c1b7e'
    img_new = '123456789012.dkr.ecr.us-west-2.amazonaws.com/shop/storefront:2024.11.20-3'
    img_old = '123456789012.dkr.ecr.us-west-2.amazonaws.com/shop/storefront:2024.11.14-1'
    def spec(img):
        return {'containers': [{'name': 'storefront', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
                                'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 'http'}, 'periodSeconds': 5, 'failureThreshold': 3},
                                'resources': {'requests': {'cpu': '250m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}}]}
    labels = {'app': 'storefront'}
    d, rs_new = deploy('storefront', 'shop', labels, 3, '6d5f8b7c9d', spec(img_new), ready=3, updated=1, created=86400 * 200, generation=57,
                       strategy={'type': 'RollingUpdate', 'rollingUpdate': {'maxSurge': 1, 'maxUnavailable': 0}},
                       conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 6), 'lastTransitionTime': ago(86400 * 6)},
                                   {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "storefront-6d5f8b7c9d" has timed out progressing.',
                                    'lastUpdateTime': ago(1700), 'lastTransitionTime': ago(1700)}])
    d['status'].update({'replicas': 4, 'updatedReplicas': 1, 'readyReplicas': 3, 'availableReplicas': 3})
    d['status'].pop('unavailableReplicas', None)
    rs_new['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    rs_new['metadata']['creationTimestamp'] = ago(2310)
    rs_old = replicaset(d, '84b9c6d7f5', 3, 3, spec(img_old), created=86400 * 6, revision=56)
    def gated(p, ok, since):
        p['spec']['readinessGates'] = [{'conditionType': gate}]
        if ok: p['status']['conditions'].insert(0, {'type': gate, 'status': 'True', 'lastProbeTime': None, 'lastTransitionTime': ago(since)})
        return p
    olds = []
    for s, n_, ip in (('2xk7q', A, '172.31.20.41'), ('9vbtm', B, '172.31.44.190'), ('qzr4n', C, '172.31.75.12')):
        op = mkpod('storefront-84b9c6d7f5-' + s, 'shop', n_, spec(img_old)['containers'], [running('storefront', img_old, 86400 * 6 - 30)], 86400 * 6, owner=('ReplicaSet', rs_old['metadata']['name']),
                   labels={**labels, 'pod-template-hash': '84b9c6d7f5'})
        op['status']['podIP'] = ip; op['status']['podIPs'] = [{'ip': ip}]
        olds.append(gated(op, True, 86400 * 6 - 70))
    pn = 'storefront-6d5f8b7c9d-k2x8p'
    msg = 'corresponding condition of pod readiness gate "%s" does not exist.' % gate
    p = mkpod(pn, 'shop', A, spec(img_new)['containers'], [running('storefront', img_new, 2290)], 2308, owner=('ReplicaSet', rs_new['metadata']['name']),
              labels={**labels, 'pod-template-hash': '6d5f8b7c9d'}, conditions=conds(2308, False, since=2308, msg=msg, reason='ReadinessGatesNotReady', containers_ready=True))
    p['status']['conditions'][3]['lastTransitionTime'] = ago(2270)
    p['status']['podIP'] = '172.31.23.158'; p['status']['podIPs'] = [{'ip': '172.31.23.158'}]
    gated(p, False, 0)
    nsobj = ns('shop', meta={'labels': {'kubernetes.io/metadata.name': 'shop', 'elbv2.k8s.aws/pod-readiness-gate-inject': 'enabled'}})
    svc = service('storefront', 'shop', labels, ports=((80, 8080),))
    eps = endpoints('storefront', 'shop', ready=[(o['status']['podIP'], o['metadata']['name'], o['spec']['nodeName']) for o in olds], not_ready=[('172.31.23.158', pn, A)], port=8080)
    tgb = obj('TargetGroupBinding', 'elbv2.k8s.aws/v1beta1', 'k8s-shop-storefro-3f2a9c1b7e', 'shop', 86400 * 200,
              spec={'serviceRef': {'name': 'storefront', 'port': 80}, 'targetGroupARN': 'arn:aws:elasticloadbalancing:us-west-2:123456789012:targetgroup/k8s-shop-storefro-3f2a9c1b7e/6c1b2d3e4f5a6b7c',
                    'targetType': 'ip', 'ipAddressType': 'ipv4', 'networking': {'ingress': [{'from': [{'securityGroup': {'groupID': 'sg-0a1b2c3d4e5f60718'}}], 'ports': [{'port': 8080, 'protocol': 'TCP'}]}]}},
              status={'observedGeneration': 1})
    tgb['metadata']['labels'] = {'ingress.k8s.aws/stack-name': 'storefront', 'ingress.k8s.aws/stack-namespace': 'shop'}
    tgb['metadata']['finalizers'] = ['elbv2.k8s.aws/resources']
    ing = obj('Ingress', 'networking.k8s.io/v1', 'storefront', 'shop', 86400 * 200,
              spec={'ingressClassName': 'alb', 'rules': [{'host': 'shop.example.com', 'http': {'paths': [{'path': '/', 'pathType': 'Prefix', 'backend': {'service': {'name': 'storefront', 'port': {'number': 80}}}}]}}]},
              status={'loadBalancer': {'ingress': [{'hostname': 'k8s-shop-storefro-7d1e2f3a4b-1234567890.us-west-2.elb.amazonaws.com'}]}})
    ing['metadata']['annotations'] = {'alb.ingress.kubernetes.io/scheme': 'internet-facing', 'alb.ingress.kubernetes.io/target-type': 'ip', 'alb.ingress.kubernetes.io/healthcheck-path': '/healthz'}
    lbc_img = 'public.ecr.aws/eks/aws-load-balancer-controller:v2.8.3'
    ld, lrs = deploy('aws-load-balancer-controller', 'kube-system', {'app.kubernetes.io/name': 'aws-load-balancer-controller'}, 2, '5f8b6c7d94',
                     {'serviceAccountName': 'aws-load-balancer-controller', 'containers': [{'name': 'aws-load-balancer-controller', 'image': lbc_img}]}, created=86400 * 200)
    lpods = [mkpod('aws-load-balancer-controller-5f8b6c7d94-%s' % s, 'kube-system', n_, [{'name': 'aws-load-balancer-controller', 'image': lbc_img}], [running('aws-load-balancer-controller', lbc_img, 86400 * 9)], 86400 * 9,
                   owner=('ReplicaSet', lrs['metadata']['name']), labels={'app.kubernetes.io/name': 'aws-load-balancer-controller', 'pod-template-hash': '5f8b6c7d94'}, sa='aws-load-balancer-controller')
             for s, n_ in (('tq6wd', B), ('c8mzl', C))]
    lease = obj('Lease', 'coordination.k8s.io/v1', 'aws-load-balancer-controller-leader', 'kube-system', 86400 * 200,
                spec={'holderIdentity': 'aws-load-balancer-controller-5f8b6c7d94-tq6wd_0b7e9f3a-5d4c-4a2b-9e1f-6c7d8e9f0a1b', 'leaseDurationSeconds': 15, 'renewTime': ago(3).replace('Z', '.412907Z'),
                      'acquireTime': ago(86400 * 9 - 40).replace('Z', '.000000Z'), 'leaseTransitions': 41})
    log = ['{"level":"info","ts":"%s","msg":"version","GitVersion":"v2.8.3","GitCommit":"6b1a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2","BuildDate":"2024-09-12T17:41:20+0000"}' % ts(86400 * 9 - 35),
           '{"level":"info","ts":"%s","logger":"setup","msg":"adding health check for controller"}' % ts(86400 * 9 - 34),
           '{"level":"info","ts":"%s","logger":"setup","msg":"starting podInfo repo"}' % ts(86400 * 9 - 34),
           '{"level":"info","ts":"%s","msg":"Starting EventSource","controller":"targetGroupBinding","controllerGroup":"elbv2.k8s.aws","controllerKind":"TargetGroupBinding","source":"kind source: *v1beta1.TargetGroupBinding"}' % ts(86400 * 9 - 30),
           '{"level":"info","ts":"%s","msg":"Starting workers","controller":"targetGroupBinding","controllerGroup":"elbv2.k8s.aws","controllerKind":"TargetGroupBinding","worker count":3}' % ts(86400 * 9 - 30),
           '{"level":"info","ts":"%s","logger":"controllers.ingress","msg":"successfully built model","model":"{\\"id\\":\\"shop/storefront\\",\\"resources\\":{}}"}' % ts(86400 * 6 - 60),
           '{"level":"info","ts":"%s","logger":"controllers.ingress","msg":"successfully deployed model","ingressGroup":"shop/storefront"}' % ts(86400 * 6 - 58),
           '{"level":"info","ts":"%s","msg":"registering targets","arn":"arn:aws:elasticloadbalancing:us-west-2:123456789012:targetgroup/k8s-shop-storefro-3f2a9c1b7e/6c1b2d3e4f5a6b7c","targets":[{"AvailabilityZone":null,"Id":"172.31.75.12","Port":8080}]}' % ts(86400 * 6 - 55),
           '{"level":"info","ts":"%s","msg":"registered targets","arn":"arn:aws:elasticloadbalancing:us-west-2:123456789012:targetgroup/k8s-shop-storefro-3f2a9c1b7e/6c1b2d3e4f5a6b7c"}' % ts(86400 * 6 - 54),
           '{"level":"info","ts":"%s","msg":"deRegistering targets","arn":"arn:aws:elasticloadbalancing:us-west-2:123456789012:targetgroup/k8s-shop-storefro-3f2a9c1b7e/6c1b2d3e4f5a6b7c","targets":[{"AvailabilityZone":null,"Id":"172.31.33.7","Port":8080}]}' % ts(86400 * 6 - 20),
           '{"level":"info","ts":"%s","msg":"deRegistered targets","arn":"arn:aws:elasticloadbalancing:us-west-2:123456789012:targetgroup/k8s-shop-storefro-3f2a9c1b7e/6c1b2d3e4f5a6b7c"}' % ts(86400 * 6 - 19),
           '{"level":"info","ts":"%s","logger":"controllers.ingress","msg":"successfully deployed model","ingressGroup":"web/docs"}' % ts(86400 * 2 + 3100)]
    objs = [nsobj, ns('kube-system'), *nodes, d, rs_new, rs_old, *olds, p, svc, eps, tgb, ing, ld, lrs, *lpods, lease,
            *[kube_proxy(n_['metadata']['name'], version='v1.31.2-eksbuild.3') for n_ in nodes],
            *coredns([B, C], image='602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns:v1.11.3-eksbuild.2'),
            podlog('kube-system', lpods[0]['metadata']['name'], 'aws-load-balancer-controller', log, previous=False),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set storefront-6d5f8b7c9d from 0 to 1', 'deployment-controller', last=2310),
            ctrl_ev(rs_new, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=2308),
            scheduled(p, A, 2307), *started(p, A, img_new, 'storefront', 2305, '6.8s', size=187264511),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://172.31.23.158:8080/healthz": dial tcp 172.31.23.158:8080: connect: connection refused', count=3, first=2288, last=2276, host=A, fieldPath=fp('storefront')),
            ctrl_ev(ing, 'SuccessfullyReconciled', 'Successfully reconciled', 'ingress', last=86400 * 6 - 58)]
    case('fr-readiness-gate-alb',
         'A rollout hangs on its first new pod: the container is Ready but the pod is not, the ALB target-health readiness gate condition was never set by the load balancer controller',
         'https://github.com/kubernetes-sigs/aws-load-balancer-controller/issues/1205',
         'message: corresponding condition of pod readiness gate "target-health.alb.ingress.k8s.aws/<ingress>_<service>_<service-port>" does not exist.',
         'shop/' + pn, 'readiness.gate-not-ready', objs, decisive='corresponding condition of pod readiness gate', playbook=None)


# =====================================================================================
# 7. evicted.node-pressure: the pod's own ephemeral-storage limit (1 GiB) is exceeded while a model downloads; evicted again and again
# =====================================================================================
@register
def evicted_ephemeral_limit():
    N = 'worker-01.hurricane2'; M = 'worker-02.hurricane2'
    na = mknode(N, kubelet='v1.30.5', runtime='containerd://1.7.22', kernel='6.8.0-45-generic', os_image='Ubuntu 24.04.1 LTS', ip='10.44.0.11',
                labels={'akash.network/capabilities.gpu.vendor.nvidia.model.a100': 'true', 'akash.network': 'true'})
    nb = mknode(M, kubelet='v1.30.5', runtime='containerd://1.7.22', kernel='6.8.0-45-generic', os_image='Ubuntu 24.04.1 LTS', ip='10.44.0.12', labels={'akash.network': 'true'})
    for n in (na, nb):
        n['status']['capacity'].update({'cpu': '64', 'memory': '515855140Ki', 'ephemeral-storage': '1919207084Ki', 'nvidia.com/gpu': '2'})
        n['status']['allocatable'].update({'cpu': '63', 'memory': '512709412Ki', 'ephemeral-storage': '1768734048873', 'nvidia.com/gpu': '2'})
    NS = 'orlnimr0es3uj3kl7h7ha8ibup2lsdkjqmi1sjbvq1n7m'
    img = 'andrey01/falcon7b:0.4'
    cont = [{'name': 'service-1', 'image': img, 'ports': [{'containerPort': 8080}],
             'env': [{'name': 'AKASH_GROUP_SEQUENCE', 'value': '1'}, {'name': 'AKASH_DEPLOYMENT_SEQUENCE', 'value': '18331201'}, {'name': 'AKASH_ORDER_SEQUENCE', 'value': '1'}],
             'resources': {'requests': {'cpu': '8', 'memory': '32Gi', 'ephemeral-storage': '1073741824', 'nvidia.com/gpu': '1'},
                           'limits': {'cpu': '8', 'memory': '32Gi', 'ephemeral-storage': '1073741824', 'nvidia.com/gpu': '1'}}}]
    labels = {'akash.network': 'true', 'akash.network/manifest-service': 'service-1', 'akash.network/namespace': NS}
    d, rs = deploy('service-1', NS, labels, 1, '5f4dfbc6bf', {'containers': cont, 'automountServiceAccountToken': False}, ready=1, created=5 * 3600, generation=1)
    def evicted(name, created, evicted_at):
        msg = 'Pod ephemeral local storage usage exceeds the total limit of containers 1073741824. '
        p = mkpod(name, NS, N, cont, [{'name': 'service-1', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(name),
                                        'state': {'terminated': {'exitCode': 137, 'reason': 'Error', 'startedAt': ago(created - 8), 'finishedAt': ago(evicted_at - 40), 'containerID': cid(name)}}}],
                  created, owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5f4dfbc6bf'}, phase='Failed',
                  conditions=[{'type': 'DisruptionTarget', 'status': 'True', 'reason': 'TerminationByKubelet', 'message': msg.strip(), 'lastTransitionTime': ago(evicted_at)}] + conds(created, False, since=evicted_at - 40, msg='containers with unready status: [service-1]'),
                  spec_extra={'automountServiceAccountToken': False}, host_ip='10.44.0.11')
        p['status'].update({'reason': 'Evicted', 'message': msg})
        p['status'].pop('podIP'); p['status'].pop('podIPs')
        return p
    e1 = evicted('service-1-5f4dfbc6bf-9lq2d', 3 * 3600, 3 * 3600 - 640)
    e2 = evicted('service-1-5f4dfbc6bf-tw7xs', 2 * 3600 - 300, 2 * 3600 - 950)
    tgt = evicted('service-1-5f4dfbc6bf-crrk4', 4400, 3610)
    cur = mkpod('service-1-5f4dfbc6bf-xccpg', NS, N, cont, [running('service-1', img, 3590)], 3600, owner=('ReplicaSet', rs['metadata']['name']),
                labels={**labels, 'pod-template-hash': '5f4dfbc6bf'}, spec_extra={'automountServiceAccountToken': False}, host_ip='10.44.0.11')
    log = ['[2026-11-21 08:47:05] Starting Falcon-7B inference server', '[2026-11-21 08:47:05] CUDA available: True, devices: 1 (NVIDIA A100 80GB PCIe)',
           '[2026-11-21 08:47:06] Model tiiuae/falcon-7b-instruct not found in /root/.cache/huggingface, downloading',
           *['[2026-11-21 08:%02d:%02d] Downloading model-0000%d-of-00002.safetensors: %d%%|%s| %.2fG/%.2fG' % (47 + i // 6, (i * 9) % 60, 1 + i // 8, min(100, (i % 8) * 14), '#' * (i % 8), (i % 8) * 1.2, 9.95)
             for i in range(1, 17)],
           '[2026-11-21 08:49:31] Download interrupted: received SIGTERM']
    gpu_img = 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2'
    gds = daemonset('nvidia-device-plugin-daemonset', 'kube-system', {'name': 'nvidia-device-plugin-ds'}, 2, 2, {'containers': [{'name': 'nvidia-device-plugin-ctr', 'image': gpu_img}]})
    ev_ = lambda p, at: [ev(p, 'Evicted', 'Pod ephemeral local storage usage exceeds the total limit of containers 1073741824.', last=at, host=N),
                         ev(p, 'Killing', 'Stopping container service-1', 'Normal', last=at - 1, host=N, fieldPath=fp('service-1')),
                         ev(p, 'ExceededGracePeriod', 'Container runtime did not kill the pod within specified grace period.', last=at - 11, host=N)]
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, e1, e2, tgt, cur, gds, ds_pod(gds, N, gpu_img, 'nvidia-device-plugin-ctr', 86400 * 50), ds_pod(gds, M, gpu_img, 'nvidia-device-plugin-ctr', 86400 * 50),
            kube_proxy(N), kube_proxy(M), *coredns([M, N]),
            podlog(NS, tgt['metadata']['name'], 'service-1', log, previous=False),
            scheduled(tgt, N, 4399), *started(tgt, N, img, 'service-1', 4395, present=True), *ev_(tgt, 3610),
            *ev_(e2, 2 * 3600 - 950), *ev_(e1, 3 * 3600 - 640),
            ctrl_ev(rs, 'SuccessfulCreate', '(combined from similar events): Created pod: service-1-5f4dfbc6bf-xccpg', 'replicaset-controller', count=4, first=5 * 3600, last=3600),
            scheduled(cur, N, 3599), *started(cur, N, img, 'service-1', 3596, present=True)]
    case('fr-evicted-ephemeral-limit',
         'Evicted, and its replacements evicted in turn: the container downloads a 10 GB model into its writable layer under a 1 GiB ephemeral-storage limit',
         'https://github.com/akash-network/support/issues/275',
         'Warning  Evicted  pod/service-1-5f4dfbc6bf-crrk4  Pod ephemeral local storage usage exceeds the total limit of containers 1073741824.',
         NS + '/service-1-5f4dfbc6bf-crrk4', 'evicted.node-pressure', objs, decisive='Pod ephemeral local storage usage exceeds the total limit of containers')


# =====================================================================================
# 8. config.missing-reference: after a chart upgrade the UI reads a key the old Secret does not have
# =====================================================================================
@register
def secret_key_missing_epinio():
    N = 'k3d-epinio-server-0'
    n = mknode(N, kubelet='v1.30.6+k3s1', runtime='containerd://1.7.22-k3s1', kernel='6.5.0-1025-azure', os_image='K3s v1.30.6+k3s1', ip='172.21.0.3',
               labels={'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true'})
    uimg = 'ghcr.io/epinio/epinio-ui:v1.11.0'; simg = 'ghcr.io/epinio/epinio-server:v1.11.0'; dimg = 'ghcr.io/dexidp/dex:v2.41.1'
    ui_spec = {'serviceAccountName': 'epinio-ui', 'containers': [{'name': 'epinio-ui', 'image': uimg, 'ports': [{'containerPort': 8000, 'name': 'ui'}],
               'env': [{'name': 'EPINIO_API_URL', 'value': 'http://epinio-server.epinio.svc.cluster.local'}, {'name': 'EPINIO_WSS_URL', 'value': 'ws://epinio-server.epinio.svc.cluster.local'},
                       {'name': 'AUTH_ENDPOINT', 'valueFrom': {'secretKeyRef': {'name': 'dex-config', 'key': 'endpoint'}}},
                       {'name': 'AUTH_CLIENT_SECRET', 'valueFrom': {'secretKeyRef': {'name': 'dex-config', 'key': 'uiClientSecret'}}},
                       {'name': 'SESSION_SECRET', 'valueFrom': {'secretKeyRef': {'name': 'epinio-ui', 'key': 'sessionSecret'}}}],
               'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}]}
    labels = {'app.kubernetes.io/name': 'epinio-ui', 'app.kubernetes.io/instance': 'epinio'}
    d, rs = deploy('epinio-ui', 'epinio', labels, 1, '54c74485dc', ui_spec, ready=0, created=86400 * 70, generation=9)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'epinio-ui-54c74485dc-g4ns5'
    msg = "couldn't find key uiClientSecret in Secret epinio/dex-config"
    p = mkpod(pn, 'epinio', N, ui_spec['containers'], [waiting('epinio-ui', uimg, 'CreateContainerConfigError', msg)], 420, owner=('ReplicaSet', rs['metadata']['name']),
              labels={**labels, 'pod-template-hash': '54c74485dc'}, sa='epinio-ui', phase='Pending', conditions=conds(420, False, msg='containers with unready status: [epinio-ui]'), host_ip='172.21.0.3')
    sd, srs = deploy('epinio-server', 'epinio', {'app.kubernetes.io/name': 'epinio-server'}, 1, '7c6f9d8b4', {'containers': [{'name': 'epinio-server', 'image': simg}]}, created=86400 * 70)
    sp = mkpod('epinio-server-7c6f9d8b4-vl5nq', 'epinio', N, [{'name': 'epinio-server', 'image': simg}], [running('epinio-server', simg, 400)], 425, owner=('ReplicaSet', srs['metadata']['name']),
               labels={'app.kubernetes.io/name': 'epinio-server', 'pod-template-hash': '7c6f9d8b4'}, sa='epinio-server')
    dd, drs = deploy('dex', 'epinio', {'app.kubernetes.io/name': 'dex'}, 1, '6d9b8c5f7', {'containers': [{'name': 'dex', 'image': dimg}]}, created=86400 * 70)
    dp = mkpod('dex-6d9b8c5f7-p2c8r', 'epinio', N, [{'name': 'dex', 'image': dimg}], [running('dex', dimg, 86400 * 70 - 60)], 86400 * 70, owner=('ReplicaSet', drs['metadata']['name']),
               labels={'app.kubernetes.io/name': 'dex', 'pod-template-hash': '6d9b8c5f7'})
    old_rs = replicaset(d, '6b9f5d7c48', 0, 0, ui_spec, created=86400 * 70, revision=8)
    objs = [ns('epinio'), ns('kube-system'), n, d, rs, old_rs, p, sd, srs, sp, dd, drs, dp,
            secret('dex-config', 'epinio', ['config.yaml', 'endpoint', 'issuer'], created=86400 * 70, labels={'app.kubernetes.io/managed-by': 'Helm'}),
            secret('epinio-ui', 'epinio', ['sessionSecret'], created=86400 * 70),
            *coredns([N, N], image='rancher/mirrored-coredns-coredns:1.11.3', hash_='ccb96694c'),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set epinio-ui-54c74485dc from 0 to 1', 'deployment-controller', last=421),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set epinio-ui-6b9f5d7c48 from 1 to 0', 'deployment-controller', last=421),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=420),
            scheduled(p, N, 419),
            ev(p, 'Pulling', 'Pulling image "%s"' % uimg, 'Normal', last=417, host=N, fieldPath=fp('epinio-ui')),
            ev(p, 'Pulled', 'Successfully pulled image "%s" in 4.212s (4.212s including waiting). Image size: 31845202 bytes.' % uimg, 'Normal', last=413, host=N, fieldPath=fp('epinio-ui')),
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % uimg, 'Normal', count=25, first=400, last=9, host=N, fieldPath=fp('epinio-ui')),
            ev(p, 'Failed', 'Error: ' + msg, count=26, first=413, last=9, host=N, fieldPath=fp('epinio-ui')),
            scheduled(sp, N, 424), *started(sp, N, simg, 'epinio-server', 420, '3.9s'),
            ev(sp, 'Unhealthy', 'Readiness probe failed: Get "http://10.42.0.31:8030/ready": dial tcp 10.42.0.31:8030: connect: connection refused', count=2, first=398, last=392, host=N, fieldPath=fp('epinio-server'))]
    case('fr-secret-key-missing-epinio',
         'CreateContainerConfigError after a Helm upgrade: the new UI reads key uiClientSecret from the dex-config Secret, which the older install created without it',
         'https://github.com/epinio/epinio/issues/2085',
         "Warning  Failed     9s (x8 over 89s)  kubelet            Error: couldn't find key uiClientSecret in Secret epinio/dex-config",
         'epinio/' + pn, 'config.missing-reference', objs, decisive="couldn't find key uiClientSecret in Secret epinio/dex-config")


# =====================================================================================
# 9. sandbox.create-failed: Calico IPAM cannot give the node another block (per-host block limit), its blocks are full of leaked IPs
# =====================================================================================
@register
def calico_block_limit():
    nodes = []
    for i in range(1, 9):
        n = mknode('k8s-worker-%02d' % i, kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.15.0-124-generic', os_image='Ubuntu 22.04.5 LTS', ip='10.30.1.%d' % (10 + i),
                   labels={'node-role.kubernetes.io/worker': ''})
        n['status']['allocatable']['pods'] = '250'; n['status']['capacity']['pods'] = '250'
        nodes.append(n)
    N = 'k8s-worker-07'
    img = 'registry.example.com/reports/renderer:4.3.1'
    spec = {'containers': [{'name': 'renderer', 'image': img, 'ports': [{'containerPort': 9000}], 'resources': {'requests': {'cpu': '200m', 'memory': '512Mi'}, 'limits': {'memory': '1Gi'}}}]}
    d, rs = deploy('report-renderer', 'reports', {'app': 'report-renderer'}, 6, '8d7c6b5f4', spec, ready=5, created=86400 * 50, generation=14)
    pn = 'report-renderer-8d7c6b5f4-wq7zr'
    p = mkpod(pn, 'reports', N, spec['containers'], [waiting('renderer', img, 'ContainerCreating', pulled=False)], 1380, owner=('ReplicaSet', rs['metadata']['name']),
              labels={'app': 'report-renderer', 'pod-template-hash': '8d7c6b5f4'}, phase='Pending', conditions=conds(1380, False, msg='containers with unready status: [renderer]', sandbox=False), host_ip='10.30.1.17')
    p['status'].pop('podIP'); p['status'].pop('podIPs')
    peers = [mkpod('report-renderer-8d7c6b5f4-%s' % s, 'reports', 'k8s-worker-%02d' % k, spec['containers'], [running('renderer', img, 86400 * 3)], 86400 * 3, owner=('ReplicaSet', rs['metadata']['name']),
                   labels={'app': 'report-renderer', 'pod-template-hash': '8d7c6b5f4'}) for s, k in (('4kd9x', 1), ('b72mf', 2), ('h5tqn', 3), ('n8zvw', 5), ('r3xpl', 8))]
    # jobs churn on the node: a cronjob pod also stuck the same way
    jimg = 'registry.example.com/reports/exporter:4.3.1'
    jp = mkpod('daily-export-29890140-6m2bk', 'reports', N, [{'name': 'exporter', 'image': jimg}], [waiting('exporter', jimg, 'ContainerCreating', pulled=False)], 900, owner=('Job', 'daily-export-29890140'),
               labels={'batch.kubernetes.io/job-name': 'daily-export-29890140', 'job-name': 'daily-export-29890140'}, phase='Pending',
               conditions=conds(900, False, msg='containers with unready status: [exporter]', sandbox=False), spec_extra={'restartPolicy': 'Never'})
    jp['status'].pop('podIP'); jp['status'].pop('podIPs')
    cimg = 'docker.io/calico/node:v3.28.2'
    cds = daemonset('calico-node', 'calico-system', {'k8s-app': 'calico-node'}, 8, 8, {'containers': [{'name': 'calico-node', 'image': cimg}]})
    cpods = [ds_pod(cds, n['metadata']['name'], cimg, 'calico-node', 86400 * 50, namespace='calico-system') for n in nodes]
    pool = obj('IPPool', 'crd.projectcalico.org/v1', 'default-ipv4-ippool', None, 86400 * 400,
               spec={'allowedUses': ['Workload', 'Tunnel'], 'blockSize': 24, 'cidr': '100.96.0.0/11', 'ipipMode': 'Always', 'natOutgoing': True, 'nodeSelector': 'all()', 'vxlanMode': 'Never'})
    inst = obj('Installation', 'operator.tigera.io/v1', 'default', None, 86400 * 400,
               spec={'calicoNetwork': {'bgp': 'Enabled', 'hostPorts': 'Enabled', 'ipPools': [{'blockSize': 24, 'cidr': '100.96.0.0/11', 'encapsulation': 'IPIP', 'natOutgoing': 'Enabled', 'nodeSelector': 'all()'}],
                                       'linuxDataplane': 'Iptables', 'mtu': 1440, 'nodeAddressAutodetectionV4': {'firstFound': True}}, 'cni': {'ipam': {'type': 'Calico'}, 'type': 'Calico'}, 'variant': 'Calico'},
               status={'variant': 'Calico', 'calicoVersion': 'v3.28.2', 'mtu': 1440})
    def fail(seed):
        return ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="calico" failed (add): '
                'cannot allocate new block due to per host block limit' % hexid('sbx' + seed))
    objs = [ns('reports'), ns('calico-system'), ns('kube-system'), *nodes, d, rs, p, *peers, jp, cds, *cpods, pool, inst,
            *[kube_proxy(n['metadata']['name'], version='v1.29.10') for n in nodes[:3]], kube_proxy(N, version='v1.29.10'), *coredns(['k8s-worker-01', 'k8s-worker-04']),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=1380),
            scheduled(p, N, 1379),
            *[ev(p, 'FailedCreatePodSandBox', fail(pn + str(k)), last=1375 - k * 61, host=N) for k in range(9)],
            ev(p, 'FailedCreatePodSandBox', '(combined from similar events): ' + fail(pn + 'last'), count=14, first=820, last=22, host=N),
            scheduled(jp, N, 899),
            *[ev(jp, 'FailedCreatePodSandBox', fail(jp['metadata']['name'] + str(k)), last=895 - k * 83, host=N) for k in range(6)],
            ev(cpods[6], 'Unhealthy', 'Readiness probe failed: calico/node is not ready: BIRD is not ready: BGP not established with 10.30.1.12', count=3, first=86400 * 50 - 20, last=86400 * 50 - 40,
               host=N, fieldPath=fp('calico-node'))]
    case('fr-calico-block-limit',
         'ContainerCreating on one worker: Calico IPAM cannot claim another /24 block for the node (per-host block limit) while its existing blocks are full of leaked addresses',
         'https://github.com/projectcalico/calico/issues/4861',
         'networkPlugin cni failed to set up pod "default1" network: cannot allocate new block due to per host block limit',
         'reports/' + pn, 'sandbox.create-failed', objs, decisive='cannot allocate new block due to per host block limit')


# =====================================================================================
# 10. crash.app-exit: the operator fails fast, a required environment variable the chart never sets
# =====================================================================================
@register
def required_env_redis_operator():
    A = 'gke-prod-pool-1-8c2f0e1a-7kq4'; B = 'gke-prod-pool-1-8c2f0e1a-m2xw'
    na = mknode(A, kubelet='v1.30.5-gke.1443001', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.128.0.41',
                labels={'cloud.google.com/gke-nodepool': 'pool-1', 'topology.kubernetes.io/zone': 'us-central1-a'})
    nb = mknode(B, kubelet='v1.30.5-gke.1443001', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.128.0.42',
                labels={'cloud.google.com/gke-nodepool': 'pool-1', 'topology.kubernetes.io/zone': 'us-central1-b'})
    img = 'ghcr.io/freshworks-oss/redis-operator:v4.2.0'
    spec = {'serviceAccountName': 'redisoperator', 'containers': [{'name': 'app', 'image': img, 'imagePullPolicy': 'IfNotPresent', 'ports': [{'name': 'metrics', 'containerPort': 9710}],
            'securityContext': {'readOnlyRootFilesystem': True, 'runAsNonRoot': True, 'runAsUser': 1000},
            'resources': {'requests': {'cpu': '10m', 'memory': '50Mi'}, 'limits': {'cpu': '100m', 'memory': '50Mi'}}}]}
    labels = {'app.kubernetes.io/name': 'redis-operator', 'app.kubernetes.io/instance': 'redis-operator'}
    d, rs = deploy('redis-operator', 'redis-operator', labels, 1, '5b8d7f6c9d', spec, ready=0, created=1900, generation=1)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pn = 'redis-operator-5b8d7f6c9d-q8w2t'
    p = mkpod(pn, 'redis-operator', A, spec['containers'], [clbo_(pn, 'redis-operator', 'app', img, 7, term(1, 'Error', 212, 212, seed='ro7'))], 1880,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '5b8d7f6c9d'}, sa='redisoperator',
              conditions=conds(1880, False, since=1860, msg='containers with unready status: [app]'), host_ip='10.128.0.41')
    log = ['2026/11/21 09:56:28 operator_group_id environment variable is required and must be non-empty']
    prev = podlog('redis-operator', pn, 'app', log, previous=True)
    # the redis it is meant to manage keeps running from the old operator
    rimg = 'redis:7.2.5-alpine'
    rf = [mkpod('rfr-cache-%d' % i, 'cache', [A, B][i % 2], [{'name': 'redis', 'image': rimg}], [running('redis', rimg, 86400 * 12)], 86400 * 12, owner=('StatefulSet', 'rfr-cache'),
                labels={'app.kubernetes.io/component': 'redis', 'redisfailovers.databases.spotahome.com/name': 'cache'}) for i in range(3)]
    sts_ = workload('StatefulSet', 'rfr-cache', 'cache', {'app.kubernetes.io/component': 'redis'}, replicas=3, template_spec={'containers': [{'name': 'redis', 'image': rimg}]})
    sts_['status'] = {'replicas': 3, 'readyReplicas': 3, 'currentReplicas': 3, 'updatedReplicas': 3, 'availableReplicas': 3, 'observedGeneration': 1}
    crd = obj('RedisFailover', 'databases.spotahome.com/v1', 'cache', 'cache', 86400 * 12, spec={'redis': {'replicas': 3}, 'sentinel': {'replicas': 3}})
    objs = [ns('redis-operator'), ns('cache'), ns('kube-system'), na, nb, d, rs, p, prev, sts_, *rf, crd,
            kube_proxy(A, version='v1.30.5-gke.1443001'), kube_proxy(B, version='v1.30.5-gke.1443001'), *coredns([A, B]),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set redis-operator-5b8d7f6c9d from 0 to 1', 'deployment-controller', last=1882),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pn, 'replicaset-controller', last=1880),
            scheduled(p, A, 1879), *started(p, A, img, 'app', 1876, '2.7s', size=18233510), *restarted(p, A, img, 'app', 7, 1830, 213),
            backoff(p, A, 'app', 81, 1820, 18)]
    case('fr-required-env-redis-operator',
         'CrashLoopBackOff right after install: the operator exits at start because OPERATOR_GROUP_ID is not set, and the chart has no way to set it',
         'https://github.com/freshworks-oss/redis-operator/issues/68',
         'log.Fatalf("operator_group_id environment variable is required and must be non-empty")',
         'redis-operator/' + pn, 'crash.app-exit', objs, decisive='operator_group_id environment variable is required and must be non-empty')


def clbo_(pname, namespace, cname, image, restarts, last):
    return waiting(cname, image, 'CrashLoopBackOff', 'back-off 5m0s restarting failed container=%s pod=%s_%s(%s)' % (cname, pname, namespace, uid('pod' + namespace + pname)), restarts, last)


# =====================================================================================
# 11. crash.probe-failing: the liveness probe speaks HTTPS to an app that serves plain HTTP
# =====================================================================================
@register
def liveness_https_scheme():
    A = 'ip-100-112-150-21.ec2.internal'; B = 'ip-100-112-161-9.ec2.internal'
    na = mknode(A, kubelet='v1.30.6', runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241031', ip='100.112.150.21',
                labels={'kops.k8s.io/instancegroup': 'nodes-us-east-1a', 'node-role.kubernetes.io/node': ''})
    nb = mknode(B, kubelet='v1.30.6', runtime='containerd://1.7.22', kernel='6.1.112-122.189.amzn2023.x86_64', os_image='Amazon Linux 2023.6.20241031', ip='100.112.161.9',
                labels={'kops.k8s.io/instancegroup': 'nodes-us-east-1b', 'node-role.kubernetes.io/node': ''})
    NS = 'staging-master'
    img = 'cloudposse/example-app:sha-3f9c2e1'
    probe = {'httpGet': {'path': '/healthz', 'port': 3000, 'scheme': 'HTTPS'}, 'initialDelaySeconds': 15, 'periodSeconds': 10, 'timeoutSeconds': 3, 'failureThreshold': 3}
    spec = {'containers': [{'name': 'app', 'image': img, 'ports': [{'name': 'http', 'containerPort': 3000}], 'env': [{'name': 'PORT', 'value': '3000'}, {'name': 'NODE_ENV', 'value': 'staging'}],
                            'livenessProbe': probe, 'readinessProbe': {**probe, 'initialDelaySeconds': 5},
                            'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'memory': '256Mi'}}}]}
    labels = {'app': 'example-app', 'release': 'staging-master'}
    d, rs = deploy('example-app', NS, labels, 2, '6c9f7d5b48', spec, ready=0, created=2300, generation=1)
    rs['status'] = {'replicas': 2, 'fullyLabeledReplicas': 2, 'observedGeneration': 1}
    pods, objs_ev = [], []
    for k, (s, n_, ip, restarts) in enumerate((('vx8hd', A, '100.112.158.75', 9), ('2lq7c', B, '100.112.163.40', 9))):
        pn = 'example-app-6c9f7d5b48-' + s
        p = mkpod(pn, NS, n_, spec['containers'], [running('app', img, 27 + k * 9, restarts=restarts, ready=False, last=term(143, 'Error', 317 + k * 9, 37 + k * 9, seed=pn))], 2290,
                  owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '6c9f7d5b48'}, conditions=conds(2290, False, since=2290, msg='containers with unready status: [app]'))
        p['status']['podIP'] = ip; p['status']['podIPs'] = [{'ip': ip}]
        url = 'https://%s:3000/healthz' % ip
        objs_ev += [scheduled(p, n_, 2289), *started(p, n_, img, 'app', 2286, '5.3s', size=98112734), *restarted(p, n_, img, 'app', restarts, 2000, 28 + k * 9),
                    ev(p, 'Unhealthy', 'Liveness probe failed: Get "%s": http: server gave HTTP response to HTTPS client' % url, count=27, first=2260, last=47 + k * 9, host=n_, fieldPath=fp('app')),
                    ev(p, 'Unhealthy', 'Readiness probe failed: Get "%s": http: server gave HTTP response to HTTPS client' % url, count=214, first=2270, last=7 + k, host=n_, fieldPath=fp('app')),
                    ev(p, 'Killing', 'Container app failed liveness probe, will be restarted', 'Normal', count=9, first=2240, last=37 + k * 9, host=n_, fieldPath=fp('app')),
                    backoff(p, n_, 'app', 6, 1400, 700)]
        pods.append(p)
    log = ['> example-app@1.14.0 start', '> node dist/server.js', '',
           '{"level":30,"time":%d,"pid":1,"hostname":"example-app-6c9f7d5b48-vx8hd","msg":"loading configuration for NODE_ENV=staging"}' % int(NOW_MINUS(316).timestamp() * 1000),
           '{"level":30,"time":%d,"pid":1,"hostname":"example-app-6c9f7d5b48-vx8hd","msg":"connected to redis at redis-master.staging-master.svc.cluster.local:6379"}' % int(NOW_MINUS(315).timestamp() * 1000),
           '{"level":30,"time":%d,"pid":1,"hostname":"example-app-6c9f7d5b48-vx8hd","msg":"connected to postgres (pool size 10)"}' % int(NOW_MINUS(314).timestamp() * 1000),
           '{"level":30,"time":%d,"pid":1,"hostname":"example-app-6c9f7d5b48-vx8hd","msg":"Server listening at http://0.0.0.0:3000"}' % int(NOW_MINUS(313).timestamp() * 1000)]
    for i in range(14):
        log.append('{"level":30,"time":%d,"pid":1,"hostname":"example-app-6c9f7d5b48-vx8hd","reqId":"req-%d","msg":"client error: bad request (TLS handshake on plain HTTP port) from 100.112.150.21"}'
                   % (int(NOW_MINUS(300 - i * 10).timestamp() * 1000), i + 1))
    log.append('{"level":30,"time":%d,"pid":1,"hostname":"example-app-6c9f7d5b48-vx8hd","msg":"SIGTERM received, closing server"}' % int(NOW_MINUS(38).timestamp() * 1000))
    ing = obj('Ingress', 'networking.k8s.io/v1', 'example-app', NS, 2300, spec={'ingressClassName': 'nginx', 'tls': [{'hosts': ['master.staging.example.com'], 'secretName': 'example-app-tls'}],
              'rules': [{'host': 'master.staging.example.com', 'http': {'paths': [{'path': '/', 'pathType': 'Prefix', 'backend': {'service': {'name': 'example-app', 'port': {'number': 80}}}}]}}]})
    svc = service('example-app', NS, labels, ports=((80, 3000),), created=2300)
    objs = [ns(NS), ns('kube-system'), na, nb, d, rs, *pods, ing, svc, endpoints('example-app', NS, not_ready=[(p_['status']['podIP'], p_['metadata']['name'], p_['spec']['nodeName']) for p_ in pods], port=3000),
            kube_proxy(A), kube_proxy(B), *coredns([A, B]), *objs_ev,
            podlog(NS, pods[0]['metadata']['name'], 'app', log, previous=True),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set example-app-6c9f7d5b48 from 0 to 2', 'deployment-controller', last=2300)]
    case('fr-liveness-https-scheme',
         'Restarted every few minutes in a new staging namespace: the liveness and readiness probes use scheme HTTPS, the Node app listens for plain HTTP on 3000',
         'https://github.com/cloudposse/docs/issues/161',
         'Liveness probe failed: Get https://100.112.158.75:3000/healthz: http: server gave HTTP response to HTTPS client',
         NS + '/example-app-6c9f7d5b48-vx8hd', 'crash.probe-failing', objs, decisive='server gave HTTP response to HTTPS client')


# =====================================================================================
# 12. crash.oomkilled: the istio-proxy sidecar (not the app) grows to its memory limit and is OOM-killed
# =====================================================================================
@register
def sidecar_oom_istio_proxy():
    A = 'gke-prod-default-pool-5a1c9e3f-0x2k'; B = 'gke-prod-default-pool-5a1c9e3f-9dl4'
    na = mknode(A, kubelet='v1.30.5-gke.1443001', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.132.0.14',
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'europe-west1-b'})
    nb = mknode(B, kubelet='v1.30.5-gke.1443001', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.132.0.15',
                labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'europe-west1-c'})
    NS = 'search'
    aimg = 'eu.gcr.io/acme-prod/search-indexer:3.8.2'; pimg = 'docker.io/istio/proxyv2:1.23.2'
    proxy = {'name': 'istio-proxy', 'image': pimg, 'args': ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local', '--proxyLogLevel=warning', '--proxyComponentLogLevel=misc:error', '--log_output_level=default:info'],
             'ports': [{'containerPort': 15090, 'name': 'http-envoy-prom', 'protocol': 'TCP'}],
             'readinessProbe': {'httpGet': {'path': '/healthz/ready', 'port': 15021}, 'periodSeconds': 15, 'failureThreshold': 4, 'timeoutSeconds': 3},
             'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'cpu': '2', 'memory': '256Mi'}}}
    app = {'name': 'indexer', 'image': aimg, 'ports': [{'containerPort': 8080, 'name': 'http'}], 'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}, 'limits': {'memory': '2Gi'}}}
    spec = {'initContainers': [{'name': 'istio-init', 'image': pimg}], 'containers': [app, proxy]}
    labels = {'app': 'search-indexer', 'security.istio.io/tlsMode': 'istio', 'service.istio.io/canonical-name': 'search-indexer'}
    d, rs = deploy('search-indexer', NS, {'app': 'search-indexer'}, 2, '64554d4b59', spec, ready=1, created=86400 * 60, generation=22)
    pn = 'search-indexer-64554d4b59-gq5sb'
    last = term(255, 'OOMKilled', 21 * 3600, 340, seed='ip5')
    p = mkpod(pn, NS, A, [app, proxy], [running('indexer', aimg, 86400 * 3), running('istio-proxy', pimg, 335, restarts=5, last=last)], 86400 * 3,
              owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '64554d4b59'},
              conditions=conds(86400 * 3, True, since=318),
              init=[{'name': 'istio-init', 'image': pimg, 'args': ['istio-iptables', '-p', '15001', '-z', '15006', '-u', '1337', '-m', 'REDIRECT', '-i', '*', '-x', '', '-b', '*', '-d', '15090,15021,15020']}],
              init_statuses=[{'name': 'istio-init', 'ready': True, 'started': False, 'restartCount': 0, 'image': pimg, 'imageID': imgid(pimg), 'containerID': cid('init' + pn),
                              'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(86400 * 3 - 4), 'finishedAt': ago(86400 * 3 - 5), 'containerID': cid('init' + pn)}}}])
    p['metadata']['annotations'] = {'sidecar.istio.io/status': '{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["workload-socket","credential-socket","workload-certs","istio-envoy","istio-data","istio-podinfo","istio-token","istiod-ca-cert"],"imagePullSecrets":null,"revision":"default"}',
                                    'sidecar.istio.io/proxyMemoryLimit': '256Mi', 'kubectl.kubernetes.io/default-container': 'indexer'}
    other = mkpod('search-indexer-64554d4b59-7tj2m', NS, B, [app, proxy], [running('indexer', aimg, 86400 * 3), running('istio-proxy', pimg, 86400 * 3)], 86400 * 3,
                  owner=('ReplicaSet', rs['metadata']['name']), labels={**labels, 'pod-template-hash': '64554d4b59'})
    def pl(t, lvl, msg):
        return '%s\t%s\t%s' % (ts(t), lvl, msg)
    T0 = 21 * 3600
    log = [pl(T0 - 1, 'info', 'FLAG: --concurrency="2"'), pl(T0 - 1, 'info', 'Version 1.23.2-a2b5f9c3f35e5dd26bbf7e4ea2e8c1fd6e7f2a32-Clean'),
           pl(T0 - 2, 'info', 'Proxy role\tips=[10.8.3.27] type=sidecar id=search-indexer-64554d4b59-gq5sb.search domain=search.svc.cluster.local'),
           pl(T0 - 2, 'info', 'Apply proxy config from env {}'),
           pl(T0 - 3, 'info', 'cache\tgenerated new workload certificate\tlatency=114.2ms ttl=23h59m59.32s'),
           pl(T0 - 4, 'info', 'Starting proxy agent'), pl(T0 - 4, 'info', 'starting'),
           pl(T0 - 4, 'info', 'Envoy command: [-c etc/istio/proxy/envoy-rev.json --drain-time-s 45 --drain-strategy immediate --local-address-ip-version v4 --file-flush-interval-msec 1000 --disable-hot-restart --allow-unknown-static-fields -l warning --component-log-level misc:error --concurrency 2]'),
           pl(T0 - 6, 'info', 'xdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012'),
           pl(T0 - 7, 'info', 'ads\tADS: new connection for node:search-indexer-64554d4b59-gq5sb.search-1'),
           pl(T0 - 7, 'info', 'ads\tSDS: PUSH request for node:search-indexer-64554d4b59-gq5sb.search resources:1 size:4.0kB resource:default'),
           pl(T0 - 8, 'info', 'Readiness succeeded in 1.912015213s'), pl(T0 - 8, 'info', 'Envoy proxy is ready')]
    for i in range(8):
        log.append(pl(T0 - 1800 - i * 8500, 'info', 'xdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012'))
        log.append(pl(T0 - 1801 - i * 8500, 'info', 'ads\tADS: new connection for node:search-indexer-64554d4b59-gq5sb.search-%d' % (i + 2)))
    log += [pl(342, 'warn', 'Envoy may have been out of memory killed. Check memory usage and limits.'),
            pl(342, 'error', 'Envoy exited with error: signal: killed'),
            pl(341, 'error', 'error serving tap http server: http: Server closed')]
    istiod_img = 'docker.io/istio/pilot:1.23.2'
    idp = mkpod('istiod-6d8f5b7c9-wq2nh', 'istio-system', B, [{'name': 'discovery', 'image': istiod_img}], [running('discovery', istiod_img, 86400 * 20)], 86400 * 20,
                owner=('ReplicaSet', 'istiod-6d8f5b7c9'), labels={'app': 'istiod', 'istio': 'pilot'})
    objs = [ns(NS, meta={'labels': {'istio-injection': 'enabled', 'kubernetes.io/metadata.name': NS}}), ns('istio-system'), na, nb, d, rs, p, other, idp,
            kube_proxy(A, version='v1.30.5-gke.1443001'), kube_proxy(B, version='v1.30.5-gke.1443001'), *coredns([A, B], image='gke.gcr.io/coredns:v1.11.3-gke.2'),
            podlog(NS, pn, 'istio-proxy', log, previous=True),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://10.8.3.27:15021/healthz/ready": dial tcp 10.8.3.27:15021: connect: connection refused', count=11, first=86400 * 2 - 300, last=322, host=A, fieldPath=fp('istio-proxy')),
            ev(p, 'Pulled', 'Container image "%s" already present on machine' % pimg, 'Normal', count=5, first=86400 * 2 - 310, last=336, host=A, fieldPath=fp('istio-proxy')),
            ev(p, 'Created', 'Created container istio-proxy', 'Normal', count=6, first=86400 * 3 - 6, last=336, host=A, fieldPath=fp('istio-proxy')),
            ev(p, 'Started', 'Started container istio-proxy', 'Normal', count=6, first=86400 * 3 - 6, last=335, host=A, fieldPath=fp('istio-proxy')),
            ev(idp, 'Unhealthy', 'Readiness probe failed: Get "http://10.8.1.5:8080/ready": context deadline exceeded (Client.Timeout exceeded while awaiting headers)', count=1, first=86400 * 4, last=86400 * 4, host=B, fieldPath=fp('discovery'))]
    case('fr-sidecar-oom-istio-proxy',
         'Five restarts in two days, the last six minutes ago: the istio-proxy sidecar (not the app) grows to its 256Mi limit and is OOM-killed',
         'https://github.com/istio/istio/issues/19925',
         'warn    Envoy may have been out of memory killed. Check memory usage and limits.',
         NS + '/' + pn, 'crash.oomkilled', objs, decisive='Envoy may have been out of memory killed')


# =====================================================================================
# 13. network.policy-blocks-dns (proposed): a default-deny egress policy without a DNS rule; the app cannot resolve the database
# =====================================================================================
@register
def netpol_blocks_dns():
    A = 'ip-10-0-14-201.ap-southeast-2.compute.internal'; B = 'ip-10-0-27-66.ap-southeast-2.compute.internal'
    nodes = [mknode(n, kubelet='v1.29.10-eks-94953ac', runtime='containerd://1.7.22', kernel='5.10.227-219.884.amzn2.x86_64', os_image='Amazon Linux 2', ip=ip,
                    labels={'eks.amazonaws.com/nodegroup': 'apps', 'topology.kubernetes.io/zone': z}) for n, ip, z in ((A, '10.0.14.201', 'ap-southeast-2a'), (B, '10.0.27.66', 'ap-southeast-2b'))]
    NS = 'payments'
    img = '111122223333.dkr.ecr.ap-southeast-2.amazonaws.com/payments/ledger-api:2.4.1'
    spec = {'containers': [{'name': 'ledger-api', 'image': img, 'ports': [{'containerPort': 8080, 'name': 'http'}],
                            'env': [{'name': 'DATABASE_URL', 'value': 'postgres://ledger@postgres.payments.svc.cluster.local:5432/ledger?sslmode=disable'}],
                            'readinessProbe': {'httpGet': {'path': '/readyz', 'port': 'http'}, 'periodSeconds': 10},
                            'resources': {'requests': {'cpu': '250m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}]}
    labels = {'app': 'ledger-api'}
    d, rs = deploy('ledger-api', NS, labels, 2, '7b9f6c8d5', spec, ready=0, created=86400 * 90, generation=31)
    pods, evs = [], []
    for s, n_, ip, r in (('x4kq2', A, '10.0.14.87', 13), ('m8vz7', B, '10.0.27.153', 13)):
        pn = 'ledger-api-7b9f6c8d5-' + s
        p = mkpod(pn, NS, n_, spec['containers'], [clbo_(pn, NS, 'ledger-api', img, r, term(1, 'Error', 196, 186, seed=pn))], 2880, owner=('ReplicaSet', rs['metadata']['name']),
                  labels={**labels, 'pod-template-hash': '7b9f6c8d5'}, conditions=conds(2880, False, since=2860, msg='containers with unready status: [ledger-api]'))
        p['status']['podIP'] = ip; p['status']['podIPs'] = [{'ip': ip}]
        pods.append(p)
        evs += [scheduled(p, n_, 2879), *started(p, n_, img, 'ledger-api', 2876, '4.1s', size=21937408), *restarted(p, n_, img, 'ledger-api', r, 2800, 197), backoff(p, n_, 'ledger-api', 120, 2750, 11)]
    def jl(t, level, msg, **kv):
        return json.dumps({'level': level, 'ts': ts(t), 'caller': kv.pop('caller', 'cmd/main.go:58'), 'msg': msg, **kv}, separators=(',', ':'))
    log = [jl(196, 'info', 'starting ledger-api', version='2.4.1', commit='9f3c2ab', caller='cmd/main.go:41'),
           jl(196, 'info', 'loaded configuration', env='production', http_addr=':8080', caller='internal/config/config.go:88'),
           jl(196, 'info', 'tracing disabled (OTEL_EXPORTER_OTLP_ENDPOINT not set)', caller='internal/telemetry/otel.go:31'),
           jl(196, 'info', 'connecting to database', host='postgres.payments.svc.cluster.local', caller='internal/db/pool.go:47')]
    for i in range(1, 5):
        log.append(jl(196 - i * 2, 'warn', 'database not reachable, retrying', attempt=i, backoff='%ds' % (2 ** i), caller='internal/db/pool.go:63',
                      error='failed to connect to `host=postgres.payments.svc.cluster.local user=ledger database=ledger`: hostname resolving error (lookup postgres.payments.svc.cluster.local on 172.20.0.10:53: read udp 10.0.14.87:%d->172.20.0.10:53: i/o timeout)' % (41234 + i * 17)))
    log.append(jl(186, 'fatal', 'cannot connect to database', caller='cmd/main.go:58',
                  error='failed to connect to `host=postgres.payments.svc.cluster.local user=ledger database=ledger`: hostname resolving error (lookup postgres.payments.svc.cluster.local on 172.20.0.10:53: read udp 10.0.14.87:41335->172.20.0.10:53: i/o timeout)'))
    pg_img = 'docker.io/library/postgres:16.4'
    pg = mkpod('postgres-0', NS, B, [{'name': 'postgres', 'image': pg_img}], [running('postgres', pg_img, 86400 * 40)], 86400 * 40, owner=('StatefulSet', 'postgres'), labels={'app': 'postgres'})
    pg['status']['podIP'] = '10.0.27.40'; pg['status']['podIPs'] = [{'ip': '10.0.27.40'}]
    pgs = workload('StatefulSet', 'postgres', NS, {'app': 'postgres'}, replicas=1, template_spec={'containers': [{'name': 'postgres', 'image': pg_img}]})
    pgs['status'] = {'replicas': 1, 'readyReplicas': 1, 'currentReplicas': 1, 'updatedReplicas': 1, 'availableReplicas': 1, 'observedGeneration': 1}
    np_deny = obj('NetworkPolicy', 'networking.k8s.io/v1', 'default-deny-all', NS, 3050, spec={'podSelector': {}, 'policyTypes': ['Ingress', 'Egress']})
    np_db = obj('NetworkPolicy', 'networking.k8s.io/v1', 'ledger-api-to-postgres', NS, 3050,
                spec={'podSelector': {'matchLabels': {'app': 'ledger-api'}}, 'policyTypes': ['Egress'],
                      'egress': [{'to': [{'podSelector': {'matchLabels': {'app': 'postgres'}}}], 'ports': [{'protocol': 'TCP', 'port': 5432}]}]})
    np_pg = obj('NetworkPolicy', 'networking.k8s.io/v1', 'postgres-from-ledger-api', NS, 3050,
                spec={'podSelector': {'matchLabels': {'app': 'postgres'}}, 'policyTypes': ['Ingress'],
                      'ingress': [{'from': [{'podSelector': {'matchLabels': {'app': 'ledger-api'}}}], 'ports': [{'protocol': 'TCP', 'port': 5432}]}]})
    np_gw = obj('NetworkPolicy', 'networking.k8s.io/v1', 'ledger-api-from-gateway', NS, 3050,
                spec={'podSelector': {'matchLabels': {'app': 'ledger-api'}}, 'policyTypes': ['Ingress'],
                      'ingress': [{'from': [{'namespaceSelector': {'matchLabels': {'kubernetes.io/metadata.name': 'gateway'}}}], 'ports': [{'protocol': 'TCP', 'port': 8080}]}]})
    for o in (np_deny, np_db, np_pg, np_gw):
        o['metadata']['annotations'] = {'argocd.argoproj.io/tracking-id': 'payments:networking.k8s.io/NetworkPolicy:payments/%s' % o['metadata']['name']}
    vpc = '602401143452.dkr.ecr.ap-southeast-2.amazonaws.com/amazon-k8s-cni:v1.18.5-eksbuild.1'
    npa = '602401143452.dkr.ecr.ap-southeast-2.amazonaws.com/amazon/aws-network-policy-agent:v1.1.3-eksbuild.1'
    aws_ds = daemonset('aws-node', 'kube-system', {'k8s-app': 'aws-node'}, 2, 2, {'containers': [{'name': 'aws-node', 'image': vpc}, {'name': 'aws-eks-nodeagent', 'image': npa, 'args': ['--enable-network-policy=true']}]})
    aws_pods = [mkpod('aws-node-%s' % s, 'kube-system', n_, [{'name': 'aws-node', 'image': vpc}, {'name': 'aws-eks-nodeagent', 'image': npa}],
                      [running('aws-node', vpc, 86400 * 20), running('aws-eks-nodeagent', npa, 86400 * 20)], 86400 * 20, owner=('DaemonSet', 'aws-node'), labels={'k8s-app': 'aws-node'},
                      spec_extra={'hostNetwork': True}) for s, n_ in (('7qz2c', A), ('kd4x9', B))]
    dns = coredns([A, B], image='602401143452.dkr.ecr.ap-southeast-2.amazonaws.com/eks/coredns:v1.11.3-eksbuild.1', hash_='5b8cc885bc')
    kdns = service('kube-dns', 'kube-system', {'k8s-app': 'kube-dns'}, ports=((53, 53),), created=86400 * 400)
    kdns['spec']['clusterIP'] = '172.20.0.10'
    kdns['spec']['ports'] = [{'name': 'dns', 'port': 53, 'protocol': 'UDP', 'targetPort': 53}, {'name': 'dns-tcp', 'port': 53, 'protocol': 'TCP', 'targetPort': 53}]
    keps = endpoints('kube-dns', 'kube-system', ready=[('10.0.14.12', dns[0]['metadata']['name'], A), ('10.0.27.19', dns[1]['metadata']['name'], B)], port=53)
    objs = [ns(NS), ns('kube-system'), *nodes, d, rs, *pods, pgs, pg, np_deny, np_db, np_pg, np_gw, aws_ds, *aws_pods, *dns, kdns, keps,
            kube_proxy(A, version='v1.29.10-eksbuild.3'), kube_proxy(B, version='v1.29.10-eksbuild.3'),
            service('postgres', NS, {'app': 'postgres'}, ports=((5432, 5432),)), endpoints('postgres', NS, ready=[('10.0.27.40', 'postgres-0', B)], port=5432),
            podlog(NS, pods[0]['metadata']['name'], 'ledger-api', log, previous=True), *evs,
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set ledger-api-7b9f6c8d5 from 0 to 2', 'deployment-controller', last=2882)]
    case('fr-netpol-blocks-dns',
         'CrashLoopBackOff after a default-deny NetworkPolicy rolled out: the egress allow-list opens postgres:5432 but not DNS, so every lookup of the database times out (CoreDNS is healthy)',
         'https://github.com/aws/aws-network-policy-agent/issues/230',
         'I want to define Egress policy for my namespace. However, if I add it - pod **unable to lookup DNS resolution**',
         NS + '/ledger-api-7b9f6c8d5-x4kq2', 'network.policy-blocks-dns', objs, decisive='lookup postgres.payments.svc.cluster.local on 172.20.0.10:53', playbook=None)


# =====================================================================================
# 14. job.sidecar-keeps-running (proposed): the backup finished with 0, the injected istio-proxy keeps the Job's pod running
# =====================================================================================
@register
def job_istio_sidecar_running():
    N = 'gke-search-uk-pool-2-4b8e1c7d-vq6z'
    n = mknode(N, kubelet='v1.30.5-gke.1443001', runtime='containerd://1.7.23', kernel='6.1.100+', os_image='Container-Optimized OS from Google', ip='10.154.0.22',
               labels={'cloud.google.com/gke-nodepool': 'pool-2', 'topology.kubernetes.io/zone': 'europe-west2-a'})
    NS = 'search'
    bimg = 'eu.gcr.io/acme-search/solr-backup:1.6.0'; pimg = 'docker.io/istio/proxyv2:1.23.2'
    job_tmpl = {'restartPolicy': 'Never', 'serviceAccountName': 'solr-backup',
                'containers': [{'name': 'solr-backup', 'image': bimg, 'args': ['--collection=products', '--collection=suggest', '--repository=gcs-backups', '--location=/backups/uk'],
                                'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}}}]}
    cj = workload('CronJob', 'backup-at-uk', NS, {'app': 'helm-solr-backup'}, template_spec=job_tmpl)
    cj['spec'] = {'schedule': '0 * * * *', 'concurrencyPolicy': 'Forbid', 'suspend': False, 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
                  'jobTemplate': {'spec': {'backoffLimit': 2, 'template': {'metadata': {'labels': {'app': 'helm-solr-backup'}}, 'spec': job_tmpl}}}}
    cj['status'] = {'active': [{'apiVersion': 'batch/v1', 'kind': 'Job', 'name': 'backup-at-uk-29890140', 'namespace': NS, 'uid': uid('Job' + NS + 'backup-at-uk-29890140')}],
                    'lastScheduleTime': ago(3 * 3600 + 2040), 'lastSuccessfulTime': ago(86400 + 3300)}
    jn = 'backup-at-uk-29890140'
    j = workload('Job', jn, NS, {'app': 'helm-solr-backup'}, template_spec=job_tmpl)
    owned_by(j, cj)
    j['metadata'].update({'creationTimestamp': ago(3 * 3600 + 2040), 'labels': {'app': 'helm-solr-backup', 'batch.kubernetes.io/controller-uid': j['metadata']['uid'], 'batch.kubernetes.io/job-name': jn},
                          'annotations': {'batch.kubernetes.io/cronjob-scheduled-timestamp': ago(3 * 3600 + 2040).replace('Z', '+00:00')}})
    j['spec'].update({'backoffLimit': 2, 'completions': 1, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False, 'podReplacementPolicy': 'TerminatingOrFailed',
                      'selector': {'matchLabels': {'batch.kubernetes.io/controller-uid': j['metadata']['uid']}}})
    j['status'] = {'active': 1, 'ready': 0, 'startTime': ago(3 * 3600 + 2040), 'terminating': 0, 'uncountedTerminatedPods': {}}
    pn = jn + '-7hrx7'
    done = {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(3 * 3600 + 2015), 'finishedAt': ago(3 * 3600 + 1610), 'containerID': cid(pn + 'main')}}
    main = {'name': 'solr-backup', 'ready': False, 'started': False, 'restartCount': 0, 'image': bimg, 'imageID': imgid(bimg), 'containerID': cid(pn + 'main'), 'state': done}
    p = mkpod(pn, NS, N, job_tmpl['containers'] + [{'name': 'istio-proxy', 'image': pimg, 'args': ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local'],
                                                     'resources': {'requests': {'cpu': '100m', 'memory': '128Mi'}, 'limits': {'cpu': '2', 'memory': '1Gi'}}}],
              [main, running('istio-proxy', pimg, 3 * 3600 + 2016)], 3 * 3600 + 2039, owner=('Job', jn), sa='solr-backup',
              labels={'app': 'helm-solr-backup', 'batch.kubernetes.io/controller-uid': j['metadata']['uid'], 'batch.kubernetes.io/job-name': jn, 'controller-uid': j['metadata']['uid'], 'job-name': jn,
                      'security.istio.io/tlsMode': 'istio', 'service.istio.io/canonical-name': 'helm-solr-backup'},
              conditions=conds(3 * 3600 + 2039, False, since=3 * 3600 + 1610, msg='containers with unready status: [solr-backup]'),
              spec_extra={'restartPolicy': 'Never'},
              init=[{'name': 'istio-init', 'image': pimg}],
              init_statuses=[{'name': 'istio-init', 'ready': True, 'started': False, 'restartCount': 0, 'image': pimg, 'imageID': imgid(pimg), 'containerID': cid(pn + 'init'),
                              'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(3 * 3600 + 2030), 'finishedAt': ago(3 * 3600 + 2029), 'containerID': cid(pn + 'init')}}}])
    p['metadata']['annotations'] = {'sidecar.istio.io/status': '{"initContainers":["istio-init"],"containers":["istio-proxy"],"revision":"default"}', 'kubectl.kubernetes.io/default-container': 'solr-backup'}
    p['metadata']['finalizers'] = ['batch.kubernetes.io/job-tracking']
    blog = ['2026-11-21 06:26:05 INFO  solr-backup 1.6.0 starting (repository=gcs-backups location=/backups/uk)',
            '2026-11-21 06:26:06 INFO  connected to Solr at http://solr-headless.search.svc.cluster.local:8983 (version 9.7.0)']
    for k, col in enumerate(('products', 'suggest')):
        blog += ['2026-11-21 06:%02d:%02d INFO  BACKUP collection=%s name=%s-20261121T0626 async id=%s' % (26 + k * 3, 10 + k, col, col, hexid(col, 12)),
                 *['2026-11-21 06:%02d:%02d INFO  backup of %s: %d%% (%d/%d shards)' % (26 + k * 3 + q // 4, (q * 15) % 60, col, q * 25, q, 4) for q in range(1, 5)],
                 '2026-11-21 06:%02d:%02d INFO  backup of %s completed in %ds' % (29 + k * 3, 5 + k, col, 170 + k * 11)]
    blog += ['2026-11-21 06:32:41 INFO  pruning backups older than 14 days: 2 removed', '2026-11-21 06:32:42 INFO  all backups completed, exiting']
    objs = [ns(NS, meta={'labels': {'istio-injection': 'enabled', 'kubernetes.io/metadata.name': NS}}), n, cj, j, p, kube_proxy(N, version='v1.30.5-gke.1443001'),
            podlog(NS, pn, 'solr-backup', blog, previous=False),
            ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jn, 'cronjob-controller', last=3 * 3600 + 2040),
            ctrl_ev(cj, 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid', 'cronjob-controller', count=3, first=2 * 3600 + 2040, last=2040),
            ctrl_ev(j, 'SuccessfulCreate', 'Created pod: %s' % pn, 'job-controller', last=3 * 3600 + 2039),
            scheduled(p, N, 3 * 3600 + 2038),
            *started(p, N, pimg, 'istio-init', 3 * 3600 + 2034, present=True, init=True),
            *started(p, N, bimg, 'solr-backup', 3 * 3600 + 2025, '7.7s', size=88123412),
            *started(p, N, pimg, 'istio-proxy', 3 * 3600 + 2018, present=True),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://10.96.5.33:15021/healthz/ready": dial tcp 10.96.5.33:15021: connect: connection refused', count=2, first=3 * 3600 + 2014, last=3 * 3600 + 2012, host=N, fieldPath=fp('istio-proxy'))]
    case('fr-job-istio-sidecar-running',
         'A backup Job never completes: its container exited 0 three and a half hours ago, the injected istio-proxy keeps running, so the pod stays Running and the Forbid CronJob skips every run since',
         'https://github.com/istio/istio/issues/11659',
         'when the primary pod completes, the "Job" never completes because istio-proxy is still running',
         NS + '/' + pn, 'job.sidecar-keeps-running', objs, playbook=None)


# =====================================================================================
# 15. statefulset.ordered-ready-deadlock (proposed): nats-0 cannot be Ready without a JetStream quorum, OrderedReady never creates nats-1/nats-2
# =====================================================================================
@register
def nats_ordered_ready():
    nodes = [mknode('k8s-w%d' % i, kubelet='v1.29.10', runtime='containerd://1.7.22', kernel='5.15.0-124-generic', os_image='Ubuntu 22.04.5 LTS', ip='192.168.10.%d' % (20 + i)) for i in (1, 2, 3)]
    NS = 'nats'
    img = 'nats:2.9.10-alpine'; rimg = 'natsio/nats-server-config-reloader:0.8.0'
    nats_c = {'name': 'nats', 'image': img, 'command': ['nats-server', '--config', '/etc/nats-config/nats.conf'],
              'ports': [{'containerPort': 4222, 'name': 'client'}, {'containerPort': 6222, 'name': 'cluster'}, {'containerPort': 8222, 'name': 'monitor'}],
              'env': [{'name': 'SERVER_NAME', 'valueFrom': {'fieldRef': {'fieldPath': 'metadata.name'}}}, {'name': 'CLUSTER_ADVERTISE', 'value': '$(POD_NAME).nats.$(POD_NAMESPACE).svc.cluster.local'}],
              'startupProbe': {'httpGet': {'path': '/healthz', 'port': 8222}, 'initialDelaySeconds': 10, 'timeoutSeconds': 5, 'periodSeconds': 10, 'successThreshold': 1, 'failureThreshold': 90},
              'livenessProbe': {'httpGet': {'path': '/', 'port': 8222}, 'initialDelaySeconds': 10, 'timeoutSeconds': 5, 'periodSeconds': 30, 'failureThreshold': 3},
              'readinessProbe': {'httpGet': {'path': '/', 'port': 8222}, 'initialDelaySeconds': 10, 'timeoutSeconds': 5, 'periodSeconds': 10, 'failureThreshold': 3},
              'volumeMounts': [{'name': 'config-volume', 'mountPath': '/etc/nats-config'}, {'name': 'nats-js-pvc', 'mountPath': '/data'}],
              'resources': {'requests': {'cpu': '500m', 'memory': '1Gi'}, 'limits': {'memory': '2Gi'}}}
    rel_c = {'name': 'reloader', 'image': rimg, 'args': ['-pid', '/var/run/nats/nats.pid', '-config', '/etc/nats-config/nats.conf']}
    tmpl = {'shareProcessNamespace': True, 'terminationGracePeriodSeconds': 60, 'containers': [nats_c, rel_c],
            'volumes': [{'name': 'config-volume', 'configMap': {'name': 'nats-config'}}]}
    labels = {'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/instance': 'nats'}
    s = workload('StatefulSet', 'nats', NS, labels, replicas=3, template_spec=tmpl)
    s['metadata'].update({'creationTimestamp': ago(2480), 'labels': {**labels, 'helm.sh/chart': 'nats-0.19.4'}})
    s['spec'].update({'serviceName': 'nats', 'podManagementPolicy': 'OrderedReady', 'updateStrategy': {'type': 'RollingUpdate', 'rollingUpdate': {'partition': 0}},
                      'volumeClaimTemplates': [{'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'metadata': {'name': 'nats-js-pvc'},
                                                'spec': {'accessModes': ['ReadWriteOnce'], 'resources': {'requests': {'storage': '10Gi'}}, 'storageClassName': 'local-path'}}]})
    s['status'] = {'observedGeneration': 1, 'replicas': 1, 'currentReplicas': 1, 'updatedReplicas': 1, 'availableReplicas': 0, 'currentRevision': 'nats-5d8b7f9c6d', 'updateRevision': 'nats-5d8b7f9c6d', 'collisionCount': 0}
    c0 = claim('nats-js-pvc-nats-0', NS, 'local-path', 'Bound', '10Gi', volume='pvc-1b9c7e2d-5a3f-4c8e-9d1a-2f6b8c4e7a05', created=2478, provisioner='rancher.io/local-path', selected_node='k8s-w2', labels=labels)
    N = 'k8s-w2'
    cur = 590
    p = mkpod('nats-0', NS, N, [nats_c, rel_c], [running('nats', img, cur, restarts=2, ready=False, started_=False, last=term(0, 'Completed', 1520, cur + 5, seed='nats0-1')), running('reloader', rimg, 2440)], 2476,
              owner=('StatefulSet', 'nats'), labels={**labels, 'statefulset.kubernetes.io/pod-name': 'nats-0', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': 'nats-5d8b7f9c6d'},
              conditions=conds(2476, False, since=2440, msg='containers with unready status: [nats]'),
              spec_extra={'shareProcessNamespace': True, 'hostname': 'nats-0', 'subdomain': 'nats', 'terminationGracePeriodSeconds': 60,
                          'volumes': [{'name': 'config-volume', 'configMap': {'name': 'nats-config'}}, {'name': 'nats-js-pvc', 'persistentVolumeClaim': {'claimName': 'nats-js-pvc-nats-0'}}]})
    conf = '\n'.join(['# NATS Clients Port', 'port: 4222', '', '# PID file shared with configuration reloader.', 'pid_file: "/var/run/nats/nats.pid"', '', 'http: 8222', 'server_name: $POD_NAME',
                      'jetstream {', '  max_mem: 1Gi', '  store_dir: /data', '  max_file: 10Gi', '}', 'cluster {', '  port: 6222', '  name: nats', '  routes = [',
                      '    nats://nats-0.nats.nats.svc.cluster.local:6222,', '    nats://nats-1.nats.nats.svc.cluster.local:6222,', '    nats://nats-2.nats.nats.svc.cluster.local:6222,', '  ]',
                      '  cluster_advertise: $CLUSTER_ADVERTISE', '  connect_retries: 120', '}', 'lame_duck_grace_period: 10s', 'lame_duck_duration: 30s'])
    cm = configmap('nats-config', NS, {'nats.conf': conf}, created=2480)
    def nl(t, lvl, msg):
        return '[7] %s [%s] %s' % (NOW_MINUS(t).strftime('%Y/%m/%d %H:%M:%S.%f'), lvl, msg)
    T = cur - 1
    log = [nl(T, 'INF', 'Starting nats-server'), nl(T, 'INF', '  Version:  2.9.10'), nl(T, 'INF', '  Git:      [4b5f6f0]'), nl(T, 'INF', '  Cluster:  nats'),
           nl(T, 'INF', '  Name:     nats-0'), nl(T, 'INF', '  Node:     S1Nunr6R'), nl(T, 'INF', '  ID:       NDJWE4SOUJOJT2TY5Y2YQEOAHGAK5VIGXTGKWJSFHVCII4ITI3LBHNZE'),
           nl(T, 'INF', 'Using configuration file: /etc/nats-config/nats.conf'), nl(T, 'INF', 'Starting http monitor on 0.0.0.0:8222'), nl(T, 'INF', 'Starting JetStream'),
           nl(T, 'INF', '    _ ___ _____ ___ _____ ___ ___   _   __  __'), nl(T, 'INF', ' _ | | __|_   _/ __|_   _| _ \\ __| /_\\ |  \\/  |'),
           nl(T, 'INF', "| || | _|  | | \\__ \\ | | |   / _| / _ \\| |\\/| |"), nl(T, 'INF', ' \\__/|___| |_| |___/ |_| |_|_\\___/_/ \\_\\_|  |_|'), nl(T, 'INF', ''),
           nl(T, 'INF', '         https://docs.nats.io/jetstream'), nl(T, 'INF', ''), nl(T, 'INF', '---------------- JETSTREAM ----------------'),
           nl(T, 'INF', '  Max Memory:      1.00 GB'), nl(T, 'INF', '  Max Storage:     10.00 GB'), nl(T, 'INF', '  Store Directory: "/data/jetstream"'),
           nl(T, 'INF', '-------------------------------------------'), nl(T, 'INF', 'Starting JetStream cluster'), nl(T, 'INF', 'Creating JetStream metadata controller'),
           nl(T, 'INF', 'JetStream cluster recovering state'), nl(T, 'INF', 'Listening for client connections on 0.0.0.0:4222'), nl(T, 'INF', 'Server is ready'),
           nl(T, 'INF', 'Cluster name is nats'), nl(T, 'INF', 'Listening for route connections on 0.0.0.0:6222')]
    for k in range(9):
        t = T - 2 - k * 60
        log += [nl(t, 'ERR', 'Error trying to connect to route (attempt %d): lookup for host "nats-1.nats.nats.svc.cluster.local": lookup nats-1.nats.nats.svc.cluster.local on 10.96.0.10:53: no such host' % (k + 1)),
                nl(t, 'ERR', 'Error trying to connect to route (attempt %d): lookup for host "nats-2.nats.nats.svc.cluster.local": lookup nats-2.nats.nats.svc.cluster.local on 10.96.0.10:53: no such host' % (k + 1)),
                nl(t - 3, 'WRN', 'Healthcheck failed: "JetStream has not established contact with a meta leader"')]
    log.append(nl(8, 'WRN', 'Healthcheck failed: "JetStream has not established contact with a meta leader"'))
    headless = service('nats', NS, labels, ports=((4222, 4222), (6222, 6222), (8222, 8222)), created=2480)
    headless['spec']['clusterIP'] = 'None'; headless['spec']['publishNotReadyAddresses'] = True
    box_img = 'natsio/nats-box:0.13.2'
    bd, brs = deploy('nats-box', NS, {'app': 'nats-box'}, 1, '7c9d6b5f8', {'containers': [{'name': 'nats-box', 'image': box_img}]}, created=2480, generation=1)
    bp = mkpod('nats-box-7c9d6b5f8-qk4zn', NS, 'k8s-w1', [{'name': 'nats-box', 'image': box_img}], [running('nats-box', box_img, 2460)], 2478, owner=('ReplicaSet', brs['metadata']['name']),
               labels={'app': 'nats-box', 'pod-template-hash': '7c9d6b5f8'})
    objs = [ns(NS), ns('kube-system'), *nodes, s, c0, p, cm, headless, bd, brs, bp, storageclass('local-path', 'rancher.io/local-path', 'WaitForFirstConsumer', default=True),
            *[kube_proxy(n_['metadata']['name'], version='v1.29.10') for n_ in nodes], *coredns(['k8s-w1', 'k8s-w3']),
            podlog(NS, 'nats-0', 'nats', log, previous=False),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim nats-js-pvc-nats-0 Pod nats-0 in StatefulSet nats success', 'statefulset-controller', last=2478),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod nats-0 in StatefulSet nats successful', 'statefulset-controller', last=2476),
            scheduled(p, N, 2474), *started(p, N, img, 'nats', 2466, '2.2s', size=6841210), *started(p, N, rimg, 'reloader', 2462, '1.4s', size=4021332),
            ev(p, 'Unhealthy', 'Startup probe failed: HTTP probe failed with statuscode: 503', count=236, first=2450, last=6, host=N, fieldPath=fp('nats')),
            ev(p, 'Killing', 'Container nats failed startup probe, will be restarted', 'Normal', count=2, first=1540, last=cur + 20, host=N, fieldPath=fp('nats')),
            *restarted(p, N, img, 'nats', 2, 1530, cur)]
    case('fr-nats-ordered-ready-deadlock',
         'A 3-node NATS JetStream cluster never forms: nats-0 cannot pass its health check without a meta leader, and with OrderedReady the StatefulSet will not create nats-1 until nats-0 is Ready',
         'https://github.com/nats-io/k8s/issues/622',
         'nats-0 nats [7] 2022/12/20 13:52:32.091167 [WRN] Healthcheck failed: "JetStream has not established contact with a meta leader"',
         NS + '/nats-0', 'statefulset.ordered-ready-deadlock', objs, decisive='JetStream has not established contact with a meta leader', playbook=None)


# =====================================================================================
# 16. network.service-no-endpoints (proposed): the init container connects to the MySQL leader Service, which selects no pod (all are role=follower)
# =====================================================================================
@register
def init_leader_no_endpoints():
    nodes = [mknode(n, kubelet='v1.30.6', runtime='containerd://1.7.22', kernel='5.15.0-124-generic', os_image='Ubuntu 22.04.5 LTS', ip=ip)
             for n, ip in (('yy-control-plane', '172.30.16.3'), ('yy-worker', '172.30.16.2'), ('yy-worker2', '172.30.16.4'))]
    nodes[0]['spec']['taints'] = [{'key': 'node-role.kubernetes.io/control-plane', 'effect': 'NoSchedule'}]
    NS = 'default'
    mimg = 'radondb/percona:5.7.34'; ximg = 'radondb/xenon:v2.1.0'
    mlabels = lambda i, role: {'app': 'nacosdb-mysql', 'release': 'nacosdb', 'role': role, 'statefulset.kubernetes.io/pod-name': 'nacosdb-mysql-%d' % i, 'controller-revision-hash': 'nacosdb-mysql-69d7b6c5f8'}
    mysql_tmpl = {'containers': [{'name': 'mysql', 'image': mimg, 'ports': [{'containerPort': 3306, 'name': 'mysql'}]}, {'name': 'xenon', 'image': ximg, 'ports': [{'containerPort': 8801, 'name': 'xenon'}]}]}
    msts = workload('StatefulSet', 'nacosdb-mysql', NS, {'app': 'nacosdb-mysql', 'release': 'nacosdb'}, replicas=3, template_spec=mysql_tmpl)
    msts['status'] = {'replicas': 3, 'readyReplicas': 3, 'currentReplicas': 3, 'updatedReplicas': 3, 'availableReplicas': 3, 'observedGeneration': 1}
    mpods = []
    for i, n_ in enumerate(('yy-worker', 'yy-worker2', 'yy-worker')):
        mp = mkpod('nacosdb-mysql-%d' % i, NS, n_, mysql_tmpl['containers'], [running('mysql', mimg, 3100 - i * 60), running('xenon', ximg, 3100 - i * 60)], 3130 - i * 60,
                   owner=('StatefulSet', 'nacosdb-mysql'), labels=mlabels(i, 'follower'))
        mp['status']['podIP'] = '10.244.%d.%d' % (1 + i % 2, 11 + i); mp['status']['podIPs'] = [{'ip': mp['status']['podIP']}]
        mpods.append(mp)
    leader = service('nacosdb-mysql-leader', NS, {'app': 'nacosdb-mysql', 'release': 'nacosdb', 'role': 'leader'}, ports=((3306, 3306),), created=3140)
    leader['spec']['ports'][0].update({'name': 'mysql', 'targetPort': 'mysql'})
    follower = service('nacosdb-mysql-follower', NS, {'app': 'nacosdb-mysql', 'release': 'nacosdb', 'role': 'follower'}, ports=((3306, 3306),), created=3140)
    headless = service('nacosdb-mysql', NS, {'app': 'nacosdb-mysql', 'release': 'nacosdb'}, ports=((3306, 3306),), created=3140)
    headless['spec']['clusterIP'] = 'None'
    for sv in (leader, follower, headless):
        sv['metadata']['labels'] = {'app': 'nacosdb-mysql', 'app.kubernetes.io/managed-by': 'Helm', 'chart': 'mysql-1.0.0', 'heritage': 'Helm', 'release': 'nacosdb'}
    ep_leader = endpoints('nacosdb-mysql-leader', NS, port=3306)
    ep_follower = endpoints('nacosdb-mysql-follower', NS, ready=[(m['status']['podIP'], m['metadata']['name'], m['spec']['nodeName']) for m in mpods], port=3306)
    nimg = 'codewisdom/nacos-server:2.0.1'; iimg = 'codewisdom/mysqlclient:0.1'
    init = [{'name': 'initmysql', 'image': iimg, 'command': ['sh', '-c', 'mysql -h nacosdb-mysql-leader -u nacos -p"$MYSQL_PASSWORD" nacos < /sql/nacos-mysql.sql'],
             'env': [{'name': 'MYSQL_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'nacosdb-mysql', 'key': 'mysql-password'}}}]}]
    ntmpl = {'initContainers': init, 'containers': [{'name': 'k8snacos', 'image': nimg, 'ports': [{'containerPort': 8848, 'name': 'client'}, {'containerPort': 9848, 'name': 'client-rpc'}],
                                                      'env': [{'name': 'MYSQL_SERVICE_HOST', 'value': 'nacosdb-mysql-leader'}, {'name': 'NACOS_REPLICAS', 'value': '3'}]}]}
    nsts = workload('StatefulSet', 'nacos', NS, {'app': 'nacos'}, replicas=3, template_spec=ntmpl)
    nsts['spec'].update({'serviceName': 'nacos-headless', 'podManagementPolicy': 'OrderedReady'})
    nsts['status'] = {'replicas': 1, 'currentReplicas': 1, 'updatedReplicas': 1, 'availableReplicas': 0, 'observedGeneration': 1, 'currentRevision': 'nacos-7f6d9b8c54', 'updateRevision': 'nacos-7f6d9b8c54'}
    N = 'yy-worker2'
    ist = [{'name': 'initmysql', 'ready': False, 'started': False, 'restartCount': 9, 'image': iimg, 'imageID': imgid(iimg), 'containerID': cid('initmysql9'),
            'state': {'waiting': {'reason': 'CrashLoopBackOff', 'message': 'back-off 5m0s restarting failed container=initmysql pod=nacos-0_default(%s)' % uid('pod' + NS + 'nacos-0')}},
            'lastState': {'terminated': {'exitCode': 1, 'reason': 'Error', 'startedAt': ago(131), 'finishedAt': ago(131), 'containerID': cid('initmysql8')}}}]
    p = mkpod('nacos-0', NS, N, ntmpl['containers'], [waiting('k8snacos', nimg, 'PodInitializing', pulled=False)], 2700, owner=('StatefulSet', 'nacos'),
              labels={'app': 'nacos', 'statefulset.kubernetes.io/pod-name': 'nacos-0', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': 'nacos-7f6d9b8c54'},
              phase='Pending', conditions=conds(2700, False, msg='containers with incomplete status: [initmysql]', initialized=False), init=init, init_statuses=ist,
              spec_extra={'hostname': 'nacos-0', 'subdomain': 'nacos-headless'})
    p['status']['conditions'][2]['message'] = 'containers with unready status: [k8snacos]'
    p['status']['conditions'][3]['message'] = 'containers with unready status: [k8snacos]'
    log = ['mysql: [Warning] Using a password on the command line interface can be insecure.', "ERROR 2003 (HY000): Can't connect to MySQL server on 'nacosdb-mysql-leader' (111)"]
    objs = [ns(NS), ns('kube-system'), *nodes, msts, *mpods, leader, follower, headless, ep_leader, ep_follower, nsts, p,
            secret('nacosdb-mysql', NS, ['mysql-password', 'mysql-replication-password', 'mysql-root-password'], created=3140),
            *[kube_proxy(n_['metadata']['name']) for n_ in nodes], *coredns(['yy-control-plane', 'yy-control-plane']),
            podlog(NS, 'nacos-0', 'initmysql', log, previous=True),
            ctrl_ev(nsts, 'SuccessfulCreate', 'create Pod nacos-0 in StatefulSet nacos successful', 'statefulset-controller', last=2700),
            scheduled(p, N, 2699), *started(p, N, iimg, 'initmysql', 2695, '9.6s', size=161227806, init=True),
            *restarted(p, N, iimg, 'initmysql', 9, 2640, 132, init=True),
            backoff(p, N, 'initmysql', 118, 2600, 14, init=True),
            *[ev(m, 'Unhealthy', "Readiness probe failed: ERROR 2002 (HY000): Can't connect to local MySQL server through socket '/var/lib/mysql/mysql.sock' (2)", count=4, first=3090 - i * 60, last=3050 - i * 60, host=m['spec']['nodeName'], fieldPath=fp('mysql')) for i, m in enumerate(mpods)]]
    case('fr-init-leader-no-endpoints',
         'Init:CrashLoopBackOff: nacos-0 loads its schema through the nacosdb-mysql-leader Service, which has no endpoints because every MySQL pod carries role=follower',
         'https://github.com/FudanSELab/train-ticket/issues/252',
         'It seems that the `nacosdb-mysql-leader` service has no endpoints (the service has a label selector `role=leader`), and all `nacosdb-mysql-` pods have the `role=follower` label, causing the initialization to fail.',
         NS + '/nacos-0', 'network.service-no-endpoints', objs, decisive="Can't connect to MySQL server on 'nacosdb-mysql-leader'", playbook=None)


# =====================================================================================
# N1. negative: a CronJob pod completed; the kubelet logs "kube-root-ca.crt not registered" as it tears the pod down
# =====================================================================================
@register
def neg_kube_root_ca_not_registered():
    N = 'pool-ops-xk29d'
    n = mknode(N, kubelet='v1.31.1', runtime='containerd://1.7.22', kernel='6.1.0-26-amd64', os_image='Debian GNU/Linux 12 (bookworm)', ip='10.110.0.7')
    NS = 'cluster-backup'
    img = 'velero/velero:v1.14.1'
    tmpl = {'restartPolicy': 'OnFailure', 'serviceAccountName': 'cluster-backup',
            'containers': [{'name': 'backup', 'image': img, 'command': ['/velero'], 'args': ['backup', 'create', '--from-schedule', 'nightly', '--wait'],
                            'resources': {'requests': {'cpu': '50m', 'memory': '64Mi'}}}]}
    cj = workload('CronJob', 'cluster-backup', NS, {'app': 'cluster-backup'}, template_spec=tmpl)
    cj['spec'] = {'schedule': '30 9 * * *', 'concurrencyPolicy': 'Forbid', 'suspend': False, 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
                  'jobTemplate': {'spec': {'backoffLimit': 3, 'ttlSecondsAfterFinished': 86400, 'template': {'spec': tmpl}}}}
    cj['status'] = {'lastScheduleTime': ago(1800), 'lastSuccessfulTime': ago(260)}
    jn = 'cluster-backup-29890170'
    j = workload('Job', jn, NS, {'app': 'cluster-backup'}, template_spec=tmpl)
    owned_by(j, cj)
    j['metadata'].update({'creationTimestamp': ago(1800), 'labels': {'batch.kubernetes.io/controller-uid': j['metadata']['uid'], 'batch.kubernetes.io/job-name': jn}})
    j['spec'].update({'backoffLimit': 3, 'completions': 1, 'parallelism': 1, 'ttlSecondsAfterFinished': 86400, 'selector': {'matchLabels': {'batch.kubernetes.io/controller-uid': j['metadata']['uid']}}})
    j['status'] = {'startTime': ago(1800), 'completionTime': ago(262), 'succeeded': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
                   'conditions': [{'type': 'SuccessCriteriaMet', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(262), 'lastTransitionTime': ago(262)},
                                  {'type': 'Complete', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(262), 'lastTransitionTime': ago(262)}]}
    pn = jn + '-8fwzn'
    st = {'name': 'backup', 'ready': False, 'started': False, 'restartCount': 0, 'image': img, 'imageID': imgid(img), 'containerID': cid(pn),
          'state': {'terminated': {'exitCode': 0, 'reason': 'Completed', 'startedAt': ago(1792), 'finishedAt': ago(264), 'containerID': cid(pn)}}}
    p = mkpod(pn, NS, N, tmpl['containers'], [st], 1799, owner=('Job', jn), sa='cluster-backup', phase='Succeeded',
              labels={'batch.kubernetes.io/controller-uid': j['metadata']['uid'], 'batch.kubernetes.io/job-name': jn, 'controller-uid': j['metadata']['uid'], 'job-name': jn},
              conditions=[{'type': 'PodReadyToStartContainers', 'status': 'False', 'lastTransitionTime': ago(262)},
                          {'type': 'Initialized', 'status': 'True', 'reason': 'PodCompleted', 'lastTransitionTime': ago(1797)},
                          {'type': 'Ready', 'status': 'False', 'reason': 'PodCompleted', 'lastTransitionTime': ago(264)},
                          {'type': 'ContainersReady', 'status': 'False', 'reason': 'PodCompleted', 'lastTransitionTime': ago(264)},
                          {'type': 'PodScheduled', 'status': 'True', 'lastTransitionTime': ago(1798)}],
              spec_extra={'restartPolicy': 'OnFailure'})
    p['spec']['volumes'] = [{'name': 'kube-api-access-8x2lq', 'projected': {'defaultMode': 420, 'sources': [{'serviceAccountToken': {'expirationSeconds': 3607, 'path': 'token'}},
                            {'configMap': {'name': 'kube-root-ca.crt', 'items': [{'key': 'ca.crt', 'path': 'ca.crt'}]}},
                            {'downwardAPI': {'items': [{'path': 'namespace', 'fieldRef': {'apiVersion': 'v1', 'fieldPath': 'metadata.namespace'}}]}}]}}]
    p['spec']['containers'][0]['volumeMounts'] = [{'name': 'kube-api-access-8x2lq', 'mountPath': '/var/run/secrets/kubernetes.io/serviceaccount', 'readOnly': True}]
    prev_j = []
    for k, age in ((1, 86400 + 1800), (2, 2 * 86400 + 1800)):
        pj = workload('Job', 'cluster-backup-%d' % (29890170 - k * 1440), NS, {'app': 'cluster-backup'}, template_spec=tmpl)
        owned_by(pj, cj)
        pj['metadata']['creationTimestamp'] = ago(age)
        pj['status'] = {'startTime': ago(age), 'completionTime': ago(age - 1500), 'succeeded': 1,
                        'conditions': [{'type': 'Complete', 'status': 'True', 'reason': 'CompletionsReached', 'lastProbeTime': ago(age - 1500), 'lastTransitionTime': ago(age - 1500)}]}
        prev_j.append(pj)
    log = ['Backup request "nightly-20261121093000" submitted successfully.', 'Waiting for backup to complete. You may safely press ctrl-c to stop waiting - your backup will continue in the background.',
           '.' * 60, 'Backup completed with status: Completed. You may check for more information using the commands `velero backup describe nightly-20261121093000` and `velero backup logs nightly-20261121093000`.']
    objs = [ns(NS), n, cj, j, *prev_j, p, configmap('kube-root-ca.crt', NS, {'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIQ...\n-----END CERTIFICATE-----\n'}, created=86400 * 300),
            kube_proxy(N, version='v1.31.1'), podlog(NS, pn, 'backup', log, previous=False),
            ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jn, 'cronjob-controller', last=1800),
            ctrl_ev(cj, 'SawCompletedJob', 'Saw completed job: %s, condition: Complete' % jn, 'cronjob-controller', last=261),
            ctrl_ev(cj, 'SuccessfulDelete', 'Deleted job cluster-backup-%d' % (29890170 - 3 * 1440), 'cronjob-controller', last=260),
            ctrl_ev(j, 'SuccessfulCreate', 'Created pod: %s' % pn, 'job-controller', last=1799),
            ctrl_ev(j, 'Completed', 'Job completed', 'job-controller', last=262),
            scheduled(p, N, 1798), *started(p, N, img, 'backup', 1796, '3.0s', size=62410843),
            ev(p, 'FailedMount', 'MountVolume.SetUp failed for volume "kube-api-access-8x2lq" : object "cluster-backup"/"kube-root-ca.crt" not registered', count=1, first=258, last=258, host=N)]
    case('fr-neg-kube-root-ca-not-registered',
         'Healthy: the nightly backup Job completed; right after, the kubelet logged FailedMount "kube-root-ca.crt not registered" for the finished pod (a known harmless teardown race)',
         'https://github.com/kiwix/operations/issues/2',
         'MountVolume.SetUp failed for volume "kube-api-access-xxxxx" : object "cluster-backup"/"kube-root-ca.crt" not registered',
         NS + '/' + pn, None, objs)


# =====================================================================================
# N2. negative: envFrom a Secret with dashed keys; the kubelet skips them with a warning, the worker runs fine
# =====================================================================================
@register
def neg_invalid_env_names():
    A = 'aks-nodepool1-38291745-vmss000002'; B = 'aks-nodepool1-38291745-vmss000004'
    na = mknode(A, kubelet='v1.30.5', runtime='containerd://1.7.22-1', kernel='5.15.0-1073-azure', os_image='Ubuntu 22.04.5 LTS', ip='10.224.0.6', labels={'kubernetes.azure.com/agentpool': 'nodepool1'})
    nb = mknode(B, kubelet='v1.30.5', runtime='containerd://1.7.22-1', kernel='5.15.0-1073-azure', os_image='Ubuntu 22.04.5 LTS', ip='10.224.0.8', labels={'kubernetes.azure.com/agentpool': 'nodepool1'})
    NS = 'orders'
    img = 'acmeorders.azurecr.io/orders/event-consumer:1.9.4'
    spec = {'containers': [{'name': 'consumer', 'image': img, 'envFrom': [{'secretRef': {'name': 'rabbitmq-rabbitmq'}}, {'configMapRef': {'name': 'consumer-config'}}],
                            'env': [{'name': 'RABBITMQ_PASSWORD', 'valueFrom': {'secretKeyRef': {'name': 'rabbitmq-rabbitmq', 'key': 'rabbitmq-password'}}}],
                            'readinessProbe': {'httpGet': {'path': '/health', 'port': 8081}, 'periodSeconds': 10},
                            'resources': {'requests': {'cpu': '100m', 'memory': '192Mi'}, 'limits': {'memory': '384Mi'}}}]}
    d, rs = deploy('event-consumer', NS, {'app': 'event-consumer'}, 2, '66d9c7b5f4', spec, ready=2, created=86400 * 120, generation=18)
    d['status']['conditions'][0]['lastTransitionTime'] = ago(2300)
    rs['metadata']['creationTimestamp'] = ago(2420)
    pods, evs = [], []
    for s, n_, ip in (('7tq2z', A, '10.244.2.31'), ('dn4wx', B, '10.244.4.17')):
        pn = 'event-consumer-66d9c7b5f4-' + s
        p = mkpod(pn, NS, n_, spec['containers'], [running('consumer', img, 2395)], 2410, owner=('ReplicaSet', rs['metadata']['name']), labels={'app': 'event-consumer', 'pod-template-hash': '66d9c7b5f4'},
                  conditions=conds(2410, True, since=2370))
        p['status']['podIP'] = ip; p['status']['podIPs'] = [{'ip': ip}]
        pods.append(p)
        evs += [scheduled(p, n_, 2409), *started(p, n_, img, 'consumer', 2405, '5.2s', size=71283012),
                ev(p, 'InvalidEnvironmentVariableNames', 'Keys [rabbitmq-erlang-cookie, rabbitmq-password] from the EnvFrom secret %s/rabbitmq-rabbitmq were skipped since they are considered invalid environment variable names.' % NS,
                   count=1, first=2401, last=2401, host=n_),
                ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:8081/health": dial tcp %s:8081: connect: connection refused' % (ip, ip), count=2, first=2388, last=2380, host=n_, fieldPath=fp('consumer'))]
    log = ['2026-11-21T09:20:06.114Z INFO  event-consumer 1.9.4 starting', '2026-11-21T09:20:06.380Z INFO  health endpoint listening on :8081',
           '2026-11-21T09:20:06.902Z INFO  connected to amqp://event-consumer@rabbitmq.orders.svc.cluster.local:5672/orders',
           '2026-11-21T09:20:07.011Z INFO  consuming from queue orders.created (prefetch=50)', '2026-11-21T09:20:07.012Z INFO  consuming from queue orders.cancelled (prefetch=50)']
    log += ['2026-11-21T09:%02d:%02d.%03dZ INFO  processed %d messages in the last 5m (acked=%d, requeued=0)' % (25 + 5 * k, 7, 12 + k, 1200 + 37 * k, 1200 + 37 * k) for k in range(7)]
    rimg = 'docker.io/bitnami/rabbitmq:3.13.7-debian-12-r2'
    rq = mkpod('rabbitmq-0', NS, B, [{'name': 'rabbitmq', 'image': rimg}], [running('rabbitmq', rimg, 86400 * 30)], 86400 * 30, owner=('StatefulSet', 'rabbitmq'), labels={'app.kubernetes.io/name': 'rabbitmq'})
    objs = [ns(NS), na, nb, d, rs, replicaset(d, '5f8c6d9b7', 0, 0, spec, created=86400 * 20, revision=17), *pods, rq,
            secret('rabbitmq-rabbitmq', NS, ['rabbitmq-erlang-cookie', 'rabbitmq-password'], created=86400 * 120, labels={'app.kubernetes.io/managed-by': 'Helm'}),
            configmap('consumer-config', NS, {'AMQP_HOST': 'rabbitmq.orders.svc.cluster.local', 'AMQP_VHOST': 'orders', 'PREFETCH': '50'}, created=86400 * 120),
            kube_proxy(A, version='v1.30.5'), kube_proxy(B, version='v1.30.5'), *evs,
            podlog(NS, pods[0]['metadata']['name'], 'consumer', log, previous=False),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set event-consumer-66d9c7b5f4 from 0 to 1', 'deployment-controller', last=2420),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set event-consumer-5f8c6d9b7 from 2 to 1', 'deployment-controller', last=2360),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set event-consumer-66d9c7b5f4 from 1 to 2', 'deployment-controller', last=2360),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set event-consumer-5f8c6d9b7 from 1 to 0', 'deployment-controller', last=2300)]
    case('fr-neg-invalid-env-names',
         'Healthy: a consumer Ready for 40 minutes; at start the kubelet warned that envFrom skipped two Secret keys with dashes (InvalidEnvironmentVariableNames), the app reads them another way',
         'https://github.com/kubernetes/kubernetes/pull/42642',
         'When processing EnvFrom items, all invalid keys are collected and reported as a single event. The Pod is allowed to start.',
         NS + '/event-consumer-66d9c7b5f4-7tq2z', None, objs)


# =====================================================================================
# N3. negative: the readiness probe is answered with a redirect; the kubelet counts it as success and emits ProbeWarning
# =====================================================================================
@register
def neg_probe_redirect_warning():
    N = 'blog-node-1'
    n = mknode(N, kubelet='v1.30.6+k3s1', runtime='containerd://1.7.22-k3s1', kernel='6.8.0-48-generic', os_image='Ubuntu 24.04.1 LTS', ip='10.0.0.5',
               labels={'node-role.kubernetes.io/control-plane': 'true'})
    NS = 'blog'
    img = 'ghost:5.101.3-alpine'
    probe = {'httpGet': {'path': '/', 'port': 2368}, 'periodSeconds': 10, 'timeoutSeconds': 5, 'failureThreshold': 3}
    spec = {'containers': [{'name': 'ghost', 'image': img, 'ports': [{'containerPort': 2368, 'name': 'http'}], 'env': [{'name': 'url', 'value': 'https://blog.example.org'}],
                            'readinessProbe': probe, 'livenessProbe': {**probe, 'initialDelaySeconds': 30}, 'resources': {'requests': {'cpu': '100m', 'memory': '256Mi'}, 'limits': {'memory': '512Mi'}}}]}
    d, rs = deploy('ghost', NS, {'app.kubernetes.io/name': 'ghost'}, 1, '59f7c8d6b4', spec, ready=1, created=86400 * 60, generation=7)
    pn = 'ghost-59f7c8d6b4-r7wkt'
    p = mkpod(pn, NS, N, spec['containers'], [running('ghost', img, 3 * 3600 + 20)], 3 * 3600 + 30, owner=('ReplicaSet', rs['metadata']['name']),
              labels={'app.kubernetes.io/name': 'ghost', 'pod-template-hash': '59f7c8d6b4'}, conditions=conds(3 * 3600 + 30, True, since=3 * 3600 - 10))
    mimg = 'mysql:8.0.40'
    mp = mkpod('ghost-mysql-0', NS, N, [{'name': 'mysql', 'image': mimg}], [running('mysql', mimg, 86400 * 12)], 86400 * 12, owner=('StatefulSet', 'ghost-mysql'), labels={'app.kubernetes.io/name': 'ghost-mysql'})
    log = ['[2026-11-21 06:59:48] INFO Ghost is running in production...', '[2026-11-21 06:59:48] INFO Your site is now available on https://blog.example.org/',
           '[2026-11-21 06:59:48] INFO Ctrl+C to shut down', '[2026-11-21 06:59:49] INFO Ghost server started in 1.622s', '[2026-11-21 06:59:50] INFO Database is in a ready state.',
           '[2026-11-21 06:59:50] INFO Ghost database ready in 2.431s', '[2026-11-21 06:59:53] INFO Adding offloaded job to the queue', '[2026-11-21 06:59:53] INFO Ghost booted in 5.519s']
    log += ['[2026-11-21 %02d:%02d:%02d] INFO "GET /" 301 %dms' % (7 + k // 6, (k * 10) % 60, 8, 2 + k % 3) for k in range(18)]
    objs = [ns(NS), n, d, rs, p, mp, service('ghost', NS, {'app.kubernetes.io/name': 'ghost'}, ports=((80, 2368),)),
            endpoints('ghost', NS, ready=[(p['status']['podIP'], pn, N)], port=2368), kube_proxy(N),
            *coredns([N, N], image='rancher/mirrored-coredns-coredns:1.11.3', hash_='ccb96694c'),
            podlog(NS, pn, 'ghost', log, previous=False),
            scheduled(p, N, 3 * 3600 + 29), *started(p, N, img, 'ghost', 3 * 3600 + 27, present=True),
            ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:2368/": dial tcp %s:2368: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']), count=1,
               first=3 * 3600 + 14, last=3 * 3600 + 14, host=N, fieldPath=fp('ghost')),
            ev(p, 'ProbeWarning', 'Readiness probe warning: Probe terminated redirects, Response body: Moved Permanently. Redirecting to https://localhost:2368/', count=1078,
               first=3 * 3600 - 8, last=6, host=N, fieldPath=fp('ghost')),
            ev(p, 'ProbeWarning', 'Liveness probe warning: Probe terminated redirects, Response body: Moved Permanently. Redirecting to https://localhost:2368/', count=359,
               first=3 * 3600 - 20, last=16, host=N, fieldPath=fp('ghost'))]
    case('fr-neg-probe-redirect-warning',
         'Healthy: Ghost Ready for three hours; its probes on / are answered with a 301 to https, which the kubelet counts as success and reports as ProbeWarning every 10 seconds',
         'https://github.com/kubernetes/website/issues/30849',
         'It will succeed on redirect response like `302`, but will report the warning',
         NS + '/' + pn, None, objs)


if __name__ == '__main__':
    for f in CASES:
        f()
    print('wrote %d cases' % len(CASES))
