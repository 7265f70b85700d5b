# One replayed incident for each of the newer rules (readiness gates, NetworkPolicy egress and DNS,
# Job sidecars, OrderedReady StatefulSets, Services without endpoints), each from another public
# report than the rule's eval case, so the live collector is shown to gather what the rule needs:
# the gate conditions and the NEG controller's events, the NetworkPolicies and the CoreDNS pods,
# the Job and its CronJob, the StatefulSet and its headless Service, a Service found by its
# ClusterIP with its Endpoints and the pods its selector nearly matches.
import os, sys, datetime, json; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *

sev, scheduled = event_writers('nrsev', 104723, 11)

def terminated(name, image, started_at, finished_at, exit_code=0, reason='Completed', restarts=0):
    return {'name':name,'ready':False,'started':False,'restartCount':restarts,'image':image,'imageID':'%s@sha256:%s'%(image.split(':')[0],hexid(image)),
            'containerID':'containerd://'+hexid(name+image+'done'),'state':{'terminated':{'exitCode':exit_code,'reason':reason,'startedAt':ago(started_at),'finishedAt':ago(finished_at),'containerID':'containerd://'+hexid(name+image+'done')}}}

def conditions(created, ready, containers_ready=None, ready_reason=None, ready_message=None, ready_since=None, extra=()):
    cr = ready if containers_ready is None else containers_ready
    since = ready_since if ready_since is not None else created-20
    r={'type':'Ready','status':'True' if ready else 'False','lastProbeTime':None,'lastTransitionTime':ago(since)}
    if not ready: r.update({'reason':ready_reason or 'ContainersNotReady','message':ready_message or ''})
    c={'type':'ContainersReady','status':'True' if cr else 'False','lastProbeTime':None,'lastTransitionTime':ago(since)}
    if not cr: c.update({'reason':'ContainersNotReady','message':ready_message or ''})
    return [*extra,
            {'type':'PodReadyToStartContainers','status':'True','lastProbeTime':None,'lastTransitionTime':ago(created-3)},
            {'type':'Initialized','status':'True','lastProbeTime':None,'lastTransitionTime':ago(created-5)},
            r, c,
            {'type':'PodScheduled','status':'True','lastProbeTime':None,'lastTransitionTime':ago(created-1)}]

def service(name, namespace, selector, ports, cluster_ip, created=86400*60, annotations=None, headless=False, publish_not_ready=False, labels=None):
    s={'apiVersion':'v1','kind':'Service','metadata':{'name':name,'namespace':namespace,'uid':uid('svc'+namespace+name),'creationTimestamp':ago(created)},
       'spec':{'type':'ClusterIP','clusterIP':'None' if headless else cluster_ip,'clusterIPs':['None' if headless else cluster_ip],'ipFamilies':['IPv4'],'ipFamilyPolicy':'SingleStack',
               'ports':ports,'sessionAffinity':'None','internalTrafficPolicy':'Cluster'},'status':{'loadBalancer':{}}}
    if selector is not None: s['spec']['selector']=selector
    if publish_not_ready: s['spec']['publishNotReadyAddresses']=True
    if annotations: s['metadata']['annotations']=annotations
    if labels: s['metadata']['labels']=labels
    return s

def endpoints(svc, ready=(), not_ready=(), ports=None):
    """The Endpoints of a Service: (pod, ip) pairs with and without readiness."""
    md=svc['metadata']
    e={'apiVersion':'v1','kind':'Endpoints','metadata':{'name':md['name'],'namespace':md['namespace'],'uid':uid('ep'+md['namespace']+md['name']),'creationTimestamp':md['creationTimestamp']}}
    addr=lambda p: {'ip':p['status']['podIP'],'nodeName':p['spec']['nodeName'],'targetRef':{'kind':'Pod','namespace':md['namespace'],'name':p['metadata']['name'],'uid':p['metadata']['uid']}}
    if ready or not_ready:
        sub={}
        if ready: sub['addresses']=[addr(p) for p in ready]
        if not_ready: sub['notReadyAddresses']=[addr(p) for p in not_ready]
        sub['ports']=ports or [{'name':pt.get('name',''),'port':pt.get('targetPort',pt['port']) if isinstance(pt.get('targetPort'),int) else pt['port'],'protocol':pt.get('protocol','TCP')} for pt in svc['spec']['ports']]
        e['subsets']=[sub]
    return e

def owned(obj, owner):
    obj['metadata']['ownerReferences']=[{'apiVersion':owner['apiVersion'],'kind':owner['kind'],'name':owner['metadata']['name'],'uid':owner['metadata']['uid'],'controller':True,'blockOwnerDeletion':True}]
    return obj

# ---------- cluster DNS, the same two CoreDNS pods in every scenario that reads it ----------
DNS_NODE='ip-10-0-7-12.eu-central-1.compute.internal'
DNS_IMG='registry.k8s.io/coredns/coredns:v1.11.3'
def coredns():
    d=workload('Deployment','coredns','kube-system',{'k8s-app':'kube-dns'},replicas=2,template_spec={'containers':[{'name':'coredns','image':DNS_IMG}]},
               status={'replicas':2,'readyReplicas':2,'availableReplicas':2,'updatedReplicas':2,'observedGeneration':3})
    d['metadata']['labels']={'k8s-app':'kube-dns'}
    rs=rs_for(d,'coredns-6f6b679f8f')
    out=[d,rs]
    pods=[]
    for i,(suffix,ip) in enumerate([('8xk2p','10.244.0.14'),('rq7vd','10.244.3.9')]):
        name='coredns-6f6b679f8f-'+suffix
        p=pod(name,'kube-system',node_name=DNS_NODE,image=DNS_IMG,cname='coredns',created=86400*21+i*40,owner=('ReplicaSet','coredns-6f6b679f8f'),
              labels={'k8s-app':'kube-dns','pod-template-hash':'6f6b679f8f'},
              containers=[{'name':'coredns','image':DNS_IMG,'args':['-conf','/etc/coredns/Corefile'],
                           'ports':[{'name':'dns','containerPort':53,'protocol':'UDP'},{'name':'dns-tcp','containerPort':53,'protocol':'TCP'},{'name':'metrics','containerPort':9153,'protocol':'TCP'}],
                           'livenessProbe':{'httpGet':{'path':'/health','port':8080,'scheme':'HTTP'},'initialDelaySeconds':60,'timeoutSeconds':5,'successThreshold':1,'failureThreshold':5},
                           'readinessProbe':{'httpGet':{'path':'/ready','port':8181,'scheme':'HTTP'},'periodSeconds':10,'timeoutSeconds':1,'successThreshold':1,'failureThreshold':3},
                           'resources':{'requests':{'cpu':'100m','memory':'70Mi'},'limits':{'memory':'170Mi'}}}],
              spec_extra={'dnsPolicy':'Default','priorityClassName':'system-cluster-critical','serviceAccountName':'coredns'})
        p['status']['podIP']=ip; p['status']['podIPs']=[{'ip':ip}]; p['status']['qosClass']='Burstable'
        pods.append(p)
    svc=service('kube-dns','kube-system',{'k8s-app':'kube-dns'},[{'name':'dns','port':53,'protocol':'UDP','targetPort':53},{'name':'dns-tcp','port':53,'protocol':'TCP','targetPort':53},{'name':'metrics','port':9153,'protocol':'TCP','targetPort':9153}],
                '10.96.0.10',created=86400*90,labels={'k8s-app':'kube-dns','kubernetes.io/cluster-service':'true','kubernetes.io/name':'CoreDNS'})
    return [ns('kube-system'),node(DNS_NODE),*out,*pods,svc,endpoints(svc,ready=pods)]

# ---------- readiness.gate-not-ready: GKE container-native load balancing, the NEG health check never passes ----------
# kubernetes/ingress-gce#931: a newly created Service with NEG; the pods' containers are Ready, the
# pods are not: Readiness Gates cloud.google.com/load-balancer-neg-ready without status, and the
# neg-readiness-reflector's "Waiting for pod to become healthy in at least one of the NEG(s)".
N='gke-prod-default-pool-4c1e8a2f-x7k2'
img='us-central1-docker.pkg.dev/acme-prod/ww/ww-api:2024.11.3'
GATE='cloud.google.com/load-balancer-neg-ready'
NEG='k8s1-74b928a2-ww-ww-api-8080-a3c1e454'
gke=node(N,labels={'cloud.google.com/gke-nodepool':'default-pool','topology.kubernetes.io/zone':'us-central1-a','node.kubernetes.io/instance-type':'e2-standard-4'})
gke['status']['nodeInfo']['osImage']='Container-Optimized OS from Google'
probe={'httpGet':{'path':'/healthz','port':8080,'scheme':'HTTP'},'periodSeconds':10,'timeoutSeconds':1,'successThreshold':1,'failureThreshold':3}
tmpl={'containers':[{'name':'ww-api','image':img,'ports':[{'containerPort':8080,'protocol':'TCP'}],'readinessProbe':probe}]}
d=workload('Deployment','ww-api','ww',{'app':'ww-api'},replicas=2,template_spec=tmpl,
           status={'observedGeneration':1,'replicas':2,'updatedReplicas':2,'unavailableReplicas':2,
                   'conditions':[{'type':'Available','status':'False','reason':'MinimumReplicasUnavailable','message':'Deployment does not have minimum availability.','lastUpdateTime':ago(560),'lastTransitionTime':ago(560)},
                                 {'type':'Progressing','status':'True','reason':'ReplicaSetUpdated','message':'ReplicaSet "ww-api-6c8f9d7b54" is progressing.','lastUpdateTime':ago(558),'lastTransitionTime':ago(560)}]})
d['metadata']['creationTimestamp']=ago(560); d['metadata']['generation']=1
d['spec']['strategy']={'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%','maxUnavailable':'25%'}}
rs=rs_for(d,'ww-api-6c8f9d7b54'); rs['metadata']['creationTimestamp']=ago(559)
rs['status']={'replicas':2,'fullyLabeledReplicas':2,'observedGeneration':1}
svc=service('ww-api','ww',{'app':'ww-api'},[{'name':'http','port':8080,'protocol':'TCP','targetPort':8080}],'10.12.7.201',created=570,
            annotations={'cloud.google.com/neg':'{"ingress":true}','cloud.google.com/neg-status':'{"network_endpoint_groups":{"8080":"%s"},"zones":["us-central1-a"]}'%NEG})
pods=[]
objs=[ns('ww'),gke,d,rs,svc]
for i,suffix in enumerate(['h2xkq','p9w4c']):
    name='ww-api-6c8f9d7b54-'+suffix
    created=555-i*2
    gate_cond={'type':GATE,'lastProbeTime':None,'lastTransitionTime':ago(created-4),'reason':'LoadBalancerNegNotReady',
               'message':'Waiting for pod to become healthy in at least one of the NEG(s): [%s]'%NEG}
    p=pod(name,'ww',node_name=N,image=img,cname='ww-api',created=created,owner=('ReplicaSet','ww-api-6c8f9d7b54'),labels={'app':'ww-api','pod-template-hash':'6c8f9d7b54'},
          statuses=[running('ww-api',img,created-9,cid_seed=name)],containers=tmpl['containers'],
          spec_extra={'readinessGates':[{'conditionType':GATE}],'dnsPolicy':'ClusterFirst','serviceAccountName':'default'},
          conditions=conditions(created,False,containers_ready=True,ready_reason='ReadinessGatesNotReady',
                                ready_message='the status of pod readiness gate "%s" is not "True", but '%GATE,ready_since=created-21,extra=[gate_cond]))
    # ContainersReady once the readiness probe passed (about 20s in); Ready never.
    for c in p['status']['conditions']:
        if c['type']=='ContainersReady': c['lastTransitionTime']=ago(created-21)
    p['status']['podIP']='10.8.1.%d'%(37+i*4); p['status']['podIPs']=[{'ip':p['status']['podIP']}]; p['status']['hostIP']='10.128.0.23'
    pods.append(p)
    objs+=[p,scheduled(p,N,created),*started(p,N,img,'ww-api',created-2,'6.812s',size=61823515),
           ev(p,'Unhealthy','Readiness probe failed: Get "http://%s:8080/healthz": dial tcp %s:8080: connect: connection refused'%(p['status']['podIP'],p['status']['podIP']),count=1,last=created-12,host=N,fieldPath='spec.containers{ww-api}'),
           ev(p,'LoadBalancerNegNotReady','Waiting for pod to become healthy in at least one of the NEG(s): [%s]'%NEG,'Normal',last=created-1,component='neg-readiness-reflector')]
objs+=[endpoints(svc,not_ready=pods),
       ev(rs,'SuccessfulCreate','Created pod: ww-api-6c8f9d7b54-h2xkq','Normal',last=555,component='replicaset-controller'),
       ev(rs,'SuccessfulCreate','Created pod: ww-api-6c8f9d7b54-p9w4c','Normal',last=553,component='replicaset-controller'),
       ev(d,'ScalingReplicaSet','Scaled up replica set ww-api-6c8f9d7b54 to 2','Normal',last=559,component='deployment-controller'),
       ev(svc,'Create','Created NEG "%s" for ww/ww-api-%s--/8080-8080-GCE_VM_IP_PORT-L7 in "us-central1-a".'%(NEG,NEG),'Normal',last=548,component='neg-controller'),
       ev(svc,'Attach','Attach 2 network endpoint(s) (NEG "%s" in zone "us-central1-a")'%NEG,'Normal',last=530,component='neg-controller')]
write('readiness-gate-gke-neg',{'title':'Containers Ready, pods not: the GKE NEG readiness gate waits for a load balancer health check that never passes',
                                 'target':'ww/ww-api-6c8f9d7b54-h2xkq','first':'readiness.gate-not-ready','absent':['readiness.failing','pod.unexplained']},objs)

# ---------- network.policy-blocks-dns: a Django app behind a default-deny egress policy ----------
# kubernetes/website#38267: a default deny for egress, as in the NetworkPolicy docs, with allow rules
# for the app's own traffic and none for DNS: every name lookup from the namespace times out.
N='ip-10-0-14-88.eu-central-1.compute.internal'
img='registry.example.com/inventory/api:5.2.0'
db_img='postgres:16.4-bookworm'
tmpl={'containers':[{'name':'web','image':img}]}
d,rs=workload('Deployment','inventory-api','inventory',{'app':'inventory-api'},replicas=2,template_spec=tmpl,
              status={'observedGeneration':7,'replicas':2,'updatedReplicas':2,'unavailableReplicas':2,
                      'conditions':[{'type':'Available','status':'False','reason':'MinimumReplicasUnavailable','message':'Deployment does not have minimum availability.','lastUpdateTime':ago(1980),'lastTransitionTime':ago(1980)},
                                    {'type':'Progressing','status':'True','reason':'NewReplicaSetAvailable','message':'ReplicaSet "inventory-api-84c6d9f7b5" has successfully progressed.','lastUpdateTime':ago(86400*3),'lastTransitionTime':ago(86400*9)}]}),None
rs=rs_for(d,'inventory-api-84c6d9f7b5')
pu=uid('podinventoryinventory-api-84c6d9f7b5-tq4nz')
web={'name':'web','image':img,'command':['/app/docker-entrypoint.sh'],'args':['gunicorn','inventory.wsgi:application','--bind','0.0.0.0:8000','--workers','3'],
     'ports':[{'containerPort':8000,'name':'http','protocol':'TCP'}],
     'env':[{'name':'DATABASE_HOST','value':'inventory-db'},{'name':'DATABASE_NAME','value':'inventory'},{'name':'DJANGO_SETTINGS_MODULE','value':'inventory.settings.production'}],
     'readinessProbe':{'httpGet':{'path':'/health/','port':'http'},'periodSeconds':10,'failureThreshold':3},
     'resources':{'requests':{'cpu':'200m','memory':'256Mi'},'limits':{'memory':'512Mi'}}}
p=pod('inventory-api-84c6d9f7b5-tq4nz','inventory',node_name=N,image=img,cname='web',created=86400*3,owner=('ReplicaSet','inventory-api-84c6d9f7b5'),
      labels={'app':'inventory-api','pod-template-hash':'84c6d9f7b5'},containers=[web],
      statuses=[{'name':'web','ready':False,'started':False,'restartCount':9,'image':img,'imageID':'%s@sha256:%s'%(img.split(':')[0],hexid(img)),'containerID':'containerd://'+hexid('inv-web-9'),
                 'state':{'waiting':{'reason':'CrashLoopBackOff','message':'back-off 5m0s restarting failed container=web pod=inventory-api-84c6d9f7b5-tq4nz_inventory(%s)'%pu}},
                 'lastState':{'terminated':{'exitCode':1,'reason':'Error','startedAt':ago(262),'finishedAt':ago(231),'containerID':'containerd://'+hexid('inv-web-9')}}}],
      conditions=conditions(86400*3,False,ready_message='containers with unready status: [web]',ready_since=1975))
p['status']['podIP']='10.244.5.23'; p['status']['podIPs']=[{'ip':'10.244.5.23'}]
db=pod('inventory-db-0','inventory',node_name=N,image=db_img,cname='postgres',created=86400*30,owner=('StatefulSet','inventory-db'),labels={'app':'inventory-db','statefulset.kubernetes.io/pod-name':'inventory-db-0'},
       containers=[{'name':'postgres','image':db_img,'ports':[{'containerPort':5432,'name':'postgres','protocol':'TCP'}]}])
db['status']['podIP']='10.244.5.8'; db['status']['podIPs']=[{'ip':'10.244.5.8'}]
db_sts=workload('StatefulSet','inventory-db','inventory',{'app':'inventory-db'},replicas=1,template_spec={'containers':[{'name':'postgres','image':db_img}]},
                status={'observedGeneration':3,'replicas':1,'readyReplicas':1,'currentReplicas':1,'updatedReplicas':1,'availableReplicas':1})
db_sts['spec']['serviceName']='inventory-db'
db_svc=service('inventory-db','inventory',{'app':'inventory-db'},[{'name':'postgres','port':5432,'protocol':'TCP','targetPort':5432}],'10.96.118.42',created=86400*80)
api_svc=service('inventory-api','inventory',{'app':'inventory-api'},[{'name':'http','port':80,'protocol':'TCP','targetPort':'http'}],'10.96.87.3',created=86400*80)
deny={'apiVersion':'networking.k8s.io/v1','kind':'NetworkPolicy','metadata':{'name':'default-deny-all','namespace':'inventory','uid':uid('np-inventory-deny'),'creationTimestamp':ago(2040),'generation':1,
      'annotations':{'argocd.argoproj.io/tracking-id':'inventory:networking.k8s.io/NetworkPolicy:inventory/default-deny-all'}},
      'spec':{'podSelector':{},'policyTypes':['Ingress','Egress']}}
allow={'apiVersion':'networking.k8s.io/v1','kind':'NetworkPolicy','metadata':{'name':'inventory-api','namespace':'inventory','uid':uid('np-inventory-api'),'creationTimestamp':ago(2040),'generation':1,
       'annotations':{'argocd.argoproj.io/tracking-id':'inventory:networking.k8s.io/NetworkPolicy:inventory/inventory-api'}},
       'spec':{'podSelector':{'matchLabels':{'app':'inventory-api'}},'policyTypes':['Ingress','Egress'],
               'ingress':[{'from':[{'namespaceSelector':{'matchLabels':{'kubernetes.io/metadata.name':'ingress-nginx'}},'podSelector':{'matchLabels':{'app.kubernetes.io/name':'ingress-nginx'}}}],'ports':[{'protocol':'TCP','port':8000}]}],
               'egress':[{'to':[{'podSelector':{'matchLabels':{'app':'inventory-db'}}}],'ports':[{'protocol':'TCP','port':5432}]}]}}
allow_db={'apiVersion':'networking.k8s.io/v1','kind':'NetworkPolicy','metadata':{'name':'inventory-db','namespace':'inventory','uid':uid('np-inventory-db'),'creationTimestamp':ago(2040),'generation':1},
          'spec':{'podSelector':{'matchLabels':{'app':'inventory-db'}},'policyTypes':['Ingress'],
                  'ingress':[{'from':[{'podSelector':{'matchLabels':{'app':'inventory-api'}}}],'ports':[{'protocol':'TCP','port':5432}]}]}}
tb=['[entrypoint] applying database migrations',
    'Traceback (most recent call last):',
    '  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/base.py", line 279, in ensure_connection',
    '    self.connect()',
    '  File "/usr/local/lib/python3.12/site-packages/django/utils/asyncio.py", line 26, in inner',
    '    return func(*args, **kwargs)',
    '           ^^^^^^^^^^^^^^^^^^^^^',
    '  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/base.py", line 256, in connect',
    '    self.connection = self.get_new_connection(conn_params)',
    '                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    '  File "/usr/local/lib/python3.12/site-packages/django/db/backends/postgresql/base.py", line 332, in get_new_connection',
    '    connection = self.Database.connect(**conn_params)',
    '                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    '  File "/usr/local/lib/python3.12/site-packages/psycopg2/__init__.py", line 122, in connect',
    '    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)',
    '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    'psycopg2.OperationalError: could not translate host name "inventory-db" to address: Temporary failure in name resolution',
    '',
    '',
    'The above exception was the direct cause of the following exception:',
    '',
    'Traceback (most recent call last):',
    '  File "/app/manage.py", line 22, in <module>',
    '    main()',
    '  File "/usr/local/lib/python3.12/site-packages/django/core/management/__init__.py", line 442, in execute_from_command_line',
    '    utility.execute()',
    '  File "/usr/local/lib/python3.12/site-packages/django/core/management/commands/migrate.py", line 117, in handle',
    '    executor = MigrationExecutor(connection, self.migration_progress_callback)',
    '  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/base.py", line 279, in ensure_connection',
    '    self.connect()',
    'django.db.utils.OperationalError: could not translate host name "inventory-db" to address: Temporary failure in name resolution']
objs=[ns('inventory'),node(N),d,rs,p,db_sts,db,db_svc,endpoints(db_svc,ready=[db]),api_svc,endpoints(api_svc,not_ready=[p]),deny,allow,allow_db,*coredns(),
      ev(p,'Pulled','Container image "%s" already present on machine'%img,'Normal',count=10,last=262,first=1990,host=N,fieldPath='spec.containers{web}'),
      ev(p,'Created','Created container web','Normal',count=10,last=262,first=1990,host=N,fieldPath='spec.containers{web}'),
      ev(p,'Started','Started container web','Normal',count=10,last=262,first=1989,host=N,fieldPath='spec.containers{web}'),
      sev(p,'BackOff','Back-off restarting failed container web in pod inventory-api-84c6d9f7b5-tq4nz_inventory(%s)'%pu,count=84,last=14,first=1900,instance=N,fieldPath='spec.containers{web}'),
      ev(p,'Unhealthy','Readiness probe failed: Get "http://10.244.5.23:8000/health/": dial tcp 10.244.5.23:8000: connect: connection refused',count=3,last=86400*3-30,first=86400*3-50,host=N,fieldPath='spec.containers{web}'),
      podlog('inventory','inventory-api-84c6d9f7b5-tq4nz','web',tb)]
write('netpol-default-deny-django',{'title':'CrashLoopBackOff after a default-deny NetworkPolicy: the Django app cannot resolve its database, the egress allow-list has no DNS',
                                     'target':'inventory/inventory-api-84c6d9f7b5-tq4nz','first':'network.policy-blocks-dns','absent':['dns.coredns-down','crash.app-exit','pod.unexplained']},objs)

# ---------- job.sidecar-keeps-running: a CronJob's pod with the injected linkerd-proxy ----------
# linkerd/linkerd2#2833: automatic proxy injection enabled on a namespace with CronJobs; the job's
# container terminates, the linkerd containers keep the pod alive, and a Forbid CronJob starts no
# new Job while that one is active.
N='ip-10-0-22-140.eu-central-1.compute.internal'
img='registry.example.com/notifications/reminders:2.8.1'
proxy='cr.l5d.io/linkerd/proxy:stable-2.14.10'
init='cr.l5d.io/linkerd/proxy-init:v2.2.3'
NSN='notifications'
sched=int(datetime.datetime(2026,11,21,6,15,tzinfo=datetime.timezone.utc).timestamp()//60)
job_name='invoice-reminders-%d'%sched
started_ago=3*3600+45*60
n=ns(NSN,meta={'annotations':{'linkerd.io/inject':'enabled'}})
cj={'apiVersion':'batch/v1','kind':'CronJob','metadata':{'name':'invoice-reminders','namespace':NSN,'uid':uid('CronJob'+NSN+'invoice-reminders'),'creationTimestamp':ago(86400*45),'generation':4},
    'spec':{'schedule':'*/15 * * * *','concurrencyPolicy':'Forbid','suspend':False,'successfulJobsHistoryLimit':3,'failedJobsHistoryLimit':1,'startingDeadlineSeconds':300,
            'jobTemplate':{'spec':{'backoffLimit':2,'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'reminders','image':img,'args':['send-due-reminders']}]}}}}},
    'status':{'active':[{'apiVersion':'batch/v1','kind':'Job','name':job_name,'namespace':NSN,'uid':uid('Job'+NSN+job_name)}],
              'lastScheduleTime':ago(started_ago),'lastSuccessfulTime':ago(started_ago+15*60-41)}}
job={'apiVersion':'batch/v1','kind':'Job','metadata':{'name':job_name,'namespace':NSN,'uid':uid('Job'+NSN+job_name),'creationTimestamp':ago(started_ago),'generation':1,
     'labels':{'batch.kubernetes.io/controller-uid':uid('Job'+NSN+job_name),'batch.kubernetes.io/job-name':job_name,'controller-uid':uid('Job'+NSN+job_name),'job-name':job_name},
     'annotations':{'batch.kubernetes.io/cronjob-scheduled-timestamp':ago(started_ago)}},
     'spec':{'parallelism':1,'completions':1,'backoffLimit':2,'completionMode':'NonIndexed','suspend':False,'podReplacementPolicy':'TerminatingOrFailed',
             'selector':{'matchLabels':{'batch.kubernetes.io/controller-uid':uid('Job'+NSN+job_name)}},
             'template':{'metadata':{'labels':{'batch.kubernetes.io/job-name':job_name,'job-name':job_name}},'spec':{'restartPolicy':'Never','containers':[{'name':'reminders','image':img,'args':['send-due-reminders']}]}}},
     'status':{'startTime':ago(started_ago),'active':1,'ready':0,'terminating':0,'uncountedTerminatedPods':{}}}
owned(job,cj)
pname=job_name+'-7kq2x'
annotations={'linkerd.io/created-by':'linkerd/proxy-injector stable-2.14.10','linkerd.io/inject':'enabled','linkerd.io/proxy-version':'stable-2.14.10',
             'linkerd.io/trust-root-sha256':hexid('linkerd-trust-root'),'viz.linkerd.io/tap-enabled':'true','batch.kubernetes.io/job-tracking':''}
containers=[{'name':'linkerd-proxy','image':proxy,'ports':[{'containerPort':4143,'name':'linkerd-proxy'},{'containerPort':4191,'name':'linkerd-admin'}],
             'env':[{'name':'LINKERD2_PROXY_ADMIN_LISTEN_ADDR','value':'0.0.0.0:4191'},{'name':'LINKERD2_PROXY_OUTBOUND_LISTEN_ADDR','value':'127.0.0.1:4140'},{'name':'LINKERD2_PROXY_INBOUND_LISTEN_ADDR','value':'0.0.0.0:4143'}],
             'lifecycle':{'postStart':{'exec':{'command':['/usr/lib/linkerd/linkerd-await','--timeout=2m','--port=4191']}}},
             'readinessProbe':{'httpGet':{'path':'/ready','port':4191},'initialDelaySeconds':2,'timeoutSeconds':1},
             'livenessProbe':{'httpGet':{'path':'/live','port':4191},'initialDelaySeconds':10,'timeoutSeconds':1},
             'securityContext':{'runAsUser':2102,'readOnlyRootFilesystem':True,'allowPrivilegeEscalation':False}},
            {'name':'reminders','image':img,'args':['send-due-reminders'],'resources':{'requests':{'cpu':'100m','memory':'192Mi'},'limits':{'memory':'384Mi'}}}]
p=pod(pname,NSN,node_name=N,image=img,cname='reminders',created=started_ago-1,owner=('Job',job_name),
      labels={'batch.kubernetes.io/controller-uid':uid('Job'+NSN+job_name),'batch.kubernetes.io/job-name':job_name,'controller-uid':uid('Job'+NSN+job_name),'job-name':job_name,
              'linkerd.io/control-plane-ns':'linkerd','linkerd.io/proxy-job':job_name,'linkerd.io/workload-ns':NSN},
      containers=containers,
      statuses=[running('linkerd-proxy',proxy,started_ago-5,cid_seed=pname+'proxy'),terminated('reminders',img,started_ago-7,started_ago-48)],
      meta_extra={'annotations':annotations},
      spec_extra={'restartPolicy':'Never','serviceAccountName':'reminders',
                  'initContainers':[{'name':'linkerd-init','image':init,'args':['--incoming-proxy-port','4143','--outgoing-proxy-port','4140','--proxy-uid','2102','--inbound-ports-to-ignore','4190,4191,4567,4568','--outbound-ports-to-ignore','4567,4568'],
                                     'securityContext':{'capabilities':{'add':['NET_ADMIN','NET_RAW']},'runAsUser':0,'runAsNonRoot':False}}]},
      conditions=conditions(started_ago-1,False,ready_message='containers with unready status: [reminders]',ready_since=started_ago-48))
p['status']['initContainerStatuses']=[terminated('linkerd-init',init,started_ago-3,started_ago-4)]
p['status']['initContainerStatuses'][0]['ready']=True
p['status']['podIP']='10.244.9.71'; p['status']['podIPs']=[{'ip':'10.244.9.71'}]
prev_job='invoice-reminders-%d'%(sched-15)
proxy_log=['[     0.002315s]  INFO ThreadId(01) linkerd2_proxy: release 2.210.4 (5a910be) by linkerd on 2023-11-22T17:01:46Z',
           '[     0.003481s]  INFO ThreadId(01) linkerd2_proxy::rt: Using single-threaded proxy runtime',
           '[     0.004262s]  INFO ThreadId(01) linkerd2_proxy: Admin interface on 0.0.0.0:4191',
           '[     0.004275s]  INFO ThreadId(01) linkerd2_proxy: Inbound interface on 0.0.0.0:4143',
           '[     0.004278s]  INFO ThreadId(01) linkerd2_proxy: Outbound interface on 127.0.0.1:4140',
           '[     0.004280s]  INFO ThreadId(01) linkerd2_proxy: Tap interface on 0.0.0.0:4190',
           '[     0.004282s]  INFO ThreadId(01) linkerd2_proxy: Local identity is reminders.notifications.serviceaccount.identity.linkerd.cluster.local',
           '[     0.004285s]  INFO ThreadId(01) linkerd2_proxy: Identity verified via linkerd-identity-headless.linkerd.svc.cluster.local:8080 (linkerd-identity.linkerd.serviceaccount.identity.linkerd.cluster.local)',
           '[     0.004287s]  INFO ThreadId(01) linkerd2_proxy: Destinations resolved via linkerd-dst-headless.linkerd.svc.cluster.local:8086 (linkerd-destination.linkerd.serviceaccount.identity.linkerd.cluster.local)',
           '[     0.019874s]  INFO ThreadId(02) daemon:identity: linkerd_app: Certified identity id=reminders.notifications.serviceaccount.identity.linkerd.cluster.local']
app_log=['2026-11-21T06:15:09Z INFO reminders: loading due invoices (cutoff 2026-11-21T06:15:00Z)',
         '2026-11-21T06:15:11Z INFO reminders: 1843 invoices due, 1790 reminders queued, 53 skipped (opted out)',
         '2026-11-21T06:15:56Z INFO reminders: queued 1790 emails on notifications-mailer',
         '2026-11-21T06:15:56Z INFO reminders: done in 47.2s']
objs=[n,node(N),cj,job,p,
      ev(cj,'SuccessfulCreate','Created job %s'%prev_job,'Normal',last=started_ago+15*60,component='cronjob-controller'),
      ev(cj,'SawCompletedJob','Saw completed job: %s, status: Complete'%prev_job,'Normal',last=started_ago+15*60-41,component='cronjob-controller'),
      ev(cj,'SuccessfulCreate','Created job %s'%job_name,'Normal',last=started_ago,component='cronjob-controller'),
      ev(cj,'JobAlreadyActive','Not starting job because prior execution is running and concurrency policy is Forbid','Normal',count=14,last=5*60,first=started_ago-15*60,component='cronjob-controller'),
      ev(job,'SuccessfulCreate','Created pod: %s'%pname,'Normal',last=started_ago-1,component='job-controller'),
      scheduled(p,N,started_ago-1),
      ev(p,'Pulled','Container image "%s" already present on machine'%init,'Normal',last=started_ago-2,host=N,fieldPath='spec.initContainers{linkerd-init}'),
      ev(p,'Created','Created container linkerd-init','Normal',last=started_ago-2,host=N,fieldPath='spec.initContainers{linkerd-init}'),
      ev(p,'Started','Started container linkerd-init','Normal',last=started_ago-3,host=N,fieldPath='spec.initContainers{linkerd-init}'),
      ev(p,'Pulled','Container image "%s" already present on machine'%proxy,'Normal',last=started_ago-4,host=N,fieldPath='spec.containers{linkerd-proxy}'),
      ev(p,'Created','Created container linkerd-proxy','Normal',last=started_ago-4,host=N,fieldPath='spec.containers{linkerd-proxy}'),
      ev(p,'Started','Started container linkerd-proxy','Normal',last=started_ago-5,host=N,fieldPath='spec.containers{linkerd-proxy}'),
      ev(p,'Pulled','Container image "%s" already present on machine'%img,'Normal',last=started_ago-6,host=N,fieldPath='spec.containers{reminders}'),
      ev(p,'Created','Created container reminders','Normal',last=started_ago-6,host=N,fieldPath='spec.containers{reminders}'),
      ev(p,'Started','Started container reminders','Normal',last=started_ago-7,host=N,fieldPath='spec.containers{reminders}'),
      podlog(NSN,pname,'reminders',app_log,previous=False),
      podlog(NSN,pname,'linkerd-proxy',proxy_log,previous=False)]
write('job-linkerd-proxy-cronjob',{'title':'A Forbid CronJob stops running: its Job finished 3h44m ago, the injected linkerd-proxy keeps the pod Running',
                                    'target':'%s/%s'%(NSN,pname),'first':'job.sidecar-keeps-running','absent':['crash.app-exit','pod.unexplained']},objs)

# ---------- statefulset.ordered-ready-deadlock: etcd after a full restart ----------
# etcd-io/etcd-operator#130: all the pods of a 3-member etcd StatefulSet restarted at once; with
# OrderedReady only etcd-0 is recreated, and it cannot connect to any peer, so it has no leader, its
# /health answers 503 and it is never Ready: the controller never creates etcd-1.
N='ip-10-0-31-77.eu-central-1.compute.internal'
img='registry.k8s.io/etcd:3.5.16-0'
NSE='platform-etcd'
peer='etcd-%d.etcd-headless.platform-etcd.svc.cluster.local'
ids={0:'8e9e05c52164694d',1:'91bc3c398fb3c146',2:'fd422379fda50e48'}
tmpl={'containers':[{'name':'etcd','image':img}]}
sts=workload('StatefulSet','etcd',NSE,{'app.kubernetes.io/name':'etcd'},replicas=3,template_spec=tmpl,
             status={'observedGeneration':2,'replicas':1,'readyReplicas':0,'currentReplicas':1,'updatedReplicas':1,'availableReplicas':0,
                     'currentRevision':'etcd-7d9f6c5b8d','updateRevision':'etcd-7d9f6c5b8d','collisionCount':0})
sts['metadata']['creationTimestamp']=ago(86400*120); sts['metadata']['generation']=2
sts['spec'].update({'serviceName':'etcd-headless','updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'partition':0}},
                    'volumeClaimTemplates':[{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'data'},'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'8Gi'}},'storageClassName':'gp3'}}]})
cmd=['etcd','--name=$(POD_NAME)','--data-dir=/var/lib/etcd','--listen-peer-urls=http://0.0.0.0:2380','--listen-client-urls=http://0.0.0.0:2379',
     '--advertise-client-urls=http://$(POD_NAME).etcd-headless.platform-etcd.svc.cluster.local:2379',
     '--initial-advertise-peer-urls=http://$(POD_NAME).etcd-headless.platform-etcd.svc.cluster.local:2380',
     '--initial-cluster=etcd-0=http://%s:2380,etcd-1=http://%s:2380,etcd-2=http://%s:2380'%(peer%0,peer%1,peer%2),
     '--initial-cluster-state=new','--initial-cluster-token=platform-etcd']
etcd_c={'name':'etcd','image':img,'command':cmd,'env':[{'name':'POD_NAME','valueFrom':{'fieldRef':{'apiVersion':'v1','fieldPath':'metadata.name'}}}],
        'ports':[{'containerPort':2379,'name':'client','protocol':'TCP'},{'containerPort':2380,'name':'peer','protocol':'TCP'}],
        'livenessProbe':{'httpGet':{'path':'/health?serializable=true','port':2379,'scheme':'HTTP'},'initialDelaySeconds':10,'periodSeconds':10,'timeoutSeconds':15,'failureThreshold':8},
        'readinessProbe':{'httpGet':{'path':'/health','port':2379,'scheme':'HTTP'},'periodSeconds':10,'timeoutSeconds':15,'failureThreshold':3},
        'volumeMounts':[{'name':'data','mountPath':'/var/lib/etcd'}],
        'resources':{'requests':{'cpu':'250m','memory':'512Mi'},'limits':{'memory':'1Gi'}}}
created=2710
pe=pod('etcd-0',NSE,node_name=N,image=img,cname='etcd',created=created,owner=('StatefulSet','etcd'),
       labels={'app.kubernetes.io/name':'etcd','apps.kubernetes.io/pod-index':'0','controller-revision-hash':'etcd-7d9f6c5b8d','statefulset.kubernetes.io/pod-name':'etcd-0'},
       containers=[etcd_c],statuses=[running('etcd',img,created-6,ready=False,cid_seed='etcd-0-run')],
       spec_extra={'hostname':'etcd-0','subdomain':'etcd-headless','volumes':[{'name':'data','persistentVolumeClaim':{'claimName':'data-etcd-0'}}]},
       conditions=conditions(created,False,ready_message='containers with unready status: [etcd]',ready_since=created-5))
pe['status']['podIP']='10.244.11.19'; pe['status']['podIPs']=[{'ip':'10.244.11.19'}]
hl=service('etcd-headless',NSE,{'app.kubernetes.io/name':'etcd'},[{'name':'client','port':2379,'protocol':'TCP','targetPort':'client'},{'name':'peer','port':2380,'protocol':'TCP','targetPort':'peer'}],
           None,created=86400*120,headless=True,publish_not_ready=True)
client=service('etcd',NSE,{'app.kubernetes.io/name':'etcd'},[{'name':'client','port':2379,'protocol':'TCP','targetPort':'client'}],'10.96.201.17',created=86400*120)
pvc={'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'data-etcd-0','namespace':NSE,'uid':uid('pvc-data-etcd-0'),'creationTimestamp':ago(86400*120),
     'labels':{'app.kubernetes.io/name':'etcd'}},
     'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'8Gi'}},'storageClassName':'gp3','volumeName':'pvc-6a1e0f2c-93d4-4b7e-a8c5-2f7d1e9b4c30','volumeMode':'Filesystem'},
     'status':{'phase':'Bound','accessModes':['ReadWriteOnce'],'capacity':{'storage':'8Gi'}}}
T0=datetime.datetime(2026,11,21,9,14,53,tzinfo=datetime.timezone.utc)
def ts(sec, frac): return (T0+datetime.timedelta(seconds=sec)).strftime('%Y-%m-%dT%H:%M:%S')+'.%06dZ'%frac
me=ids[0]
lines=['{"level":"info","ts":"%s","caller":"etcdmain/etcd.go:73","msg":"Running: ","args":%s}'%(ts(0,112731),json.dumps(cmd,separators=(',',':'))),
       '{"level":"info","ts":"%s","caller":"etcdmain/etcd.go:116","msg":"server has been already initialized","data-dir":"/var/lib/etcd","dir-type":"member"}'%ts(0,113407),
       '{"level":"info","ts":"%s","caller":"embed/etcd.go:127","msg":"configuring peer listeners","listen-peer-urls":["http://0.0.0.0:2380"]}'%ts(0,113562),
       '{"level":"info","ts":"%s","caller":"embed/etcd.go:135","msg":"configuring client listeners","listen-client-urls":["http://0.0.0.0:2379"]}'%ts(0,114108),
       '{"level":"info","ts":"%s","caller":"etcdserver/server.go:532","msg":"No snapshot found. Recovering WAL from scratch!"}'%ts(0,131577),
       '{"level":"info","ts":"%s","caller":"etcdserver/raft.go:530","msg":"restarting local member","cluster-id":"cdf818194e3a8c32","local-member-id":"%s","commit-index":48211}'%(ts(0,157982),me),
       '{"level":"info","ts":"%s","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"%s became follower at term 7"}'%(ts(0,158301),me),
       '{"level":"info","ts":"%s","caller":"etcdserver/server.go:851","msg":"starting etcd server","local-member-id":"%s","local-server-version":"3.5.16","cluster-version":"to_be_decided"}'%(ts(0,171220),me),
       '{"level":"info","ts":"%s","caller":"embed/etcd.go:870","msg":"serving metrics","address":"http://0.0.0.0:2381"}'%ts(0,173418)]
t=1
for rnd in range(3):
    lines+=['{"level":"info","ts":"%s","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"%s is starting a new election at term 7"}'%(ts(t,402115+rnd),me),
            '{"level":"info","ts":"%s","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"%s became pre-candidate at term 7"}'%(ts(t,402210+rnd),me),
            '{"level":"info","ts":"%s","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"%s received MsgPreVoteResp from %s at term 7"}'%(ts(t,402288+rnd),me,me),
            '{"level":"info","ts":"%s","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"%s [logterm: 7, index: 48211] sent MsgPreVote request to %s at term 7"}'%(ts(t,402341+rnd),me,ids[1]),
            '{"level":"info","ts":"%s","logger":"raft","caller":"etcdserver/zap_raft.go:77","msg":"%s [logterm: 7, index: 48211] sent MsgPreVote request to %s at term 7"}'%(ts(t,402377+rnd),me,ids[2])]
    for k in (1,2):
        for rt in ('ROUND_TRIPPER_SNAPSHOT','ROUND_TRIPPER_RAFT_MESSAGE'):
            lines.append('{"level":"warn","ts":"%s","caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status","round-tripper-name":"%s","remote-peer-id":"%s","rtt":"0s","error":"dial tcp: lookup %s on 10.96.0.10:53: no such host"}'
                         %(ts(t+1,551093+k*10+len(rt)),rt,ids[k],peer%k))
    lines+=['{"level":"warn","ts":"%s","caller":"etcdhttp/metrics.go:173","msg":"serving /health false; no leader"}'%ts(t+3,87245),
            '{"level":"warn","ts":"%s","caller":"etcdhttp/metrics.go:86","msg":"/health error","output":"{\\"health\\":\\"false\\",\\"reason\\":\\"RAFT NO LEADER\\"}","status-code":503}'%ts(t+3,87391)]
    t+=2700//3
lines+=['{"level":"warn","ts":"%s","caller":"etcdserver/server.go:2098","msg":"failed to publish local member to cluster through raft","local-member-id":"%s","local-member-attributes":"{Name:etcd-0 ClientURLs:[http://%s:2379]}","request-path":"/0/members/%s/attributes","publish-timeout":"7s","error":"etcdserver: request timed out"}'
        %(ts(t,118402),me,peer%0,me)]
pu=uid('pod'+NSE+'etcd-0')
objs=[ns(NSE),node(N),sts,pe,hl,client,endpoints(hl,not_ready=[pe]),endpoints(client),pvc,*coredns(),
      ev(sts,'SuccessfulCreate','create Pod etcd-0 in StatefulSet etcd successful','Normal',last=created,component='statefulset-controller'),
      ev(sts,'SuccessfulCreate','create Claim data-etcd-0 Pod etcd-0 in StatefulSet etcd success','Normal',last=86400*120,component='statefulset-controller'),
      scheduled(pe,N,created),
      ev(pe,'Pulled','Container image "%s" already present on machine'%img,'Normal',last=created-5,host=N,fieldPath='spec.containers{etcd}'),
      ev(pe,'Created','Created container etcd','Normal',last=created-5,host=N,fieldPath='spec.containers{etcd}'),
      ev(pe,'Started','Started container etcd','Normal',last=created-6,host=N,fieldPath='spec.containers{etcd}'),
      sev(pe,'Unhealthy','Readiness probe failed: HTTP probe failed with statuscode: 503',count=268,last=7,first=created-12,instance=N,fieldPath='spec.containers{etcd}'),
      podlog(NSE,'etcd-0','etcd',lines,previous=False)]
write('statefulset-etcd-ordered-ready',{'title':'An etcd StatefulSet never comes back after a full restart: etcd-0 has no leader without its peers, OrderedReady never creates etcd-1',
                                         'target':'%s/etcd-0'%NSE,'first':'statefulset.ordered-ready-deadlock','absent':['dns.coredns-down','crash.probe-failing','pod.unexplained']},objs)

# ---------- network.service-no-endpoints: a Redis Service selects role=master, no pod carries it ----------
# kubernetes/examples#107: the Redis example's pods carry name=redis; only the bootstrap master pod had
# role=master, and a Service `redis` selecting name=redis,role=master has no endpoint once it is gone.
# The Node.js client (ioredis) prints the ClusterIP it dialled, not the name.
N='ip-10-0-18-203.eu-central-1.compute.internal'
img='registry.example.com/guestbook/web:3.1.0'
rimg='redis:7.2.6'
NSG='guestbook'
rtmpl={'containers':[{'name':'redis','image':rimg}]}
rd,rrs=workload('Deployment','redis',NSG,{'name':'redis'},replicas=3,template_spec=rtmpl,
                status={'observedGeneration':2,'replicas':3,'readyReplicas':3,'availableReplicas':3,'updatedReplicas':3}),None
rrs=rs_for(rd,'redis-7b8c5d9f6')
rpods=[]
for i,suffix in enumerate(['4jx2m','9wq7t','kz5hr']):
    rp=pod('redis-7b8c5d9f6-'+suffix,NSG,node_name=N,image=rimg,cname='redis',created=86400*6+i*30,owner=('ReplicaSet','redis-7b8c5d9f6'),labels={'name':'redis','pod-template-hash':'7b8c5d9f6'},
           containers=[{'name':'redis','image':rimg,'ports':[{'containerPort':6379,'protocol':'TCP'}]}])
    rp['status']['podIP']='10.244.6.%d'%(41+i); rp['status']['podIPs']=[{'ip':rp['status']['podIP']}]
    rpods.append(rp)
rsvc=service('redis',NSG,{'name':'redis','role':'master'},[{'port':6379,'protocol':'TCP','targetPort':6379}],'10.104.21.37',created=86400*6,labels={'name':'redis','role':'service'})
wtmpl={'containers':[{'name':'web','image':img}]}
wd,wrs=workload('Deployment','guestbook-web',NSG,{'app':'guestbook-web'},replicas=2,template_spec=wtmpl,
                status={'observedGeneration':5,'replicas':2,'updatedReplicas':2,'unavailableReplicas':2}),None
wrs=rs_for(wd,'guestbook-web-5d4f8b7c9')
created=1400
web={'name':'web','image':img,'ports':[{'containerPort':3000,'name':'http','protocol':'TCP'}],'env':[{'name':'REDIS_HOST','value':'redis'},{'name':'REDIS_PORT','value':'6379'}],
     'readinessProbe':{'httpGet':{'path':'/healthz','port':'http'},'periodSeconds':10,'failureThreshold':3},'resources':{'requests':{'cpu':'100m','memory':'128Mi'}}}
wp=pod('guestbook-web-5d4f8b7c9-l6p3d',NSG,node_name=N,image=img,cname='web',created=created,owner=('ReplicaSet','guestbook-web-5d4f8b7c9'),
       labels={'app':'guestbook-web','pod-template-hash':'5d4f8b7c9'},containers=[web],statuses=[running('web',img,created-8,ready=False,cid_seed='gb-web-run')],
       conditions=conditions(created,False,ready_message='containers with unready status: [web]',ready_since=created-5))
wp['status']['podIP']='10.244.6.77'; wp['status']['podIPs']=[{'ip':'10.244.6.77'}]
stack='    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)'
wlog=['> guestbook-web@3.1.0 start',
      '> node server.js',
      '',
      'guestbook-web listening on :3000']
for _ in range(5):
    wlog+=['[ioredis] Unhandled error event: Error: connect ECONNREFUSED 10.104.21.37:6379',stack]
wlog+=['GET /healthz 503 1.204 ms - 31']
for _ in range(3):
    wlog+=['[ioredis] Unhandled error event: Error: connect ECONNREFUSED 10.104.21.37:6379',stack]
wlog+=['GET /healthz 503 0.877 ms - 31','[ioredis] Unhandled error event: Error: connect ECONNREFUSED 10.104.21.37:6379',stack]
wsvc=service('guestbook-web',NSG,{'app':'guestbook-web'},[{'name':'http','port':80,'protocol':'TCP','targetPort':'http'}],'10.104.88.150',created=86400*6)
objs=[ns(NSG),node(N),rd,rrs,*rpods,rsvc,endpoints(rsvc),wd,wrs,wp,wsvc,endpoints(wsvc,not_ready=[wp]),
      ev(rrs,'SuccessfulCreate','Created pod: redis-7b8c5d9f6-4jx2m','Normal',last=86400*6,component='replicaset-controller'),
      ev(wd,'ScalingReplicaSet','Scaled up replica set guestbook-web-5d4f8b7c9 to 2','Normal',last=created+2,component='deployment-controller'),
      scheduled(wp,N,created),*started(wp,N,img,'web',created-3,'2.417s',size=58917302),
      sev(wp,'Unhealthy','Readiness probe failed: HTTP probe failed with statuscode: 503',count=137,last=6,first=created-15,instance=N,fieldPath='spec.containers{web}'),
      podlog(NSG,'guestbook-web-5d4f8b7c9-l6p3d','web',wlog,previous=False)]
write('service-no-endpoints-redis-role',{'title':'Not Ready: the web app cannot reach Redis at its ClusterIP, the Service selects role=master and no Redis pod carries a role',
                                          'target':'%s/guestbook-web-5d4f8b7c9-l6p3d'%NSG,'first':'network.service-no-endpoints','absent':['readiness.failing','pod.unexplained']},objs)
