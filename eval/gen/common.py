# Shared authoring helpers for the evaluation corpus (eval/corpus/<slug>/{case.yaml,objects.yaml}).
# Builds on scripts/incidents/gen.py (nodes, pods, events, owners with realistic defaults) and adds
# the objects an incident involves beyond the pod: claims, classes, volumes, attachments, webhooks,
# services and endpoints, service accounts, kube-system components. Offline authoring only:
# nothing in the product or its tests runs Python; the YAML it writes is committed.
import os, sys, shutil, yaml
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../scripts/incidents'))
from gen import *  # noqa: F401,F403  (node, ns, pod, ev, workload, rs_for, podlog, ago, uid, hexid, NOW)
import gen as _gen

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../corpus')

def _meta(kind, api, name, namespace=None, created=86400, **extra):
    md = {'name': name, 'uid': uid(kind + (namespace or '') + name), 'creationTimestamp': ago(created), 'resourceVersion': str(int(hexid(kind + name, 8), 16) % 900000 + 1000)}
    if namespace: md['namespace'] = namespace
    md.update(extra)
    return {'apiVersion': api, 'kind': kind, 'metadata': md}

def owned_by(obj, owner):
    obj['metadata']['ownerReferences'] = [{'apiVersion': owner['apiVersion'], 'kind': owner['kind'], 'name': owner['metadata']['name'], 'uid': owner['metadata']['uid'], 'controller': True, 'blockOwnerDeletion': True}]
    return obj

def pvc(name, namespace, storage_class='standard', phase='Pending', size='10Gi', volume=None, created=900, access=('ReadWriteOnce',), annotations=None):
    o = _meta('PersistentVolumeClaim', 'v1', name, namespace, created)
    if annotations: o['metadata']['annotations'] = annotations
    o['spec'] = {'accessModes': list(access), 'resources': {'requests': {'storage': size}}, 'volumeMode': 'Filesystem'}
    if storage_class is not None: o['spec']['storageClassName'] = storage_class
    if volume: o['spec']['volumeName'] = volume
    o['status'] = {'phase': phase}
    if phase == 'Bound': o['status'].update({'accessModes': list(access), 'capacity': {'storage': size}})
    return o

def storageclass(name, provisioner='ebs.csi.aws.com', binding='WaitForFirstConsumer', default=False, params=None):
    o = _meta('StorageClass', 'storage.k8s.io/v1', name, None, 86400 * 200)
    if default: o['metadata']['annotations'] = {'storageclass.kubernetes.io/is-default-class': 'true'}
    o.update({'provisioner': provisioner, 'reclaimPolicy': 'Delete', 'volumeBindingMode': binding, 'allowVolumeExpansion': True})
    if params: o['parameters'] = params
    return o

def pv(name, claim=None, driver='ebs.csi.aws.com', handle='vol-0a1b2c3d4e5f67890', phase='Bound', size='10Gi', node_affinity=None, storage_class='standard'):
    o = _meta('PersistentVolume', 'v1', name, None, 86400)
    o['spec'] = {'accessModes': ['ReadWriteOnce'], 'capacity': {'storage': size}, 'persistentVolumeReclaimPolicy': 'Delete', 'storageClassName': storage_class, 'volumeMode': 'Filesystem',
                 'csi': {'driver': driver, 'volumeHandle': handle, 'fsType': 'ext4'}}
    if claim: o['spec']['claimRef'] = {'apiVersion': 'v1', 'kind': 'PersistentVolumeClaim', 'name': claim['metadata']['name'], 'namespace': claim['metadata']['namespace'], 'uid': claim['metadata']['uid']}
    if node_affinity: o['spec']['nodeAffinity'] = node_affinity
    o['status'] = {'phase': phase}
    return o

def volumeattachment(pv_name, node_name, attacher='ebs.csi.aws.com', attached=False, attach_error=None, created=600, handle='vol-0a1b2c3d4e5f67890'):
    # The attach/detach controller names it csi-<sha256(volumeHandle + driver + node)> (pkg/volume/csi);
    # pass the PersistentVolume's csi.volumeHandle as `handle`.
    import hashlib as _h
    o = _meta('VolumeAttachment', 'storage.k8s.io/v1', 'csi-' + _h.sha256((handle + attacher + node_name).encode()).hexdigest(), None, created)
    o['spec'] = {'attacher': attacher, 'nodeName': node_name, 'source': {'persistentVolumeName': pv_name}}
    o['status'] = {'attached': attached}
    if attach_error: o['status']['attachError'] = {'message': attach_error, 'time': ago(30)}
    return o

def service(name, namespace, selector, ports=((443, 8443),), created=86400 * 30):
    o = _meta('Service', 'v1', name, namespace, created)
    o['spec'] = {'type': 'ClusterIP', 'clusterIP': '10.96.%d.%d' % (len(name) % 200, sum(map(ord, name)) % 250), 'selector': selector,
                 'ports': [{'name': 'p%d' % p, 'port': p, 'targetPort': t, 'protocol': 'TCP'} for p, t in ports]}
    o['status'] = {'loadBalancer': {}}
    return o

def endpoints(name, namespace, ready=(), not_ready=(), port=8443):
    """core/v1 Endpoints: ready and not-ready addresses as (ip, podName, nodeName)."""
    o = _meta('Endpoints', 'v1', name, namespace, 86400 * 30)
    subset = {'ports': [{'port': port, 'protocol': 'TCP'}]}
    addr = lambda a: {'ip': a[0], 'nodeName': a[2], 'targetRef': {'kind': 'Pod', 'name': a[1], 'namespace': namespace}}
    if ready: subset['addresses'] = [addr(a) for a in ready]
    if not_ready: subset['notReadyAddresses'] = [addr(a) for a in not_ready]
    o['subsets'] = [subset] if (ready or not_ready) else []
    return o

def webhook_config(name, webhooks, mutating=False):
    """webhooks: list of dicts {name, service: (ns, name, path), failurePolicy, rules, namespaceSelector}."""
    kind = 'MutatingWebhookConfiguration' if mutating else 'ValidatingWebhookConfiguration'
    o = _meta(kind, 'admissionregistration.k8s.io/v1', name, None, 86400 * 60)
    o['webhooks'] = []
    for w in webhooks:
        svc_ns, svc_name, path = w['service']
        o['webhooks'].append({'name': w['name'], 'admissionReviewVersions': ['v1'], 'sideEffects': 'None', 'timeoutSeconds': w.get('timeout', 10),
                              'failurePolicy': w.get('failurePolicy', 'Fail'), 'matchPolicy': 'Equivalent',
                              'clientConfig': {'service': {'namespace': svc_ns, 'name': svc_name, 'path': path, 'port': 443}, 'caBundle': 'LS0tLS1CRUdJTi...'},
                              'rules': w.get('rules', [{'apiGroups': [''], 'apiVersions': ['v1'], 'operations': ['CREATE'], 'resources': ['pods'], 'scope': '*'}]),
                              'namespaceSelector': w.get('namespaceSelector', {}), 'objectSelector': {}})
    return o

def serviceaccount(name, namespace, created=86400 * 30):
    return _meta('ServiceAccount', 'v1', name, namespace, created)

def make_sev(uid_prefix, mult, offset):
    """A sev() for one authoring script: core/v1 Events written through events.k8s.io/v1 (eventTime +
    series, no first/lastTimestamp), with names and uids of its own so scripts never collide."""
    counter = [0]
    def sev(obj, reason, message, type_='Warning', count=2, last=30, first=600, controller='kubelet', instance='', action=None, fieldPath=None):
        counter[0] += 1
        n = counter[0]
        md = obj['metadata']
        e = {'apiVersion': 'v1', 'kind': 'Event',
             'metadata': {'name': '%s.%016x' % (md['name'], n * mult + offset), 'namespace': md.get('namespace', 'default'), 'uid': uid('%s%d' % (uid_prefix, n)), 'creationTimestamp': ago(first)},
             'involvedObject': {'apiVersion': obj['apiVersion'], 'kind': obj['kind'], 'name': md['name'], 'uid': md['uid']},
             'reason': reason, 'message': message, 'type': type_, 'eventTime': ago(first).replace('Z', '.%06dZ' % (n * 7331 % 1000000)),
             'reportingComponent': controller, 'reportingInstance': instance, 'source': {}}
        if action: e['action'] = action
        if count > 1: e['series'] = {'count': count, 'lastObservedTime': ago(last).replace('Z', '.%06dZ' % (n * 3119 % 1000000))}
        if md.get('namespace'): e['involvedObject']['namespace'] = md['namespace']
        if fieldPath: e['involvedObject']['fieldPath'] = fieldPath
        return e
    return sev

def write_case(slug, meta, objects):
    """meta: title, url, reported, target, split ('dev'|'holdout'), expect {first, acceptable?, playbook?, decisive?}."""
    d = os.path.join(CORPUS, slug)
    if os.path.exists(d): shutil.rmtree(d)
    os.makedirs(d)
    meta = {'now': NOW.strftime('%Y-%m-%dT%H:%M:%SZ'), **meta}
    order = ['title', 'url', 'reported', 'target', 'now', 'split', 'expect']
    with open(os.path.join(d, 'case.yaml'), 'w') as f:
        yaml.dump({k: meta[k] for k in order if k in meta}, f, sort_keys=False, width=200, allow_unicode=True)
    with open(os.path.join(d, 'objects.yaml'), 'w') as f:
        f.write('# %s\n# %s\n' % (meta['title'], meta['url']))
        yaml.dump({'apiVersion': 'v1', 'kind': 'List', 'metadata': {'resourceVersion': ''}, 'items': objects}, f, sort_keys=False, width=200, allow_unicode=True)
