# Everyday failure classes beyond the seed incidents: readiness, init containers, start and
# create errors, image names, security context, volumes, scheduling, kubelet admission, nodes,
# drains. Each scenario carries a noisy history like a real dump: normal start-up events (some in
# the events.k8s.io shape with eventTime/series), old resolved warnings, sidecars.
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
from seed_003 import pending_pod

sev, scheduled = event_writers('sev', 104729, 7)

def deploy_chain(name, namespace, labels, replicas, hash_, template_spec):
    d=workload('Deployment',name,namespace,labels,replicas=replicas,template_spec=template_spec)
    rs=rs_for(d,'%s-%s'%(name,hash_))
    return d,rs

def rs_owner(rs): return ('ReplicaSet',rs['metadata']['name'])

# ---------- readiness.failing: HTTP 503 for 40 minutes, the Service loses its endpoint ----------
N='ip-10-0-12-41.eu-west-1.compute.internal'
img='registry.example.com/orders/api:3.14.2'; sidecar='envoyproxy/envoy:v1.31.2'
d,rs=deploy_chain('orders-api','orders',{'app':'orders-api'},3,'5d8f7c9b6',{'containers':[{'name':'api','image':img}]})
p=pod('orders-api-5d8f7c9b6-q7w2e','orders',node_name=N,image=img,cname='api',created=3 * 3600,owner=rs_owner(rs),labels={'app':'orders-api','pod-template-hash':'5d8f7c9b6'},
      statuses=[running('api',img,3*3600-30,ready=False),running('envoy',sidecar,3*3600-28)],
      containers=[{'name':'api','image':img,'ports':[{'containerPort':8080,'name':'http'}],'readinessProbe':{'httpGet':{'path':'/ready','port':'http'},'periodSeconds':10,'failureThreshold':3},'resources':{'requests':{'cpu':'250m','memory':'512Mi'}}},
                  {'name':'envoy','image':sidecar,'ports':[{'containerPort':15001}]}])
for c in p['status']['conditions']:
    if c['type'] in ('Ready','ContainersReady'): c.update({'status':'False','reason':'ContainersNotReady','message':'containers with unready status: [api]','lastTransitionTime':ago(2400)})
svc={'apiVersion':'v1','kind':'Service','metadata':{'name':'orders-api','namespace':'orders','uid':uid('svc-orders-api'),'creationTimestamp':ago(86400*40)},'spec':{'selector':{'app':'orders-api'},'ports':[{'port':80,'targetPort':'http'}],'type':'ClusterIP','clusterIP':'10.96.41.7'}}
other={'apiVersion':'v1','kind':'Service','metadata':{'name':'orders-worker','namespace':'orders','uid':uid('svc-orders-worker'),'creationTimestamp':ago(86400*40)},'spec':{'selector':{'app':'orders-worker'},'ports':[{'port':80}]}}
objs=[ns('orders'),node(N),d,rs,p,svc,other,scheduled(p,N,3*3600),*started(p,N,img,'api',3*3600-10),
      ev(p,'Unhealthy','Readiness probe failed: Get "http://10.244.7.31:8080/ready": dial tcp 10.244.7.31:8080: connect: connection refused',count=3,last=3*3600-60,first=3*3600-90,host=N,fieldPath='spec.containers{api}'),
      sev(p,'Unhealthy','Readiness probe failed: HTTP probe failed with statuscode: 503',count=241,last=8,first=2410,controller='kubelet',instance=N,fieldPath='spec.containers{api}')]
write('readiness-failing-503',{'title':'Running, not Ready for 40 minutes: readiness answers 503, the Service has lost the pod','target':'orders/orders-api-5d8f7c9b6-q7w2e','first':'readiness.failing','absent':['pod.unexplained','crash.probe-failing']},objs)

# ---------- init.waiting-dependency: an init container waits for a database name that does not resolve ----------
N='ip-10-0-14-7.eu-west-1.compute.internal'
img='registry.example.com/billing/invoicer:2.8.0'
d,rs=deploy_chain('invoicer','billing',{'app':'invoicer'},1,'7b6c5d4f8',{'containers':[{'name':'invoicer','image':img}]})
wait=['sh','-c','until nslookup postgres.billing-db.svc.cluster.local; do echo "waiting for postgres"; sleep 2; done']
p=pod('invoicer-7b6c5d4f8-h3j4k','billing',node_name=N,image=img,cname='invoicer',phase='Pending',created=2400,owner=rs_owner(rs),labels={'app':'invoicer','pod-template-hash':'7b6c5d4f8'},
      statuses=[{'name':'invoicer','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'PodInitializing'}}}],
      conditions=[{'type':'Initialized','status':'False','reason':'ContainersNotInitialized','message':'containers with incomplete status: [wait-for-db migrate]','lastTransitionTime':ago(2398)},
                  {'type':'Ready','status':'False','reason':'ContainersNotReady','message':'containers with unready status: [invoicer]','lastTransitionTime':ago(2398)},
                  {'type':'ContainersReady','status':'False','reason':'ContainersNotReady','message':'containers with unready status: [invoicer]','lastTransitionTime':ago(2398)},
                  {'type':'PodScheduled','status':'True','lastTransitionTime':ago(2399)}])
p['spec']['initContainers']=[{'name':'wait-for-db','image':'busybox:1.36','command':wait},{'name':'migrate','image':img,'command':['/app/migrate']}]
p['status']['initContainerStatuses']=[running('wait-for-db','busybox:1.36',2390,ready=False),{'name':'migrate','ready':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'PodInitializing'}}}]
log=['Server:\t\t10.96.0.10','Address:\t10.96.0.10:53','',"** server can't find postgres.billing-db.svc.cluster.local: NXDOMAIN",'','waiting for postgres']
objs=[ns('billing'),node(N),d,rs,p,scheduled(p,N,2399),*[e for e in started(p,N,'busybox:1.36','wait-for-db',2395,'812ms') if True],
      podlog('billing','invoicer-7b6c5d4f8-h3j4k','wait-for-db',log*3,previous=False)]
write('init-waiting-dns',{'title':'Init:0/2 for 40 minutes: the init container waits for a database name that does not resolve','target':'billing/invoicer-7b6c5d4f8-h3j4k','first':'init.waiting-dependency','absent':['pod.unexplained']},objs)

# ---------- container.start-error: gunicorn not in $PATH (containerd StartError, exit 128) ----------
N='ip-10-0-15-88.eu-west-1.compute.internal'
img='registry.example.com/reports/web:5.0.0'
d,rs=deploy_chain('reports-web','reports',{'app':'reports-web'},2,'6f5e4d3c2',{'containers':[{'name':'web','image':img}]})
msg='failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "gunicorn": executable file not found in $PATH: unknown'
p=pod('reports-web-6f5e4d3c2-z8x7c','reports',node_name=N,image=img,cname='web',created=1500,owner=rs_owner(rs),labels={'app':'reports-web','pod-template-hash':'6f5e4d3c2'},
      statuses=[{'name':'web','ready':False,'started':False,'restartCount':6,'image':img,'imageID':'%s@sha256:%s'%(img.split(':')[0],hexid(img)),'containerID':'containerd://'+hexid('rw7'),
                 'state':{'waiting':{'reason':'CrashLoopBackOff','message':'back-off 5m0s restarting failed container=web pod=reports-web-6f5e4d3c2-z8x7c_reports(%s)'%uid('podreportsreports-web-6f5e4d3c2-z8x7c')}},
                 'lastState':{'terminated':{'exitCode':128,'reason':'StartError','message':msg,'startedAt':'1970-01-01T00:00:00Z','finishedAt':ago(200),'containerID':'containerd://'+hexid('rw6')}}},
                running('metrics','prom/statsd-exporter:v0.27.1',1480)],
      containers=[{'name':'web','image':img,'command':['gunicorn'],'args':['reports.wsgi:application','--bind','0.0.0.0:8000','--workers','4']},{'name':'metrics','image':'prom/statsd-exporter:v0.27.1'}])
objs=[ns('reports'),node(N),d,rs,p,scheduled(p,N,1500),*started(p,N,img,'web',1495,'11.2s'),
      sev(p,'Failed','Error: '+msg,count=7,last=200,first=1480,instance=N,fieldPath='spec.containers{web}'),
      ev(p,'BackOff','Back-off restarting failed container web in pod reports-web-6f5e4d3c2-z8x7c_reports(%s)'%uid('podreportsreports-web-6f5e4d3c2-z8x7c'),count=58,last=12,first=1400,host=N,fieldPath='spec.containers{web}')]
write('container-start-error-path',{'title':'StartError: the command "gunicorn" is not in the image (containerd, exit 128)','target':'reports/reports-web-6f5e4d3c2-z8x7c','first':'container.start-error','absent':['pod.unexplained']},objs)

# ---------- image.wrong-arch: an amd64 image on a Graviton (arm64) node ----------
N='ip-10-0-21-5.eu-west-1.compute.internal'
img='registry.example.com/edge/proxy:1.9.3-amd64'
n=node(N,labels={'kubernetes.io/arch':'arm64','node.kubernetes.io/instance-type':'m7g.xlarge'})
n['status']['nodeInfo']['architecture']='arm64'
d,rs=deploy_chain('edge-proxy','edge',{'app':'edge-proxy'},2,'58c7b6a9d',{'containers':[{'name':'proxy','image':img}]})
p=pod('edge-proxy-58c7b6a9d-v4b5n','edge',node_name=N,image=img,cname='proxy',created=1800,owner=rs_owner(rs),labels={'app':'edge-proxy','pod-template-hash':'58c7b6a9d'},
      statuses=[{'name':'proxy','ready':False,'started':False,'restartCount':7,'image':img,'imageID':'%s@sha256:%s'%(img.split(':')[0],hexid(img)),'containerID':'containerd://'+hexid('ep7'),
                 'state':{'waiting':{'reason':'CrashLoopBackOff','message':'back-off 5m0s restarting failed container=proxy pod=edge-proxy-58c7b6a9d-v4b5n_edge(x)'}},
                 'lastState':{'terminated':{'exitCode':1,'reason':'Error','startedAt':ago(131),'finishedAt':ago(131),'containerID':'containerd://'+hexid('ep6')}}}])
objs=[ns('edge'),n,d,rs,p,scheduled(p,N,1800),*started(p,N,img,'proxy',1795,'6.4s'),
      ev(p,'BackOff','Back-off restarting failed container proxy in pod edge-proxy-58c7b6a9d-v4b5n_edge(x)',count=80,last=9,first=1700,host=N,fieldPath='spec.containers{proxy}'),
      podlog('edge','edge-proxy-58c7b6a9d-v4b5n','proxy',['exec /usr/local/bin/edge-proxy: exec format error'])]
write('image-wrong-arch-arm64',{'title':'exec format error: an amd64 image on an arm64 (Graviton) node','target':'edge/edge-proxy-58c7b6a9d-v4b5n','first':'image.wrong-arch','absent':['crash.app-exit','pod.unexplained']},objs)

# ---------- container.create-error: containerd keeps the container name reserved after a timed-out create ----------
N='ip-10-0-9-201.eu-west-1.compute.internal'
img='registry.example.com/media/transcoder:4.2.0'
d,rs=deploy_chain('transcoder','media',{'app':'transcoder'},4,'84d7c6b5f',{'containers':[{'name':'transcoder','image':img}]})
pu=uid('podmediatranscoder-84d7c6b5f-p9o8i')
reserved='failed to reserve container name "transcoder_transcoder-84d7c6b5f-p9o8i_media_%s_0": name "transcoder_transcoder-84d7c6b5f-p9o8i_media_%s_0" is reserved for "%s"'%(pu,pu,hexid('reserved'))
p=pod('transcoder-84d7c6b5f-p9o8i','media',node_name=N,image=img,cname='transcoder',phase='Pending',created=2700,owner=rs_owner(rs),labels={'app':'transcoder','pod-template-hash':'84d7c6b5f'},
      statuses=[{'name':'transcoder','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'CreateContainerError','message':reserved}}}])
objs=[ns('media'),node(N),d,rs,p,scheduled(p,N,2700),ev(p,'Pulled','Container image "%s" already present on machine'%img,'Normal',count=44,last=25,first=2690,host=N,fieldPath='spec.containers{transcoder}'),
      ev(p,'Failed','Error: context deadline exceeded',count=1,last=2560,first=2560,host=N,fieldPath='spec.containers{transcoder}'),
      sev(p,'Failed','Error: '+reserved,count=43,last=25,first=2540,instance=N,fieldPath='spec.containers{transcoder}')]
write('container-create-error-reserved',{'title':'CreateContainerError: containerd keeps the name reserved after a create timed out','target':'media/transcoder-84d7c6b5f-p9o8i','first':'container.create-error','absent':['pod.unexplained']},objs)

# ---------- security.run-as-non-root: the nginx image names its user ----------
N='ip-10-0-3-77.eu-west-1.compute.internal'
img='nginx:1.27.3'
d,rs=deploy_chain('docs-site','docs',{'app':'docs-site'},2,'9c8b7a6d5',{'containers':[{'name':'nginx','image':img}]})
pu=uid('poddocsdocs-site-9c8b7a6d5-t5r4e')
m='container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root (pod: "docs-site-9c8b7a6d5-t5r4e_docs(%s)", container: nginx)'%pu
p=pod('docs-site-9c8b7a6d5-t5r4e','docs',node_name=N,image=img,cname='nginx',phase='Pending',created=900,owner=rs_owner(rs),labels={'app':'docs-site','pod-template-hash':'9c8b7a6d5'},
      statuses=[{'name':'nginx','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'CreateContainerConfigError','message':m}}}],
      spec_extra={'securityContext':{'runAsNonRoot':True,'seccompProfile':{'type':'RuntimeDefault'}}})
objs=[ns('docs'),node(N),d,rs,p,scheduled(p,N,900),ev(p,'Pulled','Container image "%s" already present on machine'%img,'Normal',count=12,last=40,first=895,host=N,fieldPath='spec.containers{nginx}'),
      sev(p,'Failed','Error: '+m,count=12,last=40,first=890,instance=N,fieldPath='spec.containers{nginx}')]
write('security-run-as-non-root',{'title':'CreateContainerConfigError: runAsNonRoot, and the nginx image names its user','target':'docs/docs-site-9c8b7a6d5-t5r4e','first':'security.run-as-non-root','absent':['config.missing-reference','pod.unexplained']},objs)

# ---------- image.invalid-name: upper case in the repository ----------
N='ip-10-0-3-78.eu-west-1.compute.internal'
bad='registry.example.com/Search/UI:2.0.1'
msg='Failed to apply default image tag "%s": couldn\'t parse image reference "%s": invalid reference format: repository name must be lowercase'%(bad,bad)
p=pod('search-ui-6d5c4b3a2-y6u7i','search-ui',node_name=N,image=bad,cname='ui',phase='Pending',created=1200,owner=('ReplicaSet','search-ui-6d5c4b3a2'),
      statuses=[{'name':'ui','ready':False,'started':False,'restartCount':0,'image':bad,'imageID':'','state':{'waiting':{'reason':'InvalidImageName','message':msg}}}])
objs=[ns('search-ui'),node(N),p,scheduled(p,N,1200),sev(p,'InspectFailed',msg,count=61,last=15,first=1195,instance=N,fieldPath='spec.containers{ui}'),
      ev(p,'Failed','Error: InvalidImageName',count=61,last=15,first=1195,host=N,fieldPath='spec.containers{ui}')]
write('image-invalid-name-uppercase',{'title':'InvalidImageName: upper case in the repository of the image','target':'search-ui/search-ui-6d5c4b3a2-y6u7i','first':'image.invalid-name','absent':['pod.unexplained']},objs)

# ---------- image.never-pull: imagePullPolicy Never on a node that never got the image ----------
N='worker-dev-3'
img='tools/jupyter-lab:dev'
p=pod('notebook-0','devtools',node_name=N,image=img,cname='lab',phase='Pending',created=700,owner=('StatefulSet','notebook'),
      statuses=[{'name':'lab','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'ErrImageNeverPull','message':'Container image "%s" is not present with pull policy of Never'%img}}}],
      containers=[{'name':'lab','image':img,'imagePullPolicy':'Never'}])
objs=[ns('devtools'),node(N),workload('StatefulSet','notebook','devtools',{'app':'notebook'}),p,scheduled(p,N,700),
      ev(p,'ErrImageNeverPull','Container image "%s" is not present with pull policy of Never'%img,count=33,last=20,first=695,host=N,fieldPath='spec.containers{lab}'),
      ev(p,'Failed','Error: ErrImageNeverPull',count=33,last=20,first=695,host=N,fieldPath='spec.containers{lab}')]
write('image-never-pull',{'title':'ErrImageNeverPull: the image was loaded on another node','target':'devtools/notebook-0','first':'image.never-pull','absent':['pod.unexplained']},objs)

# ---------- volume.multi-attach: a Deployment with an RWO claim rolls to another node ----------
A='ip-10-0-31-11.eu-west-1.compute.internal'; B='ip-10-0-32-12.eu-west-1.compute.internal'
img='grafana/grafana:11.3.0'
vol={'name':'storage','persistentVolumeClaim':{'claimName':'grafana-storage'}}
d=workload('Deployment','grafana','observability',{'app':'grafana'},replicas=1,template_spec={'containers':[{'name':'grafana','image':img}],'volumes':[vol]})
old_rs=rs_for(d,'grafana-6c8d7f9b5'); new_rs=rs_for(d,'grafana-7f9c6d8b4')
old=pod('grafana-6c8d7f9b5-k2x7p','observability',node_name=A,image=img,cname='grafana',created=86400*6,owner=rs_owner(old_rs),labels={'app':'grafana','pod-template-hash':'6c8d7f9b5'},spec_extra={'volumes':[vol]})
new=pod('grafana-7f9c6d8b4-m3n8q','observability',node_name=B,image=img,cname='grafana',phase='Pending',created=1500,owner=rs_owner(new_rs),labels={'app':'grafana','pod-template-hash':'7f9c6d8b4'},
        statuses=[{'name':'grafana','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}],spec_extra={'volumes':[vol]})
pv='pvc-3b9e2a71-5c44-4d0e-9a1f-6d2e8c7b4a10'
objs=[ns('observability'),node(A),node(B),d,old_rs,new_rs,old,new,scheduled(new,B,1500),
      {'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'grafana-storage','namespace':'observability','uid':uid('pvc-grafana'),'creationTimestamp':ago(86400*90)},'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'10Gi'}},'storageClassName':'gp3','volumeName':pv},'status':{'phase':'Bound','accessModes':['ReadWriteOnce'],'capacity':{'storage':'10Gi'}}},
      ev(new,'FailedAttachVolume','Multi-Attach error for volume "%s" Volume is already used by pod(s) grafana-6c8d7f9b5-k2x7p'%pv,count=14,last=40,first=1490,component='attachdetach-controller'),
      sev(new,'FailedMount','Unable to attach or mount volumes: unmounted volumes=[storage], unattached volumes=[storage kube-api-access-7mzq2]: timed out waiting for the condition',count=6,last=100,first=1380,instance=B)]
write('volume-multi-attach-rollout',{'title':'Multi-Attach error: a rolling update of a Deployment with a ReadWriteOnce volume','target':'observability/grafana-7f9c6d8b4-m3n8q','first':'volume.multi-attach','absent':['pod.unexplained']},objs)

# ---------- volume.mount-failed: the NFS server does not answer ----------
N='ip-10-0-41-3.eu-west-1.compute.internal'
img='registry.example.com/files/uploader:1.2.0'
vol={'name':'uploads','nfs':{'server':'10.0.200.15','path':'/exports/uploads'}}
p=pod('uploader-5f4e3d2c1-w2e3r','shared-files',node_name=N,image=img,cname='uploader',phase='Pending',created=2100,owner=('ReplicaSet','uploader-5f4e3d2c1'),
      statuses=[{'name':'uploader','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}],spec_extra={'volumes':[vol]})
pu=uid('podshared-filesuploader-5f4e3d2c1-w2e3r')
mnt='MountVolume.SetUp failed for volume "uploads" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs 10.0.200.15:/exports/uploads /var/lib/kubelet/pods/%s/volumes/kubernetes.io~nfs/uploads\nOutput: mount.nfs: Connection timed out'%pu
objs=[ns('shared-files'),node(N),p,scheduled(p,N,2100),
      ev(p,'FailedMount',mnt,count=15,last=50,first=1960,host=N),
      sev(p,'FailedMount','Unable to attach or mount volumes: unmounted volumes=[uploads], unattached volumes=[uploads kube-api-access-p2kd8]: timed out waiting for the condition',count=16,last=20,first=1980,instance=N)]
write('volume-mount-failed-nfs',{'title':'ContainerCreating: the NFS server does not answer (mount.nfs: Connection timed out)','target':'shared-files/uploader-5f4e3d2c1-w2e3r','first':'volume.mount-failed','absent':['pod.unexplained']},objs)

# ---------- pending.pod-affinity: four replicas, three nodes, one per node ----------
nodes=[node('cache-node-%d'%i) for i in range(1,4)]
aff={'podAntiAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':[{'labelSelector':{'matchLabels':{'app':'session-cache'}},'topologyKey':'kubernetes.io/hostname'}]}}
sts=workload('StatefulSet','session-cache','cache',{'app':'session-cache'},replicas=4,template_spec={'affinity':aff,'containers':[{'name':'redis','image':'redis:7.4.1'}]})
others=[pod('session-cache-%d'%i,'cache',node_name='cache-node-%d'%(i+1),image='redis:7.4.1',cname='redis',created=86400*3,owner=('StatefulSet','session-cache'),labels={'app':'session-cache'},spec_extra={'affinity':aff}) for i in range(3)]
msg="0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
p=pending_pod('session-cache-3','cache',msg,created=1300,owner=('StatefulSet','session-cache'),extra_spec={'affinity':aff,'containers':[{'name':'redis','image':'redis:7.4.1'}]})
p['metadata']['labels']={'app':'session-cache'}
objs=[ns('cache'),*nodes,sts,*others,p,sev(p,'FailedScheduling',msg,count=22,last=35,first=1290,controller='default-scheduler',instance='default-scheduler-control-plane-1',action='Scheduling')]
write('pending-pod-anti-affinity',{'title':'Pending: a hostname anti-affinity allows three replicas on three nodes, the fourth waits','target':'cache/session-cache-3','first':'pending.pod-affinity','absent':['pod.unexplained']},objs)

# ---------- pending.volume-limit: every node has its 25 EBS attachments ----------
nodes=[node('ip-10-0-5%d-9.eu-west-1.compute.internal'%i,alloc={'cpu':'7800m','memory':'31Gi','pods':'110','attachable-volumes-aws-ebs':'25'}) for i in range(1,5)]
msg='0/4 nodes are available: 4 node(s) exceed max volume count. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.'
p=pending_pod('broker-7','kafka',msg,created=2000,owner=('StatefulSet','broker'),extra_spec={'volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'data-broker-7'}}],'containers':[{'name':'kafka','image':'apache/kafka:3.8.1'}]})
claim={'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'data-broker-7','namespace':'kafka','uid':uid('pvc-broker-7'),'creationTimestamp':ago(2000)},'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'500Gi'}},'storageClassName':'gp3','volumeName':'pvc-8c1d2e3f-4a5b-4c6d-9e7f-0a1b2c3d4e5f'},'status':{'phase':'Bound','accessModes':['ReadWriteOnce'],'capacity':{'storage':'500Gi'}}}
objs=[ns('kafka'),*nodes,workload('StatefulSet','broker','kafka',{'app':'broker'},replicas=8),p,claim,
      ev(p,'FailedScheduling','0/4 nodes are available: 4 Insufficient memory. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.',count=2,last=86400,first=86500,component='default-scheduler'),
      sev(p,'FailedScheduling',msg,count=30,last=40,first=1990,controller='default-scheduler',instance='default-scheduler-control-plane-1',action='Scheduling')]
write('pending-volume-limit-ebs',{'title':'Pending: every node has reached its EBS attachment limit','target':'kafka/broker-7','first':'pending.volume-limit','absent':['pending.insufficient-resources','pod.unexplained']},objs)

# ---------- admission.kubelet-rejected: the GPU device plugin cannot allocate ----------
N='gpu-node-2'
img='registry.example.com/ml/infer:0.9.4'
msg='Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected'
p=pod('infer-6b7c8d9e0-l1k2j','ml-infer',node_name=N,image=img,cname='infer',phase='Failed',created=600,owner=('ReplicaSet','infer-6b7c8d9e0'),statuses=[],
      status_extra={'reason':'UnexpectedAdmissionError','message':'Pod was rejected: '+msg},
      containers=[{'name':'infer','image':img,'resources':{'limits':{'nvidia.com/gpu':'1'}}}])
p['status']['containerStatuses']=[]
objs=[ns('ml-infer'),node(N,alloc={'cpu':'31800m','memory':'120Gi','pods':'110','nvidia.com/gpu':'4'}),p,scheduled(p,N,600),
      ev(p,'UnexpectedAdmissionError',msg,count=1,last=598,first=598,host=N)]
write('admission-kubelet-rejected-gpu',{'title':'Failed: UnexpectedAdmissionError, the GPU device plugin could not allocate','target':'ml-infer/infer-6b7c8d9e0-l1k2j','first':'admission.kubelet-rejected','absent':['pod.unexplained']},objs)

# ---------- node.not-ready: the CNI is not initialized; a DaemonSet pod waits on it for hours ----------
N='ip-10-0-61-20.eu-west-1.compute.internal'
cni='container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'
n=node(N,notready_msg=cni)
for c in n['status']['conditions']:
    if c['type']=='Ready': c['lastTransitionTime']=ago(5*3600)
img='quay.io/prometheus/node-exporter:v1.8.2'
ds=workload('DaemonSet','node-exporter','monitoring',{'app':'node-exporter'})
p=pod('node-exporter-x7k2p','monitoring',node_name=N,image=img,cname='node-exporter',phase='Pending',created=5*3600,owner=('DaemonSet','node-exporter'),labels={'app':'node-exporter'},
      statuses=[{'name':'node-exporter','ready':False,'started':False,'restartCount':0,'image':img,'imageID':'','state':{'waiting':{'reason':'ContainerCreating'}}}],spec_extra={'hostNetwork':False})
objs=[ns('monitoring'),n,ds,p,scheduled(p,N,5*3600),
      ev(n,'NodeNotReady','Node %s status is now: NodeNotReady'%N,'Normal',count=1,last=5*3600,first=5*3600,host=N),
      sev(p,'FailedCreatePodSandBox','Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "%s": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: Error received from AddNetwork gRPC call: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:50051: connect: connection refused"'%hexid('sbx'),count=1,last=5*3600-30,first=5*3600-30,instance=N),
      ev(p,'NetworkNotReady','network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',count=9000,last=5,first=5*3600,host=N)]
write('node-not-ready-cni',{'title':'A DaemonSet pod ContainerCreating for 5 hours: its node says cni plugin not initialized','target':'monitoring/node-exporter-x7k2p','first':'node.not-ready','absent':['pod.unexplained']},objs)

# ---------- node.drain-blocked-pdb: a node upgrade waits on a budget that can never allow a disruption ----------
N='ip-10-0-71-4.eu-west-1.compute.internal'
n=node(N,unschedulable=True,taints=[{'key':'node.kubernetes.io/unschedulable','effect':'NoSchedule','timeAdded':ago(5400)}])
img='registry.example.com/payments/ledger-core:7.1.0'
d,rs=deploy_chain('ledger-core','payments-core',{'app':'ledger-core'},2,'4c3b2a1d0',{'containers':[{'name':'ledger','image':img}]})
p=pod('ledger-core-4c3b2a1d0-a9s8d','payments-core',node_name=N,image=img,cname='ledger',created=86400*4,owner=rs_owner(rs),labels={'app':'ledger-core','pod-template-hash':'4c3b2a1d0'})
pdb={'apiVersion':'policy/v1','kind':'PodDisruptionBudget','metadata':{'name':'ledger-core','namespace':'payments-core','uid':uid('pdb-ledger'),'creationTimestamp':ago(86400*200),'generation':1},
     'spec':{'minAvailable':2,'selector':{'matchLabels':{'app':'ledger-core'}}},
     'status':{'observedGeneration':1,'disruptionsAllowed':0,'currentHealthy':2,'desiredHealthy':2,'expectedPods':2,'conditions':[{'type':'DisruptionAllowed','status':'False','reason':'InsufficientPods','message':'','observedGeneration':1,'lastTransitionTime':ago(86400*4)}]}}
objs=[ns('payments-core'),n,d,rs,p,pdb,ev(n,'NodeNotSchedulable','Node %s status is now: NodeNotSchedulable'%N,'Normal',last=5400,first=5400,host=N)]
write('node-drain-blocked-pdb',{'title':'A node upgrade waits for 90 minutes: the ledger budget (minAvailable 2 of 2) refuses every eviction','target':'payments-core/ledger-core-4c3b2a1d0-a9s8d','first':'node.drain-blocked-pdb'},objs)

# ---------- lifecycle.poststart-failed: a warm-up hook fails, the kubelet kills the container ----------
N='ip-10-0-81-6.eu-west-1.compute.internal'
img='registry.example.com/search/indexer-api:2.0.4'
hook=['/bin/sh','-c','/app/bin/warmup --cache redis-cache.search-indexer:6379']
pu=uid('podsearch-indexerindexer-api-7d6c5b4a3-e4r5t')
hookmsg='Exec lifecycle hook ([%s]) for Container "api" in Pod "indexer-api-7d6c5b4a3-e4r5t_search-indexer(%s)" failed - error: command \'%s\' exited with 1: , message: "warmup: dial tcp 10.96.88.14:6379: connect: connection refused\\n"'%(' '.join(hook),pu,' '.join(hook))
p=pod('indexer-api-7d6c5b4a3-e4r5t','search-indexer',node_name=N,image=img,cname='api',created=2400,owner=('ReplicaSet','indexer-api-7d6c5b4a3'),
      statuses=[{'name':'api','ready':False,'started':False,'restartCount':8,'image':img,'imageID':'%s@sha256:%s'%(img.split(':')[0],hexid(img)),'containerID':'containerd://'+hexid('ia8'),
                 'state':{'waiting':{'reason':'CrashLoopBackOff','message':'back-off 5m0s restarting failed container=api pod=indexer-api-7d6c5b4a3-e4r5t_search-indexer(%s)'%pu}},
                 'lastState':{'terminated':{'exitCode':137,'reason':'Error','startedAt':ago(260),'finishedAt':ago(228),'containerID':'containerd://'+hexid('ia7')}}}],
      containers=[{'name':'api','image':img,'lifecycle':{'postStart':{'exec':{'command':hook}}}}])
objs=[ns('search-indexer'),node(N),p,scheduled(p,N,2400),
      sev(p,'FailedPostStartHook',hookmsg,count=8,last=230,first=2380,instance=N,fieldPath='spec.containers{api}'),
      ev(p,'Killing','FailedPostStartHook','Normal',count=8,last=230,first=2380,host=N,fieldPath='spec.containers{api}'),
      ev(p,'BackOff','Back-off restarting failed container api in pod indexer-api-7d6c5b4a3-e4r5t_search-indexer(%s)'%pu,count=90,last=14,first=2300,host=N,fieldPath='spec.containers{api}')]
write('lifecycle-poststart-failed',{'title':'CrashLoopBackOff: the postStart warm-up hook exits 1 and the kubelet kills the container','target':'search-indexer/indexer-api-7d6c5b4a3-e4r5t','first':'lifecycle.poststart-failed','absent':['crash.app-exit','pod.unexplained']},objs)
