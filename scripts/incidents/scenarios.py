import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *

# ---------- seed 000: glusterfs hangs docker; pod stuck Terminating ----------
N='kube-cluster-node-017'
dep=workload('Deployment','index-task','search-prod',{'app':'index-task'},replicas=3,template_spec={'containers':[{'name':'index-task','image':'hub.example.com/hindex/index-task:2.3'}],'volumes':[{'name':'index-data','glusterfs':{'endpoints':'glusterfs-cluster','path':'index_vol'}}]})
rs=rs_for(dep,'index-task-569f775985')
cid='17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b'
p=pod('index-task-569f775985-2qv8x','search-prod',node_name=N,image='hub.example.com/hindex/index-task:2.3',cname='index-task',runtime='docker',owner=('ReplicaSet','index-task-569f775985'),created=86400*11,
      statuses=[{'name':'index-task','ready':False,'started':True,'restartCount':0,'image':'hub.example.com/hindex/index-task:2.3','imageID':'docker-pullable://hub.example.com/hindex/index-task@sha256:'+hexid('it'),'containerID':'docker://'+cid,'state':{'running':{'startedAt':ago(86400*11-30)}}}],
      spec_extra={'volumes':[{'name':'index-data','glusterfs':{'endpoints':'glusterfs-cluster','path':'index_vol'}}],'containers':[{'name':'index-task','image':'hub.example.com/hindex/index-task:2.3','lifecycle':{'preStop':{'exec':{'command':['/bin/sleep','30']}}},'volumeMounts':[{'name':'index-data','mountPath':'/data'}]}]},
      meta_extra={'deletionTimestamp':ago(3600),'deletionGracePeriodSeconds':30})
n=node(N,runtime='docker://18.9.1',kernel='3.10.0-957.el7.x86_64',kubelet='v1.12.4')
objs=[ns('search-prod'),n,dep,rs,p,
  ev(p,'Killing','Killing container with id docker://index-task:Need to kill Pod','Normal',count=35,last=660,first=3700,host=N),
  ev(p,'FailedKillPod','error killing pod: failed to "KillContainer" for "index-task" with KillContainerError: "rpc error: code = Unknown desc = operation timeout: context deadline exceeded"',count=4,last=9,first=360,host=N),
  ev(p,'FailedPreStopHook','Exec lifecycle hook ([/bin/sleep 30]) for Container "index-task" in Pod "index-task-569f775985-2qv8x_search-prod(%s)" failed - error: command \'/bin/sleep 30\' exited with 126: , message: "rpc error: code = 2 desc = oci runtime error: exec failed: container_linux.go:240: creating new parent process caused \\"container_linux.go:1254: running lstat on namespace path \\\\\\"/proc/30849/ns/ipc\\\\\\" caused \\\\\\"lstat /proc/30849/ns/ipc: no such file or directory\\\\\\"\\"\\n\\r\\n"'%p['metadata']['uid'],count=5,last=8,first=480,host=N)]
write('seed-000-glusterfs-runtime-hung',{'title':'glusterfs hangs docker: the pod cannot be killed and stays Terminating','seed':'000','target':'search-prod/index-task-569f775985-2qv8x','first':'terminating.runtime-hung','absent':['terminating.finalizers']},objs)

# ---------- seed 000 (cascade): nodes go NotReady one after another ----------
objs=[ns('search-prod'),dep,rs]
for i,(nn,since) in enumerate([('kube-cluster-node-018',1500),('kube-cluster-node-021',1100),('kube-cluster-node-034',700)]):
    objs.append(node(nn,runtime='docker://18.9.1',kernel='3.10.0-957.el7.x86_64',kubelet='v1.12.4',notready_msg='PLEG is not healthy: pleg was last seen active 3m5.30015447s ago; threshold is 3m0s' if i<2 else None, lost_since=since if i==2 else None))
    pp=pod('index-task-569f775985-%s'%['h5r8t','k7d2p','w9x4m'][i],'search-prod',node_name=nn,image='hub.example.com/hindex/index-task:2.3',cname='index-task',runtime='docker',owner=('ReplicaSet','index-task-569f775985'),created=since+240,
           statuses=[{'name':'index-task','ready':False,'restartCount':0,'image':'hub.example.com/hindex/index-task:2.3','imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}],
           spec_extra={'volumes':[{'name':'index-data','glusterfs':{'endpoints':'glusterfs-cluster','path':'index_vol'}}]},
           labels={'app':'index-task','pod-template-hash':'569f775985'})
    objs.append(pp)
    objs.append(ev(pp,'Scheduled','Successfully assigned search-prod/%s to %s'%(pp['metadata']['name'],nn),'Normal',last=since+240,component='default-scheduler'))
    objs.append(ev(objs[-4] if False else {'apiVersion':'v1','kind':'Node','metadata':{'name':nn,'uid':uid('node'+nn)}},'NodeNotReady','Node %s status is now: NodeNotReady'%nn,'Normal',last=since,component='node-controller'))
write('seed-000-notready-cascade',{'title':'A glusterfs workload takes down every node it lands on','seed':'000','target':'search-prod/index-task-569f775985-w9x4m','first':'node.notready-cascade'},objs)

# ---------- seed 001: ntpd PrivateTmp pins overlay mount; pods Terminating for 55 days ----------
N='c3-a05-136-45-4.com'
dep=workload('Deployment','httpserver-prod-1','default',{'app':'httpserver-prod-1'},replicas=6)
rs=rs_for(dep,'httpserver-prod-1-6cb97dfbcc')
cid='e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9'
p=pod('httpserver-prod-1-6cb97dfbcc-f9flb','default',node_name=N,image='golang-httpserver:1',cname='golang-httpserver',runtime='docker',owner=('ReplicaSet','httpserver-prod-1-6cb97dfbcc'),created=86400*100,
      statuses=[{'name':'golang-httpserver','ready':False,'restartCount':0,'image':'golang-httpserver:1','imageID':'docker-pullable://golang-httpserver@sha256:'+hexid('gh'),'containerID':'docker://'+cid,'state':{'terminated':{'exitCode':0,'reason':'Completed','startedAt':ago(86400*99),'finishedAt':ago(86400*55),'containerID':'docker://'+cid}}}],
      meta_extra={'uid':'9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b','deletionTimestamp':ago(86400*55),'deletionGracePeriodSeconds':30})
p['status']['phase']='Running'
n=node(N,runtime='docker://17.3.2',kernel='3.10.0-327.el7.x86_64',kubelet='v1.11.3')
objs=[ns('default'),n,dep,rs,p,ev(p,'Killing','Killing container with id docker://golang-httpserver:Need to kill Pod','Normal',count=1,last=86400*55,host=N)]
write('seed-001-ntpd-mount-busy',{'title':'ntpd (PrivateTmp) pins a container mount: the pod stays Terminating for 55 days','seed':'001','target':'default/httpserver-prod-1-6cb97dfbcc-f9flb','first':'terminating.mount-busy','node':'../../nodes/001'},objs)

# ---------- seed 002: hostPID + postStart exec hangs docker exec ----------
N='10.20.30.41'
ds=workload('DaemonSet','khaos-guardian','khaos',{'app':'khaos-guardian'})
cs=[{'name':n_,'image':'registry.example.com/khaos/%s:1.3'%n_} for n_ in ['guardian','collector','reporter','sidecar']]
cs[1]['lifecycle']={'postStart':{'exec':{'command':['/bin/sh','-c','/opt/collector/register.sh']}}}
st=[{'name':c['name'],'ready':False,'restartCount':0,'image':c['image'],'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}} for c in cs]
st[0]={'name':'guardian','ready':False,'started':True,'restartCount':0,'image':cs[0]['image'],'imageID':'docker-pullable://x@sha256:'+hexid('g'),'containerID':'docker://'+hexid('khaos-g'),'state':{'running':{'startedAt':ago(3000)}}}
st[1]={'name':'collector','ready':False,'started':True,'restartCount':0,'image':cs[1]['image'],'imageID':'docker-pullable://x@sha256:'+hexid('c'),'containerID':'docker://'+hexid('khaos-c'),'state':{'running':{'startedAt':ago(2990)}}}
p=pod('khaos-guardian-bmzsk','khaos',node_name=N,runtime='docker',owner=('DaemonSet','khaos-guardian'),created=3100,statuses=st,containers=cs,
      spec_extra={'hostPID':True},meta_extra={'uid':'1da9e4f1-a5d4-40db-b8bc-4db1d27ca458','deletionTimestamp':ago(1800),'deletionGracePeriodSeconds':30},labels={'app':'khaos-guardian'})
p['status']['phase']='Pending'
n=node(N,runtime='docker://20.10.7',kernel='4.19.91-24.8.an8.x86_64',kubelet='v1.22.5')
objs=[ns('khaos'),n,ds,p,
      ev(p,'Started','Started container guardian','Normal',last=3000,host=N,fieldPath='spec.containers{guardian}'),
      ev(p,'Started','Started container collector','Normal',last=2990,host=N,fieldPath='spec.containers{collector}'),
      ev(p,'Killing','Stopping container guardian','Normal',last=1830,host=N,fieldPath='spec.containers{guardian}')]
write('seed-002-poststart-exec-hang',{'title':'hostPID + postStart exec: docker exec hangs, pod stuck ContainerCreating then Terminating','seed':'002','target':'khaos/khaos-guardian-bmzsk','first':'terminating.exec-hang'},objs)

# ---------- seed 004: calico endpoint deleted by a stale CNI DEL ----------
N='dev-slave-107'
sts=workload('StatefulSet','stateful-new-pod','lijiaob',{'app':'stateful-new-pod'},replicas=1)
p=pod('stateful-new-pod-0','lijiaob',node_name=N,image='reg.example.com/lijiaocn/etcd:3.2',cname='stateful-pod',runtime='docker',owner=('StatefulSet','stateful-new-pod'),created=90,
      meta_extra={'uid':'35b722f5-dfad-11e7-9a8f-52549da43ad9','annotations':{'cni.projectcalico.org/podIP':'192.168.8.34/32'}},labels={'app':'stateful-new-pod','statefulset.kubernetes.io/pod-name':'stateful-new-pod-0'})
p['status']['podIP']='192.168.8.34'; p['status']['podIPs']=[{'ip':'192.168.8.34'}]
other=pod('etcd1-0','lijiaob',node_name=N,image='reg.example.com/lijiaocn/etcd:3.2',cname='etcd',runtime='docker',created=86400,labels={'app':'etcd1'})
other['status']['podIP']='192.168.8.20'
wep={'apiVersion':'crd.projectcalico.org/v1','kind':'WorkloadEndpoint','metadata':{'name':'dev--slave--107-k8s-etcd1--0-eth0','namespace':'lijiaob','uid':uid('wep1'),'creationTimestamp':ago(86400)},
     'spec':{'orchestrator':'k8s','node':N,'pod':'etcd1-0','endpoint':'eth0','interfaceName':'cali9118ebbb10b','ipNetworks':['192.168.8.20/32'],'profiles':['kns.lijiaob']}}
n=node(N,runtime='docker://1.12.6',kernel='3.10.0-514.el7.x86_64',kubelet='v1.7.6')
objs=[ns('lijiaob'),n,sts,p,other,wep,ev(p,'Scheduled','Successfully assigned lijiaob/stateful-new-pod-0 to dev-slave-107','Normal',last=90,component='default-scheduler')]
write('seed-004-calico-endpoint-missing',{'title':'A stale Calico CNI DEL removed the new StatefulSet pod\'s endpoint: gateway ARP lost','seed':'004','target':'lijiaob/stateful-new-pod-0','first':'network.calico-endpoint-missing','node':'../../nodes/004'},objs)
