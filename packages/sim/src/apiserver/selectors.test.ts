import test from 'ava';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { ApiError } from './status.js';

test('label selectors: =, ==, !=, in, notin, exists, !key', (t) => {
  const labels = { app: 'web', tier: 'front', env: 'prod' };
  const ok = (s: string): boolean => matchesLabels(parseLabelSelector(s), labels);
  t.true(ok('app=web'));
  t.true(ok('app==web,tier=front'));
  t.false(ok('app!=web'));
  t.true(ok('missing!=x'), '!= matches when the key is absent');
  t.true(ok('env in (dev, prod)'));
  t.false(ok('env notin (prod)'));
  t.true(ok('tier'));
  t.false(ok('!tier'));
  t.true(ok('!missing'));
  t.true(ok(''));
});

test('a malformed label selector is a 400', (t) => {
  const e = t.throws(() => parseLabelSelector('app in web'), { instanceOf: ApiError });
  t.is(e.code, 400);
});

test('field selectors: supported fields only, = and !=', (t) => {
  const pod = { metadata: { name: 'p', namespace: 'n' }, spec: { nodeName: 'node-1' } };
  const reqs = parseFieldSelector(
    'spec.nodeName=node-1,metadata.name!=q',
    ['metadata.name', 'spec.nodeName'],
    'Pod',
  );
  t.true(matchesFields(reqs, pod));
  t.false(matchesFields(parseFieldSelector('spec.nodeName=other', ['spec.nodeName'], 'Pod'), pod));
  const e = t.throws(() => parseFieldSelector('spec.bogus=x', ['metadata.name'], 'Pod'), {
    instanceOf: ApiError,
  });
  t.regex(e.message, /field label not supported: spec\.bogus/);
});
