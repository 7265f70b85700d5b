import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
from seed_003 import pending_pod

# ---------- node lost; StatefulSet pod stuck Terminating ----------
sts=workload('StatefulSet','pg','db',{'app':'pg'},replicas=3)
N='worker-7'
p=pod('pg-1','db',node_name=N,image='postgres:16',cname='postgres',owner=('StatefulSet','pg'),created=86400*3,meta_extra={'deletionTimestamp':ago(1200),'deletionGracePeriodSeconds':30},labels={'app':'pg'})
for c in p['status']['conditions']:
    if c['type'] in ('Ready','ContainersReady'): c['status']='False'
p['status']['conditions'].append({'type':'DisruptionTarget','status':'True','reason':'DeletionByTaintManager','message':'Taint manager: deleting due to NoExecute taint','lastTransitionTime':ago(1230)})
objs=[ns('db'),node(N,lost_since=1560),sts,p,ev(p,'NodeNotReady','Node is not ready',last=1540,component='node-controller'),ev(p,'TaintManagerEviction','Marking for deletion Pod db/pg-1','Normal',last=1230,component='taint-eviction-controller')]
write('node-lost-statefulset',{'title':'Node lost: a StatefulSet pod stays Terminating (force delete risks split-brain)','target':'db/pg-1','first':'terminating.node-lost','absent':['terminating.finalizers']},objs)

# ---------- crash with restartPolicy Never ----------
N='worker-1'
p=pod('migrate-schema-x8k2p','shop',node_name=N,image='registry.example.com/shop/migrate:41',cname='migrate',phase='Failed',created=900,owner=None,
      statuses=[{'name':'migrate','ready':False,'started':False,'restartCount':0,'image':'registry.example.com/shop/migrate:41','imageID':'x','containerID':'containerd://'+hexid('mig'),'state':{'terminated':{'exitCode':3,'reason':'Error','startedAt':ago(880),'finishedAt':ago(860),'containerID':'containerd://'+hexid('mig')}}}],
      spec_extra={'restartPolicy':'Never'})
objs=[ns('shop'),node(N),p,podlog('shop','migrate-schema-x8k2p','migrate',['INFO  connecting to postgres://pg.db:5432/shop','INFO  applying migration 0041_add_orders_index','ERROR relation "orders_v2" does not exist','FATAL migration 0041 failed, rolling back'],previous=False)]
write('crash-restart-never',{'title':'A one-shot pod (restartPolicy Never) exited 3','target':'shop/migrate-schema-x8k2p','first':'crash.app-exit'},objs)

# ---------- missing configmap ----------
p=pod('checkout-7b9c8d-2kq9z','shop',node_name='worker-1',phase='Pending',created=600,statuses=[{'name':'checkout','ready':False,'restartCount':0,'image':'registry.example.com/shop/checkout:2','imageID':'','state':{'waiting':{'reason':'CreateContainerConfigError','message':'configmap "checkout-config" not found'}}}])
p['spec']['containers']=[{'name':'checkout','image':'registry.example.com/shop/checkout:2','envFrom':[{'configMapRef':{'name':'checkout-config'}}]}]
objs=[ns('shop'),node('worker-1'),p,ev(p,'Failed','Error: configmap "checkout-config" not found',count=31,last=12,first=590,host='worker-1',fieldPath='spec.containers{checkout}')]
write('config-missing-configmap',{'title':'CreateContainerConfigError: configmap not found','target':'shop/checkout-7b9c8d-2kq9z','first':'config.missing-reference'},objs)

# ---------- evicted for memory pressure ----------
p=pod('cache-5c6d7e-9z8y7','shop',node_name='worker-4',phase='Failed',created=7200,
      statuses=[{'name':'cache','ready':False,'restartCount':0,'image':'redis:7','imageID':'x','state':{'terminated':{'exitCode':137,'reason':'ContainerStatusUnknown','message':'The container could not be located when the pod was terminated','startedAt':None,'finishedAt':None}}}],
      status_extra={'reason':'Evicted','message':'The node was low on resource: memory. Threshold quantity: 100Mi, available: 88316Ki. Container cache was using 6127232Ki, request is 256Mi, has larger consumption of memory. '})
p['spec']['containers']=[{'name':'cache','image':'redis:7','resources':{'requests':{'memory':'256Mi'}}}]
n=node('worker-4',conditions_extra=None)
for c in n['status']['conditions']:
    if c['type']=='MemoryPressure': c.update({'status':'True','reason':'KubeletHasInsufficientMemory','message':'kubelet has insufficient memory available'})
objs=[ns('shop'),n,p,ev(p,'Evicted','The node was low on resource: memory. Threshold quantity: 100Mi, available: 88316Ki. Container cache was using 6127232Ki, request is 256Mi, has larger consumption of memory. ',last=3000,host='worker-4')]
write('evicted-memory-pressure',{'title':'Evicted: node low on memory, container far above its request','target':'shop/cache-5c6d7e-9z8y7','first':'evicted.node-pressure'},objs)

# ---------- liveness probe kills a slow app ----------
p=pod('search-api-6b5d8-h2k4j','search',node_name='worker-2',image='registry.example.com/search/api:5',cname='api',created=3600,
      statuses=[{'name':'api','ready':False,'started':True,'restartCount':5,'image':'registry.example.com/search/api:5','imageID':'x','containerID':'containerd://'+hexid('sapi'),'state':{'running':{'startedAt':ago(30)}},'lastState':{'terminated':{'exitCode':137,'reason':'Error','startedAt':ago(100),'finishedAt':ago(35)}}}])
p['spec']['containers']=[{'name':'api','image':'registry.example.com/search/api:5','livenessProbe':{'httpGet':{'path':'/healthz','port':8080},'initialDelaySeconds':5,'periodSeconds':10,'timeoutSeconds':1,'failureThreshold':3}}]
objs=[ns('search'),node('worker-2'),p,
      ev(p,'Unhealthy','Liveness probe failed: Get "http://10.244.2.17:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',count=15,last=40,first=3500,host='worker-2',fieldPath='spec.containers{api}'),
      ev(p,'Killing','Container api failed liveness probe, will be restarted','Normal',count=5,last=36,first=3400,host='worker-2',fieldPath='spec.containers{api}')]
write('crash-liveness-probe',{'title':'Restarts: the liveness probe times out and kills the app','target':'search/search-api-6b5d8-h2k4j','first':'crash.probe-failing','absent':['crash.app-exit']},objs)

# ---------- unschedulable selector ----------
nodes=[node('hdd-%d'%i,labels={'disktype':'hdd'}) for i in range(1,4)]
msg="0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
p=pending_pod('ml-train-7d6c5-abc12','ml',msg,extra_spec={'nodeSelector':{'accelerator':'nvidia-a100','disktype':'ssd'}})
objs=[ns('ml'),*nodes,p,ev(p,'FailedScheduling',msg,count=12,last=30,first=880,component='default-scheduler')]
write('pending-selector',{'title':'Pending: nodeSelector matches no node','target':'ml/ml-train-7d6c5-abc12','first':'pending.unschedulable-selector'},objs)

# ---------- unbound PVC ----------
msg='0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.'
p=pending_pod('minio-0','storage',msg,extra_spec={'volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'data-minio-0'}}]})
pvc={'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'data-minio-0','namespace':'storage','uid':uid('pvcminio'),'creationTimestamp':ago(900)},'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'100Gi'}},'storageClassName':'fast-ssd','volumeMode':'Filesystem'},'status':{'phase':'Pending'}}
# The class exists, but nothing provisions it dynamically (static PVs only, and none matches).
sc={'apiVersion':'storage.k8s.io/v1','kind':'StorageClass','metadata':{'name':'fast-ssd','uid':uid('sc-fast-ssd'),'creationTimestamp':ago(86400*60)},'provisioner':'kubernetes.io/no-provisioner','reclaimPolicy':'Delete','volumeBindingMode':'Immediate'}
objs=[ns('storage'),*[node('worker-%d'%i) for i in range(1,4)],p,pvc,sc,ev(p,'FailedScheduling',msg,count=7,last=50,first=880,component='default-scheduler')]
write('pending-pvc',{'title':'Pending: PersistentVolumeClaim not bound (no provisioner for the class)','target':'storage/minio-0','first':'pending.pvc'},objs)

# ---------- scheduler down ----------
p=pending_pod('web-6d4cf56db6-7xk2p','shop','',created=1200)
p['status']['conditions']=[]
sched=pod('kube-scheduler-cp-1','kube-system',node_name='cp-1',image='registry.k8s.io/kube-scheduler:v1.31.4',cname='kube-scheduler',created=86400,labels={'component':'kube-scheduler','tier':'control-plane'},
          statuses=[{'name':'kube-scheduler','ready':False,'restartCount':48,'image':'registry.k8s.io/kube-scheduler:v1.31.4','imageID':'x','containerID':'containerd://'+hexid('ks'),'state':{'waiting':{'reason':'CrashLoopBackOff','message':'back-off 5m0s restarting failed container=kube-scheduler pod=kube-scheduler-cp-1_kube-system(x)'}},'lastState':{'terminated':{'exitCode':1,'reason':'Error','startedAt':ago(400),'finishedAt':ago(399)}}}])
lease={'apiVersion':'coordination.k8s.io/v1','kind':'Lease','metadata':{'name':'kube-scheduler','namespace':'kube-system','uid':uid('lease-ks'),'creationTimestamp':ago(86400*90)},'spec':{'holderIdentity':'cp-1_2f9a7c1e-5b0d-4c1b-9a53-0a5f3e1d7c42','leaseDurationSeconds':15,'renewTime':'2026-11-21T09:37:12.000000Z','acquireTime':ago(86400*3),'leaseTransitions':4}}
objs=[ns('shop'),ns('kube-system'),node('cp-1',taints=[{'key':'node-role.kubernetes.io/control-plane','effect':'NoSchedule'}]),node('worker-1'),p,sched,lease]
write('pending-scheduler-down',{'title':'Pending with no scheduling attempt: kube-scheduler is crash looping','target':'shop/web-6d4cf56db6-7xk2p','first':'pending.scheduler-down'},objs)

# ---------- hostPort conflict ----------
msg="0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
p=pending_pod('my-prom-prometheus-node-exporter-4k2lm','monitoring',msg,owner=('DaemonSet','my-prom-prometheus-node-exporter'))
p['spec']['containers']=[{'name':'node-exporter','image':'quay.io/prometheus/node-exporter:v1.8.2','ports':[{'containerPort':9100,'hostPort':9100,'protocol':'TCP'}]}]
p['spec']['hostNetwork']=True
users=[]
for i in (1,2):
    u=pod('node-exporter-%d'%i,'kube-system',node_name='worker-%d'%i,image='prom/node-exporter:v0.16.0',cname='node-exporter',created=86400*40,owner=('DaemonSet','node-exporter'),labels={'app':'node-exporter'})
    u['spec']['containers']=[{'name':'node-exporter','image':'prom/node-exporter:v0.16.0','ports':[{'containerPort':9100,'hostPort':9100,'protocol':'TCP'}]}]
    u['spec']['hostNetwork']=True; u['spec']['hostPID']=True
    users.append(u)
objs=[ns('monitoring'),ns('kube-system'),node('worker-1'),node('worker-2'),workload('DaemonSet','my-prom-prometheus-node-exporter','monitoring',{'app':'my-prom-node-exporter'}),p,*users,ev(p,'FailedScheduling',msg,count=5,last=60,first=880,component='default-scheduler')]
write('pending-hostport-conflict',{'title':'Pending: hostPort 9100 is taken by another node-exporter','target':'monitoring/my-prom-prometheus-node-exporter-4k2lm','first':'pending.hostport-conflict'},objs)

# ---------- taint (old wording, 1.18) ----------
msg="0/2 nodes are available: 2 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate."
nodes=[node('gpu-%d'%i,taints=[{'key':'dedicated','value':'gpu','effect':'NoSchedule'}]) for i in (1,2)]
p=pending_pod('notebook-5f4c-9x8z7','ml',msg)
objs=[ns('ml'),*nodes,p,ev(p,'FailedScheduling',msg,count=4,last=70,first=880,component='default-scheduler')]
write('pending-taint',{'title':'Pending: every node carries a taint the pod does not tolerate','target':'ml/notebook-5f4c-9x8z7','first':'pending.taint'},objs)

# ---------- admission rejected: quota ----------
dep=workload('Deployment','worker','batch',{'app':'worker'},replicas=4,status={'replicas':2,'readyReplicas':2,'availableReplicas':2})
rs=rs_for(dep,'worker-58d7f9c6b')
running=pod('worker-58d7f9c6b-abcde','batch',node_name='worker-1',owner=('ReplicaSet','worker-58d7f9c6b'),labels={'app':'worker'})
objs=[ns('batch'),node('worker-1'),dep,rs,running,
      ev(rs,'FailedCreate','Error creating: pods "worker-58d7f9c6b-xkq2p" is forbidden: exceeded quota: compute-resources, requested: requests.cpu=2, used: requests.cpu=4, limited: requests.cpu=5',count=23,last=15,first=1800,component='replicaset-controller')]
write('admission-quota',{'title':'Replicas missing: the ResourceQuota rejects new pods','target':'batch/worker-58d7f9c6b-abcde','first':'admission.rejected'},objs)
