import os, sys, re; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *

# Seeds 000, 001, 002 and 004 have node fixture trees (test/fixtures/nodes/<seed>, see its README):
# their scenarios use the identities the trees model (node, namespace, pod, UID, container ids
# and names, runtime and kernel versions) so a simulated agent serving the tree answers for them.

_TIME=re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$')
def shift_times(v, delta):
    """Every timestamp moved by `delta` (a timedelta): a scenario written for NOW set at the report's time."""
    if isinstance(v, dict): return {k: shift_times(x, delta) for k, x in v.items()}
    if isinstance(v, list): return [shift_times(x, delta) for x in v]
    if isinstance(v, str) and _TIME.match(v):
        t=datetime.datetime.strptime(v,'%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=datetime.timezone.utc)+delta
        return t.strftime('%Y-%m-%dT%H:%M:%SZ')
    return v
def iso(t): return datetime.datetime.strptime(t,'%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=datetime.timezone.utc)

# ---------- seed 000: glusterfs hangs docker; pod stuck Terminating (tree: nodes/000) ----------
N='kube-cluster-node-xxx'
NS='xxx-xxxx'
APP='xxxx-xxxxx-index-task'
IMG='xxxx.xxxx.com/hindex/xxxx-xxxxx-index-task'
GLUSTER={'name':APP+'-volume-log','glusterfs':{'endpoints':'glusterfs-cluster','path':'xxxx-log'}}
CUSTOM={'name':APP+'-volume-custom','hostPath':{'path':'/data/'+APP+'/custom','type':'DirectoryOrCreate'}}
dep=workload('Deployment',APP,NS,{'app':APP},replicas=3,template_spec={'containers':[{'name':APP,'image':IMG,'lifecycle':{'preStop':{'exec':{'command':['/bin/sleep','30']}}},'volumeMounts':[{'name':GLUSTER['name'],'mountPath':'/data/log'},{'name':CUSTOM['name'],'mountPath':'/data/custom'}]}],'volumes':[GLUSTER,CUSTOM]})
rs=rs_for(dep,APP+'-569f775985')
cid='17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b'
p=pod(APP+'-569f775985-2qv8x',NS,node_name=N,image=IMG,cname=APP,runtime='docker',owner=('ReplicaSet',APP+'-569f775985'),created=86400*11,
      statuses=[{'name':APP,'ready':False,'started':True,'restartCount':0,'image':IMG+':latest','imageID':'docker-pullable://'+IMG+'@sha256:'+hexid('it'),'containerID':'docker://'+cid,'state':{'running':{'startedAt':ago(86400*11-30)}}}],
      spec_extra={'volumes':[GLUSTER,CUSTOM],'containers':[{'name':APP,'image':IMG,'lifecycle':{'preStop':{'exec':{'command':['/bin/sleep','30']}}},'volumeMounts':[{'name':GLUSTER['name'],'mountPath':'/data/log'},{'name':CUSTOM['name'],'mountPath':'/data/custom'}]}]},
      meta_extra={'uid':'2b8e5882-5146-11e9-b3b3-525400dd6f19','deletionTimestamp':ago(3600),'deletionGracePeriodSeconds':30},labels={'app':APP,'pod-template-hash':'569f775985'})
# docker ps hangs (the tree's docker answers /_ping, never /containers/json), so PLEG relists fail.
PLEG='PLEG is not healthy: pleg was last seen active 3m12.36s ago; threshold is 3m0s'
n=node(N,runtime='docker://1.13.1',kernel='3.10.0-957.el7.x86_64',kubelet='v1.12.4',notready_msg=PLEG)
objs=[ns(NS),n,dep,rs,p,
  ev(p,'Killing','Killing container with id docker://%s:Need to kill Pod'%APP,'Normal',count=35,last=660,first=3700,host=N),
  ev(p,'SuccessfulMountVolume','MountVolume.SetUp succeeded for volume "%s"'%GLUSTER['name'],'Normal',last=480,host=N),
  ev(p,'SuccessfulMountVolume','MountVolume.SetUp succeeded for volume "%s"'%CUSTOM['name'],'Normal',last=480,host=N),
  ev(p,'FailedKillPod','error killing pod: failed to "KillContainer" for "%s" with KillContainerError: "rpc error: code = Unknown desc = operation timeout: context deadline exceeded"'%APP,count=4,last=9,first=360,host=N),
  ev(p,'FailedPreStopHook','Exec lifecycle hook ([/bin/sleep 30]) for Container "%s" in Pod "%s_%s(%s)" failed - error: command \'/bin/sleep 30\' exited with 126: , message: "rpc error: code = 2 desc = oci runtime error: exec failed: container_linux.go:240: creating new parent process caused \\"container_linux.go:1254: running lstat on namespace path \\\\\\"/proc/30849/ns/ipc\\\\\\" caused \\\\\\"lstat /proc/30849/ns/ipc: no such file or directory\\\\\\"\\"\\n\\r\\n"'%(APP,p['metadata']['name'],NS,p['metadata']['uid']),count=5,last=8,first=480,host=N)]
write('seed-000-glusterfs-runtime-hung',{'title':'glusterfs hangs docker: the pod cannot be killed and stays Terminating','seed':'000','target':'%s/%s'%(NS,p['metadata']['name']),'first':'terminating.runtime-hung','absent':['terminating.finalizers'],'node':'../../nodes/000'},objs)

# ---------- seed 000 (cascade): the workload's pods take other nodes down one after another ----------
# Same Deployment as above, other nodes of the same fleet (no tree: API facts only).
objs=[ns(NS),dep,rs]
for i,(nn,since) in enumerate([('kube-cluster-node-018',1500),('kube-cluster-node-021',1100),('kube-cluster-node-034',700)]):
    objs.append(node(nn,runtime='docker://1.13.1',kernel='3.10.0-957.el7.x86_64',kubelet='v1.12.4',notready_msg='PLEG is not healthy: pleg was last seen active 3m5.30015447s ago; threshold is 3m0s' if i<2 else None, lost_since=since if i==2 else None))
    pp=pod('%s-569f775985-%s'%(APP,['h5r8t','k7d2p','w9x4m'][i]),NS,node_name=nn,image=IMG,cname=APP,runtime='docker',owner=('ReplicaSet',APP+'-569f775985'),created=since+240,
           statuses=[{'name':APP,'ready':False,'restartCount':0,'image':IMG,'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}],
           spec_extra={'volumes':[GLUSTER,CUSTOM]},
           labels={'app':APP,'pod-template-hash':'569f775985'})
    objs.append(pp)
    objs.append(ev(pp,'Scheduled','Successfully assigned %s/%s to %s'%(NS,pp['metadata']['name'],nn),'Normal',last=since+240,component='default-scheduler'))
    objs.append(ev({'apiVersion':'v1','kind':'Node','metadata':{'name':nn,'uid':uid('node'+nn)}},'NodeNotReady','Node %s status is now: NodeNotReady'%nn,'Normal',last=since,component='node-controller'))
write('seed-000-notready-cascade',{'title':'A glusterfs workload takes down every node it lands on','seed':'000','target':'%s/%s-569f775985-w9x4m'%(NS,APP),'first':'node.notready-cascade'},objs)

# ---------- seed 001: ntpd PrivateTmp pins overlay mount; pod stuck Terminating (tree: nodes/001) ----------
# At the report's times, like the tree (ntpd started 2019-01-07, after the container): built
# for NOW, then every timestamp moved so NOW is REPORT_NOW. No Namespace object: `default` exists
# in every cluster, and the one other scenarios define is dated for NOW.
REPORT_NOW=iso('2019-01-30T12:00:00Z')
def before(t): return int((REPORT_NOW-iso(t)).total_seconds())
N='c3-a05-136-45-4.com'
dep=workload('Deployment','httpserver-prod-1','default',{'app':'httpserver-prod-1'},replicas=6,template_spec={'containers':[{'name':'golang-httpserver','image':'golang-httpserver'}]})
rs=rs_for(dep,'httpserver-prod-1-6cb97dfbcc')
cid='e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9'
p=pod('httpserver-prod-1-6cb97dfbcc-f9flb','default',node_name=N,image='golang-httpserver',cname='golang-httpserver',runtime='docker',owner=('ReplicaSet','httpserver-prod-1-6cb97dfbcc'),created=before('2018-12-11T06:19:50Z'),
      statuses=[{'name':'golang-httpserver','ready':False,'restartCount':0,'image':'golang-httpserver:latest','imageID':'docker-pullable://golang-httpserver@sha256:'+hexid('gh'),'containerID':'docker://'+cid,
                 'state':{'terminated':{'exitCode':137,'reason':'Error','startedAt':ago(before('2018-12-11T06:20:01Z')),'finishedAt':ago(before('2019-01-30T06:57:30Z')),'containerID':'docker://'+cid}}}],
      meta_extra={'uid':'9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b','deletionTimestamp':ago(before('2019-01-30T06:57:00Z')),'deletionGracePeriodSeconds':30},labels={'app':'httpserver-prod-1','pod-template-hash':'6cb97dfbcc'})
p['status']['phase']='Running'; p['status']['startTime']=ago(before('2018-12-11T06:19:55Z'))
for c in p['status']['conditions']:
    if c['type'] in ('Ready','ContainersReady'): c['lastTransitionTime']=ago(before('2019-01-30T06:57:30Z'))
p['status']['hostIP']='10.136.45.4'; p['status'].pop('podIP',None); p['status'].pop('podIPs',None)
n=node(N,runtime='docker://17.9.1',kernel='3.10.0-327.el7.x86_64',kubelet='v1.11.3')
n['status']['addresses'][0]['address']='10.136.45.4'
objs=shift_times([n,dep,rs,p],REPORT_NOW-NOW)
# No events: the kill happened 5 hours ago (events live an hour) and removal failures make none.
write('seed-001-ntpd-mount-busy',{'title':'ntpd (PrivateTmp) pins a container mount: the pod stays Terminating','seed':'001','target':'default/httpserver-prod-1-6cb97dfbcc-f9flb','now':'2019-01-30T12:00:00Z','first':'terminating.mount-busy','node':'../../nodes/001','firstWithoutAgent':'terminating.stuck'},objs)

# ---------- seed 002: hostPID + postStart exec hangs docker exec (tree: nodes/002) ----------
# Times as the tree's docker tells: sandbox up 3 hours, khaos-agent exited 2 hours ago (on delete).
N='node-172-16-3-21'
NS='khaos'
IMGS='registry.example.com/khaos/%s:v1.8.2'
HOOK={'postStart':{'exec':{'command':['/bin/sh','-c','/opt/khaos/post-start.sh']}}}
cs=[{'name':'khaos-'+c,'image':IMGS%c} for c in ['agent','collector','injector','reporter']]
cs[0]['lifecycle']=HOOK
ds=workload('DaemonSet','khaos-guardian',NS,{'app':'khaos-guardian'},template_spec={'hostPID':True,'containers':cs})
# The pod worker blocks in khaos-agent's postStart exec, so kubelet never posts a newer status.
st=[{'name':c['name'],'ready':False,'restartCount':0,'image':c['image'],'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}} for c in cs]
created=3*3600+13*60
p=pod('khaos-guardian-bmzsk',NS,node_name=N,runtime='docker',owner=('DaemonSet','khaos-guardian'),created=created,statuses=st,containers=cs,
      spec_extra={'hostPID':True},meta_extra={'uid':'1da9e4f1-a5d4-40db-b8bc-4db1d27ca458','deletionTimestamp':ago(2*3600-30),'deletionGracePeriodSeconds':30},labels={'app':'khaos-guardian'})
p['status']['phase']='Pending'; p['status']['hostIP']='172.16.3.21'; p['status'].pop('podIP',None); p['status'].pop('podIPs',None)
n=node(N,runtime='docker://19.3.15',kernel='4.19.91-24.1.al7.x86_64',kubelet='v1.22.5')
n['status']['addresses'][0]['address']='172.16.3.21'
n['status']['nodeInfo']['osImage']='Alibaba Cloud Linux (Aliyun Linux) 2.1903 LTS (Hunting Beagle)'
objs=[ns(NS),n,ds,p,
      ev(p,'Scheduled','Successfully assigned %s/khaos-guardian-bmzsk to %s'%(NS,N),'Normal',last=created-2,component='default-scheduler'),
      ev(p,'Pulled','Container image "%s" already present on machine'%(IMGS%'agent'),'Normal',last=created-8,host=N,fieldPath='spec.containers{khaos-agent}'),
      ev(p,'Created','Created container khaos-agent','Normal',last=created-9,host=N,fieldPath='spec.containers{khaos-agent}'),
      ev(p,'Started','Started container khaos-agent','Normal',last=created-10,host=N,fieldPath='spec.containers{khaos-agent}'),
      ev(p,'Killing','Stopping container khaos-agent','Normal',last=2*3600-30,host=N,fieldPath='spec.containers{khaos-agent}')]
write('seed-002-poststart-exec-hang',{'title':'hostPID + postStart exec: docker exec hangs, pod stuck ContainerCreating then Terminating','seed':'002','target':'%s/khaos-guardian-bmzsk'%NS,'first':'terminating.exec-hang','node':'../../nodes/002'},objs)

# ---------- seed 004: a stale Calico CNI DEL deleted the new pod's endpoint (tree: nodes/004) ----------
N='dev-slave-107'
NS='lijiaob'
IMG='reg.lijiaocn.cn/lijiaocn/etcd:3.2'
sts=workload('StatefulSet','stateful-new-pod',NS,{'app':'stateful-new-pod'},replicas=1,template_spec={'containers':[{'name':'stateful-pod','image':IMG}]})
cid='50fbf6844903a7d2c9e1b5f3a8d6c4e2b0f9a7c5e3d1b8f6a4c2e0d9b7f5a3c1'
p=pod('stateful-new-pod-0',NS,node_name=N,image=IMG,cname='stateful-pod',runtime='docker',owner=('StatefulSet','stateful-new-pod'),created=90,
      statuses=[{'name':'stateful-pod','ready':True,'started':True,'restartCount':0,'image':IMG,'imageID':'docker-pullable://reg.lijiaocn.cn/lijiaocn/etcd@sha256:'+hexid('etcd'),'containerID':'docker://'+cid,'state':{'running':{'startedAt':ago(88)}}}],
      containers=[{'name':'stateful-pod','image':IMG}],
      meta_extra={'uid':'35b722f5-dfad-11e7-9a8f-52549da43ad9','annotations':{'cni.projectcalico.org/podIP':'192.168.8.34/32'}},labels={'app':'stateful-new-pod','statefulset.kubernetes.io/pod-name':'stateful-new-pod-0'})
p['status'].update({'podIP':'192.168.8.34','podIPs':[{'ip':'192.168.8.34'}],'qosClass':'BestEffort'})
other=pod('etcd1-0',NS,node_name=N,image=IMG,cname='etcd',runtime='docker',created=86400,containers=[{'name':'etcd','image':IMG}],
          meta_extra={'uid':'f8d1e7d4-df36-11e7-9d36-5254b24cbf5e'},labels={'app':'etcd1'})
other['status'].update({'podIP':'192.168.8.12','podIPs':[{'ip':'192.168.8.12'}],'qosClass':'BestEffort'})
for q in (p,other): q['status']['hostIP']='10.39.0.107'
wep={'apiVersion':'crd.projectcalico.org/v1','kind':'WorkloadEndpoint','metadata':{'name':'dev--slave--107-k8s-etcd1--0-eth0','namespace':NS,'uid':uid('wep1'),'creationTimestamp':ago(86400)},
     'spec':{'orchestrator':'k8s','node':N,'pod':'etcd1-0','endpoint':'eth0','interfaceName':'cali9118ebbb10b','ipNetworks':['192.168.8.12/32'],'profiles':['kns.'+NS]}}
n=node(N,runtime='docker://1.12.6',kernel='3.10.0-514.26.2.el7.x86_64',kubelet='v1.7.6')
n['status']['addresses'][0]['address']='10.39.0.107'
objs=[ns(NS),n,sts,p,other,wep,ev(p,'Scheduled','Successfully assigned %s/stateful-new-pod-0 to %s'%(NS,N),'Normal',last=90,component='default-scheduler')]
# Without the agent the API half still sees the missing endpoint; the node's kubelet lines show why.
write('seed-004-calico-endpoint-missing',{'title':'A stale Calico CNI DEL removed the new StatefulSet pod\'s endpoint: gateway ARP lost','seed':'004','target':'%s/stateful-new-pod-0'%NS,'first':'terminating.cni-teardown','also':['network.calico-endpoint-missing'],'node':'../../nodes/004','firstWithoutAgent':'network.calico-endpoint-missing'},objs)
