import test from 'ava';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { BUILTIN_TYPES } from './builtin-types.js';
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

test('event field selectors kubectl and client-go send: involvedObject.*, source (the component), reportingComponent', (t) => {
  const events = BUILTIN_TYPES.find((x) => x.group === '' && x.kind === 'Event')!.fieldSelectors;
  const ev = {
    metadata: { name: 'e', namespace: 'default' },
    involvedObject: { kind: 'Node', name: 'n1', namespace: '', uid: 'u1', apiVersion: 'v1', fieldPath: '' },
    source: { component: 'kubelet', host: 'n1' },
    reportingComponent: 'kubelet',
    reason: 'Rebooted',
    type: 'Warning',
  };
  const sel = (s: string): boolean => matchesFields(parseFieldSelector(s, events, 'Event'), ev);
  // kubectl describe's selector (GetFieldSelector with name, namespace, kind, uid).
  t.true(
    sel('involvedObject.name=n1,involvedObject.namespace=,involvedObject.kind=Node,involvedObject.uid=u1'),
  );
  t.false(sel('involvedObject.uid=other'));
  t.true(sel('source=kubelet,reportingComponent=kubelet,involvedObject.apiVersion=v1'));
  t.false(sel('source=n1'));
  t.true(sel('type!=Normal,reason=Rebooted'));
});
