# Evaluation corpus, area STORAGE, SCHEDULING, OWNERS and ADMISSION (slug prefix st-).
# Each case is a real incident from a public issue tracker, rewritten as the objects
# `kubectl get ... -o yaml` would show today (Kubernetes 1.27-1.32 wording), with a noisy history.
# Run: python3 eval/gen/storage_owners.py  (writes eval/corpus/st-*/)
import os, sys, copy, hashlib
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403
from common import _meta

# ---------------------------------------------------------------- helpers (this area only)
sev = make_sev('st-sev', 104729, 77)

def scheduled(p, node_name, at):
    return sev(p, 'Scheduled', 'Successfully assigned %s/%s to %s' % (p['metadata']['namespace'], p['metadata']['name'], node_name), 'Normal', count=1, first=at,
               controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Binding')

def failed_scheduling(p, msg, count, last, first):
    return sev(p, 'FailedScheduling', msg, count=count, last=last, first=first, controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Scheduling')

def started(p, node_name, image, cname, at, pulled_in='3.1s', present=False, init=False):
    fp = ('spec.initContainers{%s}' if init else 'spec.containers{%s}') % cname
    pull = [ev(p, 'Pulled', 'Container image "%s" already present on machine' % image, 'Normal', last=at, host=node_name, fieldPath=fp)] if present else [
        ev(p, 'Pulling', 'Pulling image "%s"' % image, 'Normal', last=at, host=node_name, fieldPath=fp),
        ev(p, 'Pulled', 'Successfully pulled image "%s" in %s (%s including waiting). Image size: 48213392 bytes.' % (image, pulled_in, pulled_in), 'Normal', last=at - 3, host=node_name, fieldPath=fp)]
    return pull + [ev(p, 'Created', 'Created container %s' % cname, 'Normal', last=at - 4, host=node_name, fieldPath=fp),
                   ev(p, 'Started', 'Started container %s' % cname, 'Normal', last=at - 4, host=node_name, fieldPath=fp)]

def running(name, image, since, restarts=0, ready=True, last=None):
    s = {'name': name, 'ready': ready, 'started': True, 'restartCount': restarts, 'image': image, 'imageID': '%s@sha256:%s' % (image.split(':')[0], hexid(image)),
         'containerID': 'containerd://' + hexid(name + image + str(since)), 'state': {'running': {'startedAt': ago(since)}}}
    if last: s['lastState'] = {'terminated': last}
    return s

def creating(name, image):
    return {'name': name, 'ready': False, 'started': False, 'restartCount': 0, 'image': image, 'imageID': '', 'state': {'waiting': {'reason': 'ContainerCreating'}}}

def terminated(name, image, code, reason, started_ago, finished_ago, message=None):
    t = {'exitCode': code, 'reason': reason, 'startedAt': ago(started_ago), 'finishedAt': ago(finished_ago), 'containerID': 'containerd://' + hexid(name + image + str(finished_ago))}
    if message: t['message'] = message
    return {'name': name, 'ready': False, 'started': False, 'restartCount': 0, 'image': image, 'imageID': '%s@sha256:%s' % (image.split(':')[0], hexid(image)),
            'containerID': t['containerID'], 'state': {'terminated': t}}

def set_conditions(p, created, ready, reason='ContainersNotReady', msg=None, scheduled=True, initialized=True, sandbox=True):
    unready = msg or 'containers with unready status: [%s]' % ' '.join(s['name'] for s in p['status'].get('containerStatuses', []) if not s.get('ready'))
    conds = [{'type': 'PodReadyToStartContainers', 'status': 'True' if sandbox else 'False', 'lastTransitionTime': ago(created - 3)},
             {'type': 'Initialized', 'status': 'True' if initialized else 'False', 'lastTransitionTime': ago(created - 2)},
             {'type': 'Ready', 'status': 'True' if ready else 'False', 'lastTransitionTime': ago(created - 20 if ready else created - 1)},
             {'type': 'ContainersReady', 'status': 'True' if ready else 'False', 'lastTransitionTime': ago(created - 20 if ready else created - 1)},
             {'type': 'PodScheduled', 'status': 'True' if scheduled else 'False', 'lastTransitionTime': ago(created - 1)}]
    if not ready:
        for c in conds[2:4]: c.update({'reason': reason, 'message': unready})
    p['status']['conditions'] = conds
    return p

def mkpod(name, namespace, node_name, containers, statuses, owner=None, created=3600, phase='Running', labels=None, spec_extra=None, ready=None, init=None, init_statuses=None, sandbox=True):
    p = pod(name, namespace, node_name=node_name, phase=phase, created=created, owner=owner, statuses=statuses, containers=containers, labels=labels, spec_extra=spec_extra)
    p['spec'].setdefault('serviceAccountName', 'default')
    p['spec'].setdefault('dnsPolicy', 'ClusterFirst')
    p['spec']['schedulerName'] = 'default-scheduler'
    p['spec']['tolerations'] = [{'key': 'node.kubernetes.io/not-ready', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300},
                                {'key': 'node.kubernetes.io/unreachable', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300}]
    if init:
        p['spec']['initContainers'] = init
        p['status']['initContainerStatuses'] = init_statuses or []
    r = all(s.get('ready') for s in statuses) if ready is None else ready
    set_conditions(p, created, r, sandbox=sandbox)
    return p

def pending_pod(name, namespace, msg, containers, owner=None, created=900, labels=None, spec_extra=None, reason='Unschedulable'):
    p = pod(name, namespace, node_name=None, phase='Pending', created=created, statuses=[], owner=owner, containers=containers, labels=labels, spec_extra=spec_extra,
            conditions=[{'type': 'PodScheduled', 'status': 'False', 'reason': reason, 'message': msg, 'lastTransitionTime': ago(created - 1), 'lastProbeTime': None}])
    del p['status']['containerStatuses']
    p['status'].pop('startTime', None)
    p['spec']['schedulerName'] = 'default-scheduler'
    p['spec'].setdefault('serviceAccountName', 'default')
    return p

def deploy(name, namespace, labels, replicas, template_spec, rs_hash, ready=None, updated=None, available=None, conditions=None, created=86400 * 30, generation=3, template_labels=None):
    d = workload('Deployment', name, namespace, labels, replicas=replicas, template_spec=template_spec)
    d['metadata']['creationTimestamp'] = ago(created)
    d['metadata']['generation'] = generation
    d['metadata']['annotations'] = {'deployment.kubernetes.io/revision': str(generation)}
    d['metadata']['labels'] = dict(labels)
    if template_labels: d['spec']['template']['metadata']['labels'] = template_labels
    d['spec']['strategy'] = {'type': 'RollingUpdate', 'rollingUpdate': {'maxSurge': '25%', 'maxUnavailable': '25%'}}
    d['spec']['progressDeadlineSeconds'] = 600
    d['spec']['revisionHistoryLimit'] = 10
    ready = replicas if ready is None else ready
    available = ready if available is None else available
    updated = replicas if updated is None else updated
    st = {'observedGeneration': generation, 'replicas': max(ready, updated), 'updatedReplicas': updated}
    if ready: st['readyReplicas'] = ready
    if available: st['availableReplicas'] = available
    if replicas - available > 0: st['unavailableReplicas'] = replicas - available
    st['conditions'] = conditions or [
        {'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(created - 60), 'lastTransitionTime': ago(created - 60)},
        {'type': 'Progressing', 'status': 'True', 'reason': 'NewReplicaSetAvailable', 'message': 'ReplicaSet "%s-%s" has successfully progressed.' % (name, rs_hash), 'lastUpdateTime': ago(created - 60), 'lastTransitionTime': ago(created - 120)}]
    d['status'] = st
    rs = rs_for(d, '%s-%s' % (name, rs_hash))
    rs['metadata']['labels'] = {**(template_labels or labels), 'pod-template-hash': rs_hash}
    rs['metadata']['annotations'] = {'deployment.kubernetes.io/desired-replicas': str(replicas), 'deployment.kubernetes.io/max-replicas': str(replicas + max(1, replicas // 4)), 'deployment.kubernetes.io/revision': str(generation)}
    rs['spec']['selector'] = {'matchLabels': {**labels, 'pod-template-hash': rs_hash}}
    rs['spec']['template'] = copy.deepcopy(d['spec']['template'])
    rs['spec']['template']['metadata']['labels'] = {**(template_labels or labels), 'pod-template-hash': rs_hash}
    rs['status'] = {'replicas': ready, 'fullyLabeledReplicas': ready, 'readyReplicas': ready, 'availableReplicas': available, 'observedGeneration': 1}
    if not ready:
        rs['status'] = {'replicas': 0, 'observedGeneration': 1}
    return d, rs

def replica_failure(obj, msg, since):
    obj['status'].setdefault('conditions', []).append({'type': 'ReplicaFailure', 'status': 'True', 'reason': 'FailedCreate', 'message': msg, 'lastTransitionTime': ago(since)})
    return obj

def sts(name, namespace, labels, replicas, template_spec, ready, current=None, vct=None, created=86400 * 20, service=None, revision='7d9c8b6f54'):
    s = workload('StatefulSet', name, namespace, labels, replicas=replicas, template_spec=template_spec)
    s['metadata']['creationTimestamp'] = ago(created)
    s['metadata']['labels'] = dict(labels)
    s['spec'].update({'serviceName': service or name, 'podManagementPolicy': 'OrderedReady', 'updateStrategy': {'type': 'RollingUpdate', 'rollingUpdate': {'partition': 0}},
                      'persistentVolumeClaimRetentionPolicy': {'whenDeleted': 'Retain', 'whenScaled': 'Retain'}, 'revisionHistoryLimit': 10})
    if vct: s['spec']['volumeClaimTemplates'] = vct
    current = ready if current is None else current
    s['status'] = {'observedGeneration': 3, 'replicas': current, 'currentReplicas': current, 'updatedReplicas': current, 'currentRevision': '%s-%s' % (name, revision),
                   'updateRevision': '%s-%s' % (name, revision), 'collisionCount': 0, 'availableReplicas': ready}
    if ready: s['status']['readyReplicas'] = ready
    return s

def vct(name, sc, size):
    return {'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'metadata': {'name': name}, 'spec': {'accessModes': ['ReadWriteOnce'], 'storageClassName': sc, 'resources': {'requests': {'storage': size}}, 'volumeMode': 'Filesystem'}}

def ctrl_ev(obj, reason, msg, component, type_='Warning', count=1, last=30, first=None):
    return ev(obj, reason, msg, type_, count=count, last=last, first=first if first is not None else last, component=component)

def claim(name, namespace, sc, phase, size, volume=None, created=900, provisioner=None, selected_node=None, extra_ann=None, access=('ReadWriteOnce',), labels=None):
    ann = {}
    if phase == 'Bound': ann.update({'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes'})
    if provisioner: ann.update({'volume.beta.kubernetes.io/storage-provisioner': provisioner, 'volume.kubernetes.io/storage-provisioner': provisioner})
    if selected_node: ann['volume.kubernetes.io/selected-node'] = selected_node
    if extra_ann: ann.update(extra_ann)
    c = pvc(name, namespace, storage_class=sc, phase=phase, size=size, volume=volume, created=created, access=access, annotations=ann or None)
    c['metadata']['finalizers'] = ['kubernetes.io/pvc-protection']
    if labels: c['metadata']['labels'] = labels
    return c

def kube_system_pods(node_names, created=86400 * 40, cni='calico'):
    """Healthy kube-system noise: CoreDNS, kube-proxy and the CNI agent on each node."""
    out = []
    img_dns = 'registry.k8s.io/coredns/coredns:v1.11.3'
    for i, n in enumerate(node_names[:2]):
        name = 'coredns-5d78c9869d-%s' % ['4xkqz', 'vb7lm'][i]
        out.append(mkpod(name, 'kube-system', n, [{'name': 'coredns', 'image': img_dns}], [running('coredns', img_dns, created - 30)], owner=('ReplicaSet', 'coredns-5d78c9869d'),
                         created=created, labels={'k8s-app': 'kube-dns', 'pod-template-hash': '5d78c9869d'}))
    for n in node_names:
        suf = hexid('kp' + n, 5).replace('0', 'x').replace('1', 'z')
        img = 'registry.k8s.io/kube-proxy:v1.30.6'
        out.append(mkpod('kube-proxy-%s' % suf, 'kube-system', n, [{'name': 'kube-proxy', 'image': img}], [running('kube-proxy', img, created - 15)], owner=('DaemonSet', 'kube-proxy'),
                         created=created, labels={'k8s-app': 'kube-proxy'}))
    return out

def podlog_lines(head, tail):
    return head + tail

def node_with(name, zone=None, provider_id=None, pool=None, instance='m6i.xlarge', kubelet='v1.30.6', runtime='containerd://1.7.22', **kw):
    labels = {'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/instance-type': instance}
    if zone: labels.update({'topology.kubernetes.io/zone': zone, 'topology.kubernetes.io/region': zone[:-1], 'topology.ebs.csi.aws.com/zone': zone})
    if pool: labels.update(pool)
    labels.update(kw.pop('labels', {}))
    n = node(name, kubelet=kubelet, runtime=runtime, labels=labels, **kw)
    if provider_id: n['spec']['providerID'] = provider_id
    n['status']['nodeInfo']['osImage'] = kw.get('os', 'Amazon Linux 2023.6.20241111') if zone else n['status']['nodeInfo']['osImage']
    return n

def csidriver(name, attach=True, fsgroup='ReadWriteOnceWithFSType'):
    o = _meta('CSIDriver', 'storage.k8s.io/v1', name, None, 86400 * 120)
    o['spec'] = {'attachRequired': attach, 'podInfoOnMount': False, 'fsGroupPolicy': fsgroup, 'requiresRepublish': False, 'storageCapacity': False, 'volumeLifecycleModes': ['Persistent'], 'seLinuxMount': False}
    return o

def csinode(node_name, drivers):
    o = _meta('CSINode', 'storage.k8s.io/v1', node_name, None, 86400 * 90)
    o['metadata']['ownerReferences'] = [{'apiVersion': 'v1', 'kind': 'Node', 'name': node_name, 'uid': uid('node' + node_name)}]
    o['spec'] = {'drivers': [{'name': d, 'nodeID': nid, 'topologyKeys': keys, **({'allocatable': {'count': cnt}} if cnt else {})} for d, nid, keys, cnt in drivers]}
    return o

def job(name, namespace, template_spec, labels, status, created, owner_cron=None, backoff=6, deadline=None, completions=1):
    j = workload('Job', name, namespace, labels, template_spec=template_spec)
    j['metadata']['creationTimestamp'] = ago(created)
    j['metadata']['labels'] = dict(labels)
    j['metadata']['generation'] = 1
    j['spec'].update({'backoffLimit': backoff, 'completions': completions, 'parallelism': 1, 'completionMode': 'NonIndexed', 'suspend': False, 'manualSelector': False, 'podReplacementPolicy': 'TerminatingOrFailed'})
    j['spec']['selector'] = {'matchLabels': {'batch.kubernetes.io/controller-uid': j['metadata']['uid']}}
    j['spec']['template']['metadata']['labels'] = {**labels, 'batch.kubernetes.io/controller-uid': j['metadata']['uid'], 'batch.kubernetes.io/job-name': name, 'controller-uid': j['metadata']['uid'], 'job-name': name}
    if deadline: j['spec']['activeDeadlineSeconds'] = deadline
    if owner_cron: owned_by(j, owner_cron)
    j['status'] = status
    return j

def write(n, slug, meta, objects):
    meta = dict(meta)
    meta['split'] = 'holdout' if n % 3 == 0 else 'dev'
    write_case(slug, meta, objects)

N = 0
def nxt():
    global N
    N += 1
    return N

REG = 'registry.example.com'

# =====================================================================================
# 1. ProvisioningFailed: the EBS CSI controller's IAM role may not ec2:CreateVolume
# =====================================================================================
def case_provisioning_unauthorized():
    n = nxt()
    A = 'ip-192-168-41-17.eu-central-1.compute.internal'; B = 'ip-192-168-77-203.eu-central-1.compute.internal'
    nodes = [node_with(A, 'eu-central-1a', 'aws:///eu-central-1a/i-0c1f5e2a9b7d40a11'), node_with(B, 'eu-central-1b', 'aws:///eu-central-1b/i-0a8b3c6d2e9f10b22')]
    sc = storageclass('ebs-sc', 'ebs.csi.aws.com', 'WaitForFirstConsumer', params={'type': 'gp3', 'csi.storage.k8s.io/fstype': 'ext4'})
    pvname = 'pvc-c338311b-294b-44b8-9f0e-2a41d7c3b8e5'
    c = claim('ebs-claim', 'default', 'ebs-sc', 'Pending', '4Gi', created=1850, provisioner='ebs.csi.aws.com', selected_node=A)
    c['metadata']['uid'] = pvname[4:]
    img = 'public.ecr.aws/amazonlinux/amazonlinux:2023'
    vol = [{'name': 'persistent-storage', 'persistentVolumeClaim': {'claimName': 'ebs-claim'}}]
    cont = [{'name': 'app', 'image': img, 'command': ['/bin/sh'], 'args': ['-c', 'while true; do echo $(date -u) >> /data/out.txt; sleep 5; done'],
             'volumeMounts': [{'name': 'persistent-storage', 'mountPath': '/data'}]}]
    msg = 'running PreBind plugin "VolumeBinding": binding volumes: provisioning failed for PVC "ebs-claim"'
    p = pending_pod('app', 'default', msg, cont, created=1840, labels={'app': 'ebs-demo'}, spec_extra={'volumes': vol}, reason='SchedulerError')
    # the controller and its log: the CreateVolume call is refused by EC2
    cimg = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.37.0'; pimg = 'public.ecr.aws/eks-distro/kubernetes-csi/external-provisioner:v5.1.0-eks-1-31-7'
    ctrl_d, ctrl_rs = deploy('ebs-csi-controller', 'kube-system', {'app': 'ebs-csi-controller', 'app.kubernetes.io/name': 'aws-ebs-csi-driver'}, 2,
                             {'serviceAccountName': 'ebs-csi-controller-sa', 'containers': [{'name': 'ebs-plugin', 'image': cimg}, {'name': 'csi-provisioner', 'image': pimg}]}, '65968876bc', created=86400 * 3)
    ctrl_pods = []
    for suf, nd in (('fsqtw', A), ('k9d2m', B)):
        cp = mkpod('ebs-csi-controller-65968876bc-' + suf, 'kube-system', nd,
                   [{'name': 'ebs-plugin', 'image': cimg}, {'name': 'csi-provisioner', 'image': pimg}, {'name': 'csi-attacher', 'image': 'public.ecr.aws/eks-distro/kubernetes-csi/external-attacher:v4.7.0-eks-1-31-7'},
                    {'name': 'liveness-probe', 'image': 'public.ecr.aws/eks-distro/kubernetes-csi/livenessprobe:v2.14.0-eks-1-31-7'}],
                   [running('ebs-plugin', cimg, 86400 * 3 - 40), running('csi-provisioner', pimg, 86400 * 3 - 40),
                    running('csi-attacher', 'public.ecr.aws/eks-distro/kubernetes-csi/external-attacher:v4.7.0-eks-1-31-7', 86400 * 3 - 40),
                    running('liveness-probe', 'public.ecr.aws/eks-distro/kubernetes-csi/livenessprobe:v2.14.0-eks-1-31-7', 86400 * 3 - 40)],
                   owner=('ReplicaSet', ctrl_rs['metadata']['name']), created=86400 * 3, labels={'app': 'ebs-csi-controller', 'pod-template-hash': '65968876bc'},
                   spec_extra={'serviceAccountName': 'ebs-csi-controller-sa', 'priorityClassName': 'system-cluster-critical'})
        ctrl_pods.append(cp)
    prov = 'ebs.csi.aws.com_ebs-csi-controller-65968876bc-fsqtw_8837f624-6ded-4da8-9e78-e00ecdf3f268'
    fail = ('failed to provision volume with StorageClass "ebs-sc": rpc error: code = Internal desc = Could not create volume "%s": could not create volume in EC2: '
            'operation error EC2: CreateVolume, https response error StatusCode: 403, RequestID: ceb3f6fb-d9a3-4a09-8b46-1527ac3fa6c7, api error UnauthorizedOperation: '
            'You are not authorized to perform this operation. Encoded authorization failure message: 81IfYiNZlt4QusMu262DnmXmkXF3HKBHOMWvbPI0VIYceqdapLtOzDTj63OazSTiykXO-kq7Wn3') % pvname
    log = ['I1121 09:28:54.112930       1 driver.go:84] "Driver Information" Driver="ebs.csi.aws.com" Version="v1.37.0"',
           'I1121 09:28:54.113101       1 metadata.go:85] "retrieving instance data from ec2 metadata"',
           'I1121 09:28:54.129551       1 metadata.go:92] "ec2 metadata is available"',
           'I1121 09:28:54.130918       1 metadata_ec2.go:25] "Retrieving EC2 instance identity metadata" regionFromSession=""',
           'I1121 09:28:54.402216       1 driver.go:157] "Listening for connections" address="/var/lib/csi/sockets/pluginproxy/csi.sock"',
           'I1121 09:29:31.550781       1 controller.go:109] "CreateVolume: called" args="name:\\"%s\\" capacity_range:<required_bytes:4294967296 > ..."' % pvname]
    for i in range(9):
        log.append('I1121 09:%02d:%02d.%06d       1 controller.go:109] "CreateVolume: called" args="name:\\"%s\\" capacity_range:<required_bytes:4294967296 > ..."' % (30 + i * 3, 12 + i, 33124 * (i + 1) % 1000000, pvname))
        log.append('E1121 09:%02d:%02d.%06d       1 driver.go:108] "GRPC error" err="rpc error: code = Internal desc = Could not create volume \\"%s\\": could not create volume in EC2: operation error EC2: CreateVolume, https response error StatusCode: 403, RequestID: %s, api error UnauthorizedOperation: You are not authorized to perform this operation. Encoded authorization failure message: 81IfYiNZlt4QusMu262..."'
                   % (30 + i * 3, 13 + i, 55021 * (i + 1) % 1000000, pvname, uid('req%d' % i)))
    objs = [ns('default'), ns('kube-system'), *nodes, sc, storageclass('gp2', 'kubernetes.io/aws-ebs', 'WaitForFirstConsumer', default=True, params={'type': 'gp2', 'fsType': 'ext4'}),
            csidriver('ebs.csi.aws.com'), c, p, ctrl_d, ctrl_rs, *ctrl_pods, *kube_system_pods([A, B]),
            podlog('kube-system', ctrl_pods[0]['metadata']['name'], 'ebs-plugin', log, previous=False),
            ev(c, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'Normal', count=1, last=1850, component='persistentvolume-controller'),
            ev(c, 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", 'Normal', count=121, last=12, first=1830, component='persistentvolume-controller'),
            ev(c, 'Provisioning', 'External provisioner is provisioning volume for claim "default/ebs-claim"', 'Normal', count=14, last=95, first=1829, component=prov),
            ev(c, 'ProvisioningFailed', fail, count=14, last=93, first=1826, component=prov),
            failed_scheduling(p, msg, 14, 90, 1825),
            ev(nodes[0], 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (A, A), 'Normal', last=86400 * 2, component='node-controller')]
    write(n, 'st-provisioning-failed-ebs-unauthorized', {
        'title': 'Pending: the EBS CSI controller may not call ec2:CreateVolume (UnauthorizedOperation), the claim never binds',
        'url': 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/issues/963',
        'reported': 'failed to provision volume with StorageClass "ebs-sc": rpc error: code = Internal desc = Could not create volume "pvc-xyz": could not create volume in EC2: UnauthorizedOperation: You are not authorized to perform this operation.',
        'target': 'default/app',
        'expect': {'first': 'pending.pvc', 'decisive': 'UnauthorizedOperation: You are not authorized to perform this operation'}}, objs)

# =====================================================================================
# 2. ExternalProvisioning forever: EKS >= 1.23 migrates gp2 to ebs.csi.aws.com, no driver installed
# =====================================================================================
def case_provisioner_missing():
    n = nxt()
    A = 'ip-10-20-11-84.us-east-2.compute.internal'; B = 'ip-10-20-52-9.us-east-2.compute.internal'
    nodes = [node_with(A, 'us-east-2a', 'aws:///us-east-2a/i-04c2d1e7f0a9b8c31', kubelet='v1.29.10-eks-94953ac'), node_with(B, 'us-east-2b', 'aws:///us-east-2b/i-0e9d8c7b6a5f4e312', kubelet='v1.29.10-eks-94953ac')]
    for nd in nodes: nd['metadata']['labels'].pop('topology.ebs.csi.aws.com/zone')
    gp2 = storageclass('gp2', 'kubernetes.io/aws-ebs', 'WaitForFirstConsumer', default=True, params={'type': 'gp2', 'fsType': 'ext4'})
    gp2['allowVolumeExpansion'] = False
    cimg = 'gcr.io/kubecost1/cost-model:prod-2.4.3'; fimg = 'gcr.io/kubecost1/frontend:prod-2.4.3'; pimg = 'quay.io/prometheus/prometheus:v2.55.1'
    d, rs = deploy('kubecost-cost-analyzer', 'kubecost', {'app': 'cost-analyzer', 'app.kubernetes.io/instance': 'kubecost'}, 1,
                   {'containers': [{'name': 'cost-model', 'image': cimg}, {'name': 'cost-analyzer-frontend', 'image': fimg}],
                    'volumes': [{'name': 'persistent-configs', 'persistentVolumeClaim': {'claimName': 'kubecost-cost-analyzer'}}]}, '5ddcf68947', ready=0, available=0, created=9 * 3600 + 300, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(9 * 3600), 'lastTransitionTime': ago(9 * 3600)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "kubecost-cost-analyzer-5ddcf68947" has timed out progressing.', 'lastUpdateTime': ago(9 * 3600 - 600), 'lastTransitionTime': ago(9 * 3600 - 600)}])
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    c1 = claim('kubecost-cost-analyzer', 'kubecost', 'gp2', 'Pending', '32Gi', created=9 * 3600 + 290, provisioner='ebs.csi.aws.com', selected_node=A)
    c2 = claim('kubecost-prometheus-server', 'kubecost', 'gp2', 'Pending', '32Gi', created=9 * 3600 + 290, provisioner='ebs.csi.aws.com', selected_node=B)
    for c in (c1, c2): c['metadata']['annotations']['volume.kubernetes.io/storage-resizer'] = 'ebs.csi.aws.com'
    pod_name = 'kubecost-cost-analyzer-5ddcf68947-dz7ql'
    msg = 'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded'
    p = pending_pod(pod_name, 'kubecost', msg, [{'name': 'cost-model', 'image': cimg}, {'name': 'cost-analyzer-frontend', 'image': fimg}],
                    owner=('ReplicaSet', rs['metadata']['name']), created=9 * 3600 + 280, labels={'app': 'cost-analyzer', 'pod-template-hash': '5ddcf68947'},
                    spec_extra={'volumes': [{'name': 'persistent-configs', 'persistentVolumeClaim': {'claimName': 'kubecost-cost-analyzer'}}]}, reason='SchedulerError')
    pd_, prs = deploy('kubecost-prometheus-server', 'kubecost', {'app': 'prometheus', 'component': 'server'}, 1, {'containers': [{'name': 'prometheus-server', 'image': pimg}]}, '7b9c4d6f8', ready=0, available=0, created=9 * 3600 + 300, generation=1)
    prs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    p2 = pending_pod('kubecost-prometheus-server-7b9c4d6f8-q2wz5', 'kubecost', msg, [{'name': 'prometheus-server', 'image': pimg}],
                     owner=('ReplicaSet', prs['metadata']['name']), created=9 * 3600 + 280, labels={'app': 'prometheus', 'pod-template-hash': '7b9c4d6f8'},
                     spec_extra={'volumes': [{'name': 'storage-volume', 'persistentVolumeClaim': {'claimName': 'kubecost-prometheus-server'}}]}, reason='SchedulerError')
    # a healthy pod of the same release (no volume) and the kube-system of a fresh EKS cluster: no ebs-csi-controller anywhere
    nimg = 'registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.13.0'
    kd, krs = deploy('kubecost-kube-state-metrics', 'kubecost', {'app.kubernetes.io/name': 'kube-state-metrics'}, 1, {'containers': [{'name': 'kube-state-metrics', 'image': nimg}]}, '6c9d8f7b5', created=9 * 3600 + 300, generation=1)
    kp = mkpod('kubecost-kube-state-metrics-6c9d8f7b5-h7r4t', 'kubecost', B, [{'name': 'kube-state-metrics', 'image': nimg}], [running('kube-state-metrics', nimg, 9 * 3600 + 200)],
               owner=('ReplicaSet', krs['metadata']['name']), created=9 * 3600 + 280, labels={'app.kubernetes.io/name': 'kube-state-metrics', 'pod-template-hash': '6c9d8f7b5'})
    vpc = '602401143452.dkr.ecr.us-east-2.amazonaws.com/amazon-k8s-cni:v1.18.6-eksbuild.1'
    aws_node = [mkpod('aws-node-%s' % s, 'kube-system', nd, [{'name': 'aws-node', 'image': vpc}], [running('aws-node', vpc, 86400 * 12)], owner=('DaemonSet', 'aws-node'), created=86400 * 12,
                      labels={'k8s-app': 'aws-node'}) for s, nd in (('6xkqv', A), ('m2p8z', B))]
    objs = [ns('kubecost'), ns('kube-system'), *nodes, gp2, csidriver('efs.csi.aws.com', attach=False), d, rs, p, pd_, prs, p2, kd, krs, kp, c1, c2, *aws_node, *kube_system_pods([A, B], cni='aws'),
            csinode(A, []), csinode(B, []),
            ev(c1, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'Normal', count=1, last=9 * 3600 + 290, component='persistentvolume-controller'),
            ev(c1, 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", 'Normal', count=2222, last=127, first=9 * 3600 + 270, component='persistentvolume-controller'),
            ev(c2, 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", 'Normal', count=2219, last=131, first=9 * 3600 + 268, component='persistentvolume-controller'),
            failed_scheduling(p, msg, 54, 260, 9 * 3600 - 330), failed_scheduling(p2, msg, 54, 262, 9 * 3600 - 328),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pod_name, 'replicaset-controller', 'Normal', last=9 * 3600 + 280),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set kubecost-cost-analyzer-5ddcf68947 from 0 to 1', 'deployment-controller', 'Normal', last=9 * 3600 + 290)]
    write(n, 'st-provisioner-missing-ebs-csi', {
        'title': 'Pending for 9 hours: gp2 claims wait for ebs.csi.aws.com, which is not installed (EKS >= 1.23 CSI migration)',
        'url': 'https://github.com/awslabs/cdk-eks-blueprints/issues/561',
        'reported': 'waiting for a volume to be created, either by external provisioner "ebs.csi.aws.com" or manually created by system administrator',
        'target': 'kubecost/%s' % pod_name,
        'expect': {'first': 'volume.provisioner-missing', 'playbook': None, 'decisive': "either by the external provisioner 'ebs.csi.aws.com'"}}, objs)

# =====================================================================================
# 3. The claim names a StorageClass that does not exist
# =====================================================================================
def case_storageclass_missing():
    n = nxt()
    nodes = [node_with('k8s-node-%d' % i, kubelet='v1.30.6', labels={'node-role.kubernetes.io/worker': ''}) for i in (1, 2, 3)]
    local = storageclass('local-path', 'rancher.io/local-path', 'WaitForFirstConsumer', default=True)
    local['reclaimPolicy'] = 'Delete'; local['allowVolumeExpansion'] = False
    nfs = storageclass('nfs-client', 'k8s-sigs.io/nfs-subdir-external-provisioner', 'Immediate', params={'archiveOnDelete': 'false'})
    img = 'quay.io/prometheus/prometheus:v2.53.2'; rimg = 'ghcr.io/prometheus-operator/prometheus-config-reloader:v0.76.2'
    tmpl = {'serviceAccountName': 'prometheus', 'priorityClassName': 'system-cluster-critical',
            'initContainers': [{'name': 'init-chown-data', 'image': 'busybox:1.36', 'command': ['chown', '-R', '65534:65534', '/data']}],
            'containers': [{'name': 'prometheus-server-configmap-reload', 'image': rimg}, {'name': 'prometheus-server', 'image': img,
                            'volumeMounts': [{'name': 'prometheus-data', 'mountPath': '/data'}]}]}
    s = sts('prometheus', 'kube-system', {'k8s-app': 'prometheus'}, 1, tmpl, ready=0, current=1, vct=[vct('prometheus-data', 'standard', '16Gi')], created=7 * 3600)
    c = claim('prometheus-data-prometheus-0', 'kube-system', 'standard', 'Pending', '16Gi', created=7 * 3600 - 5, labels={'k8s-app': 'prometheus'})
    msg = '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.'
    p = pending_pod('prometheus-0', 'kube-system', msg, tmpl['containers'], owner=('StatefulSet', 'prometheus'), created=7 * 3600 - 5,
                    labels={'k8s-app': 'prometheus', 'statefulset.kubernetes.io/pod-name': 'prometheus-0', 'apps.kubernetes.io/pod-index': '0'},
                    spec_extra={'initContainers': tmpl['initContainers'], 'serviceAccountName': 'prometheus', 'priorityClassName': 'system-cluster-critical',
                                'volumes': [{'name': 'prometheus-data', 'persistentVolumeClaim': {'claimName': 'prometheus-data-prometheus-0'}}]})
    # a claim of another app that binds fine through nfs-client
    gimg = 'grafana/grafana:11.2.2'
    gd, grs = deploy('grafana', 'kube-system', {'k8s-app': 'grafana'}, 1, {'containers': [{'name': 'grafana', 'image': gimg}]}, '84f7d9c6b5', created=7 * 3600)
    gp = mkpod('grafana-84f7d9c6b5-t8wxq', 'kube-system', 'k8s-node-2', [{'name': 'grafana', 'image': gimg}], [running('grafana', gimg, 7 * 3600 - 60)], owner=('ReplicaSet', grs['metadata']['name']),
               created=7 * 3600 - 10, labels={'k8s-app': 'grafana', 'pod-template-hash': '84f7d9c6b5'}, spec_extra={'volumes': [{'name': 'storage', 'persistentVolumeClaim': {'claimName': 'grafana'}}]})
    gc = claim('grafana', 'kube-system', 'nfs-client', 'Bound', '5Gi', volume='pvc-4f1d6a2e-8b0c-4e7d-9a35-1c2b3d4e5f60', created=7 * 3600, provisioner='k8s-sigs.io/nfs-subdir-external-provisioner')
    gpv = pv('pvc-4f1d6a2e-8b0c-4e7d-9a35-1c2b3d4e5f60', gc, storage_class='nfs-client', size='5Gi')
    del gpv['spec']['csi']; gpv['spec']['nfs'] = {'server': '10.10.0.40', 'path': '/srv/nfs/k8s/kube-system-grafana-pvc-4f1d6a2e-8b0c-4e7d-9a35-1c2b3d4e5f60'}
    objs = [ns('kube-system'), *nodes, local, nfs, s, c, p, gd, grs, gp, gc, gpv, *kube_system_pods(['k8s-node-1', 'k8s-node-2', 'k8s-node-3']),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim prometheus-data-prometheus-0 Pod prometheus-0 in StatefulSet prometheus success', 'statefulset-controller', 'Normal', last=7 * 3600 - 5),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod prometheus-0 in StatefulSet prometheus successful', 'statefulset-controller', 'Normal', last=7 * 3600 - 5),
            ev(c, 'ProvisioningFailed', 'storageclass.storage.k8s.io "standard" not found', count=1672, last=15, first=7 * 3600 - 5, component='persistentvolume-controller'),
            failed_scheduling(p, msg, 279, 102, 7 * 3600 - 4),
            ev(gc, 'ProvisioningSucceeded', 'Successfully provisioned volume pvc-4f1d6a2e-8b0c-4e7d-9a35-1c2b3d4e5f60', 'Normal', last=7 * 3600 - 8,
               component='k8s-sigs.io/nfs-subdir-external-provisioner_nfs-subdir-external-provisioner-6b8f7c9d5-x2vlp_0b1e9c44-6d5a-4b8e-9f2a-7c3d1e0f5a62'),
            *started(gp, 'k8s-node-2', gimg, 'grafana', 7 * 3600 - 40)]
    write(n, 'st-storageclass-not-found', {
        'title': 'Pending: the StatefulSet claim asks for StorageClass "standard", which this cluster does not have',
        'url': 'https://github.com/kubernetes/kubernetes/issues/81714',
        'reported': 'storageclass.storage.k8s.io "standard" not found',
        'target': 'kube-system/prometheus-0',
        'expect': {'first': 'pending.pvc', 'decisive': 'storageclass.storage.k8s.io "standard" not found'}}, objs)

# =====================================================================================
# 4. FailedAttachVolume: ec2:AttachVolume refused for the controller's role
# =====================================================================================
def case_attach_unauthorized():
    n = nxt()
    A = 'ip-192-168-112-40.us-east-1.compute.internal'; B = 'ip-192-168-87-15.us-east-1.compute.internal'
    nodes = [node_with(A, 'us-east-1a', 'aws:///us-east-1a/i-05c99747bf6f7cd0c', labels={'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'spot'}),
             node_with(B, 'us-east-1b', 'aws:///us-east-1b/i-0b44aa1c9de2f3071', labels={'eks.amazonaws.com/nodegroup': 'system'})]
    sc = storageclass('gp3', 'ebs.csi.aws.com', 'WaitForFirstConsumer', default=True, params={'type': 'gp3', 'fsType': 'ext4'})
    pvname = 'pvc-8e2b5f3a-71c4-4a9d-b0e6-3f5d2c1a9b84'
    c = claim('redis-data-redis-master-0', 'cache', 'gp3', 'Bound', '8Gi', volume=pvname, created=1400, provisioner='ebs.csi.aws.com', selected_node=A)
    v = pv(pvname, c, handle='vol-095ece5c3a6da49a8', size='8Gi', storage_class='gp3',
           node_affinity={'required': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'topology.kubernetes.io/zone', 'operator': 'In', 'values': ['us-east-1a']}]}]}})
    v['metadata']['annotations'] = {'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com', 'volume.kubernetes.io/provisioner-deletion-secret-name': '', 'volume.kubernetes.io/provisioner-deletion-secret-namespace': ''}
    err = ('rpc error: code = Internal desc = Could not attach volume "vol-095ece5c3a6da49a8" to node "i-05c99747bf6f7cd0c": could not attach volume "vol-095ece5c3a6da49a8" to node "i-05c99747bf6f7cd0c": '
           'operation error EC2: AttachVolume, https response error StatusCode: 403, RequestID: d2cae78a-276c-4c00-a17a-6317c9f51cec, api error UnauthorizedOperation: You are not authorized to perform this operation. '
           'Encoded authorization failure message: 81IfYiNZlt4QusMu262DnmXmkXF3HKBHOMWvbPI0VIYceqdapLtOzDTj63OazSTiykXO')
    va = volumeattachment(pvname, A, attached=False, attach_error=err, created=1360)
    img = 'docker.io/bitnami/redis:7.4.1-debian-12-r2'; eimg = 'docker.io/bitnami/redis-exporter:1.66.0-debian-12-r0'
    tmpl = {'containers': [{'name': 'redis', 'image': img}, {'name': 'metrics', 'image': eimg}]}
    s = sts('redis-master', 'cache', {'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/component': 'master'}, 1, tmpl, ready=0, current=1, vct=[vct('redis-data', 'gp3', '8Gi')], created=1420)
    p = mkpod('redis-master-0', 'cache', A, tmpl['containers'] + [], [creating('redis', img), creating('metrics', eimg)], owner=('StatefulSet', 'redis-master'), created=1400, phase='Pending',
              labels={'app.kubernetes.io/name': 'redis', 'statefulset.kubernetes.io/pod-name': 'redis-master-0'}, spec_extra={'volumes': [{'name': 'redis-data', 'persistentVolumeClaim': {'claimName': 'redis-data-redis-master-0'}}]},
              sandbox=False)
    p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
    replica = mkpod('redis-replicas-0', 'cache', B, [{'name': 'redis', 'image': img}], [running('redis', img, 86400 * 2, restarts=0)], owner=('StatefulSet', 'redis-replicas'), created=86400 * 2,
                    labels={'app.kubernetes.io/name': 'redis', 'app.kubernetes.io/component': 'replica'})
    cimg = 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.36.0'
    cp = mkpod('ebs-csi-controller-5c55c975b4-4lx62', 'kube-system', A, [{'name': 'ebs-plugin', 'image': cimg}, {'name': 'csi-attacher', 'image': 'public.ecr.aws/eks-distro/kubernetes-csi/external-attacher:v4.7.0-eks-1-31-5'}],
               [running('ebs-plugin', cimg, 7200), running('csi-attacher', 'public.ecr.aws/eks-distro/kubernetes-csi/external-attacher:v4.7.0-eks-1-31-5', 7200)],
               owner=('ReplicaSet', 'ebs-csi-controller-5c55c975b4'), created=7220, labels={'app': 'ebs-csi-controller', 'pod-template-hash': '5c55c975b4'},
               spec_extra={'serviceAccountName': 'ebs-csi-controller-sa', 'nodeSelector': {'kubernetes.io/os': 'linux'}})
    log = ['I1121 07:59:48.326011       1 metadata.go:85] "retrieving instance data from ec2 metadata"',
           'I1121 07:59:48.327935       1 metadata.go:92] "ec2 metadata is available"',
           'I1121 07:59:48.402218       1 driver.go:157] "Listening for connections" address="/var/lib/csi/sockets/pluginproxy/csi.sock"',
           'I1121 09:37:02.101883       1 controller.go:109] "CreateVolume: called" args="name:\\"%s\\" capacity_range:<required_bytes:8589934592 > ..."' % pvname,
           'I1121 09:37:04.993120       1 cloud.go:646] "Waiting for volume state" volumeID="vol-095ece5c3a6da49a8" actual="creating" desired="available"',
           'I1121 09:37:06.117031       1 controller.go:321] "CreateVolume: volume created" volumeID="vol-095ece5c3a6da49a8"']
    for i in range(12):
        log.append('I1121 09:%02d:%02d.%06d       1 controller.go:415] "ControllerPublishVolume: called" args="volume_id:\\"vol-095ece5c3a6da49a8\\" node_id:\\"i-05c99747bf6f7cd0c\\" ..."' % (37 + i * 2, 40, 2113 * (i + 1)))
        log.append('E1121 09:%02d:%02d.%06d       1 driver.go:108] "GRPC error" err="%s"' % (37 + i * 2, 41, 27156 * (i + 1) % 1000000, err.replace('"', '\\"')))
    objs = [ns('cache'), ns('kube-system'), *nodes, sc, csidriver('ebs.csi.aws.com'), c, v, va, s, p, replica, cp, *kube_system_pods([A, B]),
            podlog('kube-system', cp['metadata']['name'], 'ebs-plugin', log, previous=False),
            csinode(A, [('ebs.csi.aws.com', 'i-05c99747bf6f7cd0c', ['kubernetes.io/os', 'topology.ebs.csi.aws.com/zone', 'topology.kubernetes.io/zone'], 26)]),
            ev(c, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'Normal', last=1400, component='persistentvolume-controller'),
            ev(c, 'Provisioning', 'External provisioner is provisioning volume for claim "cache/redis-data-redis-master-0"', 'Normal', last=1395, component='ebs.csi.aws.com_ebs-csi-controller-5c55c975b4-4lx62_1f7e2c9a-3b5d-4e8f-a6c1-9d0b2e4f7a13'),
            ev(c, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvname, 'Normal', last=1390, component='ebs.csi.aws.com_ebs-csi-controller-5c55c975b4-4lx62_1f7e2c9a-3b5d-4e8f-a6c1-9d0b2e4f7a13'),
            scheduled(p, A, 1388),
            ev(p, 'FailedAttachVolume', 'AttachVolume.Attach failed for volume "%s" : %s' % (pvname, err), count=12, last=95, first=1380, component='attachdetach-controller'),
            sev(p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[redis-data], unattached volumes=[redis-data], failed to process volumes=[]: context deadline exceeded', count=10, last=60, first=1260, instance=A),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod redis-master-0 in StatefulSet redis-master successful', 'statefulset-controller', 'Normal', last=1400)]
    write(n, 'st-attach-unauthorized-ebs', {
        'title': 'ContainerCreating: the EBS volume cannot be attached, ec2:AttachVolume is refused (UnauthorizedOperation)',
        'url': 'https://github.com/aws/karpenter-provider-aws/issues/1775',
        'reported': 'GRPC error: rpc error: code = Internal desc = Could not attach volume "vol-095ece5c3a6da49a8" to node "i-05c99747bf6f7cd0c": could not attach volume "vol-095ece5c3a6da49a8" to node "i-05c99747bf6f7cd0c": UnauthorizedOperation: You are not authorized to perform this operation.',
        'target': 'cache/redis-master-0',
        'expect': {'first': 'volume.mount-failed', 'decisive': 'Could not attach volume "vol-095ece5c3a6da49a8" to node "i-05c99747bf6f7cd0c"'}}, objs)

# =====================================================================================
# 5. driver name smb.csi.k8s.io not found: the node plugin's registrar never registers, crash-loops
# =====================================================================================
def case_csi_not_registered():
    n = nxt()
    N1 = 'kylin-worker-01'; N2 = 'kylin-worker-02'
    nodes = [node_with(x, kubelet='v1.30.6', labels={'node-role.kubernetes.io/worker': ''}) for x in (N1, N2)]
    for nd in nodes: nd['status']['nodeInfo']['osImage'] = 'Kylin Linux Advanced Server V10 (Lance)'; nd['status']['nodeInfo']['kernelVersion'] = '4.19.90-52.22.v2207.ky10.x86_64'
    sc = storageclass('smb', 'smb.csi.k8s.io', 'Immediate', params={'source': '//10.30.4.20/share', 'csi.storage.k8s.io/provisioner-secret-name': 'smbcreds', 'csi.storage.k8s.io/provisioner-secret-namespace': 'default',
                                                                 'csi.storage.k8s.io/node-stage-secret-name': 'smbcreds', 'csi.storage.k8s.io/node-stage-secret-namespace': 'default'})
    sc['mountOptions'] = ['dir_mode=0777', 'file_mode=0777', 'uid=1001', 'gid=1001']
    pvname = 'pvc-5b0f7d2c-9e13-4a66-8c4f-2d7e1b9a3c05'
    c = claim('pvc-smb', 'default', 'smb', 'Bound', '10Gi', volume=pvname, created=19 * 3600 + 400, provisioner='smb.csi.k8s.io', access=('ReadWriteMany',))
    v = pv(pvname, c, driver='smb.csi.k8s.io', handle='10.30.4.20/share#pvc-5b0f7d2c-9e13-4a66-8c4f-2d7e1b9a3c05##', size='10Gi', storage_class='smb')
    v['spec']['accessModes'] = ['ReadWriteMany']; v['spec']['csi'].pop('fsType')
    v['spec']['csi']['nodeStageSecretRef'] = {'name': 'smbcreds', 'namespace': 'default'}
    v['spec']['csi']['volumeAttributes'] = {'source': '//10.30.4.20/share', 'subdir': pvname, 'csi.storage.k8s.io/pv/name': pvname, 'csi.storage.k8s.io/pvc/name': 'pvc-smb', 'csi.storage.k8s.io/pvc/namespace': 'default'}
    img = 'nginx:1.27.2'
    d, rs = deploy('nginx-smb', 'default', {'app': 'nginx-smb'}, 1, {'containers': [{'name': 'nginx', 'image': img}]}, '6d8b9f7c4', ready=0, available=0, created=19 * 3600 + 300, generation=1)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pname = 'nginx-smb-6d8b9f7c4-w5x9k'
    p = mkpod(pname, 'default', N1, [{'name': 'nginx', 'image': img, 'volumeMounts': [{'name': 'smb', 'mountPath': '/usr/share/nginx/html'}]}], [creating('nginx', img)],
              owner=('ReplicaSet', rs['metadata']['name']), created=19 * 3600 + 280, phase='Pending', labels={'app': 'nginx-smb', 'pod-template-hash': '6d8b9f7c4'},
              spec_extra={'volumes': [{'name': 'smb', 'persistentVolumeClaim': {'claimName': 'pvc-smb'}}]}, sandbox=False)
    p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
    mount = 'MountVolume.MountDevice failed for volume "%s" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name smb.csi.k8s.io not found in the list of registered CSI drivers' % pvname
    # the node plugin DaemonSet: registrar liveness fails forever on this node
    rimg = 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0'; limg = 'registry.k8s.io/sig-storage/livenessprobe:v2.14.0'; simg = 'registry.k8s.io/sig-storage/smbplugin:v1.16.0'
    pu = uid('podkube-systemcsi-smb-node-7mhlq')
    node_pod = mkpod('csi-smb-node-7mhlq', 'kube-system', N1,
                     [{'name': 'liveness-probe', 'image': limg}, {'name': 'node-driver-registrar', 'image': rimg,
                       'args': ['--csi-address=$(ADDRESS)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--v=2'],
                       'livenessProbe': {'exec': {'command': ['/csi-node-driver-registrar', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--mode=kubelet-registration-probe']}, 'initialDelaySeconds': 30, 'timeoutSeconds': 15}},
                      {'name': 'smb', 'image': simg}],
                     [running('liveness-probe', limg, 19 * 3600),
                      {'name': 'node-driver-registrar', 'ready': False, 'started': False, 'restartCount': 231, 'image': rimg, 'imageID': '%s@sha256:%s' % (rimg.split(':')[0], hexid(rimg)),
                       'containerID': 'containerd://' + hexid('reg231'),
                       'state': {'waiting': {'reason': 'CrashLoopBackOff', 'message': 'back-off 5m0s restarting failed container=node-driver-registrar pod=csi-smb-node-7mhlq_kube-system(%s)' % pu}},
                       'lastState': {'terminated': {'exitCode': 137, 'reason': 'Error', 'startedAt': ago(349), 'finishedAt': ago(289), 'containerID': 'containerd://' + hexid('reg231')}}},
                      running('smb', simg, 19 * 3600)],
                     owner=('DaemonSet', 'csi-smb-node'), created=19 * 3600 + 20, labels={'app': 'csi-smb-node', 'controller-revision-hash': '5f8d7c6b9', 'pod-template-generation': '1'},
                     spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical', 'serviceAccountName': 'csi-smb-node-sa'})
    node_pod2 = mkpod('csi-smb-node-q2r8t', 'kube-system', N2, [{'name': 'liveness-probe', 'image': limg}, {'name': 'node-driver-registrar', 'image': rimg}, {'name': 'smb', 'image': simg}],
                      [running('liveness-probe', limg, 19 * 3600), running('node-driver-registrar', rimg, 19 * 3600), running('smb', simg, 19 * 3600)],
                      owner=('DaemonSet', 'csi-smb-node'), created=19 * 3600 + 20, labels={'app': 'csi-smb-node', 'controller-revision-hash': '5f8d7c6b9', 'pod-template-generation': '1'},
                      spec_extra={'hostNetwork': True, 'priorityClassName': 'system-node-critical'})
    ds = workload('DaemonSet', 'csi-smb-node', 'kube-system', {'app': 'csi-smb-node'})
    ds['status'] = {'currentNumberScheduled': 2, 'desiredNumberScheduled': 2, 'numberAvailable': 1, 'numberUnavailable': 1, 'numberMisscheduled': 0, 'numberReady': 1, 'observedGeneration': 1, 'updatedNumberScheduled': 2}
    ctl = mkpod('csi-smb-controller-7b5d9c8f6-lq4mz', 'kube-system', N2, [{'name': 'csi-provisioner', 'image': 'registry.k8s.io/sig-storage/csi-provisioner:v5.1.0'}, {'name': 'smb', 'image': simg}],
                [running('csi-provisioner', 'registry.k8s.io/sig-storage/csi-provisioner:v5.1.0', 19 * 3600), running('smb', simg, 19 * 3600)], owner=('ReplicaSet', 'csi-smb-controller-7b5d9c8f6'),
                created=19 * 3600 + 20, labels={'app': 'csi-smb-controller', 'pod-template-hash': '7b5d9c8f6'})
    reglog = ['I1121 09:59:16.505312       1 main.go:150] "Version" version="v2.12.0"',
              'I1121 09:59:16.505424       1 main.go:151] "Running node-driver-registrar" mode=""',
              'I1121 09:59:16.505435       1 main.go:172] "Attempting to open a gRPC connection" csiAddress="/csi/csi.sock"',
              'I1121 09:59:16.509121       1 main.go:180] "Calling CSI driver to discover driver name"',
              'I1121 09:59:16.511380       1 main.go:189] "CSI driver name" csiDriverName="smb.csi.k8s.io"',
              'I1121 09:59:16.511452       1 node_register.go:56] "Starting Registration Server" socketPath="/registration/smb.csi.k8s.io-reg.sock"',
              'I1121 09:59:16.511668       1 node_register.go:66] "Registration Server started" socketPath="/registration/smb.csi.k8s.io-reg.sock"',
              'I1121 09:59:16.511794       1 node_register.go:96] "Skipping HTTP server"']
    prevlog = [l.replace('09:59:16', '09:54:11') for l in reglog]
    objs = [ns('default'), ns('kube-system'), *nodes, sc, csidriver('smb.csi.k8s.io', attach=False, fsgroup='ReadWriteOnceWithFSType'), c, v, d, rs, p, ds, node_pod, node_pod2, ctl,
            csinode(N1, []), csinode(N2, [('smb.csi.k8s.io', N2, [], None)]), *kube_system_pods([N1, N2]),
            podlog('kube-system', 'csi-smb-node-7mhlq', 'node-driver-registrar', reglog, previous=False),
            podlog('kube-system', 'csi-smb-node-7mhlq', 'node-driver-registrar', prevlog, previous=True),
            ev(c, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvname, 'Normal', last=19 * 3600 + 390, component='smb.csi.k8s.io_kylin-worker-02_8c3e5a1b-2d4f-4e6a-9b7c-0d1e2f3a4b5c'),
            scheduled(p, N1, 19 * 3600 + 270),
            ev(p, 'FailedMount', mount, count=593, last=41, first=19 * 3600 + 265, host=N1),
            sev(p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[smb], unattached volumes=[], failed to process volumes=[]: context deadline exceeded', count=540, last=98, first=19 * 3600 + 140, instance=N1),
            ev(node_pod, 'Unhealthy', 'Liveness probe failed: F1121 09:58:51.973460      17 main.go:160] Kubelet plugin registration hasn\'t succeeded yet, file=/var/lib/kubelet/plugins/smb.csi.k8s.io/registration doesn\'t exist.',
               count=979, last=660, first=19 * 3600 - 60, host=N1, fieldPath='spec.containers{node-driver-registrar}'),
            ev(node_pod, 'Killing', 'Container node-driver-registrar failed liveness probe, will be restarted', 'Normal', count=231, last=290, first=19 * 3600 - 40, host=N1, fieldPath='spec.containers{node-driver-registrar}'),
            ev(node_pod, 'BackOff', 'Back-off restarting failed container node-driver-registrar in pod csi-smb-node-7mhlq_kube-system(%s)' % pu, count=3984, last=85, first=19 * 3600 - 30, host=N1, fieldPath='spec.containers{node-driver-registrar}')]
    write(n, 'st-csi-driver-not-registered-smb', {
        'title': 'ContainerCreating for 19 hours: smb.csi.k8s.io is not registered on the node, its node-driver-registrar crash-loops',
        'url': 'https://github.com/kubernetes-csi/csi-driver-smb/issues/670',
        'reported': 'MountDevice failed to create newCsiDriverClient: driver name smb.csi.k8s.io not found in the list of registered CSI drivers',
        'target': 'default/%s' % pname,
        'expect': {'first': 'volume.mount-failed', 'decisive': 'driver name smb.csi.k8s.io not found in the list of registered CSI drivers'}}, objs)

# =====================================================================================
# 6. Local PV pinned to a node that was replaced: volume node affinity conflict
# =====================================================================================
def case_local_pv_affinity():
    n = nxt()
    storage = {'node-pool': 'storage'}
    others = [node_with('worker-%02d' % i, kubelet='v1.30.6', labels={'node-pool': 'general'}) for i in range(1, 9)]
    old = node_with('storage-03', kubelet='v1.30.6', labels=storage, lost_since=6 * 3600)
    s1 = node_with('storage-01', kubelet='v1.30.6', labels=storage); s4 = node_with('storage-04', kubelet='v1.30.6', labels=storage); s5 = node_with('storage-05', kubelet='v1.30.6', labels=storage)
    for x in (s4, s5): x['metadata']['creationTimestamp'] = ago(5 * 3600)
    sc = storageclass('local-hostpath', 'openebs.io/local', 'WaitForFirstConsumer')
    sc['metadata']['annotations'] = {'cas.openebs.io/config': '- name: StorageType\n  value: hostpath\n- name: BasePath\n  value: /var/openebs/local\n'}
    img = 'quay.io/minio/minio:RELEASE.2024-11-07T00-52-20Z'
    aff = {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'node-pool', 'operator': 'In', 'values': ['storage']}]}]}},
           'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchLabels': {'app': 'minio'}}, 'topologyKey': 'kubernetes.io/hostname'}]}}
    tmpl = {'affinity': aff, 'containers': [{'name': 'minio', 'image': img, 'args': ['server', 'http://minio-{0...1}.minio-hl.test-the-oss.svc.cluster.local/export']}]}
    s = sts('minio', 'test-the-oss', {'app': 'minio'}, 2, tmpl, ready=1, current=2, vct=[vct('export', 'local-hostpath', '200Gi')], service='minio-hl', created=86400 * 60)
    pvs, claims = [], []
    for i, host in ((0, 'storage-03'), (1, 'storage-01')):
        pvn = 'pvc-%s' % uid('minio-export-%d' % i)
        c = claim('export-minio-%d' % i, 'test-the-oss', 'local-hostpath', 'Bound', '200Gi', volume=pvn, created=86400 * 60, provisioner='openebs.io/local', selected_node=host, labels={'app': 'minio'})
        v = pv(pvn, c, storage_class='local-hostpath', size='200Gi',
               node_affinity={'required': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'kubernetes.io/hostname', 'operator': 'In', 'values': [host]}]}]}})
        del v['spec']['csi']; v['spec']['local'] = {'path': '/var/openebs/local/%s' % pvn, 'fsType': ''}
        v['metadata']['annotations'] = {'pv.kubernetes.io/provisioned-by': 'openebs.io/local'}
        v['metadata']['labels'] = {'openebs.io/cas-type': 'local-hostpath'}
        pvs.append(v); claims.append(c)
    msg = ("0/12 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) had volume node affinity conflict, "
           "8 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 1 No preemption victims found for incoming pod, 11 Preemption is not helpful for scheduling.")
    p = pending_pod('minio-0', 'test-the-oss', msg, tmpl['containers'], owner=('StatefulSet', 'minio'), created=6 * 3600 - 330,
                    labels={'app': 'minio', 'statefulset.kubernetes.io/pod-name': 'minio-0', 'apps.kubernetes.io/pod-index': '0'},
                    spec_extra={'affinity': aff, 'volumes': [{'name': 'export', 'persistentVolumeClaim': {'claimName': 'export-minio-0'}}], 'hostname': 'minio-0', 'subdomain': 'minio-hl'})
    m1 = mkpod('minio-1', 'test-the-oss', 'storage-01', tmpl['containers'], [running('minio', img, 86400 * 20)], owner=('StatefulSet', 'minio'), created=86400 * 20,
               labels={'app': 'minio', 'statefulset.kubernetes.io/pod-name': 'minio-1'}, spec_extra={'affinity': aff, 'volumes': [{'name': 'export', 'persistentVolumeClaim': {'claimName': 'export-minio-1'}}]})
    mlog = ['API: SYSTEM()', 'Time: 09:58:11 UTC 11/21/2026', 'DeploymentID: 3f0c2d1e-8a7b-4c6d-9e5f-1a2b3c4d5e6f',
            'Error: Marking http://minio-0.minio-hl.test-the-oss.svc.cluster.local:9000/export temporary offline; caused by Post "http://minio-0.minio-hl.test-the-oss.svc.cluster.local:9000/minio/storage/export/v59/readall?disk-id=&file-path=format.json&volume=.minio.sys": lookup minio-0.minio-hl.test-the-oss.svc.cluster.local on 10.96.0.10:53: no such host (*fmt.wrapError)',
            '       6: internal/logger/logonce.go:118:logger.(*logOnceType).logOnceIf()', '       5: internal/logger/logonce.go:149:logger.LogOnceIf()',
            '       4: internal/rest/client.go:318:rest.(*Client).Call()', '       3: cmd/storage-rest-client.go:198:cmd.(*storageRESTClient).call()']
    objs = [ns('test-the-oss'), *others, old, s1, s4, s5, sc, s, *claims, *pvs, p, m1,
            podlog('test-the-oss', 'minio-1', 'minio', mlog * 3, previous=False),
            ev(old, 'NodeNotReady', 'Node storage-03 status is now: NodeNotReady', 'Normal', last=6 * 3600, component='node-controller'),
            ev(s4, 'RegisteredNode', 'Node storage-04 event: Registered Node storage-04 in Controller', 'Normal', last=5 * 3600, component='node-controller'),
            ev(s5, 'RegisteredNode', 'Node storage-05 event: Registered Node storage-05 in Controller', 'Normal', last=5 * 3600 - 120, component='node-controller'),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod minio-0 in StatefulSet minio successful', 'statefulset-controller', 'Normal', last=6 * 3600 - 330),
            failed_scheduling(p, "0/10 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 8 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling.", 30, 5 * 3600 + 30, 6 * 3600 - 320),
            failed_scheduling(p, msg, 301, 22, 5 * 3600)]
    write(n, 'st-volume-node-affinity-local-pv', {
        'title': 'Pending: minio-0 keeps its local volume on storage-03, which was replaced; the new nodes have a volume node affinity conflict',
        'url': 'https://github.com/kubernetes/kubernetes/issues/119967',
        'reported': "0/12 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) had volume node affinity conflict, 8 node(s) didn't match Pod's node affinity/selector.",
        'target': 'test-the-oss/minio-0',
        'expect': {'first': 'pending.pvc', 'decisive': '2 node(s) had volume node affinity conflict'}}, objs)

# =====================================================================================
# 7. FailedMount timeout with a real cause: fsGroup recursive chown over a 2 TiB registry volume
# =====================================================================================
def case_fsgroup_chown():
    n = nxt()
    N1 = 'k8s-wk-07.dc1.example.net'; N2 = 'k8s-wk-03.dc1.example.net'
    nodes = [node_with(x, kubelet='v1.32.4', runtime='containerd://1.7.24') for x in (N1, N2)]
    sc = storageclass('rbd', 'rbd.csi.ceph.com', 'Immediate', default=True, params={'clusterID': 'b9127830-b0cc-4e34-aa47-9d1a2e9949a8', 'pool': 'kubernetes', 'imageFeatures': 'layering',
                                                                                   'csi.storage.k8s.io/fstype': 'ext4'})
    pvname = 'pvc-harbor-harbor-registry'
    c = claim('harbor-harbor-registry', 'harbor-ha', 'rbd', 'Bound', '2Ti', volume=pvname, created=86400 * 300, provisioner='rbd.csi.ceph.com')
    v = pv(pvname, c, driver='rbd.csi.ceph.com', handle='0001-0024-b9127830-b0cc-4e34-aa47-9d1a2e9949a8-0000000000000003-3c6f6e2a-5b1d-11ed-9c1a-0a580a810214', size='2Ti', storage_class='rbd')
    va = volumeattachment(pvname, N1, attacher='rbd.csi.ceph.com', attached=True, created=2395)
    va['status']['attachmentMetadata'] = {}
    rimg = 'goharbor/registry-photon:v2.11.1'; cimg = 'goharbor/harbor-registryctl:v2.11.1'
    sec = {'runAsUser': 10000, 'fsGroup': 10000}
    vols = [{'name': 'registry-data', 'persistentVolumeClaim': {'claimName': 'harbor-harbor-registry'}}, {'name': 'registry-config', 'secret': {'secretName': 'harbor-registry', 'defaultMode': 420}}]
    tmpl = {'securityContext': sec, 'automountServiceAccountToken': False,
            'containers': [{'name': 'registry', 'image': rimg, 'volumeMounts': [{'name': 'registry-data', 'mountPath': '/storage'}]},
                           {'name': 'registryctl', 'image': cimg, 'volumeMounts': [{'name': 'registry-data', 'mountPath': '/storage'}]}], 'volumes': vols}
    d, rs = deploy('harbor-registry', 'harbor-ha', {'app': 'harbor', 'component': 'registry', 'release': 'harbor'}, 1, tmpl, '7f9c8d6b5', ready=0, available=0, created=86400 * 300, generation=9,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(2420), 'lastTransitionTime': ago(2420)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "harbor-registry-7f9c8d6b5" has timed out progressing.', 'lastUpdateTime': ago(1800), 'lastTransitionTime': ago(1800)}])
    d['spec']['strategy'] = {'type': 'Recreate'}
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    old_rs = rs_for(d, 'harbor-registry-5b6d7c8f9'); old_rs['status'] = {'replicas': 0, 'observedGeneration': 2}; old_rs['spec']['replicas'] = 0
    pname = 'harbor-registry-7f9c8d6b5-m2k8p'
    p = mkpod(pname, 'harbor-ha', N1, tmpl['containers'], [creating('registry', rimg), creating('registryctl', cimg)], owner=('ReplicaSet', rs['metadata']['name']), created=2400, phase='Pending',
              labels={'app': 'harbor', 'component': 'registry', 'release': 'harbor', 'pod-template-hash': '7f9c8d6b5'}, spec_extra={'securityContext': sec, 'volumes': vols}, sandbox=False)
    p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
    pu = p['metadata']['uid']
    mdir = '/var/lib/kubelet/pods/%s/volumes/kubernetes.io~csi/%s/mount' % (pu, pvname)
    others = []
    for comp, img, h in (('core', 'goharbor/harbor-core:v2.11.1', '6b8d9f7c5'), ('portal', 'goharbor/harbor-portal:v2.11.1', '5c7d8e9f6'), ('jobservice', 'goharbor/harbor-jobservice:v2.11.1', '7d4c9b8a6')):
        others.append(mkpod('harbor-%s-%s-%s' % (comp, h, hexid(comp, 5).replace('0', 'q')), 'harbor-ha', N2, [{'name': comp, 'image': img}], [running(comp, img, 86400 * 6)],
                            owner=('ReplicaSet', 'harbor-%s-%s' % (comp, h)), created=86400 * 6, labels={'app': 'harbor', 'component': comp, 'pod-template-hash': h}))
    jlog = ['2026-11-21T09:5%d:0%dZ [ERROR] [/jobservice/runtime/bootstrap.go:%d]: failed to ping registry: Get "http://harbor-registry:5000/v2/": dial tcp 10.96.187.12:5000: connect: connection refused' % (i % 10, i % 10, 131) for i in range(6)]
    objs = [ns('harbor-ha'), *nodes, sc, csidriver('rbd.csi.ceph.com', fsgroup='File'), c, v, va, d, rs, old_rs, p, *others, *kube_system_pods([N1, N2]),
            podlog('harbor-ha', others[2]['metadata']['name'], 'jobservice', jlog, previous=False),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set harbor-registry-5b6d7c8f9 from 1 to 0', 'deployment-controller', 'Normal', last=2440),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set harbor-registry-7f9c8d6b5 from 0 to 1', 'deployment-controller', 'Normal', last=2405),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: %s' % pname, 'replicaset-controller', 'Normal', last=2400),
            scheduled(p, N1, 2399),
            ev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvname, 'Normal', last=2392, component='attachdetach-controller'),
            sev(p, 'VolumePermissionChangeInProgress', 'Setting volume ownership for %s is taking longer than expected, consider using OnRootMismatch - https://kubernetes.io/docs/tasks/configure-pod-container/security-context/#configure-volume-permission-and-ownership-change-policy-for-pods' % mdir,
                count=1, first=2330, instance=N1),
            sev(p, 'VolumePermissionChangeInProgress', 'Setting volume ownership for %s, processed 6122418 files' % mdir, count=38, last=50, first=2270, instance=N1),
            sev(p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[registry-data], unattached volumes=[], failed to process volumes=[]: context deadline exceeded', count=18, last=70, first=2270, instance=N1)]
    write(n, 'st-fsgroup-chown-slow', {
        'title': 'ContainerCreating for 40 minutes: the kubelet recursively chowns a 2 TiB registry volume for fsGroup 10000',
        'url': 'https://github.com/goharbor/harbor-helm/issues/1236',
        'reported': 'In my case, the PVC already has 1TiB written data, when starting the registry pod, the pod hangs at Creating as FailedMount. After fsGroupChangePolicy=OnRootMismatch is set,  the pod will be created successfully.',
        'target': 'harbor-ha/%s' % pname,
        'expect': {'first': 'volume.fsgroup-chown-slow', 'playbook': None, 'decisive': 'is taking longer than expected, consider using OnRootMismatch'}}, objs)

# =====================================================================================
# 8. NFS export refuses the node: mount.nfs: access denied by server
# =====================================================================================
def case_nfs_denied():
    n = nxt()
    N1 = 'docker-desktop'
    nd = node_with(N1, kubelet='v1.29.2', runtime='docker://25.0.3', labels={'node-role.kubernetes.io/control-plane': ''})
    nd['status']['nodeInfo']['osImage'] = 'Docker Desktop'; nd['status']['nodeInfo']['kernelVersion'] = '6.6.16-linuxkit'
    hp = storageclass('hostpath', 'docker.io/hostpath', 'Immediate', default=True); hp['allowVolumeExpansion'] = False
    v = pv('pv01', None, storage_class='', size='1Gi')
    del v['spec']['csi']; v['spec']['nfs'] = {'server': '192.168.43.16', 'path': '/nfs_share'}; v['spec']['persistentVolumeReclaimPolicy'] = 'Retain'
    v['metadata']['creationTimestamp'] = ago(900)
    c = claim('todo-db-data', 'default', '', 'Bound', '1Gi', volume='pv01', created=890)
    v['spec']['claimRef'] = {'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'name': 'todo-db-data', 'namespace': 'default', 'uid': c['metadata']['uid']}
    img = 'mysql:8.0.36'
    vols = [{'name': 'secret', 'secret': {'secretName': 'todo-db-secret'}}, {'name': 'data', 'persistentVolumeClaim': {'claimName': 'todo-db-data'}}]
    d, rs = deploy('todo-db', 'default', {'app': 'todo-db'}, 1, {'containers': [{'name': 'mysql', 'image': img}], 'volumes': vols}, '759d4c6cd8', ready=0, available=0, created=700, generation=1)
    rs['status'] = {'replicas': 1, 'fullyLabeledReplicas': 1, 'observedGeneration': 1}
    pname = 'todo-db-759d4c6cd8-2jfv4'
    p = mkpod(pname, 'default', N1, [{'name': 'mysql', 'image': img, 'volumeMounts': [{'name': 'data', 'mountPath': '/var/lib/mysql'}, {'name': 'secret', 'mountPath': '/etc/todo'}]}], [creating('mysql', img)],
              owner=('ReplicaSet', rs['metadata']['name']), created=680, phase='Pending', labels={'app': 'todo-db', 'pod-template-hash': '759d4c6cd8'}, spec_extra={'volumes': vols}, sandbox=False)
    p['status'].pop('podIP', None); p['status'].pop('podIPs', None)
    p['status']['hostIP'] = '192.168.65.3'
    pu = p['metadata']['uid']
    mnt = ('MountVolume.SetUp failed for volume "pv01" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs 192.168.43.16:/nfs_share /var/lib/kubelet/pods/%s/volumes/kubernetes.io~nfs/pv01\n'
           'Output: mount.nfs: access denied by server while mounting 192.168.43.16:/nfs_share' % pu)
    aimg = 'registry.example.com/todo/web:2.3.1'
    ad, ars = deploy('todo-web', 'default', {'app': 'todo-web'}, 1, {'containers': [{'name': 'web', 'image': aimg}]}, '6f7d8c9b4', ready=0, available=0, created=700, generation=1)
    ap = mkpod('todo-web-6f7d8c9b4-kq9xz', 'default', N1, [{'name': 'web', 'image': aimg}],
               [running('web', aimg, 95, restarts=5, ready=False, last={'exitCode': 1, 'reason': 'Error', 'startedAt': ago(260), 'finishedAt': ago(250), 'containerID': 'docker://' + hexid('web5')})],
               owner=('ReplicaSet', ars['metadata']['name']), created=690, labels={'app': 'todo-web', 'pod-template-hash': '6f7d8c9b4'})
    wlog = ['> todo-web@2.3.1 start', '> node src/index.js', 'Waiting for mysql:3306.', 'Waiting for mysql:3306..', 'Waiting for mysql:3306...', 'Waiting for mysql:3306....',
            'Error: getaddrinfo ENOTFOUND todo-db', '    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26)']
    objs = [ns('default'), nd, hp, v, c, d, rs, p, ad, ars, ap, podlog('default', ap['metadata']['name'], 'web', wlog, previous=True),
            scheduled(p, N1, 678),
            ev(p, 'FailedMount', mnt, count=13, last=65, first=670, host=N1),
            sev(p, 'FailedMount', 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[]: context deadline exceeded', count=4, last=21, first=560, instance=N1),
            *started(ap, N1, aimg, 'web', 680, present=True),
            ev(ap, 'BackOff', 'Back-off restarting failed container web in pod todo-web-6f7d8c9b4-kq9xz_default(%s)' % ap['metadata']['uid'], count=21, last=40, first=600, host=N1, fieldPath='spec.containers{web}')]
    write(n, 'st-nfs-access-denied', {
        'title': 'ContainerCreating: the NFS server refuses the export to this node (mount.nfs: access denied by server)',
        'url': 'https://github.com/kubernetes/kubernetes/issues/108963',
        'reported': 'Output: mount.nfs: access denied by server while mounting 192.168.43.16:/nfs_share',
        'target': 'default/%s' % pname,
        'expect': {'first': 'volume.mount-failed', 'decisive': 'mount.nfs: access denied by server while mounting'}}, objs)

# =====================================================================================
# 9. StatefulSet cannot create its pod: a ResourceQuota demands limits the init/sidecar containers lack
# =====================================================================================
def case_sts_quota():
    n = nxt()
    nodes = [node_with('pool-app-%d' % i, kubelet='v1.30.6') for i in (1, 2, 3)]
    q = _meta('ResourceQuota', 'v1', 'compute-resources-app', 'app', 86400 * 90)
    hard = {'limits.cpu': '32', 'limits.memory': '96Gi', 'requests.cpu': '32', 'requests.memory': '96Gi', 'persistentvolumeclaims': '20'}
    q['spec'] = {'hard': hard}
    q['status'] = {'hard': hard, 'used': {'limits.cpu': '6', 'limits.memory': '18Gi', 'requests.cpu': '3', 'requests.memory': '9Gi', 'persistentvolumeclaims': '3'}}
    cr = {'apiVersion': 'ps.percona.com/v1alpha1', 'kind': 'PerconaServerMySQL', 'metadata': {'name': 'app-db', 'namespace': 'app', 'uid': uid('psapp-db'), 'creationTimestamp': ago(3 * 3600), 'generation': 1},
          'spec': {'crVersion': '0.8.0', 'mysql': {'clusterType': 'group-replication', 'size': 3, 'resources': {'requests': {'cpu': '4000m', 'memory': '12G'}, 'limits': {'cpu': '4000m', 'memory': '12G'}}},
                   'orchestrator': {'enabled': True, 'size': 3}},
          'status': {'mysql': {'size': 3, 'state': 'initializing'}, 'orchestrator': {'size': 3, 'state': 'initializing'}, 'state': 'initializing', 'host': 'app-db-ps-db-router.app'}}
    mimg = 'percona/percona-server:8.0.36-28'; ximg = 'percona/percona-xtrabackup:8.0.35-30'; himg = 'percona/percona-toolkit:3.6.0'; oimg = 'percona/percona-server-mysql-operator:0.8.0'
    tmpl = {'initContainers': [{'name': 'mysql-init', 'image': oimg}],
            'containers': [{'name': 'mysql', 'image': mimg, 'resources': {'requests': {'cpu': '4', 'memory': '12G'}, 'limits': {'cpu': '4', 'memory': '12G'}}},
                           {'name': 'xtrabackup', 'image': ximg}, {'name': 'pt-heartbeat', 'image': himg}]}
    s = sts('app-db-ps-db-mysql', 'app', {'app.kubernetes.io/component': 'mysql', 'app.kubernetes.io/instance': 'app-db-ps-db'}, 3, tmpl, ready=0, current=0, vct=[vct('datadir', 'standard-rwo', '100Gi')], created=3 * 3600)
    owned_by(s, cr)
    otmpl = {'initContainers': [{'name': 'orc-init', 'image': oimg}], 'containers': [{'name': 'orc', 'image': 'percona/percona-orchestrator:3.2.6-12', 'resources': {'requests': {'cpu': '200m', 'memory': '256M'}, 'limits': {'cpu': '200m', 'memory': '256M'}}}]}
    so = sts('app-db-ps-db-orc', 'app', {'app.kubernetes.io/component': 'orc', 'app.kubernetes.io/instance': 'app-db-ps-db'}, 3, otmpl, ready=0, current=0, created=3 * 3600)
    owned_by(so, cr)
    c = claim('datadir-app-db-ps-db-mysql-0', 'app', 'standard-rwo', 'Pending', '100Gi', created=3 * 3600 - 30, labels={'app.kubernetes.io/component': 'mysql'})
    sc = storageclass('standard-rwo', 'pd.csi.storage.gke.io', 'WaitForFirstConsumer', default=True, params={'type': 'pd-balanced'})
    od, ors = deploy('ps-operator', 'app', {'app.kubernetes.io/name': 'ps-operator'}, 1, {'containers': [{'name': 'manager', 'image': oimg}]}, '6d9f8b7c5', created=86400 * 2)
    op = mkpod('ps-operator-6d9f8b7c5-n4x2v', 'app', 'pool-app-2', [{'name': 'manager', 'image': oimg}], [running('manager', oimg, 86400 * 2)], owner=('ReplicaSet', ors['metadata']['name']), created=86400 * 2,
               labels={'app.kubernetes.io/name': 'ps-operator', 'pod-template-hash': '6d9f8b7c5'})
    mmsg = ('create Pod app-db-ps-db-mysql-0 in StatefulSet app-db-ps-db-mysql failed error: pods "app-db-ps-db-mysql-0" is forbidden: failed quota: compute-resources-app: must specify limits.cpu for: mysql-init,pt-heartbeat,xtrabackup; '
            'limits.memory for: mysql-init,pt-heartbeat,xtrabackup; requests.cpu for: mysql-init,pt-heartbeat,xtrabackup; requests.memory for: mysql-init,pt-heartbeat,xtrabackup')
    omsg = ('create Pod app-db-ps-db-orc-0 in StatefulSet app-db-ps-db-orc failed error: pods "app-db-ps-db-orc-0" is forbidden: failed quota: compute-resources-app: must specify limits.cpu for: orc-init; limits.memory for: orc-init; '
            'requests.cpu for: orc-init; requests.memory for: orc-init')
    olog = ['2026-11-21T07:00:41.104Z\tINFO\tsetup\tStarting the Percona Server for MySQL Operator\t{"version": "0.8.0", "git commit": "a8d2c9e", "go version": "go1.22.5"}',
            '2026-11-21T07:00:41.512Z\tINFO\tStarting workers\t{"controller": "ps-controller", "worker count": 1}']
    for i in range(14):
        olog.append('2026-11-21T09:%02d:%02d.%03dZ\tINFO\tWaiting for MySQL pods to be ready\t{"controller": "ps-controller", "PerconaServerMySQL": {"name":"app-db","namespace":"app"}, "ready": 0, "size": 3}' % (2 + i * 4, 11, 400 + i))
    olog.append('2026-11-21T09:58:12.771Z\tERROR\tReconciler error\t{"controller": "ps-controller", "controllerGroup": "ps.percona.com", "controllerKind": "PerconaServerMySQL", "PerconaServerMySQL": {"name":"app-db","namespace":"app"}, "namespace": "app", "name": "app-db", "reconcileID": "079585dd-a2cc-4167-8e7e-f2fd53da1b65", "error": "reconcile replication: get primary host: no ready mysql pods"}')
    objs = [ns('app'), *nodes, sc, q, cr, s, so, c, od, ors, op, *kube_system_pods(['pool-app-1', 'pool-app-2', 'pool-app-3']),
            podlog('app', op['metadata']['name'], 'manager', olog, previous=False),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim datadir-app-db-ps-db-mysql-0 Pod app-db-ps-db-mysql-0 in StatefulSet app-db-ps-db-mysql success', 'statefulset-controller', 'Normal', last=3 * 3600 - 30),
            ctrl_ev(s, 'FailedCreate', mmsg, 'statefulset-controller', count=61, last=44, first=3 * 3600 - 30),
            ctrl_ev(so, 'FailedCreate', omsg, 'statefulset-controller', count=60, last=51, first=3 * 3600 - 28),
            ev(c, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'Normal', count=721, last=14, first=3 * 3600 - 30, component='persistentvolume-controller')]
    write(n, 'st-sts-quota-must-specify', {
        'title': 'StatefulSet creates no pod: the namespace quota requires limits that the init and sidecar containers do not set',
        'url': 'https://github.com/percona/percona-helm-charts/issues/460',
        'reported': 'create Pod app-db-ps-db-mysql-0 in StatefulSet app-db-ps-db-mysql failed error: pods "app-db-ps-db-mysql-0" is forbidden: failed quota: compute-resources-app: must specify limits.cpu for: mysql-init,pt-heartbeat,xtrabackup',
        'target': 'app/app-db-ps-db-mysql-0',
        'expect': {'first': 'admission.rejected', 'decisive': 'failed quota: compute-resources-app: must specify limits.cpu'}}, objs)

# =====================================================================================
# 10. StatefulSet cannot create its pod: its ServiceAccount does not exist
# =====================================================================================
def case_sts_sa_missing():
    n = nxt()
    nodes = [node_with('kb-node-%d' % i, kubelet='v1.30.6') for i in (1, 2)]
    img = 'docker.io/apecloud/minio:RELEASE.2024-06-29T01-20-47Z'
    tmpl = {'serviceAccountName': 'minio-8.0.17', 'containers': [{'name': 'minio', 'image': img, 'command': ['/bin/sh', '-c', '/scripts/startup.sh']}]}
    s = sts('minio-cluster-minio', 'default', {'app.kubernetes.io/instance': 'minio-cluster', 'app.kubernetes.io/managed-by': 'kubeblocks', 'apps.kubeblocks.io/component-name': 'minio'}, 1, tmpl,
            ready=0, current=0, vct=[vct('data', 'csi-hostpath-sc', '10Gi')], created=1500, service='minio-cluster-minio-headless')
    cl = {'apiVersion': 'apps.kubeblocks.io/v1alpha1', 'kind': 'Cluster', 'metadata': {'name': 'minio-cluster', 'namespace': 'default', 'uid': uid('kbminio'), 'creationTimestamp': ago(1510)},
          'spec': {'clusterDefinitionRef': 'minio-8.0.17', 'terminationPolicy': 'Delete', 'componentSpecs': [{'name': 'minio', 'componentDefRef': 'minio', 'replicas': 1, 'serviceAccountName': ''}]},
          'status': {'phase': 'Creating', 'observedGeneration': 1}}
    c = claim('data-minio-cluster-minio-0', 'default', 'csi-hostpath-sc', 'Pending', '10Gi', created=1500, labels={'apps.kubeblocks.io/vct-name': 'data'})
    sc = storageclass('csi-hostpath-sc', 'hostpath.csi.k8s.io', 'WaitForFirstConsumer', default=True)
    himg = 'registry.k8s.io/sig-storage/hostpathplugin:v1.15.0'
    hs = sts('kb-addon-csi-hostpath-driver', 'kb-system', {'app.kubernetes.io/name': 'csi-hostpath-driver'}, 1, {'containers': [{'name': 'hostpath', 'image': himg}]}, ready=1, created=7 * 3600 + 900)
    hp = mkpod('kb-addon-csi-hostpath-driver-0', 'kb-system', 'kb-node-1', [{'name': 'hostpath', 'image': himg}], [running('hostpath', himg, 7 * 3600)], owner=('StatefulSet', 'kb-addon-csi-hostpath-driver'), created=7 * 3600 + 890,
               labels={'app.kubernetes.io/name': 'csi-hostpath-driver'})
    kimg = 'docker.io/apecloud/kubeblocks:0.8.2'
    kd, krs = deploy('kubeblocks', 'kb-system', {'app.kubernetes.io/name': 'kubeblocks'}, 1, {'containers': [{'name': 'manager', 'image': kimg}]}, '7c9b8d6f5', created=7 * 3600 + 900)
    kp = mkpod('kubeblocks-7c9b8d6f5-rt6mn', 'kb-system', 'kb-node-2', [{'name': 'manager', 'image': kimg}], [running('manager', kimg, 7 * 3600 + 800)], owner=('ReplicaSet', krs['metadata']['name']),
               created=7 * 3600 + 880, labels={'app.kubernetes.io/name': 'kubeblocks', 'pod-template-hash': '7c9b8d6f5'})
    msg = ('create Pod minio-cluster-minio-0 in StatefulSet minio-cluster-minio failed error: pods "minio-cluster-minio-0" is forbidden: error looking up service account default/minio-8.0.17: '
           'serviceaccount "minio-8.0.17" not found')
    objs = [ns('default'), ns('kb-system'), *nodes, sc, cl, s, c, hs, hp, kd, krs, kp, serviceaccount('default', 'default', 86400 * 100), serviceaccount('kb-minio-cluster', 'default', 1505),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim data-minio-cluster-minio-0 Pod minio-cluster-minio-0 in StatefulSet minio-cluster-minio success', 'statefulset-controller', 'Normal', last=1500),
            ctrl_ev(s, 'FailedCreate', msg, 'statefulset-controller', count=41, last=34, first=1500),
            ev(c, 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding', 'Normal', count=101, last=20, first=1500, component='persistentvolume-controller'),
            ev(cl, 'ApplyResourcesSucceed', 'Successfully applied for resources', 'Normal', last=1505, component='cluster-controller')]
    write(n, 'st-sts-serviceaccount-missing', {
        'title': 'StatefulSet creates no pod: its serviceAccountName minio-8.0.17 does not exist in the namespace',
        'url': 'https://github.com/apecloud/kubeblocks/issues/7222',
        'reported': 'create Pod minio-cluster-minio-0 in StatefulSet minio-cluster-minio failed error: pods "minio-cluster-minio-0" is forbidden: error looking up service account default/minio-8.0.17: serviceaccount "minio-8.0.17" not found',
        'target': 'default/minio-cluster-minio-0',
        'expect': {'first': 'admission.rejected', 'decisive': 'serviceaccount "minio-8.0.17" not found'}}, objs)

# =====================================================================================
# 11. Job BackoffLimitExceeded with restartPolicy OnFailure: the job controller deleted the pod
# =====================================================================================
def case_job_backoff():
    n = nxt()
    N1 = 'ip-10-4-21-77.eu-west-1.compute.internal'
    nd = node_with(N1, 'eu-west-1a', 'aws:///eu-west-1a/i-0f3e2d1c0b9a87654')
    img = REG + '/data/exporter:4.2.0'
    cron_name = 'nightly-export'
    cj = workload('CronJob', cron_name, 'data-pipelines', {'app': 'nightly-export'})
    cj['spec'] = {'schedule': '30 9 * * *', 'timeZone': 'Etc/UTC', 'concurrencyPolicy': 'Forbid', 'suspend': False, 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1,
                  'jobTemplate': {'spec': {'backoffLimit': 4, 'template': {'spec': {'restartPolicy': 'OnFailure', 'containers': [{'name': 'export', 'image': img, 'args': ['--since=24h', '--to=s3://exports/nightly']}]}}}}}
    cj['metadata']['creationTimestamp'] = ago(86400 * 120)
    jname = 'nightly-export-29920890'; yname = 'nightly-export-29919450'
    tspec = {'restartPolicy': 'OnFailure', 'containers': [{'name': 'export', 'image': img, 'args': ['--since=24h', '--to=s3://exports/nightly'], 'envFrom': [{'secretRef': {'name': 'exporter-s3'}}]}]}
    failed_at = 1480
    j = job(jname, 'data-pipelines', tspec, {'app': 'nightly-export'}, created=1800, owner_cron=cj, backoff=4, status={
        'startTime': ago(1800), 'failed': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
        'conditions': [{'type': 'FailureTarget', 'status': 'True', 'reason': 'BackoffLimitExceeded', 'message': 'Job has reached the specified backoff limit', 'lastProbeTime': ago(failed_at), 'lastTransitionTime': ago(failed_at)},
                       {'type': 'Failed', 'status': 'True', 'reason': 'BackoffLimitExceeded', 'message': 'Job has reached the specified backoff limit', 'lastProbeTime': ago(failed_at - 2), 'lastTransitionTime': ago(failed_at - 2)}]})
    y = job(yname, 'data-pipelines', tspec, {'app': 'nightly-export'}, created=86400 + 1800, owner_cron=cj, backoff=4, status={
        'startTime': ago(86400 + 1800), 'completionTime': ago(86400 + 1100), 'succeeded': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
        'conditions': [{'type': 'SuccessCriteriaMet', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(86400 + 1100), 'lastTransitionTime': ago(86400 + 1100)},
                       {'type': 'Complete', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(86400 + 1100), 'lastTransitionTime': ago(86400 + 1100)}]})
    cj['status'] = {'lastScheduleTime': ago(1800), 'lastSuccessfulTime': ago(86400 + 1100)}
    yp = mkpod(yname + '-s8d2n', 'data-pipelines', N1, tspec['containers'], [terminated('export', img, 0, 'Completed', 86400 + 1790, 86400 + 1102)], owner=('Job', yname), created=86400 + 1798, phase='Succeeded',
               labels={'app': 'nightly-export', 'job-name': yname, 'batch.kubernetes.io/job-name': yname}, spec_extra={'restartPolicy': 'OnFailure'}, ready=False)
    for c_ in yp['status']['conditions']:
        if c_['type'] in ('Ready', 'ContainersReady'): c_.update({'reason': 'PodCompleted', 'message': ''})
    # the deleted pod: only its events are left
    gone = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': jname + '-7xk2p', 'namespace': 'data-pipelines', 'uid': uid('pod-gone-' + jname)}}
    gu = gone['metadata']['uid']; fp = 'spec.containers{export}'
    objs = [ns('data-pipelines'), nd, cj, j, y, yp, *kube_system_pods([N1]),
            ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jname, 'cronjob-controller', 'Normal', last=1800),
            ctrl_ev(cj, 'SawCompletedJob', 'Saw completed job: %s, condition: Failed' % jname, 'cronjob-controller', 'Normal', last=failed_at - 3),
            ctrl_ev(j, 'SuccessfulCreate', 'Created pod: %s' % gone['metadata']['name'], 'job-controller', 'Normal', last=1799),
            ctrl_ev(j, 'SuccessfulDelete', 'Deleted pod: %s' % gone['metadata']['name'], 'job-controller', 'Normal', last=failed_at),
            ctrl_ev(j, 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', 'job-controller', last=failed_at - 2),
            sev(gone, 'Scheduled', 'Successfully assigned data-pipelines/%s to %s' % (gone['metadata']['name'], N1), 'Normal', count=1, first=1798, controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Binding'),
            ev(gone, 'Pulling', 'Pulling image "%s"' % img, 'Normal', last=1797, host=N1, fieldPath=fp),
            ev(gone, 'Pulled', 'Successfully pulled image "%s" in 2.412s (2.412s including waiting). Image size: 88213392 bytes.' % img, 'Normal', last=1794, host=N1, fieldPath=fp),
            ev(gone, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', count=4, last=1560, first=1770, host=N1, fieldPath=fp),
            ev(gone, 'Created', 'Created container export', 'Normal', count=5, last=1560, first=1793, host=N1, fieldPath=fp),
            ev(gone, 'Started', 'Started container export', 'Normal', count=5, last=1560, first=1793, host=N1, fieldPath=fp),
            ev(gone, 'BackOff', 'Back-off restarting failed container export in pod %s_data-pipelines(%s)' % (gone['metadata']['name'], gu), count=9, last=1490, first=1776, host=N1, fieldPath=fp),
            ev(gone, 'Killing', 'Stopping container export', 'Normal', last=failed_at, host=N1, fieldPath=fp)]
    write(n, 'st-job-backoff-limit-onfailure', {
        'title': 'Job failed: BackoffLimitExceeded after 4 container restarts (restartPolicy OnFailure), and the job controller deleted the pod',
        'url': 'https://github.com/kubernetes/kubernetes/issues/74848',
        'reported': 'when the backoff counter reaches `backoffLimit` the Job Controller actively deletes the Pod and marks the Job as Failed with a reason of `BackoffLimitExceeded`.',
        'target': 'data-pipelines/%s' % gone['metadata']['name'],
        'expect': {'first': 'job.backoff-limit-exceeded', 'playbook': None, 'decisive': 'Job has reached the specified backoff limit'}}, objs)

# =====================================================================================
# 12. Job DeadlineExceeded: activeDeadlineSeconds 300 for a 10-minute task
# =====================================================================================
def case_job_deadline():
    n = nxt()
    N1 = 'worker-b2'
    nd = node_with(N1, kubelet='v1.31.4')
    tspec = {'restartPolicy': 'Never', 'containers': [{'name': 'sleeptest', 'image': 'busybox:1.36', 'command': ['sleep', '600']}]}
    created = 1500; deadline_hit = created - 300 - 20
    j = job('sleeptest', 'default', tspec, {'app': 'sleeptest'}, created=created, backoff=4, deadline=300, status={
        'startTime': ago(created), 'failed': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
        'conditions': [{'type': 'FailureTarget', 'status': 'True', 'reason': 'DeadlineExceeded', 'message': 'Job was active longer than specified deadline', 'lastProbeTime': ago(deadline_hit), 'lastTransitionTime': ago(deadline_hit)},
                       {'type': 'Failed', 'status': 'True', 'reason': 'DeadlineExceeded', 'message': 'Job was active longer than specified deadline', 'lastProbeTime': ago(deadline_hit - 31), 'lastTransitionTime': ago(deadline_hit - 31)}]})
    gone = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': 'sleeptest-wq8nd', 'namespace': 'default', 'uid': uid('pod-gone-sleeptest')}}
    fp = 'spec.containers{sleeptest}'
    # an unrelated finished job in the namespace
    okspec = {'restartPolicy': 'Never', 'containers': [{'name': 'pi', 'image': 'perl:5.40', 'command': ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)']}]}
    ok = job('pi', 'default', okspec, {'app': 'pi'}, created=3000, backoff=4, status={
        'startTime': ago(3000), 'completionTime': ago(2960), 'succeeded': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
        'conditions': [{'type': 'SuccessCriteriaMet', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(2960), 'lastTransitionTime': ago(2960)},
                       {'type': 'Complete', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(2960), 'lastTransitionTime': ago(2960)}]})
    okp = mkpod('pi-7mzqd', 'default', N1, okspec['containers'], [terminated('pi', 'perl:5.40', 0, 'Completed', 2990, 2961)], owner=('Job', 'pi'), created=2999, phase='Succeeded',
                labels={'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi'}, spec_extra={'restartPolicy': 'Never'}, ready=False)
    objs = [ns('default'), nd, j, ok, okp, *kube_system_pods([N1]),
            podlog('default', 'pi-7mzqd', 'pi', ['3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196'], previous=False),
            ctrl_ev(j, 'SuccessfulCreate', 'Created pod: sleeptest-wq8nd', 'job-controller', 'Normal', last=created - 1),
            ctrl_ev(j, 'SuccessfulDelete', 'Deleted pod: sleeptest-wq8nd', 'job-controller', 'Normal', last=deadline_hit),
            ctrl_ev(j, 'DeadlineExceeded', 'Job was active longer than specified deadline', 'job-controller', last=deadline_hit - 31),
            sev(gone, 'Scheduled', 'Successfully assigned default/sleeptest-wq8nd to %s' % N1, 'Normal', count=1, first=created - 2, controller='default-scheduler', instance='default-scheduler-control-plane-1', action='Binding'),
            ev(gone, 'Pulled', 'Container image "busybox:1.36" already present on machine', 'Normal', last=created - 3, host=N1, fieldPath=fp),
            ev(gone, 'Created', 'Created container sleeptest', 'Normal', last=created - 3, host=N1, fieldPath=fp),
            ev(gone, 'Started', 'Started container sleeptest', 'Normal', last=created - 4, host=N1, fieldPath=fp),
            ev(gone, 'Killing', 'Stopping container sleeptest', 'Normal', last=deadline_hit, host=N1, fieldPath=fp),
            ctrl_ev(ok, 'SuccessfulCreate', 'Created pod: pi-7mzqd', 'job-controller', 'Normal', last=2999),
            ctrl_ev(ok, 'Completed', 'Job completed', 'job-controller', 'Normal', last=2960)]
    write(n, 'st-job-deadline-exceeded', {
        'title': 'Job failed: DeadlineExceeded, a 10-minute task under activeDeadlineSeconds 300',
        'url': 'https://github.com/kubernetes/kubernetes/issues/62134',
        'reported': "type: 'Warning' reason: 'DeadlineExceeded' Job was active longer than specified deadline",
        'target': 'default/sleeptest-wq8nd',
        'expect': {'first': 'job.deadline-exceeded', 'playbook': None, 'decisive': 'Job was active longer than specified deadline'}}, objs)

def eps(name, namespace, addrs, ports, not_ready=()):
    """core/v1 Endpoints with several named ports; addrs: (ip, pod, node)."""
    o = _meta('Endpoints', 'v1', name, namespace, 86400 * 30)
    a = lambda x: {'ip': x[0], 'nodeName': x[2], 'targetRef': {'kind': 'Pod', 'name': x[1], 'namespace': namespace, 'uid': uid('pod' + namespace + x[1])}}
    if addrs or not_ready:
        sub = {'ports': [{'name': pn, 'port': pt, 'protocol': 'TCP'} for pn, pt in ports]}
        if addrs: sub['addresses'] = [a(x) for x in addrs]
        if not_ready: sub['notReadyAddresses'] = [a(x) for x in not_ready]
        o['subsets'] = [sub]
    return o

def svc(name, namespace, selector, ports, cluster_ip, created=86400 * 30):
    o = _meta('Service', 'v1', name, namespace, created)
    o['spec'] = {'type': 'ClusterIP', 'clusterIP': cluster_ip, 'clusterIPs': [cluster_ip], 'selector': selector, 'internalTrafficPolicy': 'Cluster', 'ipFamilies': ['IPv4'], 'ipFamilyPolicy': 'SingleStack',
                 'ports': [{'name': pn, 'port': p_, 'targetPort': t, 'protocol': 'TCP'} for pn, p_, t in ports], 'sessionAffinity': 'None'}
    o['status'] = {'loadBalancer': {}}
    return o

def rs_failed(d, rs, msg, since):
    """A Deployment whose new ReplicaSet cannot create pods: ReplicaFailure on both."""
    replica_failure(rs, msg, since)
    d['status']['conditions'].append({'type': 'ReplicaFailure', 'status': 'True', 'reason': 'FailedCreate', 'message': msg, 'lastUpdateTime': ago(since), 'lastTransitionTime': ago(since)})

# =====================================================================================
# 13. A webhook that serves its own controller's pods: scaled to 0, no endpoints, no way back
# =====================================================================================
def case_webhook_self():
    n = nxt()
    nodes = [node_with('vm-%d-centos' % i, kubelet='v1.30.6') for i in (11, 12, 13)]
    mimg = 'mirrors.example.com/tcaplus/tcaplus-operator:v0.3.2'; pimg = 'gcr.io/kubebuilder/kube-rbac-proxy:v0.16.0'
    labels = {'control-plane': 'controller-manager'}
    d, rs = deploy('tcaplus-controller-manager', 'tcaplus-system', labels, 1, {'containers': [{'name': 'kube-rbac-proxy', 'image': pimg}, {'name': 'manager', 'image': mimg, 'command': ['/manager'],
                    'ports': [{'containerPort': 9443, 'name': 'webhook-server', 'protocol': 'TCP'}]}], 'serviceAccountName': 'tcaplus-controller-manager'}, '654b78675c', ready=0, available=0, created=86400 * 3, generation=4,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(1500), 'lastTransitionTime': ago(1500)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "tcaplus-controller-manager-654b78675c" has timed out progressing.', 'lastUpdateTime': ago(820), 'lastTransitionTime': ago(820)}])
    msg = ('Internal error occurred: failed calling webhook "mpod.kb.io": failed to call webhook: Post "https://tcaplus-webhook-service.tcaplus-system.svc:443/mutate-v1-pod?timeout=10s": '
           'no endpoints available for service "tcaplus-webhook-service"')
    rs_failed(d, rs, msg, 1420)
    wh = webhook_config('tcaplus-mutating-webhook-configuration', [{'name': 'mpod.kb.io', 'service': ('tcaplus-system', 'tcaplus-webhook-service', '/mutate-v1-pod'), 'failurePolicy': 'Fail',
                        'rules': [{'apiGroups': [''], 'apiVersions': ['v1'], 'operations': ['CREATE', 'UPDATE'], 'resources': ['pods'], 'scope': '*'}]}], mutating=True)
    wh['webhooks'][0]['reinvocationPolicy'] = 'Never'
    wh['metadata']['annotations'] = {'cert-manager.io/inject-ca-from': 'tcaplus-system/tcaplus-serving-cert'}
    s = svc('tcaplus-webhook-service', 'tcaplus-system', labels, [('https', 443, 9443)], '10.96.214.37')
    ms = svc('tcaplus-controller-manager-metrics-service', 'tcaplus-system', labels, [('https', 8443, 'https')], '10.96.88.201')
    e1 = eps('tcaplus-webhook-service', 'tcaplus-system', [], []); e2 = eps('tcaplus-controller-manager-metrics-service', 'tcaplus-system', [], [])
    # a workload elsewhere that the same webhook now blocks too
    nimg = 'nginx:1.27.2'
    nd_, nrs = deploy('tcaplus-console', 'tcaplus-demo', {'app': 'tcaplus-console'}, 2, {'containers': [{'name': 'console', 'image': nimg}]}, '8d6f5c7b9', ready=2, created=86400 * 3)
    npods = [mkpod('tcaplus-console-8d6f5c7b9-%s' % s_, 'tcaplus-demo', 'vm-1%d-centos' % (i + 2), [{'name': 'console', 'image': nimg}], [running('console', nimg, 86400 * 2)],
                   owner=('ReplicaSet', nrs['metadata']['name']), created=86400 * 2, labels={'app': 'tcaplus-console', 'pod-template-hash': '8d6f5c7b9'}) for i, s_ in enumerate(('h2k9x', 'p7w4d'))]
    cm = _meta('Certificate', 'cert-manager.io/v1', 'tcaplus-serving-cert', 'tcaplus-system', 86400 * 3)
    cm['spec'] = {'dnsNames': ['tcaplus-webhook-service.tcaplus-system.svc', 'tcaplus-webhook-service.tcaplus-system.svc.cluster.local'], 'issuerRef': {'kind': 'Issuer', 'name': 'tcaplus-selfsigned-issuer'}, 'secretName': 'webhook-server-cert'}
    cm['status'] = {'conditions': [{'type': 'Ready', 'status': 'True', 'reason': 'Ready', 'message': 'Certificate is up to date and has not expired', 'lastTransitionTime': ago(86400 * 3)}], 'notAfter': '2027-02-19T10:00:00Z'}
    objs = [ns('tcaplus-system'), ns('tcaplus-demo'), *nodes, d, rs, wh, s, ms, e1, e2, cm, nd_, nrs, *npods, serviceaccount('tcaplus-controller-manager', 'tcaplus-system'),
            *kube_system_pods(['vm-11-centos', 'vm-12-centos', 'vm-13-centos']),
            ctrl_ev(rs, 'SuccessfulCreate', 'Created pod: tcaplus-controller-manager-654b78675c-zbnbl', 'replicaset-controller', 'Normal', last=1700),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set tcaplus-controller-manager-654b78675c from 1 to 0', 'deployment-controller', 'Normal', last=1460),
            ctrl_ev(rs, 'SuccessfulDelete', 'Deleted pod: tcaplus-controller-manager-654b78675c-zbnbl', 'replicaset-controller', 'Normal', last=1459),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set tcaplus-controller-manager-654b78675c from 0 to 1', 'deployment-controller', 'Normal', last=1421),
            ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg, 'replicaset-controller', count=13, last=1300, first=1420),
            ctrl_ev(rs, 'FailedCreate', '(combined from similar events): Error creating: ' + msg, 'replicaset-controller', count=31, last=9, first=1290)]
    write(n, 'st-webhook-no-endpoints-self', {
        'title': 'The operator cannot come back: its own mutating webhook for pods has no endpoints since it was scaled to 0 (failurePolicy Fail)',
        'url': 'https://github.com/kubernetes-sigs/kubebuilder/issues/3052',
        'reported': 'Error creating: Internal error occurred: failed calling webhook "mpod.kb.io": Post "https://tcaplus-webhook-service.tcaplus-system.svc:443/mutate-v1-pod?timeout=10s": no endpoi',
        'target': 'ns/tcaplus-system',
        'expect': {'first': 'admission.webhook-unavailable', 'playbook': None, 'decisive': 'no endpoints available for service "tcaplus-webhook-service"'}}, objs)

# =====================================================================================
# 14. The sidecar injector is up but the API server cannot reach it (EKS node security group)
# =====================================================================================
def case_webhook_istio_timeout():
    n = nxt()
    A = 'ip-10-0-27-101.ec2.internal'; B = 'ip-10-0-44-12.ec2.internal'
    nodes = [node_with(A, 'us-east-1a', 'aws:///us-east-1a/i-0a1b2c3d4e5f60718', kubelet='v1.27.16-eks-a18cd3a'), node_with(B, 'us-east-1b', 'aws:///us-east-1b/i-0f1e2d3c4b5a69788', kubelet='v1.27.16-eks-a18cd3a')]
    iimg = 'docker.io/istio/pilot:1.18.2'; pimg = 'docker.io/istio/proxyv2:1.18.2'
    idp, irs = deploy('istiod', 'istio-system', {'app': 'istiod', 'istio': 'pilot'}, 1, {'containers': [{'name': 'discovery', 'image': iimg}]}, '6f8c9d7b5', created=86400 * 9)
    ipod = mkpod('istiod-6f8c9d7b5-2xkqp', 'istio-system', A, [{'name': 'discovery', 'image': iimg, 'ports': [{'containerPort': 8080}, {'containerPort': 15010}, {'containerPort': 15017}],
                 'readinessProbe': {'httpGet': {'path': '/ready', 'port': 8080}}}], [running('discovery', iimg, 86400 * 9 - 30)], owner=('ReplicaSet', irs['metadata']['name']), created=86400 * 9,
                 labels={'app': 'istiod', 'istio': 'pilot', 'pod-template-hash': '6f8c9d7b5'})
    ipod['status']['podIP'] = '10.0.27.245'; ipod['status']['podIPs'] = [{'ip': '10.0.27.245'}]
    isvc = svc('istiod', 'istio-system', {'app': 'istiod', 'istio': 'pilot'}, [('grpc-xds', 15010, 15010), ('https-dns', 15012, 15012), ('https-webhook', 443, 15017), ('http-monitoring', 15014, 15014)], '172.20.166.52')
    iep = eps('istiod', 'istio-system', [('10.0.27.245', 'istiod-6f8c9d7b5-2xkqp', A)], [('grpc-xds', 15010), ('https-dns', 15012), ('https-webhook', 15017), ('http-monitoring', 15014)])
    sel_ns = {'matchExpressions': [{'key': 'istio-injection', 'operator': 'In', 'values': ['enabled']}]}
    rules = [{'apiGroups': [''], 'apiVersions': ['v1'], 'operations': ['CREATE'], 'resources': ['pods'], 'scope': '*'}]
    wh = webhook_config('istio-sidecar-injector', [{'name': 'rev.namespace.sidecar-injector.istio.io', 'service': ('istio-system', 'istiod', '/inject'), 'rules': rules,
                                                    'namespaceSelector': {'matchExpressions': [{'key': 'istio.io/rev', 'operator': 'In', 'values': ['default']}, {'key': 'istio-injection', 'operator': 'DoesNotExist'}]}},
                                                   {'name': 'namespace.sidecar-injector.istio.io', 'service': ('istio-system', 'istiod', '/inject'), 'rules': rules, 'namespaceSelector': sel_ns},
                                                   {'name': 'object.sidecar-injector.istio.io', 'service': ('istio-system', 'istiod', '/inject'), 'rules': rules,
                                                    'namespaceSelector': {'matchExpressions': [{'key': 'istio-injection', 'operator': 'DoesNotExist'}, {'key': 'istio.io/rev', 'operator': 'DoesNotExist'}]}}], mutating=True)
    for w in wh['webhooks']: w['reinvocationPolicy'] = 'Never'
    wimg = REG + '/shop/web:5.12.0'; wimg_old = REG + '/shop/web:5.11.3'
    tl = {'app': 'web'}
    d, rs_new = deploy('web', 'shop', tl, 3, {'containers': [{'name': 'web', 'image': wimg}]}, '7d9f8c6b5', ready=3, updated=0, available=3, created=86400 * 30, generation=12,
                       conditions=[{'type': 'Available', 'status': 'True', 'reason': 'MinimumReplicasAvailable', 'message': 'Deployment has minimum availability.', 'lastUpdateTime': ago(86400 * 4), 'lastTransitionTime': ago(86400 * 4)},
                                   {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "web-7d9f8c6b5" has timed out progressing.', 'lastUpdateTime': ago(1780), 'lastTransitionTime': ago(1780)}])
    d['status']['unavailableReplicas'] = 0
    rs_new['spec']['replicas'] = 1; rs_new['status'] = {'replicas': 0, 'observedGeneration': 1}
    msg = ('Internal error occurred: failed calling webhook "namespace.sidecar-injector.istio.io": failed to call webhook: Post "https://istiod.istio-system.svc:443/inject?timeout=10s": '
           'dial tcp 10.0.27.245:15017: i/o timeout')
    rs_failed(d, rs_new, msg, 2380)
    rs_old = rs_for(d, 'web-6c8d7f9b5'); rs_old['spec']['replicas'] = 3
    rs_old['status'] = {'replicas': 3, 'fullyLabeledReplicas': 3, 'readyReplicas': 3, 'availableReplicas': 3, 'observedGeneration': 3}
    old_pods = []
    for i, s_ in enumerate(('k2x7p', 'q9w3e', 'z5m8n')):
        nd = A if i % 2 == 0 else B
        old_pods.append(mkpod('web-6c8d7f9b5-%s' % s_, 'shop', nd, [{'name': 'web', 'image': wimg_old}, {'name': 'istio-proxy', 'image': pimg}],
                              [running('web', wimg_old, 86400 * 4), running('istio-proxy', pimg, 86400 * 4 + 5)], owner=('ReplicaSet', 'web-6c8d7f9b5'), created=86400 * 4 + 20,
                              labels={'app': 'web', 'pod-template-hash': '6c8d7f9b5', 'security.istio.io/tlsMode': 'istio', 'service.istio.io/canonical-name': 'web'},
                              init=[{'name': 'istio-init', 'image': pimg}], init_statuses=[terminated('istio-init', pimg, 0, 'Completed', 86400 * 4 + 10, 86400 * 4 + 9)]))
    shop = ns('shop'); shop['metadata']['labels'] = {'kubernetes.io/metadata.name': 'shop', 'istio-injection': 'enabled'}
    ilog = ['2026-11-21T09:5%d:%02d.%06dZ\tinfo\tads\tPush debounce stable[%d] 1 for config ServiceEntry/shop/web.shop.svc.cluster.local: 100.28ms since last change, 100.31ms since last push, full=false' % (i % 10, i * 5 % 60, 44100 * i % 1000000, 812 + i) for i in range(8)]
    ilog += ['2026-11-21T09:58:%02d.%06dZ\tinfo\tads\tXDS: Pushing Services:41 ConnectedEndpoints:9 Version:2026-11-21T09:58:%02dZ/%d' % (i * 7, 10123 * i, i * 7, 820 + i) for i in range(6)]
    objs = [ns('istio-system'), shop, *nodes, idp, irs, ipod, isvc, iep, wh, d, rs_new, rs_old, *old_pods, *kube_system_pods([A, B]),
            podlog('istio-system', 'istiod-6f8c9d7b5-2xkqp', 'discovery', ilog, previous=False),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set web-7d9f8c6b5 from 0 to 1', 'deployment-controller', 'Normal', last=2385),
            ctrl_ev(rs_new, 'FailedCreate', 'Error creating: ' + msg, 'replicaset-controller', count=12, last=2200, first=2380),
            ctrl_ev(rs_new, 'FailedCreate', '(combined from similar events): Error creating: ' + msg, 'replicaset-controller', count=47, last=26, first=2180)]
    write(n, 'st-webhook-istio-timeout', {
        'title': 'A rollout creates no pod: the API server times out calling the sidecar injector (istiod Ready, port 15017 not reachable from the control plane)',
        'url': 'https://github.com/istio/istio/issues/46746',
        'reported': 'Error creating: Internal error occurred: failed calling webhook "namespace.sidecar-injector.istio.io": failed to call webhook: Post "https://istiod.istio-system.svc:443/inject?timeout=10s": dial tcp 10.0.27.245:15017: i/o timeout',
        'target': 'shop/web-7d9f8c6b5-x2k4q',
        'expect': {'first': 'admission.webhook-unavailable', 'playbook': None, 'decisive': 'dial tcp 10.0.27.245:15017: i/o timeout'}}, objs)

# =====================================================================================
# 15. A Gatekeeper constraint denies the Deployment's pods (the Deployment itself was accepted)
# =====================================================================================
def case_webhook_denied():
    n = nxt()
    nodes = [node_with('gke-prod-pool-1-8f3c2a1d-%s' % s_, kubelet='v1.30.5-gke.1443001', labels={'cloud.google.com/gke-nodepool': 'pool-1'}) for s_ in ('x1k9', 'p4m2', 'w7q5')]
    gimg = 'openpolicyagent/gatekeeper:v3.17.1'
    gd, grs = deploy('gatekeeper-controller-manager', 'gatekeeper-system', {'control-plane': 'controller-manager', 'gatekeeper.sh/operation': 'webhook'}, 3, {'containers': [{'name': 'manager', 'image': gimg}]}, '5d7b9c8f6', created=86400 * 50)
    gpods = [mkpod('gatekeeper-controller-manager-5d7b9c8f6-%s' % s_, 'gatekeeper-system', nodes[i]['metadata']['name'], [{'name': 'manager', 'image': gimg}], [running('manager', gimg, 86400 * 10)],
                   owner=('ReplicaSet', grs['metadata']['name']), created=86400 * 10, labels={'control-plane': 'controller-manager', 'gatekeeper.sh/operation': 'webhook', 'pod-template-hash': '5d7b9c8f6'}) for i, s_ in enumerate(('b8k2q', 'j3n7v', 'r6t9c'))]
    for i, gp in enumerate(gpods): gp['status']['podIP'] = '10.112.%d.17' % i; gp['status']['podIPs'] = [{'ip': gp['status']['podIP']}]
    gsvc = svc('gatekeeper-webhook-service', 'gatekeeper-system', {'control-plane': 'controller-manager', 'gatekeeper.sh/operation': 'webhook'}, [('https-webhook-server', 443, 'webhook-server')], '10.116.4.99')
    gep = eps('gatekeeper-webhook-service', 'gatekeeper-system', [(gp['status']['podIP'], gp['metadata']['name'], gp['spec']['nodeName']) for gp in gpods], [('https-webhook-server', 8443)])
    wh = webhook_config('gatekeeper-validating-webhook-configuration', [
        {'name': 'validation.gatekeeper.sh', 'service': ('gatekeeper-system', 'gatekeeper-webhook-service', '/v1/admit'), 'failurePolicy': 'Ignore', 'timeout': 3,
         'rules': [{'apiGroups': ['*'], 'apiVersions': ['*'], 'operations': ['CREATE', 'UPDATE'], 'resources': ['*', 'pods/ephemeralcontainers', 'pods/exec', 'pods/log', 'pods/eviction', 'pods/portforward', 'pods/proxy', 'pods/attach', 'pods/binding', 'deployments/scale', 'replicasets/scale', 'statefulsets/scale', 'replicationcontrollers/scale', 'services/proxy', 'nodes/proxy', 'services/status'], 'scope': '*'}],
         'namespaceSelector': {'matchExpressions': [{'key': 'admission.gatekeeper.sh/ignore', 'operator': 'DoesNotExist'}, {'key': 'kubernetes.io/metadata.name', 'operator': 'NotIn', 'values': ['gatekeeper-system']}]}},
        {'name': 'check-ignore-label.gatekeeper.sh', 'service': ('gatekeeper-system', 'gatekeeper-webhook-service', '/v1/admitlabel'), 'failurePolicy': 'Fail', 'timeout': 3,
         'rules': [{'apiGroups': [''], 'apiVersions': ['*'], 'operations': ['CREATE', 'UPDATE'], 'resources': ['namespaces'], 'scope': '*'}]}])
    con = {'apiVersion': 'constraints.gatekeeper.sh/v1beta1', 'kind': 'K8sRequiredLabels', 'metadata': {'name': 'workloads-require-owner', 'uid': uid('con-owner'), 'creationTimestamp': ago(86400 * 40), 'generation': 1},
           'spec': {'enforcementAction': 'deny', 'match': {'kinds': [{'apiGroups': [''], 'kinds': ['Pod']}]},
                    'parameters': {'message': 'All workloads must have a valid `owner` label', 'labels': [{'key': 'owner', 'allowedRegex': '^[a-z]+\\.agilebank\\.demo$'}]}},
           'status': {'auditTimestamp': ago(40), 'totalViolations': 0, 'byPod': [{'enforced': True, 'id': 'gatekeeper-audit-6c7f9d8b5-k2m4x', 'observedGeneration': 1, 'operations': ['audit', 'status']}]}}
    img = REG + '/team-a/testing:0.4.0'
    d, rs = deploy('testing', 'team-a', {'app': 'testing'}, 2, {'containers': [{'name': 'testing', 'image': img, 'securityContext': {'allowPrivilegeEscalation': False, 'runAsNonRoot': True, 'capabilities': {'drop': ['ALL']}}}]},
                   '5f7b8c9d6', ready=0, available=0, created=1900, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(1899), 'lastTransitionTime': ago(1899)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "testing-5f7b8c9d6" has timed out progressing.', 'lastUpdateTime': ago(1290), 'lastTransitionTime': ago(1290)}])
    msg = 'admission webhook "validation.gatekeeper.sh" denied the request: [denied by workloads-require-owner] All workloads must have a valid `owner` label'
    rs_failed(d, rs, msg, 1898)
    oimg = REG + '/team-a/api:2.8.1'
    od, ors = deploy('api', 'team-a', {'app': 'api', 'owner': 'payments.agilebank.demo'}, 2, {'containers': [{'name': 'api', 'image': oimg}]}, '7c4d9b8f2', created=86400 * 12, template_labels={'app': 'api', 'owner': 'payments.agilebank.demo'})
    opods = [mkpod('api-7c4d9b8f2-%s' % s_, 'team-a', nodes[i]['metadata']['name'], [{'name': 'api', 'image': oimg}], [running('api', oimg, 86400 * 3)], owner=('ReplicaSet', ors['metadata']['name']), created=86400 * 3,
                   labels={'app': 'api', 'owner': 'payments.agilebank.demo', 'pod-template-hash': '7c4d9b8f2'}) for i, s_ in enumerate(('m3x8k', 'v9c2p'))]
    objs = [ns('gatekeeper-system'), ns('team-a'), *nodes, gd, grs, *gpods, gsvc, gep, wh, con, d, rs, od, ors, *opods,
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set testing-5f7b8c9d6 from 0 to 2', 'deployment-controller', 'Normal', last=1899),
            ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg, 'replicaset-controller', count=14, last=1880, first=1898),
            ctrl_ev(rs, 'FailedCreate', '(combined from similar events): Error creating: ' + msg, 'replicaset-controller', count=29, last=47, first=1860)]
    write(n, 'st-webhook-denied-gatekeeper', {
        'title': 'Deployment accepted, pods denied: a Gatekeeper constraint requires an owner label the pod template lacks',
        'url': 'https://github.com/open-policy-agent/gatekeeper/issues/1167',
        'reported': 'admission webhook "validation.gatekeeper.sh" denied the request: [denied by workloads-require-owner] All workloads must have a valid `owner` label',
        'target': 'ns/team-a',
        'expect': {'first': 'admission.rejected', 'decisive': '[denied by workloads-require-owner] All workloads must have a valid'}}, objs)

# =====================================================================================
# 16. A CronJob's Job cannot create its pod: PodSecurity restricted in the namespace
# =====================================================================================
def case_podsecurity_job():
    n = nxt()
    nodes = [node_with('worker-%d' % i, kubelet='v1.31.4') for i in (1, 2)]
    tns = ns('tekton-pipelines'); tns['metadata']['labels'] = {'kubernetes.io/metadata.name': 'tekton-pipelines', 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'latest'}
    img = 'ghcr.io/tektoncd/plumbing/tkn@sha256:233de6c8b8583a34c2379fa98d42dba739146c9336e8d41b66030484357481ed'
    cname = 'pruner-tkn-tekton-pipelines-g2v7z'
    tspec = {'restartPolicy': 'OnFailure', 'serviceAccountName': 'tekton-resource-pruner',
             'containers': [{'name': cname, 'image': img, 'command': ['/bin/sh', '-c', 'tkn pipelinerun delete --keep=100 -f -n tekton-pipelines ; tkn taskrun delete --keep=100 -f -n tekton-pipelines']}]}
    cj = workload('CronJob', 'tekton-resource-pruner-mnf9n', 'tekton-pipelines', {'app': 'tekton-resource-pruner'})
    cj['metadata']['creationTimestamp'] = ago(86400 * 30)
    cj['metadata']['ownerReferences'] = [{'apiVersion': 'operator.tekton.dev/v1alpha1', 'kind': 'TektonConfig', 'name': 'config', 'uid': uid('tektonconfig'), 'controller': True, 'blockOwnerDeletion': True}]
    cj['spec'] = {'schedule': '0 8 * * *', 'concurrencyPolicy': 'Forbid', 'suspend': False, 'successfulJobsHistoryLimit': 3, 'failedJobsHistoryLimit': 1, 'jobTemplate': {'spec': {'backoffLimit': 3, 'template': {'spec': tspec}}}}
    cj['status'] = {'lastScheduleTime': ago(7200), 'active': [{'apiVersion': 'batch/v1', 'kind': 'Job', 'name': 'tekton-resource-pruner-mnf9n-29920800', 'namespace': 'tekton-pipelines', 'uid': uid('Jobtekton-pipelinestekton-resource-pruner-mnf9n-29920800')}]}
    jname = 'tekton-resource-pruner-mnf9n-29920800'
    j = job(jname, 'tekton-pipelines', tspec, {'app': 'tekton-resource-pruner'}, created=7200, owner_cron=cj, backoff=3, status={'startTime': ago(7200), 'active': 0, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {}})
    ps = ('violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "%s" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "%s" must set securityContext.capabilities.drop=["ALL"]), '
          'runAsNonRoot != true (pod or container "%s" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "%s" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")') % (cname, cname, cname, cname)
    first_pods = ['czjsh', 'm8k2r', 'p5x9v', 'b7n4q']
    evs = [ctrl_ev(cj, 'SuccessfulCreate', 'Created job %s' % jname, 'cronjob-controller', 'Normal', last=7200)]
    # the aggregated events of the last hour (older ones expired)
    for i, s_ in enumerate(first_pods[:2]):
        evs.append(ctrl_ev(j, 'FailedCreate', 'Error creating: pods "%s-%s" is forbidden: %s' % (jname, s_, ps), 'job-controller', last=3300 - i * 60))
    evs.append(ctrl_ev(j, 'FailedCreate', '(combined from similar events): Error creating: pods "%s-4w6rm" is forbidden: %s' % (jname, ps), 'job-controller', count=19, last=95, first=3180))
    pcimg = 'gcr.io/tekton-releases/github.com/tektoncd/pipeline/cmd/controller:v0.65.2'; pwimg = 'gcr.io/tekton-releases/github.com/tektoncd/pipeline/cmd/webhook:v0.65.2'
    rsc = {'runAsNonRoot': True, 'seccompProfile': {'type': 'RuntimeDefault'}}
    csc = {'allowPrivilegeEscalation': False, 'capabilities': {'drop': ['ALL']}}
    tp = [mkpod('tekton-pipelines-controller-6f9d8c7b5-x8d2k', 'tekton-pipelines', 'worker-1', [{'name': 'tekton-pipelines-controller', 'image': pcimg, 'securityContext': csc}], [running('tekton-pipelines-controller', pcimg, 86400 * 8)],
                 owner=('ReplicaSet', 'tekton-pipelines-controller-6f9d8c7b5'), created=86400 * 8, labels={'app': 'tekton-pipelines-controller', 'pod-template-hash': '6f9d8c7b5'}, spec_extra={'securityContext': rsc}),
          mkpod('tekton-pipelines-webhook-7c8b9d6f4-q2l5m', 'tekton-pipelines', 'worker-2', [{'name': 'webhook', 'image': pwimg, 'securityContext': csc}], [running('webhook', pwimg, 86400 * 8)],
                 owner=('ReplicaSet', 'tekton-pipelines-webhook-7c8b9d6f4'), created=86400 * 8, labels={'app': 'tekton-pipelines-webhook', 'pod-template-hash': '7c8b9d6f4'}, spec_extra={'securityContext': rsc})]
    objs = [tns, *nodes, cj, j, *tp, serviceaccount('tekton-resource-pruner', 'tekton-pipelines'), *kube_system_pods(['worker-1', 'worker-2']), *evs]
    write(n, 'st-podsecurity-cronjob-job', {
        'title': 'A CronJob\'s Job creates no pod: the namespace enforces PodSecurity restricted and the pruner container sets no securityContext',
        'url': 'https://github.com/tektoncd/operator/issues/1223',
        'reported': '(combined from similar events): Error creating: pods "tekton-resource-pruner-mnf9n-27829440-4w6rm" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "pruner-tkn-tekton-pipelines-g2v7z" must set securityContext.allowPrivilegeEscalation=false)',
        'target': 'tekton-pipelines/%s-4w6rm' % jname,
        'expect': {'first': 'admission.rejected', 'decisive': 'violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false'}}, objs)

# =====================================================================================
# 17. Deployment creates no pod: serviceAccountName names an account nobody created
# =====================================================================================
def case_deploy_sa_missing():
    n = nxt()
    nodes = [node_with('k3s-node-%d' % i, kubelet='v1.30.6+k3s1', runtime='containerd://1.7.22-k3s1') for i in (1, 2)]
    img = 'ghcr.io/gethomepage/homepage:v0.9.12'
    tmpl = {'serviceAccountName': 'homepage', 'automountServiceAccountToken': True, 'containers': [{'name': 'homepage', 'image': img, 'ports': [{'containerPort': 3000, 'name': 'http'}]}]}
    d, rs = deploy('homepage', 'default', {'app.kubernetes.io/name': 'homepage', 'app.kubernetes.io/instance': 'homepage'}, 1, tmpl, '77cdf87bbc', ready=0, available=0, created=2600, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(2599), 'lastTransitionTime': ago(2599)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "homepage-77cdf87bbc" has timed out progressing.', 'lastUpdateTime': ago(1990), 'lastTransitionTime': ago(1990)}])
    msg = 'pods "homepage-77cdf87bbc-" is forbidden: error looking up service account default/homepage: serviceaccount "homepage" not found'
    rs_failed(d, rs, msg, 2598)
    wimg = 'traefik/whoami:v1.10.3'
    wd, wrs = deploy('whoami', 'default', {'app': 'whoami'}, 1, {'containers': [{'name': 'whoami', 'image': wimg}]}, '5b8c6d7f9', created=86400 * 14)
    wp = mkpod('whoami-5b8c6d7f9-t4r2x', 'default', 'k3s-node-2', [{'name': 'whoami', 'image': wimg}], [running('whoami', wimg, 86400 * 14)], owner=('ReplicaSet', wrs['metadata']['name']), created=86400 * 14,
               labels={'app': 'whoami', 'pod-template-hash': '5b8c6d7f9'})
    cm = _meta('ConfigMap', 'v1', 'homepage', 'default', 2610); cm['data'] = {'settings.yaml': 'title: Home\n', 'services.yaml': '- Apps:\n    - Whoami:\n        href: http://whoami.default.svc\n'}
    objs = [ns('default'), *nodes, d, rs, wd, wrs, wp, cm, serviceaccount('default', 'default', 86400 * 60),
            svc('homepage', 'default', {'app.kubernetes.io/name': 'homepage', 'app.kubernetes.io/instance': 'homepage'}, [('http', 3000, 'http')], '10.43.118.9'),
            eps('homepage', 'default', [], []), *kube_system_pods(['k3s-node-1', 'k3s-node-2']),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set homepage-77cdf87bbc from 0 to 1', 'deployment-controller', 'Normal', last=2599),
            ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg, 'replicaset-controller', count=16, last=2560, first=2598),
            ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg, 'replicaset-controller', count=22, last=50, first=2400)]
    write(n, 'st-deploy-serviceaccount-missing', {
        'title': 'Deployment has no pod: its serviceAccountName homepage does not exist (the chart did not create it)',
        'url': 'https://github.com/jameswynn/helm-charts/issues/14',
        'reported': 'Pods "homepage-77cdf87bbc-" is forbidden: error looking up service account default/homepage: serviceaccount "homepage" not found:Deployment does not have minimum availability.',
        'target': 'ns/default',
        'expect': {'first': 'admission.rejected', 'decisive': 'serviceaccount "homepage" not found'}}, objs)

# =====================================================================================
# 18. Deployment creates no pod: the PriorityClass it names does not exist (yet)
# =====================================================================================
def case_priorityclass_missing():
    n = nxt()
    nodes = [node_with('ip-10-3-%d-21.eu-west-2.compute.internal' % i, 'eu-west-2%s' % z, kubelet='v1.30.6') for i, z in ((1, 'a'), (2, 'b'))]
    names = [x['metadata']['name'] for x in nodes]
    img = 'docker.io/istio/citadel:1.4.3'
    d, rs = deploy('istio-citadel', 'istio-system', {'app': 'security', 'istio': 'citadel'}, 1, {'priorityClassName': 'gsp-critical', 'serviceAccountName': 'istio-citadel-service-account',
                   'containers': [{'name': 'citadel', 'image': img}]}, '59fc7bfdbf', ready=0, available=0, created=5400, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(5399), 'lastTransitionTime': ago(5399)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "istio-citadel-59fc7bfdbf" has timed out progressing.', 'lastUpdateTime': ago(4790), 'lastTransitionTime': ago(4790)}])
    msg = 'pods "istio-citadel-59fc7bfdbf-" is forbidden: no PriorityClass with name gsp-critical was found'
    rs_failed(d, rs, msg, 5398)
    pcs = []
    for name, val, desc in (('system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'),
                            ('system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'),
                            ('gsp-default', 1000, 'Default priority for tenant workloads.')):
        pc = _meta('PriorityClass', 'scheduling.k8s.io/v1', name, None, 86400 * 200)
        pc.update({'value': val, 'globalDefault': False, 'description': desc, 'preemptionPolicy': 'PreemptLowerPriority'})
        pcs.append(pc)
    others = []
    for comp, image, h in (('istio-pilot', 'docker.io/istio/pilot:1.4.3', '6c9b7d8f4'), ('istio-galley', 'docker.io/istio/galley:1.4.3', '7d8c6b9f5')):
        od, ors = deploy(comp, 'istio-system', {'app': comp}, 1, {'containers': [{'name': comp.split('-')[1], 'image': image}]}, h, created=5400)
        others += [od, ors, mkpod('%s-%s-%s' % (comp, h, hexid(comp, 5).replace('0', 'k')), 'istio-system', names[len(others) % 2], [{'name': comp.split('-')[1], 'image': image}],
                                  [running(comp.split('-')[1], image, 5300)], owner=('ReplicaSet', ors['metadata']['name']), created=5380, labels={'app': comp, 'pod-template-hash': h})]
    glog = ['2026-11-21T09:%02d:%02d.%06dZ\terror\tvalidation\tFailed to fetch CA bundle: secrets "istio-ca-secret" not found' % (10 + i * 6, i * 7, i * 9871) for i in range(8)]
    objs = [ns('istio-system'), *nodes, *pcs, d, rs, *others, serviceaccount('istio-citadel-service-account', 'istio-system', 5400), *kube_system_pods(names),
            podlog('istio-system', others[2]['metadata']['name'], 'pilot', glog, previous=False),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set istio-citadel-59fc7bfdbf from 0 to 1', 'deployment-controller', 'Normal', last=5399),
            ctrl_ev(rs, 'FailedCreate', 'Error creating: ' + msg, 'replicaset-controller', count=61, last=33, first=3400)]
    write(n, 'st-priorityclass-missing', {
        'title': 'Deployment has no pod: priorityClassName gsp-critical does not exist, the Priority admission plugin refuses every pod',
        'url': 'https://github.com/alphagov/gsp/pull/843',
        'reported': 'pods "istio-citadel-59fc7bfdbf-" is forbidden: no PriorityClass with name gsp-critical was found',
        'target': 'ns/istio-system',
        'expect': {'first': 'admission.rejected', 'decisive': 'no PriorityClass with name gsp-critical was found'}}, objs)

# =====================================================================================
# 19. Pending: DoNotSchedule zone spread with one zone out of capacity holds back the other zones
# =====================================================================================
def case_topology_spread():
    n = nxt()
    nodes = []
    for z in ('a', 'b', 'c'):
        for i in (1, 2):
            nodes.append(node_with('ip-10-8-%d%d-1%d.us-west-2.compute.internal' % (ord(z) - 96, i, i), 'us-west-2' + z, kubelet='v1.30.6', alloc={'cpu': '3920m', 'memory': '14Gi', 'pods': '58'}, instance='m5.xlarge'))
    names = [x['metadata']['name'] for x in nodes]
    img = 'registry.k8s.io/pause:3.9'
    tsc = [{'maxSkew': 1, 'topologyKey': 'topology.kubernetes.io/zone', 'whenUnsatisfiable': 'DoNotSchedule', 'labelSelector': {'matchLabels': {'role': 'donotschedule'}}}]
    cont = [{'name': 'pause', 'image': img, 'resources': {'requests': {'cpu': '500m', 'memory': '64Mi'}}}]
    d, rs = deploy('donotschedule', 'kube-public', {'role': 'donotschedule'}, 9, {'topologySpreadConstraints': tsc, 'containers': cont}, '69fb6f5469', ready=2, updated=9, available=2, created=1500, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(1499), 'lastTransitionTime': ago(1499)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "donotschedule-69fb6f5469" has timed out progressing.', 'lastUpdateTime': ago(890), 'lastTransitionTime': ago(890)}])
    rs['status'] = {'replicas': 9, 'fullyLabeledReplicas': 9, 'readyReplicas': 2, 'availableReplicas': 2, 'observedGeneration': 1}
    run = [mkpod('donotschedule-69fb6f5469-%s' % s_, 'kube-public', names[k], cont, [running('pause', img, 1480)], owner=('ReplicaSet', rs['metadata']['name']), created=1500,
                 labels={'role': 'donotschedule', 'pod-template-hash': '69fb6f5469'}, spec_extra={'topologySpreadConstraints': tsc}) for s_, k in (('4kffs', 2), ('r8sfc', 4))]
    msg = ("0/6 nodes are available: 2 Insufficient cpu, 4 node(s) didn't match pod topology spread constraints. preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, "
           "4 Preemption is not helpful for scheduling.")
    pend = [pending_pod('donotschedule-69fb6f5469-%s' % s_, 'kube-public', msg, cont, owner=('ReplicaSet', rs['metadata']['name']), created=1500, labels={'role': 'donotschedule', 'pod-template-hash': '69fb6f5469'},
                        spec_extra={'topologySpreadConstraints': tsc}) for s_ in ('bfn46', 'dvfbn', 'frprz', 'qsb75', 'spdlv', 'wmhhq', 'zbrs7')]
    # zone a is full of batch work
    bimg = REG + '/analytics/spark-executor:3.5.3'
    busy = [mkpod('spark-exec-%d-%s' % (i, s_), 'analytics', names[i // 2], [{'name': 'executor', 'image': bimg, 'resources': {'requests': {'cpu': '3500m', 'memory': '10Gi'}}}],
                  [running('executor', bimg, 5400)], owner=('ReplicaSet', 'spark-exec-7f6d5c4b3'), created=5420, labels={'app': 'spark-exec'}) for i, s_ in ((0, 'k2m9x'), (1, 'p8v3q'))]
    objs = [ns('kube-public'), ns('analytics'), *nodes, d, rs, *run, *pend, *busy, *kube_system_pods(names),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set donotschedule-69fb6f5469 from 0 to 9', 'deployment-controller', 'Normal', last=1500),
            ctrl_ev(rs, 'SuccessfulCreate', '(combined from similar events): Created pod: donotschedule-69fb6f5469-zbrs7', 'replicaset-controller', 'Normal', count=9, last=1499, first=1500)]
    for x in run: objs += [scheduled(x, x['spec']['nodeName'], 1499), *started(x, x['spec']['nodeName'], img, 'pause', 1497, present=True)]
    for i, x in enumerate(pend): objs.append(failed_scheduling(x, msg, 19 + i % 3, 40 + i * 7, 1499))
    write(n, 'st-topology-spread-bad-az', {
        'title': 'Pending: a DoNotSchedule zone spread (maxSkew 1) keeps 7 of 9 replicas out of the two healthy zones because the third zone is full',
        'url': 'https://github.com/kubernetes/kubernetes/issues/116978',
        'reported': 'donotschedule-69fb6f5469-bfn46   0/1     Pending   0          7s',
        'target': 'kube-public/donotschedule-69fb6f5469-bfn46',
        'expect': {'first': 'pending.topology-spread', 'decisive': "didn't match pod topology spread constraints"}}, objs)

# =====================================================================================
# 20. Pending: the claim is bound to an EBS volume in us-east-2a, no node is left in that zone
# =====================================================================================
def case_zonal_pv():
    n = nxt()
    B1 = 'ip-10-40-71-33.us-east-2.compute.internal'; C1 = 'ip-10-40-98-170.us-east-2.compute.internal'; S1 = 'ip-10-40-99-5.us-east-2.compute.internal'
    nodes = [node_with(B1, 'us-east-2b', 'aws:///us-east-2b/i-0d3c4b5a69788f1e2', labels={'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'on-demand'}),
             node_with(C1, 'us-east-2c', 'aws:///us-east-2c/i-07b6a5f4e3d2c1b0a', labels={'karpenter.sh/nodepool': 'default', 'karpenter.sh/capacity-type': 'on-demand'}),
             node_with(S1, 'us-east-2c', 'aws:///us-east-2c/i-0c2b1a0f9e8d7c6b5', labels={'eks.amazonaws.com/nodegroup': 'system'}, taints=[{'key': 'CriticalAddonsOnly', 'value': 'true', 'effect': 'NoSchedule'}])]
    gp2 = storageclass('gp2', 'kubernetes.io/aws-ebs', 'WaitForFirstConsumer', default=True, params={'type': 'gp2', 'fsType': 'ext4'})
    img = 'concourse/concourse:7.12.0'
    tmpl = {'containers': [{'name': 'concourse-worker', 'image': img, 'args': ['worker'], 'resources': {'requests': {'cpu': '1', 'memory': '2Gi'}}}]}
    s = sts('concourse-worker', 'concourse', {'app': 'concourse-worker', 'release': 'concourse'}, 2, tmpl, ready=1, current=2, vct=[vct('concourse-work-dir', 'gp2', '80Gi')], created=86400 * 200)
    pvs, claims = [], []
    for i, (zone, vol) in enumerate((('us-east-2b', 'vol-0c4d5e6f7a8b9c0d1'), ('us-east-2a', 'vol-0bbb63e3750d7e826'))):
        pvn = ['pvc-2b9d4c61-8e7f-4a3b-b1c2-d3e4f5a6b7c8', 'pvc-746adf38-9a7f-451b-a1c8-a406b6c6afe5'][i]
        c = claim('concourse-work-dir-concourse-worker-%d' % i, 'concourse', 'gp2', 'Bound', '80Gi', volume=pvn, created=86400 * 200, provisioner='ebs.csi.aws.com',
                  extra_ann={'volume.kubernetes.io/selected-node': 'ip-10-40-%d-%d.us-east-2.compute.internal' % (30 + i * 40, 11 + i)}, labels={'app': 'concourse-worker'})
        c['metadata']['uid'] = pvn[4:]
        v = pv(pvn, c, storage_class='gp2', size='80Gi', node_affinity={'required': {'nodeSelectorTerms': [{'matchExpressions': [
            {'key': 'topology.kubernetes.io/zone', 'operator': 'In', 'values': [zone]}, {'key': 'topology.kubernetes.io/region', 'operator': 'In', 'values': ['us-east-2']}]}]}})
        del v['spec']['csi']; v['spec']['awsElasticBlockStore'] = {'volumeID': 'aws://%s/%s' % (zone, vol), 'fsType': 'ext4'}
        v['metadata']['labels'] = {'topology.kubernetes.io/region': 'us-east-2', 'topology.kubernetes.io/zone': zone}
        v['metadata']['annotations'] = {'kubernetes.io/createdby': 'aws-ebs-dynamic-provisioner', 'pv.kubernetes.io/bound-by-controller': 'yes', 'pv.kubernetes.io/provisioned-by': 'kubernetes.io/aws-ebs'}
        pvs.append(v); claims.append(c)
    w0 = mkpod('concourse-worker-0', 'concourse', B1, tmpl['containers'], [running('concourse-worker', img, 86400 * 2)], owner=('StatefulSet', 'concourse-worker'), created=86400 * 2,
               labels={'app': 'concourse-worker', 'statefulset.kubernetes.io/pod-name': 'concourse-worker-0'}, spec_extra={'volumes': [{'name': 'concourse-work-dir', 'persistentVolumeClaim': {'claimName': 'concourse-work-dir-concourse-worker-0'}}]})
    msg = ("0/3 nodes are available: 1 node(s) had untolerated taint {CriticalAddonsOnly: true}, 2 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.")
    w1 = pending_pod('concourse-worker-1', 'concourse', msg, tmpl['containers'], owner=('StatefulSet', 'concourse-worker'), created=3 * 3600,
                     labels={'app': 'concourse-worker', 'statefulset.kubernetes.io/pod-name': 'concourse-worker-1'}, spec_extra={'volumes': [{'name': 'concourse-work-dir', 'persistentVolumeClaim': {'claimName': 'concourse-work-dir-concourse-worker-1'}}]})
    kimg = 'public.ecr.aws/karpenter/controller:1.0.8'
    kp = mkpod('karpenter-7d9c6b5f8-h4x2m', 'kube-system', S1, [{'name': 'controller', 'image': kimg}], [running('controller', kimg, 86400 * 6)], owner=('ReplicaSet', 'karpenter-7d9c6b5f8'), created=86400 * 6,
               labels={'app.kubernetes.io/name': 'karpenter', 'pod-template-hash': '7d9c6b5f8'}, spec_extra={'tolerations': [{'key': 'CriticalAddonsOnly', 'operator': 'Exists'}]})
    np_ = {'apiVersion': 'karpenter.sh/v1', 'kind': 'NodePool', 'metadata': {'name': 'default', 'uid': uid('np-default'), 'creationTimestamp': ago(86400 * 90)},
           'spec': {'template': {'spec': {'requirements': [{'key': 'topology.kubernetes.io/zone', 'operator': 'In', 'values': ['us-east-2b', 'us-east-2c']},
                                                           {'key': 'karpenter.sh/capacity-type', 'operator': 'In', 'values': ['on-demand']}], 'nodeClassRef': {'group': 'karpenter.k8s.aws', 'kind': 'EC2NodeClass', 'name': 'default'}}},
                    'disruption': {'consolidationPolicy': 'WhenEmptyOrUnderutilized', 'consolidateAfter': '1m'}},
           'status': {'conditions': [{'type': 'Ready', 'status': 'True', 'reason': 'Ready', 'message': '', 'lastTransitionTime': ago(86400 * 20)}]}}
    klog = ['{"level":"INFO","time":"2026-11-21T07:02:%02d.%03dZ","logger":"controller","message":"disrupting nodeclaim(s) via delete, terminating 1 nodes (1 pods) ip-10-40-70-12.us-east-2.compute.internal/m6i.large/on-demand","commit":"a1b2c3d","controller":"disruption","command-id":"%s","reason":"underutilized"}' % (11, 512, uid('cmd1'))]
    for i in range(10):
        klog.append('{"level":"ERROR","time":"2026-11-21T09:%02d:%02d.%03dZ","logger":"controller","message":"could not schedule pod","commit":"a1b2c3d","controller":"provisioner","Pod":{"name":"concourse-worker-1","namespace":"concourse"},"error":"incompatible with nodepool \\"default\\", daemonset overhead={\\"cpu\\":\\"180m\\",\\"memory\\":\\"220Mi\\",\\"pods\\":\\"4\\"}, incompatible requirements, key topology.kubernetes.io/zone, topology.kubernetes.io/zone In [us-east-2a] not in topology.kubernetes.io/zone In [us-east-2b us-east-2c]"}' % (5 * i + 8, 13 + i, 100 + 37 * i))
    objs = [ns('concourse'), ns('kube-system'), *nodes, gp2, s, *claims, *pvs, w0, w1, kp, np_, *kube_system_pods([B1, C1]),
            podlog('kube-system', 'karpenter-7d9c6b5f8-h4x2m', 'controller', klog, previous=False),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod concourse-worker-1 in StatefulSet concourse-worker successful', 'statefulset-controller', 'Normal', last=3 * 3600),
            failed_scheduling(w1, msg, 212, 28, 3 * 3600 - 2)]
    write(n, 'st-zonal-pv-other-zone', {
        'title': 'Pending: concourse-worker-1\'s EBS volume lives in us-east-2a and every schedulable node is in 2b or 2c',
        'url': 'https://github.com/aws/karpenter-provider-aws/issues/2971',
        'reported': 'Pod stuck pending with volume node affinity conflict',
        'target': 'concourse/concourse-worker-1',
        'expect': {'first': 'pending.pvc', 'decisive': '2 node(s) had volume node affinity conflict'}}, objs)

# =====================================================================================
# 21. CoreDNS creates no pod: a LimitRange in kube-system demands 90Mi, CoreDNS requests 70Mi
# =====================================================================================
def case_limitrange():
    n = nxt()
    nodes = [node_with('pixiu-%s' % x, kubelet='v1.30.6') for x in ('master', 'node1', 'node2')]
    names = [x['metadata']['name'] for x in nodes]
    lr = _meta('LimitRange', 'v1', 'kube-system-limits', 'kube-system', 3 * 3600)
    lr['spec'] = {'limits': [{'type': 'Container', 'min': {'memory': '90Mi', 'cpu': '50m'}, 'max': {'memory': '2Gi', 'cpu': '2'}, 'default': {'memory': '256Mi', 'cpu': '500m'}, 'defaultRequest': {'memory': '128Mi', 'cpu': '100m'}}]}
    img = 'registry.k8s.io/coredns/coredns:v1.11.1'
    tmpl = {'priorityClassName': 'system-cluster-critical', 'serviceAccountName': 'coredns',
            'containers': [{'name': 'coredns', 'image': img, 'args': ['-conf', '/etc/coredns/Corefile'], 'resources': {'limits': {'memory': '170Mi'}, 'requests': {'cpu': '100m', 'memory': '70Mi'}}}]}
    d, rs = deploy('coredns', 'kube-system', {'k8s-app': 'kube-dns'}, 2, tmpl, '546565776c', ready=0, available=0, created=3 * 3600 - 200, generation=1,
                   conditions=[{'type': 'Available', 'status': 'False', 'reason': 'MinimumReplicasUnavailable', 'message': 'Deployment does not have minimum availability.', 'lastUpdateTime': ago(3 * 3600 - 200), 'lastTransitionTime': ago(3 * 3600 - 200)},
                               {'type': 'Progressing', 'status': 'False', 'reason': 'ProgressDeadlineExceeded', 'message': 'ReplicaSet "coredns-546565776c" has timed out progressing.', 'lastUpdateTime': ago(3 * 3600 - 800), 'lastTransitionTime': ago(3 * 3600 - 800)}])
    rs_failed(d, rs, 'pods "coredns-546565776c-f6r98" is forbidden: minimum memory usage per Container is 90Mi, but request is 70Mi', 3 * 3600 - 200)
    evs = []
    for i, s_ in enumerate(('dhbcc', 'x7k2m', 'q9w4r')):
        evs.append(ctrl_ev(rs, 'FailedCreate', 'Error creating: pods "coredns-546565776c-%s" is forbidden: minimum memory usage per Container is 90Mi, but request is 70Mi' % s_, 'replicaset-controller', last=3300 - i * 40))
    evs.append(ctrl_ev(rs, 'FailedCreate', '(combined from similar events): Error creating: pods "coredns-546565776c-f6r98" is forbidden: minimum memory usage per Container is 90Mi, but request is 70Mi',
                       'replicaset-controller', count=48, last=62, first=3200))
    cimg = 'docker.io/calico/node:v3.28.2'
    calico = [mkpod('calico-node-%s' % s_, 'kube-system', names[i], [{'name': 'calico-node', 'image': cimg}], [running('calico-node', cimg, 3 * 3600 - 100)], owner=('DaemonSet', 'calico-node'),
                    created=3 * 3600 - 120, labels={'k8s-app': 'calico-node'}) for i, s_ in enumerate(('9xk2p', 'm4q7w', 'z8c3v'))]
    kp = []
    for i, nm in enumerate(names):
        kimg = 'registry.k8s.io/kube-proxy:v1.30.6'
        kp.append(mkpod('kube-proxy-%s' % ('fq2kd', 'lw8nb', 'rt5vx')[i], 'kube-system', nm, [{'name': 'kube-proxy', 'image': kimg}], [running('kube-proxy', kimg, 3 * 3600 - 150)], owner=('DaemonSet', 'kube-proxy'),
                         created=3 * 3600 - 160, labels={'k8s-app': 'kube-proxy'}))
    aimg = REG + '/demo/api:1.0.3'
    ap = mkpod('demo-api-6b7c8d9f5-v2k8m', 'default', 'pixiu-node1', [{'name': 'api', 'image': aimg}],
               [running('api', aimg, 300, restarts=14, ready=False, last={'exitCode': 1, 'reason': 'Error', 'startedAt': ago(640), 'finishedAt': ago(610), 'containerID': 'containerd://' + hexid('api14')})],
               owner=('ReplicaSet', 'demo-api-6b7c8d9f5'), created=2 * 3600, labels={'app': 'demo-api', 'pod-template-hash': '6b7c8d9f5'})
    alog = ['2026-11-21 09:49:31 INFO  Starting demo-api 1.0.3', '2026-11-21 09:49:31 INFO  Connecting to postgres at db.default.svc.cluster.local:5432',
            '2026-11-21 09:49:41 WARN  dial tcp: lookup db.default.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.17:48112->10.96.0.10:53: i/o timeout (attempt 1/3)',
            '2026-11-21 09:49:51 WARN  dial tcp: lookup db.default.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.17:40331->10.96.0.10:53: i/o timeout (attempt 2/3)',
            '2026-11-21 09:50:01 ERROR dial tcp: lookup db.default.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.17:51902->10.96.0.10:53: i/o timeout (attempt 3/3)',
            '2026-11-21 09:50:01 FATAL cannot reach database, exiting']
    kdns = svc('kube-dns', 'kube-system', {'k8s-app': 'kube-dns'}, [('dns', 53, 53), ('dns-tcp', 53, 53), ('metrics', 9153, 9153)], '10.96.0.10')
    objs = [ns('kube-system'), ns('default'), *nodes, lr, d, rs, *calico, *kp, ap, kdns, eps('kube-dns', 'kube-system', [], []), serviceaccount('coredns', 'kube-system', 3 * 3600),
            podlog('default', ap['metadata']['name'], 'api', alog, previous=True),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set coredns-546565776c from 0 to 2', 'deployment-controller', 'Normal', last=3 * 3600 - 200),
            *evs,
            ev(ap, 'BackOff', 'Back-off restarting failed container api in pod demo-api-6b7c8d9f5-v2k8m_default(%s)' % ap['metadata']['uid'], count=60, last=310, first=3500, host='pixiu-node1', fieldPath='spec.containers{api}')]
    write(n, 'st-limitrange-coredns-min', {
        'title': 'CoreDNS has no pod: a kube-system LimitRange requires 90Mi per container and CoreDNS requests 70Mi',
        'url': 'https://github.com/pixiu-io/kubez-ansible/issues/11',
        'reported': 'Error creating: pods "coredns-546565776c-f6r98" is forbidden: minimum memory usage per Container is 90Mi, but request is 70Mi',
        'target': 'kube-system/coredns-546565776c-f6r98',
        'expect': {'first': 'admission.rejected', 'decisive': 'minimum memory usage per Container is 90Mi, but request is 70Mi'}}, objs)

# =====================================================================================
# 22. ProvisioningFailed: the GCP region's SSD quota is used up
# =====================================================================================
def case_gce_quota():
    n = nxt()
    nodes = [node_with('gke-mongo-default-pool-3a1b2c4d-%s' % s_, kubelet='v1.30.5-gke.1443001', labels={'cloud.google.com/gke-nodepool': 'default-pool', 'topology.kubernetes.io/zone': 'us-west1-%s' % z, 'topology.kubernetes.io/region': 'us-west1'})
             for s_, z in (('7fj2', 'a'), ('k9m4', 'b'), ('q2x8', 'c'))]
    names = [x['metadata']['name'] for x in nodes]
    fast = storageclass('fast', 'pd.csi.storage.gke.io', 'Immediate', params={'type': 'pd-ssd'})
    std = storageclass('standard-rwo', 'pd.csi.storage.gke.io', 'WaitForFirstConsumer', default=True, params={'type': 'pd-balanced'})
    img = 'mongo:7.0.14'; simg = 'cvallance/mongo-k8s-sidecar:latest'
    tmpl = {'terminationGracePeriodSeconds': 10, 'containers': [{'name': 'mongo', 'image': img, 'command': ['mongod', '--replSet', 'rs0', '--bind_ip_all']}, {'name': 'mongo-sidecar', 'image': simg}]}
    s = sts('mongo', 'default', {'role': 'mongo', 'environment': 'test'}, 3, tmpl, ready=1, current=2, vct=[vct('mongo-persistent-storage', 'fast', '100Gi')], created=3 * 3600)
    pv0 = 'pvc-1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'
    c0 = claim('mongo-persistent-storage-mongo-0', 'default', 'fast', 'Bound', '100Gi', volume=pv0, created=3 * 3600, provisioner='pd.csi.storage.gke.io')
    v0 = pv(pv0, c0, driver='pd.csi.storage.gke.io', handle='projects/mongo-codelab/zones/us-west1-a/disks/%s' % pv0, size='100Gi', storage_class='fast',
            node_affinity={'required': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'topology.gke.io/zone', 'operator': 'In', 'values': ['us-west1-a']}]}]}})
    c1 = claim('mongo-persistent-storage-mongo-1', 'default', 'fast', 'Pending', '100Gi', created=3 * 3600 - 50, provisioner='pd.csi.storage.gke.io')
    pv1 = 'pvc-' + c1['metadata']['uid']
    m0 = mkpod('mongo-0', 'default', names[0], tmpl['containers'], [running('mongo', img, 3 * 3600 - 60), running('mongo-sidecar', simg, 3 * 3600 - 58)], owner=('StatefulSet', 'mongo'), created=3 * 3600 - 5,
               labels={'role': 'mongo', 'environment': 'test', 'statefulset.kubernetes.io/pod-name': 'mongo-0'}, spec_extra={'volumes': [{'name': 'mongo-persistent-storage', 'persistentVolumeClaim': {'claimName': 'mongo-persistent-storage-mongo-0'}}]})
    msg = '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.'
    m1 = pending_pod('mongo-1', 'default', msg, tmpl['containers'], owner=('StatefulSet', 'mongo'), created=3 * 3600 - 50,
                     labels={'role': 'mongo', 'environment': 'test', 'statefulset.kubernetes.io/pod-name': 'mongo-1'}, spec_extra={'volumes': [{'name': 'mongo-persistent-storage', 'persistentVolumeClaim': {'claimName': 'mongo-persistent-storage-mongo-1'}}]})
    prov = 'pd.csi.storage.gke.io_gke-3f9e1d2c7b6a4e58a1d0-c2e4-f6a8-vm_8c4e2a7b-1d3f-4b5e-9a6c-2e8f0b1d3c5a'
    fail = ('failed to provision volume with StorageClass "fast": rpc error: code = ResourceExhausted desc = CreateVolume failed to create single zonal disk %s: failed to insert zonal disk: '
            'unknown Insert disk error: googleapi: Error 403: Quota \'SSD_TOTAL_GB\' exceeded.  Limit: 100.0 in region us-west1., quotaExceeded') % pv1
    sidelog = ['Using mongo port 27017', 'Starting up mongo-k8s-sidecar', 'The cluster domain \'cluster.local\' was successfully verified.']
    for i in range(12):
        sidelog.append('Addresses to add:    [ \'mongo-1.mongo.default.svc.cluster.local:27017\' ]' if i % 3 == 0 else 'Error in workloop { MongoServerSelectionError: connect ECONNREFUSED mongo-1.mongo.default.svc.cluster.local:27017')
    objs = [ns('default'), *nodes, fast, std, s, c0, v0, c1, m0, m1, *kube_system_pods(names),
            podlog('default', 'mongo-0', 'mongo-sidecar', sidelog, previous=False),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim mongo-persistent-storage-mongo-1 Pod mongo-1 in StatefulSet mongo success', 'statefulset-controller', 'Normal', last=3 * 3600 - 50),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod mongo-1 in StatefulSet mongo successful', 'statefulset-controller', 'Normal', last=3 * 3600 - 50),
            ev(c1, 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'pd.csi.storage.gke.io' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", 'Normal', count=702, last=11, first=3 * 3600 - 49, component='persistentvolume-controller'),
            ev(c1, 'Provisioning', 'External provisioner is provisioning volume for claim "default/mongo-persistent-storage-mongo-1"', 'Normal', count=60, last=104, first=3 * 3600 - 48, component=prov),
            ev(c1, 'ProvisioningFailed', fail, count=60, last=101, first=3 * 3600 - 45, component=prov),
            ev(c0, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pv0, 'Normal', last=3 * 3600 - 2, component=prov),
            failed_scheduling(m1, msg, 181, 30, 3 * 3600 - 49)]
    write(n, 'st-gce-pd-ssd-quota', {
        'title': 'Pending: the second replica\'s SSD disk cannot be created, the region\'s SSD_TOTAL_GB quota (100 GB) is used up',
        'url': 'https://github.com/googlecodelabs/feedback/issues/440',
        'reported': 'Failed to provision volume with StorageClass "fast": googleapi: Error 403: Quota \'SSD_TOTAL_GB\' exceeded. Limit: 100.0 in region us-west1., quotaExceeded',
        'target': 'default/mongo-1',
        'expect': {'first': 'pending.pvc', 'decisive': "Quota 'SSD_TOTAL_GB' exceeded"}}, objs)

# =====================================================================================
# Negatives: healthy pods with real, benign noise
# =====================================================================================
def neg_transient_provisioning():
    n = nxt()
    nodes = [node_with('ceph-wk-%d' % i, kubelet='v1.31.4') for i in (1, 2, 3)]
    names = [x['metadata']['name'] for x in nodes]
    sc = storageclass('ceph-rbd', 'rbd.csi.ceph.com', 'Immediate', default=True, params={'clusterID': 'b9127830-b0cc-4e34-aa47-9d1a2e9949a8', 'pool': 'replicapool', 'csi.storage.k8s.io/fstype': 'ext4'})
    img = 'docker.io/bitnami/postgresql:16.4.0-debian-12-r14'
    tmpl = {'securityContext': {'fsGroup': 1001, 'fsGroupChangePolicy': 'OnRootMismatch'}, 'containers': [{'name': 'postgresql', 'image': img, 'readinessProbe': {'exec': {'command': ['/bin/sh', '-c', 'pg_isready -U postgres']}}}]}
    s = sts('postgres', 'db', {'app.kubernetes.io/name': 'postgresql'}, 1, tmpl, ready=1, vct=[vct('data', 'ceph-rbd', '20Gi')], created=3400)
    pvn = 'pvc-9c8b7a6d-5e4f-4321-8a9b-0c1d2e3f4a5b'
    c = claim('data-postgres-0', 'db', 'ceph-rbd', 'Bound', '20Gi', volume=pvn, created=3390, provisioner='rbd.csi.ceph.com', labels={'app.kubernetes.io/name': 'postgresql'})
    c['metadata']['uid'] = pvn[4:]
    v = pv(pvn, c, driver='rbd.csi.ceph.com', handle='0001-0024-b9127830-b0cc-4e34-aa47-9d1a2e9949a8-0000000000000002-7f3e2a1c-a7b1-11ef-9c2d-5e8f1a2b3c4d', size='20Gi', storage_class='ceph-rbd')
    va = volumeattachment(pvn, names[1], attacher='rbd.csi.ceph.com', attached=True, created=3270)
    p = mkpod('postgres-0', 'db', names[1], tmpl['containers'], [running('postgresql', img, 3240)], owner=('StatefulSet', 'postgres'), created=3385,
              labels={'app.kubernetes.io/name': 'postgresql', 'statefulset.kubernetes.io/pod-name': 'postgres-0', 'apps.kubernetes.io/pod-index': '0'},
              spec_extra={'securityContext': tmpl['securityContext'], 'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'data-postgres-0'}}]})
    prov = 'rbd.csi.ceph.com_csi-rbdplugin-provisioner-5d8f7c6b9-xk2lp_0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b'
    plog = ['postgresql 09:06:21.44 INFO  ==> ** Starting PostgreSQL setup **', 'postgresql 09:06:21.51 INFO  ==> Validating settings in POSTGRESQL_* env vars..',
            'postgresql 09:06:21.52 INFO  ==> Loading custom pre-init scripts...', 'postgresql 09:06:21.53 INFO  ==> Initializing PostgreSQL database...',
            'postgresql 09:06:23.02 INFO  ==> Starting PostgreSQL in background...', 'postgresql 09:06:23.44 INFO  ==> Changing password of postgres',
            'postgresql 09:06:23.51 INFO  ==> Loading custom scripts...', 'postgresql 09:06:23.52 INFO  ==> Enabling remote connections',
            'postgresql 09:06:23.55 INFO  ==> Stopping PostgreSQL...', 'waiting for server to shut down.... done', 'server stopped',
            'postgresql 09:06:23.71 INFO  ==> ** PostgreSQL setup finished! **', 'postgresql 09:06:23.74 INFO  ==> ** Starting PostgreSQL **',
            '2026-11-21 09:06:23.801 GMT [1] LOG:  starting PostgreSQL 16.4 on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit',
            '2026-11-21 09:06:23.802 GMT [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432',
            '2026-11-21 09:06:23.811 GMT [1] LOG:  database system is ready to accept connections',
            '2026-11-21 09:36:23.902 GMT [112] LOG:  checkpoint starting: time', '2026-11-21 09:36:24.118 GMT [112] LOG:  checkpoint complete: wrote 3 buffers (0.0%); 0 WAL file(s) added, 0 removed, 0 recycled']
    objs = [ns('db'), *nodes, sc, s, c, v, va, p, *kube_system_pods(names), podlog('db', 'postgres-0', 'postgresql', plog, previous=False),
            ctrl_ev(s, 'SuccessfulCreate', 'create Claim data-postgres-0 Pod postgres-0 in StatefulSet postgres success', 'statefulset-controller', 'Normal', last=3390),
            ctrl_ev(s, 'SuccessfulCreate', 'create Pod postgres-0 in StatefulSet postgres successful', 'statefulset-controller', 'Normal', last=3385),
            ev(c, 'ExternalProvisioning', "Waiting for a volume to be created either by the external provisioner 'rbd.csi.ceph.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", 'Normal', count=4, last=3300, first=3389, component='persistentvolume-controller'),
            ev(c, 'Provisioning', 'External provisioner is provisioning volume for claim "db/data-postgres-0"', 'Normal', count=2, last=3320, first=3388, component=prov),
            ev(c, 'ProvisioningFailed', 'failed to provision volume with StorageClass "ceph-rbd": rpc error: code = Aborted desc = an operation with the given Volume ID %s already exists' % pvn, count=1, last=3330, component=prov),
            ev(c, 'ProvisioningSucceeded', 'Successfully provisioned volume %s' % pvn, 'Normal', last=3290, component=prov),
            failed_scheduling(p, '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.', 2, 3300, 3384),
            scheduled(p, names[1], 3285),
            ev(p, 'SuccessfulAttachVolume', 'AttachVolume.Attach succeeded for volume "%s"' % pvn, 'Normal', last=3268, component='attachdetach-controller'),
            *started(p, names[1], img, 'postgresql', 3260)]
    write(n, 'st-neg-sts-transient-provisioning', {
        'title': 'Healthy: postgres-0 Ready for 54 minutes; its claim logged one ProvisioningFailed (Aborted, operation already exists) before it was provisioned',
        'url': 'https://github.com/kubernetes/kubernetes/issues/37377',
        'reported': 'Warning         ProvisioningFailed      Failed to provision volume with StorageClass "cephrbdprovisioner": rbd: create volume failed, err: exit status 1',
        'target': 'db/postgres-0',
        'expect': {'first': None}}, objs)

def neg_job_retry_completed():
    n = nxt()
    N1 = 'worker-a3'
    nd = node_with(N1, kubelet='v1.31.4')
    img = REG + '/billing/migrate:2026.11.3'
    tspec = {'restartPolicy': 'Never', 'containers': [{'name': 'migrate', 'image': img, 'args': ['up', '--database-url=$(DATABASE_URL)'], 'envFrom': [{'secretRef': {'name': 'billing-db'}}]}]}
    j = job('billing-migrate-2026-11-3', 'billing', tspec, {'app': 'billing-migrate'}, created=1900, backoff=6, status={
        'startTime': ago(1900), 'completionTime': ago(1710), 'succeeded': 1, 'failed': 1, 'ready': 0, 'terminating': 0, 'uncountedTerminatedPods': {},
        'conditions': [{'type': 'SuccessCriteriaMet', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(1710), 'lastTransitionTime': ago(1710)},
                       {'type': 'Complete', 'status': 'True', 'reason': 'CompletionsReached', 'message': 'Reached expected number of succeeded pods', 'lastProbeTime': ago(1710), 'lastTransitionTime': ago(1710)}]})
    jn = 'billing-migrate-2026-11-3'
    lab = {'app': 'billing-migrate', 'job-name': jn, 'batch.kubernetes.io/job-name': jn}
    failed = mkpod(jn + '-8vq2m', 'billing', N1, tspec['containers'], [terminated('migrate', img, 1, 'Error', 1895, 1866)], owner=('Job', jn), created=1898, phase='Failed', labels=lab,
                   spec_extra={'restartPolicy': 'Never'}, ready=False)
    ok = mkpod(jn + '-t4kz7', 'billing', N1, tspec['containers'], [terminated('migrate', img, 0, 'Completed', 1850, 1712)], owner=('Job', jn), created=1855, phase='Succeeded', labels=lab,
               spec_extra={'restartPolicy': 'Never'}, ready=False)
    for pp in (failed, ok):
        for c_ in pp['status']['conditions']:
            if c_['type'] in ('Ready', 'ContainersReady'): c_.update({'reason': 'PodFailed' if pp is failed else 'PodCompleted', 'message': ''})
    flog = ['2026-11-21T09:28:15Z INFO  billing-migrate 2026.11.3', '2026-11-21T09:28:15Z INFO  connecting to postgres://billing@billing-db.billing.svc:5432/billing',
            '2026-11-21T09:28:25Z WARN  connection attempt 1/3 failed: dial tcp 10.96.77.14:5432: connect: connection refused',
            '2026-11-21T09:28:35Z WARN  connection attempt 2/3 failed: dial tcp 10.96.77.14:5432: connect: connection refused',
            '2026-11-21T09:28:44Z ERROR connection attempt 3/3 failed: dial tcp 10.96.77.14:5432: connect: connection refused', '2026-11-21T09:28:44Z FATAL giving up']
    olog = ['2026-11-21T09:29:11Z INFO  billing-migrate 2026.11.3', '2026-11-21T09:29:11Z INFO  connecting to postgres://billing@billing-db.billing.svc:5432/billing',
            '2026-11-21T09:29:11Z INFO  connected (server 16.4)', '2026-11-21T09:29:12Z INFO  current version 20261102_01, target 20261121_03']
    olog += ['2026-11-21T09:%02d:%02dZ INFO  applying %s' % (29 + i // 4, (12 + i * 9) % 60, m) for i, m in enumerate(['20261105_01_add_invoice_tax_region', '20261109_01_backfill_tax_region', '20261114_02_index_invoice_due',
                                                                                                        '20261118_01_drop_legacy_discount', '20261121_01_currency_table', '20261121_02_fk_currency', '20261121_03_seed_currencies'])]
    olog += ['2026-11-21T09:31:28Z INFO  7 migrations applied in 2m16s', '2026-11-21T09:31:28Z INFO  done']
    dbimg = 'docker.io/bitnami/postgresql:16.4.0-debian-12-r14'
    db = mkpod('billing-db-0', 'billing', N1, [{'name': 'postgresql', 'image': dbimg}], [running('postgresql', dbimg, 1870)], owner=('StatefulSet', 'billing-db'), created=1905,
               labels={'app': 'billing-db', 'statefulset.kubernetes.io/pod-name': 'billing-db-0'})
    objs = [ns('billing'), nd, j, failed, ok, db, *kube_system_pods([N1]),
            podlog('billing', failed['metadata']['name'], 'migrate', flog, previous=False), podlog('billing', ok['metadata']['name'], 'migrate', olog, previous=False),
            ctrl_ev(j, 'SuccessfulCreate', 'Created pod: %s' % failed['metadata']['name'], 'job-controller', 'Normal', last=1898),
            ctrl_ev(j, 'SuccessfulCreate', 'Created pod: %s' % ok['metadata']['name'], 'job-controller', 'Normal', last=1855),
            ctrl_ev(j, 'Completed', 'Job completed', 'job-controller', 'Normal', last=1710),
            scheduled(failed, N1, 1897), *started(failed, N1, img, 'migrate', 1896), scheduled(ok, N1, 1854), *started(ok, N1, img, 'migrate', 1853, present=True),
            scheduled(db, N1, 1904), *started(db, N1, dbimg, 'postgresql', 1900),
            ev(db, 'Unhealthy', 'Readiness probe failed: 127.0.0.1:5432 - no response', count=3, last=1868, first=1888, host=N1, fieldPath='spec.containers{postgresql}')]
    write(n, 'st-neg-job-completed-after-retry', {
        'title': 'Healthy: a migration Job completed on its second pod; the first failed while the database was still starting (backoffLimit 6 not reached)',
        'url': 'https://github.com/kubernetes/kubernetes/issues/96630',
        'reported': 'This is expected behaviour, the reason you have more than 2 failed pods is due to the fact that the backoff count can get reset when a pod exits successfully.',
        'target': 'billing/%s' % ok['metadata']['name'],
        'expect': {'first': None}}, objs)

def neg_rollout_autoscaler():
    n = nxt()
    olds = ['ip-10-12-%d-%d.eu-west-1.compute.internal' % (i, 40 + i) for i in (11, 12, 13)]
    new = 'ip-10-12-14-77.eu-west-1.compute.internal'
    nodes = [node_with(x, 'eu-west-1%s' % 'abc'[i], kubelet='v1.30.6', labels={'eks.amazonaws.com/nodegroup': 'web-ng-1'}) for i, x in enumerate(olds)]
    nn = node_with(new, 'eu-west-1a', kubelet='v1.30.6', labels={'eks.amazonaws.com/nodegroup': 'web-ng-1'})
    nn['metadata']['creationTimestamp'] = ago(420)
    for c_ in nn['status']['conditions']: c_['lastTransitionTime'] = ago(395)
    img = REG + '/shop/web:5.13.0'; old_img = REG + '/shop/web:5.12.0'
    cont = [{'name': 'web', 'image': img, 'resources': {'requests': {'cpu': '1500m', 'memory': '1Gi'}}, 'readinessProbe': {'httpGet': {'path': '/healthz', 'port': 8080}, 'periodSeconds': 5}}]
    d, rs = deploy('web', 'shop', {'app': 'web'}, 6, {'containers': cont}, '5c9d8b7f6', created=86400 * 60, generation=14)
    d['status']['conditions'][1].update({'lastUpdateTime': ago(330), 'message': 'ReplicaSet "web-5c9d8b7f6" has successfully progressed.'})
    old_rs = rs_for(d, 'web-7b8c9d6f5'); old_rs['spec']['replicas'] = 0; old_rs['status'] = {'replicas': 0, 'observedGeneration': 4}
    pods = []; evs = []
    allnodes = olds + [new]
    sufs = ['b2k7q', 'c8m3x', 'f4w9z', 'h6p2v', 'n3t8r', 's7x4k']
    for i, s_ in enumerate(sufs):
        late = i >= 4
        nd = new if late else allnodes[i % 3]
        created = 640 if late else 900 - i * 40
        started_at = 380 if late else created - 20
        p = mkpod('web-5c9d8b7f6-' + s_, 'shop', nd, cont, [running('web', img, started_at)], owner=('ReplicaSet', rs['metadata']['name']), created=created, labels={'app': 'web', 'pod-template-hash': '5c9d8b7f6'})
        pods.append(p)
        if late:
            evs += [failed_scheduling(p, '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.', 4, 430, 638),
                    ev(p, 'TriggeredScaleUp', 'pod triggered scale-up: [{eks-web-ng-1-2ac7f1e8-4b1d-9d3e-7f2a-6c5b4a3e2d1f 3->4 (max: 8)}]', 'Normal', last=610, component='cluster-autoscaler'),
                    scheduled(p, new, 392), *started(p, new, img, 'web', 388, pulled_in='8.9s')]
        else:
            evs += [scheduled(p, nd, created - 1), *started(p, nd, img, 'web', created - 3)]
        evs.append(ev(p, 'Unhealthy', 'Readiness probe failed: Get "http://%s:8080/healthz": dial tcp %s:8080: connect: connection refused' % (p['status']['podIP'], p['status']['podIP']),
                      count=2, last=started_at - 6, first=started_at - 2, host=nd, fieldPath='spec.containers{web}'))
    objs = [ns('shop'), *nodes, nn, d, rs, old_rs, *pods, *kube_system_pods(allnodes), *evs,
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set web-5c9d8b7f6 from 0 to 2', 'deployment-controller', 'Normal', last=900),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set web-7b8c9d6f5 from 6 to 4', 'deployment-controller', 'Normal', last=850),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled up replica set web-5c9d8b7f6 from 4 to 6', 'deployment-controller', 'Normal', last=640),
            ctrl_ev(d, 'ScalingReplicaSet', 'Scaled down replica set web-7b8c9d6f5 from 2 to 0', 'deployment-controller', 'Normal', last=330),
            ev(nn, 'RegisteredNode', 'Node %s event: Registered Node %s in Controller' % (new, new), 'Normal', last=415, component='node-controller'),
            ev(nn, 'NodeReady', 'Node %s status is now: NodeReady' % new, 'Normal', last=395, host=new),
            ev(nn, 'NodeHasSufficientMemory', 'Node %s status is now: NodeHasSufficientMemory' % new, 'Normal', last=418, host=new)]
    write(n, 'st-neg-rollout-autoscaler', {
        'title': 'Healthy: the rollout finished; two new pods waited 4 minutes on FailedScheduling until the cluster autoscaler added a node',
        'url': 'https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/FAQ.md',
        'reported': 'pod triggered scale-up: [{eks-web-ng-1 3->4 (max: 8)}]',
        'target': 'shop/web-5c9d8b7f6-n3t8r',
        'expect': {'first': None}}, objs)

def neg_resize_history():
    n = nxt()
    N1 = 'kovalkov-worker-59c3b116-5c8bd-nsv9b'
    nd = node_with(N1, kubelet='v1.30.6')
    sc = storageclass('network-ssd', 'yandex.csi.flant.com', 'WaitForFirstConsumer', default=True, params={'type': 'network-ssd'})
    pvn = 'pvc-1fdced6c-ba85-40ae-a5fa-0c690e1f4fa4'
    c = claim('nginx-pv-claim', 'test-pvc', 'network-ssd', 'Bound', '20Gi', volume=pvn, created=86400 * 3, provisioner='yandex.csi.flant.com', selected_node=N1,
              extra_ann={'volume.kubernetes.io/storage-resizer': 'yandex.csi.flant.com'})
    c['metadata']['uid'] = pvn[4:]
    c['spec']['resources']['requests']['storage'] = '20Gi'
    c['status']['capacity'] = {'storage': '20Gi'}
    v = pv(pvn, c, driver='yandex.csi.flant.com', handle='fhm1q2w3e4r5t6y7u8i9', size='20Gi', storage_class='network-ssd')
    va = volumeattachment(pvn, N1, attacher='yandex.csi.flant.com', attached=True, created=86400 * 3 - 30)
    img = 'nginx:1.27.2'
    d, rs = deploy('nginx', 'test-pvc', {'app': 'nginx'}, 1, {'containers': [{'name': 'nginx', 'image': img}]}, '7d444d87dc', created=86400 * 3)
    p = mkpod('nginx-7d444d87dc-nz8vp', 'test-pvc', N1, [{'name': 'nginx', 'image': img, 'volumeMounts': [{'name': 'data', 'mountPath': '/usr/share/nginx/html'}]}], [running('nginx', img, 86400 * 3 - 40)],
              owner=('ReplicaSet', rs['metadata']['name']), created=86400 * 3, labels={'app': 'nginx', 'pod-template-hash': '7d444d87dc'},
              spec_extra={'volumes': [{'name': 'data', 'persistentVolumeClaim': {'claimName': 'nginx-pv-claim'}}]})
    nlog = ['10.111.0.%d - - [21/Nov/2026:09:%02d:%02d +0000] "GET / HTTP/1.1" 200 615 "-" "kube-probe/1.30" "-"' % (7 + i % 3, 30 + i, (i * 13) % 60) for i in range(24)]
    objs = [ns('test-pvc'), nd, sc, c, v, va, d, rs, p, *kube_system_pods([N1]), podlog('test-pvc', p['metadata']['name'], 'nginx', nlog, previous=False),
            ev(c, 'ExternalExpanding', 'waiting for an external controller to expand this PVC', count=1, last=1260, component='volume_expand'),
            ev(c, 'Resizing', 'External resizer is resizing volume %s' % pvn, 'Normal', last=1260, component='external-resizer yandex.csi.flant.com'),
            ev(c, 'FileSystemResizeRequired', 'Require file system resize of volume on node', 'Normal', last=1241, component='external-resizer yandex.csi.flant.com'),
            ev(c, 'FileSystemResizeSuccessful', 'MountVolume.NodeExpandVolume succeeded for volume "%s" %s' % (pvn, N1), 'Normal', last=1228, host=N1),
            ev(p, 'FileSystemResizeSuccessful', 'MountVolume.NodeExpandVolume succeeded for volume "%s" %s' % (pvn, N1), 'Normal', last=1228, host=N1)]
    write(n, 'st-neg-pvc-resize-history', {
        'title': 'Healthy: nginx Ready for 3 days; its claim was expanded online 20 minutes ago (ExternalExpanding warning, then FileSystemResizeSuccessful)',
        'url': 'https://github.com/deckhouse/deckhouse/pull/10416',
        'reported': 'test-pvc     9m53s       Warning   ExternalExpanding            persistentvolumeclaim/nginx-pv-claim                           waiting for an external controller to expand this PVC',
        'target': 'test-pvc/nginx-7d444d87dc-nz8vp',
        'expect': {'first': None}}, objs)

if __name__ == '__main__':
    for f in (case_provisioning_unauthorized, case_provisioner_missing, case_storageclass_missing, case_attach_unauthorized, case_csi_not_registered, case_local_pv_affinity,
              case_fsgroup_chown, case_nfs_denied, case_sts_quota, case_sts_sa_missing, case_job_backoff, case_job_deadline,
              case_webhook_self, case_webhook_istio_timeout, case_webhook_denied, case_podsecurity_job, case_deploy_sa_missing, case_priorityclass_missing,
              case_topology_spread, case_zonal_pv, case_limitrange, case_gce_quota,
              neg_transient_provisioning, neg_job_retry_completed, neg_rollout_autoscaler, neg_resize_history):
        f()
    print('wrote %d st- cases' % N)
