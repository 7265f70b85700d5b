# The case() of the fresh2 split and the blind ones after it: the checks every blind author's case passes before it
# is written (https report, a 20-80 character decisive line present in the dump, mechanism terms for a class
# no rule names, the target present, no duplicate object), shared so each split's file holds only its cases.
from common import write_case
from fresh import _strings


def make_case(prefix, split):
    def case(slug, title, url, reported, target, first, objects, decisive=None, playbook='omit', acceptable=None, terms=None):
        assert slug.startswith(prefix), slug
        assert url.startswith('https://'), url
        expect = {'first': first}
        if acceptable: expect['acceptable'] = acceptable
        if playbook != 'omit': expect['playbook'] = playbook
        if first is None:
            assert decisive is None and terms is None, (slug, 'a negative has no decisive line and no mechanism')
        else:
            assert decisive is not None, (slug, 'a positive quotes its decisive line')
        if decisive is not None:
            assert 20 <= len(decisive) <= 80, (slug, len(decisive), decisive)
            assert any(decisive in s for s in _strings(objects)), (slug, 'decisive line not in the dump', decisive)
            expect['decisive'] = decisive
        if first == 'any':
            assert terms, (slug, '`first: any` needs mechanism terms')
        if terms:
            assert all(isinstance(g, list) and g for g in terms), slug
            expect['mechanism'] = {'terms': terms}
        ns_, name = target.split('/')
        assert any(o.get('kind') in ('Pod', 'Deployment', 'StatefulSet', 'Job', 'DaemonSet', 'CronJob', 'ReplicaSet') and o['metadata']['name'] == name
                   and o['metadata'].get('namespace') == ns_ for o in objects), (slug, 'target missing')
        names = [(o['kind'], o['metadata'].get('namespace'), o['metadata']['name']) for o in objects if o.get('kind') not in ('Event', 'PodLog')]
        assert len(names) == len(set(names)), (slug, 'duplicate object', [n for n in names if names.count(n) > 1])
        write_case(slug, {'title': title, 'url': url, 'reported': reported, 'target': target, 'split': split, 'expect': expect}, objects)
    return case
