import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
from seed_003 import pending_pod

def neg(slug,title,target,objs): write('healthy-'+slug,{'title':title,'target':target,'first':None},objs)

# 1 healthy deployment pod with owner chain
dep=workload('Deployment','web','shop',{'app':'web'},replicas=3,status={'replicas':3,'readyReplicas':3,'availableReplicas':3})
rs=rs_for(dep,'web-7d9f8c6b5')
p=pod('web-7d9f8c6b5-x2k4q','shop',owner=('ReplicaSet','web-7d9f8c6b5'),labels={'app':'web'})
neg('deployment-pod','A healthy Deployment pod','shop/web-7d9f8c6b5-x2k4q',[ns('shop'),node('node-1'),dep,rs,p,ev(p,'Scheduled','Successfully assigned shop/web-7d9f8c6b5-x2k4q to node-1','Normal',last=7190,component='default-scheduler'),ev(p,'Pulled','Successfully pulled image "registry.example.com/shop/web:1.4.2" in 1.286s (1.286s including waiting). Image size: 59774010 bytes.','Normal',last=7185,host='node-1'),ev(p,'Started','Started container web','Normal',last=7180,host='node-1')])

# 2 pending a few seconds
msg='0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.'
p=pending_pod('burst-5d6f7-q1w2e','shop',msg,created=4)
neg('pending-briefly','Pending for 4 seconds while the autoscaler adds a node','shop/burst-5d6f7-q1w2e',[ns('shop'),*[node('worker-%d'%i) for i in range(1,4)],p,ev(p,'FailedScheduling',msg,count=1,last=3,component='default-scheduler')])

# 3 terminating within its grace period
p=pod('web-7d9f8c6b5-q9w8e','shop',meta_extra={'deletionTimestamp':ago(-20),'deletionGracePeriodSeconds':30,'finalizers':['example.com/drain']})
neg('terminating-in-grace','Deleted 10 s ago with a 30 s grace period','shop/web-7d9f8c6b5-q9w8e',[ns('shop'),node('node-1'),p,ev(p,'Killing','Stopping container web','Normal',last=10,host='node-1')])

# 4 completed job pod
job=workload('Job','nightly-export-29012345','reports',{'job-name':'nightly-export-29012345'},status={'succeeded':1,'completionTime':ago(3000)})
p=pod('nightly-export-29012345-7xk2p','reports',owner=('Job','nightly-export-29012345'),phase='Succeeded',created=3600,
      statuses=[{'name':'export','ready':False,'started':False,'restartCount':0,'image':'registry.example.com/reports/export:3','imageID':'x','containerID':'containerd://'+hexid('exp'),'state':{'terminated':{'exitCode':0,'reason':'Completed','startedAt':ago(3550),'finishedAt':ago(3000)}}}],
      spec_extra={'restartPolicy':'Never'})
neg('completed-job','A Job pod that completed','reports/nightly-export-29012345-7xk2p',[ns('reports'),node('node-1'),job,p])

# 5 completed pod whose sidecar exited non-zero (istio-proxy killed after main container)
job=workload('Job','etl-29012346','data',{'job-name':'etl-29012346'},status={'succeeded':1})
p=pod('etl-29012346-k2j3h','data',owner=('Job','etl-29012346'),phase='Succeeded',created=3600,
      statuses=[{'name':'etl','ready':False,'restartCount':0,'image':'registry.example.com/data/etl:9','imageID':'x','containerID':'containerd://'+hexid('etl'),'state':{'terminated':{'exitCode':0,'reason':'Completed','startedAt':ago(3500),'finishedAt':ago(3100)}}},
                {'name':'istio-proxy','ready':False,'restartCount':0,'image':'docker.io/istio/proxyv2:1.22.3','imageID':'x','containerID':'containerd://'+hexid('ip'),'state':{'terminated':{'exitCode':137,'reason':'Error','startedAt':ago(3550),'finishedAt':ago(3095)}}}],
      containers=[{'name':'etl','image':'registry.example.com/data/etl:9'},{'name':'istio-proxy','image':'docker.io/istio/proxyv2:1.22.3'}],spec_extra={'restartPolicy':'Never'})
neg('completed-sidecar-nonzero','Job pod done; its istio-proxy sidecar was killed (137) afterwards','data/etl-29012346-k2j3h',[ns('data'),node('node-1'),job,p])

# 6 cloud provider node conditions (node-problem-detector) all healthy, GKE style
extra=[{'type':c,'status':'False','reason':r,'message':m,'lastHeartbeatTime':ago(30),'lastTransitionTime':ago(86400*5)} for c,r,m in [
  ('FrequentKubeletRestart','NoFrequentKubeletRestart','kubelet is functioning properly'),('FrequentDockerRestart','NoFrequentDockerRestart','docker is functioning properly'),
  ('FrequentContainerdRestart','NoFrequentContainerdRestart','containerd is functioning properly'),('KernelDeadlock','KernelHasNoDeadlock','kernel has no deadlock'),
  ('ReadonlyFilesystem','FilesystemIsNotReadOnly','Filesystem is not read-only'),('CorruptDockerOverlay2','NoCorruptDockerOverlay2','docker overlay2 is functioning properly'),
  ('FrequentUnregisterNetDevice','NoFrequentUnregisterNetDevice','node is functioning properly'),('NetworkUnavailable','False','RouteController created a route')]]
extra[-1]['reason']='RouteCreated'
n=node('gke-prod-pool-1-5f6a7b8c-x2k4',conditions_extra=extra,runtime='containerd://1.7.24',labels={'cloud.google.com/gke-nodepool':'pool-1'})
p=pod('api-5b6c7d8e9f-h4j5k','prod',node_name='gke-prod-pool-1-5f6a7b8c-x2k4')
neg('cloud-node-conditions','Healthy pod on a GKE node with node-problem-detector conditions','prod/api-5b6c7d8e9f-h4j5k',[ns('prod'),n,p])

# 7 restarted once a day ago, running and ready now
p=pod('worker-6c7d8e-l9k8j','shop',created=86400*3,statuses=[{'name':'web','ready':True,'started':True,'restartCount':1,'image':'registry.example.com/shop/web:1.4.2','imageID':'x','containerID':'containerd://'+hexid('wr'),'state':{'running':{'startedAt':ago(86400)}},'lastState':{'terminated':{'exitCode':137,'reason':'Error','startedAt':ago(86400*3),'finishedAt':ago(86400+5)}}}])
neg('restarted-long-ago','Restarted once a day ago (node drain); Running and Ready since','shop/worker-6c7d8e-l9k8j',[ns('shop'),node('node-1'),p])

# 8 daemonset pod on a healthy node, with init container completed
ds=workload('DaemonSet','fluent-bit','logging',{'app':'fluent-bit'})
p=pod('fluent-bit-7k2lm','logging',owner=('DaemonSet','fluent-bit'),cname='fluent-bit',image='cr.fluentbit.io/fluent/fluent-bit:3.1.4',labels={'app':'fluent-bit'})
p['spec']['initContainers']=[{'name':'init-config','image':'busybox:1.36'}]
p['status']['initContainerStatuses']=[{'name':'init-config','ready':True,'restartCount':0,'image':'busybox:1.36','imageID':'x','containerID':'containerd://'+hexid('ic'),'state':{'terminated':{'exitCode':0,'reason':'Completed','startedAt':ago(7190),'finishedAt':ago(7189)}}}]
neg('daemonset-pod','A DaemonSet pod on a healthy node, init container completed','logging/fluent-bit-7k2lm',[ns('logging'),node('node-1'),ds,p])

# 9 image pull just started (no failure yet)
img='registry.example.com/ml/big-model:2024.11'
p=pod('trainer-7f8e9d-p0o9i','ml',image=img,cname='trainer',phase='Pending',created=20,statuses=[{'name':'trainer','ready':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}])
neg('image-pulling','A big image is being pulled (20 s)','ml/trainer-7f8e9d-p0o9i',[ns('ml'),node('node-1'),p,ev(p,'Pulling','Pulling image "%s"'%img,'Normal',last=15,host='node-1')])

# 10 healthy node target
n=node('worker-9')
p=pod('web-7d9f8c6b5-n1m2b','shop',node_name='worker-9')
neg('node','A Ready node with a running pod','node/worker-9',[ns('shop'),n,p])
