import yaml, os, hashlib, copy, datetime, shutil
ROOT=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../test/fixtures/incidents')
NOW=datetime.datetime(2026,11,21,10,0,0,tzinfo=datetime.timezone.utc)
def ago(s): return (NOW-datetime.timedelta(seconds=s)).strftime('%Y-%m-%dT%H:%M:%SZ')
def uid(seed): h=hashlib.sha1(seed.encode()).hexdigest(); return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"
def hexid(seed,n=64): return (hashlib.sha256(seed.encode()).hexdigest()*2)[:n]

class Str(str): pass
def str_presenter(dumper, data):
    if '\n' in data: return dumper.represent_scalar('tag:yaml.org,2002:str', data, style='|')
    return dumper.represent_scalar('tag:yaml.org,2002:str', data)
yaml.add_representer(str, str_presenter)

def node(name, runtime='containerd://1.7.24', kernel='6.1.0-27-amd64', kubelet='v1.31.4', ready=True, lost_since=None, notready_msg=None, conditions_extra=None, taints=None, labels=None, alloc=None, unschedulable=False):
    conds=[
      {'type':'MemoryPressure','status':'False','reason':'KubeletHasSufficientMemory','message':'kubelet has sufficient memory available','lastHeartbeatTime':ago(20),'lastTransitionTime':ago(86400*20)},
      {'type':'DiskPressure','status':'False','reason':'KubeletHasNoDiskPressure','message':'kubelet has no disk pressure','lastHeartbeatTime':ago(20),'lastTransitionTime':ago(86400*20)},
      {'type':'PIDPressure','status':'False','reason':'KubeletHasSufficientPID','message':'kubelet has sufficient PID available','lastHeartbeatTime':ago(20),'lastTransitionTime':ago(86400*20)},
      {'type':'Ready','status':'True','reason':'KubeletReady','message':'kubelet is posting ready status','lastHeartbeatTime':ago(20),'lastTransitionTime':ago(86400*20)},
    ]
    t=list(taints or [])
    if lost_since is not None:
        for c in conds:
            c.update({'status':'Unknown','reason':'NodeStatusUnknown','message':'Kubelet stopped posting node status.','lastHeartbeatTime':ago(lost_since+50),'lastTransitionTime':ago(lost_since)})
        t += [{'key':'node.kubernetes.io/unreachable','effect':'NoSchedule','timeAdded':ago(lost_since)},{'key':'node.kubernetes.io/unreachable','effect':'NoExecute','timeAdded':ago(lost_since)}]
    elif notready_msg:
        conds[3].update({'status':'False','reason':'KubeletNotReady','message':notready_msg,'lastTransitionTime':ago(600)})
        t += [{'key':'node.kubernetes.io/not-ready','effect':'NoSchedule','timeAdded':ago(600)},{'key':'node.kubernetes.io/not-ready','effect':'NoExecute','timeAdded':ago(600)}]
    if conditions_extra: conds = conditions_extra + conds
    n={'apiVersion':'v1','kind':'Node','metadata':{'name':name,'uid':uid('node'+name),'creationTimestamp':ago(86400*90),'labels':{'kubernetes.io/hostname':name,'kubernetes.io/os':'linux',**(labels or {})}},
       'spec':{},
       'status':{'capacity':{'cpu':'8','memory':'32Gi','pods':'110','ephemeral-storage':'100Gi'},'allocatable':alloc or {'cpu':'7800m','memory':'31Gi','pods':'110','ephemeral-storage':'95Gi'},
                 'conditions':conds,'addresses':[{'type':'InternalIP','address':'10.0.%d.%d'%(len(name)%200, sum(map(ord,name))%250)},{'type':'Hostname','address':name}],
                 'nodeInfo':{'architecture':'amd64','bootID':uid('boot'+name),'containerRuntimeVersion':runtime,'kernelVersion':kernel,'kubeProxyVersion':kubelet,'kubeletVersion':kubelet,'machineID':hexid(name,32),'operatingSystem':'linux','osImage':'CentOS Linux 7 (Core)' if kernel.startswith('3.10') else 'Debian GNU/Linux 12 (bookworm)','systemUUID':uid('sys'+name)}}}
    if t: n['spec']['taints']=t
    if unschedulable: n['spec']['unschedulable']=True
    return n

def ns(name, phase='Active', **kw):
    o={'apiVersion':'v1','kind':'Namespace','metadata':{'name':name,'uid':uid('ns'+name),'creationTimestamp':ago(86400*100)},'spec':{'finalizers':['kubernetes']},'status':{'phase':phase}}
    o['metadata'].update(kw.get('meta',{}))
    if 'status' in kw: o['status'].update(kw['status'])
    return o

def pod(name, namespace, node_name='node-1', image='registry.example.com/shop/web:1.4.2', cname='web', phase='Running', created=7200, runtime='containerd', owner=None, statuses=None, spec_extra=None, meta_extra=None, status_extra=None, ready=None, conditions=None, containers=None, labels=None):
    cid=f"{runtime}://{hexid(name+namespace+cname)}"
    st = statuses if statuses is not None else [{'name':cname,'ready':True,'started':True,'restartCount':0,'image':image,'imageID':f'{image.split(":")[0]}@sha256:{hexid(image)}','containerID':cid,'state':{'running':{'startedAt':ago(created-20)}}}]
    allready = all(s.get('ready') for s in st) if st else False
    conds = conditions if conditions is not None else [
        {'type':'Initialized','status':'True','lastTransitionTime':ago(created-5)},
        {'type':'Ready','status':'True' if allready else 'False','lastTransitionTime':ago(created-20), **({} if allready else {'reason':'ContainersNotReady','message':'containers with unready status: [%s]'%' '.join(s['name'] for s in st if not s.get('ready'))})},
        {'type':'ContainersReady','status':'True' if allready else 'False','lastTransitionTime':ago(created-20), **({} if allready else {'reason':'ContainersNotReady','message':'containers with unready status: [%s]'%' '.join(s['name'] for s in st if not s.get('ready'))})},
        {'type':'PodScheduled','status':'True','lastTransitionTime':ago(created-1)}]
    p={'apiVersion':'v1','kind':'Pod','metadata':{'name':name,'namespace':namespace,'uid':uid('pod'+namespace+name),'creationTimestamp':ago(created),'labels':labels or {'app':name.rsplit('-',2)[0]}},
       'spec':{'restartPolicy':'Always','terminationGracePeriodSeconds':30,'containers':containers or [{'name':cname,'image':image,'resources':{'requests':{'cpu':'100m','memory':'128Mi'},'limits':{'memory':'256Mi'}}}]},
       'status':{'phase':phase,'conditions':conds,'containerStatuses':st,'qosClass':'Burstable','startTime':ago(created-2)}}
    if node_name:
        p['spec']['nodeName']=node_name; p['status']['hostIP']='10.0.0.11'; p['status']['podIP']='10.244.%d.%d'%(len(name)%200, sum(map(ord,name))%250); p['status']['podIPs']=[{'ip':p['status']['podIP']}]
    if owner:
        kind,oname=owner
        p['metadata']['ownerReferences']=[{'apiVersion':'batch/v1' if kind=='Job' else 'apps/v1','kind':kind,'name':oname,'uid':uid(kind+namespace+oname),'controller':True,'blockOwnerDeletion':True}]
    if spec_extra: p['spec'].update(spec_extra)
    if meta_extra: p['metadata'].update(meta_extra)
    if status_extra: p['status'].update(status_extra)
    return p

_ev=[0]
def ev(obj, reason, message, type_='Warning', count=1, last=30, first=None, component='kubelet', host=None, fieldPath=None):
    _ev[0]+=1
    md=obj['metadata']; kind=obj['kind']
    first = first if first is not None else last
    e={'apiVersion':'v1','kind':'Event','metadata':{'name':'%s.%016x'%(md['name'],_ev[0]*7919+13),'namespace':md.get('namespace','default'),'uid':uid('ev%d'%_ev[0]),'creationTimestamp':ago(first)},
       'involvedObject':{'apiVersion':obj['apiVersion'],'kind':kind,'name':md['name'],'uid':md['uid']},
       'reason':reason,'message':message,'type':type_,'count':count,'firstTimestamp':ago(first),'lastTimestamp':ago(last),'source':{'component':component}, 'reportingComponent': component if component!='default-scheduler' else 'default-scheduler','reportingInstance':host or ''}
    if md.get('namespace'): e['involvedObject']['namespace']=md['namespace']
    if host: e['source']['host']=host
    if fieldPath: e['involvedObject']['fieldPath']=fieldPath
    return e

def workload(kind, name, namespace, labels, replicas=1, status=None, template_spec=None, extra_meta=None):
    api='batch/v1' if kind in ('Job','CronJob') else 'apps/v1'
    o={'apiVersion':api,'kind':kind,'metadata':{'name':name,'namespace':namespace,'uid':uid(kind+namespace+name),'creationTimestamp':ago(86400*10),'generation':3},'spec':{'selector':{'matchLabels':labels},'template':{'metadata':{'labels':labels},'spec':template_spec or {'containers':[{'name':'app','image':'busybox'}]}}},'status':status or {}}
    if kind in ('Deployment','StatefulSet','ReplicaSet'): o['spec']['replicas']=replicas
    if extra_meta: o['metadata'].update(extra_meta)
    return o

def rs_for(deploy, name):
    rs=workload('ReplicaSet', name, deploy['metadata']['namespace'], deploy['spec']['selector']['matchLabels'], replicas=deploy['spec'].get('replicas',1))
    rs['metadata']['ownerReferences']=[{'apiVersion':'apps/v1','kind':'Deployment','name':deploy['metadata']['name'],'uid':deploy['metadata']['uid'],'controller':True,'blockOwnerDeletion':True}]
    return rs

def podlog(namespace, name, container, lines, previous=True):
    return {'apiVersion':'pod-doctor.dev/v1','kind':'PodLog','metadata':{'namespace':namespace,'name':name},'container':container,'previous':previous,'lines':lines}

def write(slug, meta, objects):
    d=os.path.join(ROOT,slug)
    if os.path.exists(d): shutil.rmtree(d)
    os.makedirs(d)
    meta={'now':NOW.strftime('%Y-%m-%dT%H:%M:%SZ'), **meta}
    order=['title','seed','target','now','first','firstWithoutAgent','also','absent','node']
    with open(os.path.join(d,'expected.yaml'),'w') as f:
        yaml.dump({k:meta[k] for k in order if k in meta}, f, sort_keys=False, width=200)
    with open(os.path.join(d,'objects.yaml'),'w') as f:
        f.write('# %s\n' % meta['title'])
        yaml.dump_all(objects, f, sort_keys=False, width=200)

def event_writers(prefix, mul, add):
    """sev() and scheduled() for one script: core/v1 Events written through events.k8s.io/v1 (eventTime + series, no
    first/lastTimestamp), named and uid'd from the script's own counter so two scripts never collide."""
    n=[0]
    def sev(obj, reason, message, type_='Warning', count=2, last=30, first=600, controller='kubelet', instance='', action=None, fieldPath=None):
        n[0]+=1
        md=obj['metadata']
        e={'apiVersion':'v1','kind':'Event','metadata':{'name':'%s.%016x'%(md['name'],n[0]*mul+add),'namespace':md.get('namespace','default'),'uid':uid('%s%d'%(prefix,n[0])),'creationTimestamp':ago(first)},
           'involvedObject':{'apiVersion':obj['apiVersion'],'kind':obj['kind'],'name':md['name'],'uid':md['uid']},
           'reason':reason,'message':message,'type':type_,'eventTime':ago(first).replace('Z','.%06dZ'%(n[0]*7331%1000000)),
           'reportingComponent':controller,'reportingInstance':instance,'source':{}}
        if action: e['action']=action
        if count>1: e['series']={'count':count,'lastObservedTime':ago(last).replace('Z','.%06dZ'%(n[0]*3119%1000000))}
        if md.get('namespace'): e['involvedObject']['namespace']=md['namespace']
        if fieldPath: e['involvedObject']['fieldPath']=fieldPath
        return e
    def scheduled(p, node_name, at):
        return sev(p,'Scheduled','Successfully assigned %s/%s to %s'%(p['metadata']['namespace'],p['metadata']['name'],node_name),'Normal',count=1,first=at,controller='default-scheduler',instance='default-scheduler-control-plane-1',action='Binding')
    return sev, scheduled

def started(p, node_name, image, cname, at, pulled_in='3.1s', size=48213392):
    """The normal start-up history of one container."""
    fp='spec.containers{%s}'%cname
    return [ev(p,'Pulling','Pulling image "%s"'%image,'Normal',last=at,host=node_name,fieldPath=fp),
            ev(p,'Pulled','Successfully pulled image "%s" in %s (%s including waiting). Image size: %d bytes.'%(image,pulled_in,pulled_in,size),'Normal',last=at-3,host=node_name,fieldPath=fp),
            ev(p,'Created','Created container %s'%cname,'Normal',last=at-4,host=node_name,fieldPath=fp),
            ev(p,'Started','Started container %s'%cname,'Normal',last=at-4,host=node_name,fieldPath=fp)]

def running(name, image, since, restarts=0, ready=True, cid_seed=None):
    return {'name':name,'ready':ready,'started':True,'restartCount':restarts,'image':image,'imageID':'%s@sha256:%s'%(image.split(':')[0],hexid(image)),
            'containerID':'containerd://'+hexid(cid_seed or name+image),'state':{'running':{'startedAt':ago(since)}}}
