import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/helpers/errors.js';
import { formatSelector, matchesLabelSelector, matchFields, parseFieldSelector, parseLabelSelector, SelectorError } from './selectors.js';

const labels = { app: 'web', tier: 'front', version: '3' };

describe('label selectors', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web,api)', true],
    ['app in (api)', false],
    ['app notin (api)', true],
    ['app notin (web)', false],
    ['missing notin (x)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['version>2', true],
    ['version<2', false],
    ['  app = web , !missing ', true],
  ])('%j matches: %s', (selector, expected) => {
    expect(matchesLabelSelector(selector, labels)).toBe(expected);
  });

  it('matches an object without labels only with negative requirements', () => {
    expect(matchesLabelSelector('app!=web', undefined)).toBe(true);
    expect(matchesLabelSelector('app', undefined)).toBe(false);
  });

  // Messages as kube-apiserver 1.20 words them (checked against a real server).
  it.each([
    ['app in a', "unable to parse requirement: found 'a' expected: '('"],
    ['a b', "unable to parse requirement: found 'b', expected: '=', '!=', '==', 'in', notin'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b!', "found '!', expected: ',' or 'end of string'"],
  ])('rejects %j with a 400 BadRequest', (selector, message) => {
    const err = catchError(() => parseLabelSelector(selector));
    expect(err).toBeInstanceOf(SelectorError);
    expect((err as SelectorError).message).toBe(message);
  });

  it('validates label values like labels.NewRequirement', () => {
    const err = catchError(() => parseLabelSelector('a=-x')) as SelectorError;
    expect(err.message).toMatch(/^unable to parse requirement: invalid label value: "-x": at key: "a": a valid label must be/);
  });
});

describe('field selectors', () => {
  it('parses =, == and != terms', () => {
    expect(parseFieldSelector('spec.nodeName=node-1,status.phase!=Running,metadata.name==x')).toEqual([
      { field: 'spec.nodeName', op: '=', value: 'node-1' },
      { field: 'status.phase', op: '!=', value: 'Running' },
      { field: 'metadata.name', op: '=', value: 'x' },
    ]);
  });

  it('honours backslash escapes', () => {
    expect(parseFieldSelector('metadata.name=a\\,b')).toEqual([{ field: 'metadata.name', op: '=', value: 'a,b' }]);
  });

  it('rejects a term without operator', () => {
    const err = catchError(() => parseFieldSelector('foo')) as SelectorError;
    expect(err).toBeInstanceOf(SelectorError);
    expect(err.message).toBe("invalid selector: 'foo'; can't understand 'foo'");
  });

  it('matches with equality and inequality', () => {
    const get = (f: string) => ({ 'spec.nodeName': 'node-1', 'status.phase': 'Running' })[f] ?? '';
    expect(matchFields(parseFieldSelector('spec.nodeName=node-1'), get)).toBe(true);
    expect(matchFields(parseFieldSelector('spec.nodeName=node-2'), get)).toBe(false);
    expect(matchFields(parseFieldSelector('status.phase!=Running'), get)).toBe(false);
  });
});

describe('formatSelector', () => {
  it('renders a LabelSelector like labels.Selector.String()', () => {
    expect(formatSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }] })).toBe(
      'a=1,b=2,c in (x,y)',
    );
    expect(formatSelector(undefined)).toBe('');
  });
});
