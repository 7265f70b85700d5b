import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *

def pending_pod(name, namespace, msg, created=900, extra_spec=None, owner=None, old=False):
    p=pod(name,namespace,node_name=None,phase='Pending',created=created,statuses=[],owner=owner,
          conditions=[{'type':'PodScheduled','status':'False','reason':'Unschedulable','message':msg,'lastTransitionTime':ago(created-1),'lastProbeTime':None}])
    del p['status']['containerStatuses']
    if extra_spec: p['spec'].update(extra_spec)
    return p

# ---------- seed 003: Pending, too many pods (old scheduler wording) ----------
nodes=[node('m7-devops-128071',runtime='docker://17.3.2',kernel='3.10.0-693.el7.x86_64',kubelet='v1.8.6',alloc={'cpu':'40','memory':'263937952Ki','pods':'110'})]
full=[pod('filler-%03d'%i,'devops',node_name='m7-devops-128071',created=86400,runtime='docker') for i in range(110)]
p=pending_pod('mypod-7f8d9c-abcde','devops','No nodes are available that match all of the following predicates:: Insufficient pods (3).')
objs=[ns('devops'),*nodes,p,*full,ev(p,'FailedScheduling','No nodes are available that match all of the following predicates:: Insufficient pods (3).',count=26,last=12,first=880,component='default-scheduler')]
write('seed-003-too-many-pods',{'title':'Pending: every node runs its 110 pods (kubelet --max-pods)','seed':'003','target':'devops/mypod-7f8d9c-abcde','first':'pending.too-many-pods','absent':['pending.insufficient-resources']},objs)

# ---------- seed 003: insufficient cpu (modern wording with preemption) ----------
nodes=[node('worker-%d'%i) for i in range(1,4)]+[node('cp-1',taints=[{'key':'node-role.kubernetes.io/control-plane','effect':'NoSchedule'}])]
busy=[pod('batch-%d-%d'%(i,j),'analytics',node_name='worker-%d'%i,created=7200,containers=[{'name':'w','image':'registry.example.com/batch:1','resources':{'requests':{'cpu':'3500m','memory':'2Gi'}}}]) for i in range(1,4) for j in range(2)]
for b in busy: b['status']['containerStatuses'][0]['name']='w'
msg='0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.'
p=pending_pod('report-builder-5b7c9d-qx2lp','analytics',msg)
p['spec']['containers']=[{'name':'builder','image':'registry.example.com/analytics/report:7','resources':{'requests':{'cpu':'2','memory':'4Gi'}}}]
objs=[ns('analytics'),*nodes,*busy,p,ev(p,'FailedScheduling',msg,count=9,last=40,first=890,component='default-scheduler')]
write('seed-003-insufficient-cpu',{'title':'Pending: no node has 2 free CPUs','seed':'003','target':'analytics/report-builder-5b7c9d-qx2lp','first':'pending.insufficient-resources','also':['pending.taint']},objs)

# ---------- seed 003: sandbox image pull needs auth (docker era) ----------
N='172.27.129.237'
p=pod('dnsuutils-ds-7q6dr','default',node_name=N,runtime='docker',phase='Pending',created=150,statuses=[{'name':'dnsutils','ready':False,'restartCount':0,'image':'docker02:35000/tools/dnsutils:1','imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}],owner=('DaemonSet','dnsuutils-ds'))
p['spec']['containers']=[{'name':'dnsutils','image':'docker02:35000/tools/dnsutils:1'}]
objs=[ns('default'),node(N,runtime='docker://1.12.6',kernel='3.10.0-693.el7.x86_64',kubelet='v1.8.6'),workload('DaemonSet','dnsuutils-ds','default',{'app':'dnsuutils'}),p,
      ev(p,'SuccessfulMountVolume','MountVolume.SetUp succeeded for volume "default-token-jhdrm"','Normal',last=120,host=N),
      ev(p,'FailedCreatePodSandBox','Failed create pod sandbox.',count=8,last=25,first=120,host=N),
      ev(p,'FailedSync','Error syncing pod',count=8,last=25,first=120,host=N)]
write('seed-003-sandbox-image-auth',{'title':'Sandbox (pause image) cannot be pulled: registry needs login','seed':'003','target':'default/dnsuutils-ds-7q6dr','first':'sandbox.create-failed'},objs)

# ---------- seed 003: memory without units ----------
N='pay-node-2'
p=pod('mem-units-6d5f7-k2j9x','payments',node_name=N,phase='Pending',created=600,statuses=[{'name':'api','ready':False,'restartCount':0,'image':'registry.example.com/pay/api:3','imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}])
p['spec']['containers']=[{'name':'api','image':'registry.example.com/pay/api:3','resources':{'requests':{'cpu':'100m','memory':'1024m'},'limits':{'memory':'1024m'}}}]
objs=[ns('payments'),node(N,runtime='docker://18.9.1'),p,
      ev(p,'SandboxChanged','Pod sandbox changed, it will be killed and re-created.','Normal',count=14,last=20,first=580,host=N),
      ev(p,'FailedCreatePodSandBox','Failed create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox container for pod "mem-units-6d5f7-k2j9x": Error response from daemon: OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:301: running exec setns process for init caused \\"signal: killed\\"": unknown',count=14,last=22,first=585,host=N)]
write('seed-003-memory-units',{'title':'memory: 1024m is 1.024 bytes: the sandbox is killed again and again','seed':'003','target':'payments/mem-units-6d5f7-k2j9x','first':'resources.memory-units'},objs)

# ---------- image pull failures (seed 003 docker era + containerd) ----------
def image_pod(name, namespace, image, waiting_reason, waiting_msg, failed_msg, N='worker-1', runtime='containerd', pull_secrets=None, created=1800):
    p=pod(name,namespace,node_name=N,image=image,cname='app',phase='Pending',created=created,runtime=runtime,statuses=[{'name':'app','ready':False,'restartCount':0,'image':image,'imageID':'','state':{'waiting':{'reason':waiting_reason,'message':waiting_msg}}}])
    if pull_secrets: p['spec']['imagePullSecrets']=[{'name':s} for s in pull_secrets]
    evs=[ev(p,'Pulling','Pulling image "%s"'%image if runtime=='containerd' else 'pulling image "%s"'%image,'Normal',count=13,last=36,first=created-10,host=N,fieldPath='spec.containers{app}'),
         ev(p,'Failed','Failed to pull image "%s": %s'%(image,failed_msg),count=13,last=35,first=created-12,host=N,fieldPath='spec.containers{app}'),
         ev(p,'Failed','Error: ErrImagePull',count=13,last=35,first=created-12,host=N,fieldPath='spec.containers{app}'),
         ev(p,'BackOff','Back-off pulling image "%s"'%image,'Normal',count=83,last=5,first=created-20,host=N,fieldPath='spec.containers{app}'),
         ev(p,'Failed','Error: ImagePullBackOff',count=83,last=5,first=created-20,host=N,fieldPath='spec.containers{app}')]
    return p,evs

img='ghcr.io/acme/api:v9'
p,evs=image_pod('api-7d9f8c6b5-x2k4q','prod',img,'ImagePullBackOff','Back-off pulling image "%s": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "%s": failed to resolve reference "%s": %s: not found'%(img,img,img,img),'rpc error: code = NotFound desc = failed to pull and unpack image "%s": failed to resolve reference "%s": %s: not found'%(img,img,img))
write('image-not-found-containerd',{'title':'ImagePullBackOff: the tag does not exist (containerd, k8s >= 1.32)','target':'prod/api-7d9f8c6b5-x2k4q','first':'image.not-found'},[ns('prod'),node('worker-1'),p,*evs])

img='172.27.129.211:35000/metricbeat-prophet:6.0.1'
p,evs=image_pod('alert-engine-alert-engine-54fd454f64-clbd7','env30',img,'ImagePullBackOff','Back-off pulling image "%s"'%img,'pull QPS exceeded.',N='m7-power-k8s03',runtime='docker')
write('seed-003-pull-qps',{'title':'ImagePullBackOff: kubelet pull QPS exceeded','seed':'003','target':'env30/alert-engine-alert-engine-54fd454f64-clbd7','first':'image.pull-throttled'},[ns('env30'),node('m7-power-k8s03',runtime='docker://17.3.2',kubelet='v1.8.6'),p,*evs])

img='docker02:35000/env/release/3.2.0/prophet/app/executor-service-kube.tar:release-3.2.0-8'
p,evs=image_pod('executor-service-5f6d7-zt8kq','prophet',img,'ErrImagePull','rpc error: code = Unknown desc = error pulling image configuration: unknown blob','rpc error: code = Unknown desc = error pulling image configuration: unknown blob',N='m7-devops-128107',runtime='docker')
write('seed-003-corrupt-blob',{'title':'ErrImagePull: the image in the registry is broken (unknown blob)','seed':'003','target':'prophet/executor-service-5f6d7-zt8kq','first':'image.corrupt-blob'},[ns('prophet'),node('m7-devops-128107',runtime='docker://17.3.2',kubelet='v1.8.6'),p,*evs])

img='harbor.example.com/team/app:2.1'
p,evs=image_pod('app-66b8c9d7f4-8wq2n','team',img,'ImagePullBackOff','Back-off pulling image "%s": ErrImagePull: failed to pull and unpack image "%s": failed to resolve reference "%s": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials'%(img,img,img),'failed to pull and unpack image "%s": failed to resolve reference "%s": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials'%(img,img),pull_secrets=['harbor-pull'])
write('image-auth-missing-secret',{'title':'ImagePullBackOff: registry wants credentials; imagePullSecret names a Secret','target':'team/app-66b8c9d7f4-8wq2n','first':'image.auth'},[ns('team'),node('worker-1'),p,*evs])

img='registry.internal:5000/tools/builder:1.0'
p,evs=image_pod('builder-0','ci',img,'ImagePullBackOff','Back-off pulling image "%s"'%img,'rpc error: code = Unknown desc = failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: Head "https://registry.internal:5000/v2/tools/builder/manifests/1.0": http: server gave HTTP response to HTTPS client'%(img,img))
write('image-insecure-registry',{'title':'ImagePullBackOff: plain-HTTP registry','target':'ci/builder-0','first':'image.insecure-registry'},[ns('ci'),node('worker-1'),p,*evs])

img='registry.corp.example:8443/platform/gateway:4.2'
p,evs=image_pod('gateway-5d8f9-ppl2m','edge',img,'ImagePullBackOff','Back-off pulling image "%s": ErrImagePull: failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: Head "https://registry.corp.example:8443/v2/platform/gateway/manifests/4.2": tls: failed to verify certificate: x509: certificate signed by unknown authority'%(img,img,img),'failed to pull and unpack image "%s": failed to resolve reference "%s": failed to do request: Head "https://registry.corp.example:8443/v2/platform/gateway/manifests/4.2": tls: failed to verify certificate: x509: certificate signed by unknown authority'%(img,img))
write('image-untrusted-ca',{'title':'ImagePullBackOff: registry certificate signed by an unknown CA','target':'edge/gateway-5d8f9-ppl2m','first':'image.untrusted-ca'},[ns('edge'),node('worker-1'),p,*evs])

# ---------- seed 003: ImageInspectError (corrupt local image) ----------
img='docker02:35000/env/develop/prophet/app/pms.tar:develop-175'
N='m7-devops-128107'
p=pod('pms-558b58dfbd-fpjzl','fangrong',node_name=N,image=img,cname='pms',phase='Pending',runtime='docker',created=13*3600,statuses=[{'name':'pms','ready':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'ImageInspectError','message':'Failed to inspect image "%s": rpc error: code = Unknown desc = Error response from daemon: readlink /mnt/disk0/docker/data/overlay2: invalid argument'%img}}}])
objs=[ns('fangrong'),node(N,runtime='docker://17.3.2',kubelet='v1.8.6'),p,
      ev(p,'FailedSync','Error syncing pod',count=522,last=3600,first=13*3600,host=N),
      ev(p,'InspectFailed','Failed to inspect image "%s": rpc error: code = Unknown desc = Error response from daemon: readlink /mnt/disk0/docker/data/overlay2: invalid argument'%img,count=590,last=180,first=13*3600,host=N,fieldPath='spec.containers{pms}')]
write('seed-003-image-inspect-error',{'title':'ImageInspectError: the image copy on the node is corrupt','seed':'003','target':'fangrong/pms-558b58dfbd-fpjzl','first':'image.corrupt-local'},objs)

# ---------- seed 003: subPath missing, CrashLoopBackOff ----------
N='m7-power-128050'
img='docker.elastic.co/beats/metricbeat:6.4.1'
p=pod('metricbeat-995dcffbd-6rppf','metricbeat',node_name=N,image=img,cname='metricbeat',runtime='docker',created=9*86400,owner=('ReplicaSet','metricbeat-995dcffbd'),
      statuses=[{'name':'metricbeat','ready':False,'restartCount':1142,'image':img,'imageID':'docker-pullable://x@sha256:'+hexid('mb'),'containerID':'docker://'+hexid('mb-c'),'state':{'waiting':{'reason':'CrashLoopBackOff','message':'Back-off 5m0s restarting failed container=metricbeat pod=metricbeat-995dcffbd-6rppf_metricbeat(54d426d3-cacd-11e8-971a-5e384b278319)'}},
                 'lastState':{'terminated':{'exitCode':128,'reason':'ContainerCannotRun','message':'OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:402: container init caused \\"rootfs_linux.go:58: mounting \\\\\\"/mnt/disk2/k8s/kubelet/pods/54d426d3-cacd-11e8-971a-5e384b278319/volume-subpaths/config/metricbeat/0\\\\\\" to rootfs \\\\\\"/mnt/disk1/docker/data/overlay2/5753fb64509f490968802fe00a6a6e000b7f17f4839d62ba5ca1dc484c86ba22/merged\\\\\\" at \\\\\\"/mnt/disk1/docker/data/overlay2/5753fb64509f490968802fe00a6a6e000b7f17f4839d62ba5ca1dc484c86ba22/merged/etc/metricbeat.yml\\\\\\" caused \\\\\\"no such file or directory\\\\\\"\\"": unknown','startedAt':ago(200),'finishedAt':ago(200)}}}],
      meta_extra={'uid':'54d426d3-cacd-11e8-971a-5e384b278319'})
msg='Error: failed to start container "metricbeat": Error response from daemon: OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:402: container init caused \\"rootfs_linux.go:58: mounting \\\\\\"/mnt/disk2/k8s/kubelet/pods/54d426d3-cacd-11e8-971a-5e384b278319/volume-subpaths/config/metricbeat/0\\\\\\" to rootfs \\\\\\"/mnt/disk1/docker/data/overlay2/5753fb64509f490968802fe00a6a6e000b7f17f4839d62ba5ca1dc484c86ba22/merged\\\\\\" at \\\\\\"/mnt/disk1/docker/data/overlay2/5753fb64509f490968802fe00a6a6e000b7f17f4839d62ba5ca1dc484c86ba22/merged/etc/metricbeat.yml\\\\\\" caused \\\\\\"no such file or directory\\\\\\"\\"": unknown'
objs=[ns('metricbeat'),node(N,runtime='docker://17.3.2',kubelet='v1.8.6'),p,
      ev(p,'Failed',msg,count=1,last=4*86400,host=N,fieldPath='spec.containers{metricbeat}'),
      ev(p,'Pulled','Container image "%s" already present on machine'%img,'Normal',count=1135,last=43*60,first=9*86400,host=N,fieldPath='spec.containers{metricbeat}'),
      ev(p,'BackOff','Back-off restarting failed container',count=25616,last=180,first=4*86400,host=N,fieldPath='spec.containers{metricbeat}')]
write('seed-003-subpath-missing',{'title':'CrashLoopBackOff: the subPath source vanished (container died, kubelet did not notice)','seed':'003','target':'metricbeat/metricbeat-995dcffbd-6rppf','first':'crash.subpath-missing','absent':['crash.app-exit']},objs)

# ---------- seed 003: OOMKilled (docker era, as in the report) ----------
N='worker-3'
p=pod('mypod','default',node_name=N,image='alpine',cname='sh',runtime='docker',created=1200,
      statuses=[{'name':'sh','ready':False,'restartCount':3,'image':'alpine','imageID':'docker-pullable://alpine@sha256:7b848083f93822dd21b0a2f14a110bd99f6efb4b838d499df6d04a49d0debf8b','containerID':'docker://3f7a2ee0e7e0e16c22090a25f9b6e42b5c06ec049405bc34d3aa183060eb4906',
                 'state':{'waiting':{'reason':'CrashLoopBackOff','message':'Back-off 40s restarting failed container=sh pod=mypod_default(%s)'%uid('poddefaultmypod')}},'lastState':{'terminated':{'exitCode':2,'reason':'OOMKilled','startedAt':ago(100),'finishedAt':ago(60)}}}])
p['spec']['containers']=[{'name':'sh','image':'alpine','resources':{'limits':{'cpu':'1','memory':'1G'},'requests':{'cpu':'100m','memory':'500M'}}}]
objs=[ns('default'),node(N),p,ev(p,'BackOff','Back-off restarting failed container',count=9,last=20,first=900,host=N,fieldPath='spec.containers{sh}')]
write('seed-003-oomkilled',{'title':'CrashLoopBackOff after OOMKilled (limit 1G)','seed':'003','target':'default/mypod','first':'crash.oomkilled','absent':['crash.app-exit']},objs)

# ---------- seed 003: nginx [::] without IPv6 ----------
N='worker-1'
p=pod('nginx-7c5ddbdf54-abcde','web',node_name=N,image='nginx:1.25',cname='nginx',created=1200,
      statuses=[{'name':'nginx','ready':False,'restartCount':6,'image':'docker.io/library/nginx:1.25','imageID':'docker.io/library/nginx@sha256:'+hexid('ng'),'containerID':'containerd://'+hexid('ngc'),
                 'state':{'waiting':{'reason':'CrashLoopBackOff','message':'back-off 2m40s restarting failed container=nginx pod=nginx-7c5ddbdf54-abcde_web(%s)'%uid('podwebnginx-7c5ddbdf54-abcde')}},'lastState':{'terminated':{'exitCode':1,'reason':'Error','startedAt':ago(170),'finishedAt':ago(169)}}}])
objs=[ns('web'),node(N),p,ev(p,'BackOff','Back-off restarting failed container nginx in pod nginx-7c5ddbdf54-abcde_web(%s)'%p['metadata']['uid'],count=27,last=15,first=1100,host=N,fieldPath='spec.containers{nginx}'),
      podlog('web','nginx-7c5ddbdf54-abcde','nginx',['/docker-entrypoint.sh: Configuration complete; ready for start up','2026/11/21 09:57:11 [emerg] 1#1: socket() [::]:8000 failed (97: Address family not supported by protocol)','nginx: [emerg] socket() [::]:8000 failed (97: Address family not supported by protocol)'])]
write('seed-003-nginx-ipv6',{'title':'nginx exits: listen [::] on a node without IPv6','seed':'003','target':'web/nginx-7c5ddbdf54-abcde','first':'crash.ipv6-disabled','absent':['crash.app-exit']},objs)

# ---------- seed 003: finalizers foregroundDeletion ----------
N='worker-2'
# The kubelet has stopped the containers and sent its final delete (grace 0): only the
# finalizer holds the object, as in a real cluster.
p=pod('report-6f7d8-xk2lq','reports',node_name=N,created=7200,meta_extra={'deletionTimestamp':ago(1800),'deletionGracePeriodSeconds':0,'finalizers':['foregroundDeletion']})
p['status']['phase']='Succeeded'
p['status']['containerStatuses'][0]['state']={'terminated':{'exitCode':0,'reason':'Completed','startedAt':ago(7000),'finishedAt':ago(1790)}}
p['status']['containerStatuses'][0]['ready']=False
objs=[ns('reports'),node(N),p]
write('seed-003-finalizers',{'title':'Terminating forever: finalizer foregroundDeletion','seed':'003','target':'reports/report-6f7d8-xk2lq','first':'terminating.finalizers'},objs)

# ---------- seed 003: namespace terminating ----------
nsobj=ns('legacy-team','Terminating',meta={'deletionTimestamp':ago(7200)},status={'conditions':[
  {'type':'NamespaceDeletionDiscoveryFailure','status':'False','reason':'ResourcesDiscovered','message':'All resources successfully discovered','lastTransitionTime':ago(7190)},
  {'type':'NamespaceDeletionContentFailure','status':'False','reason':'ContentDeleted','message':'All content successfully deleted, may be waiting on finalization','lastTransitionTime':ago(7190)},
  {'type':'NamespaceContentRemaining','status':'True','reason':'SomeResourcesRemain','message':'Some resources are remaining: pods. has 1 resource instances','lastTransitionTime':ago(7190)},
  {'type':'NamespaceFinalizersRemaining','status':'True','reason':'SomeFinalizersRemain','message':'Some content in the namespace has finalizers remaining: example.com/backup in 1 resource instances','lastTransitionTime':ago(7190)}]})
left=pod('backup-agent-0','legacy-team',node_name='worker-1',created=86400*30,meta_extra={'deletionTimestamp':ago(7100),'deletionGracePeriodSeconds':0,'finalizers':['example.com/backup']},
         statuses=[{'name':'web','ready':False,'restartCount':0,'image':'registry.example.com/shop/web:1.4.2','imageID':'x','containerID':'containerd://'+hexid('bk'),'state':{'terminated':{'exitCode':0,'reason':'Completed','startedAt':ago(86400*30),'finishedAt':ago(7090)}}}])
objs=[nsobj,node('worker-1'),left]
write('seed-003-namespace-terminating',{'title':'Namespace stuck Terminating: a pod with a finalizer remains','seed':'003','target':'ns/legacy-team','first':'namespace.terminating'},objs)
