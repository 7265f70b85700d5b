import yaml,glob,os,json
seen={}
for d in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../test/fixtures/incidents/*'))):
    for o in yaml.safe_load_all(open(d+'/objects.yaml')):
        k=(o['kind'],o['metadata'].get('namespace'),o['metadata']['name'])
        # Pod logs are documents per container (src/sim/cluster.ts objectKey): two of one pod are not a conflict.
        if o['kind']=='PodLog': k+=(o.get('container') or '',bool(o.get('previous')))
        if k in seen and json.dumps(seen[k][1],sort_keys=True)!=json.dumps(o,sort_keys=True):
            print('CONFLICT',k,seen[k][0],os.path.basename(d))
        seen.setdefault(k,(os.path.basename(d),o))
