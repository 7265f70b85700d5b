import yaml,glob,os,json
seen={}
for d in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../test/fixtures/incidents/*'))):
    for o in yaml.safe_load_all(open(d+'/objects.yaml')):
        k=(o['kind'],o['metadata'].get('namespace'),o['metadata']['name'])
        if k in seen and json.dumps(seen[k][1],sort_keys=True)!=json.dumps(o,sort_keys=True):
            print('CONFLICT',k,seen[k][0],os.path.basename(d))
        seen.setdefault(k,(os.path.basename(d),o))
