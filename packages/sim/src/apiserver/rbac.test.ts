import test from 'ava';
import { ruleAllows, type AuthzAttributes } from './rbac.js';

const user = { name: 'u', groups: [] };
const res = (
  verb: string,
  resource: string,
  extra: Partial<NonNullable<AuthzAttributes['resource']>> = {},
): AuthzAttributes => ({
  user,
  verb,
  path: '',
  resource: { group: '', resource, subresource: '', namespace: 'ns', name: '', ...extra },
});

test('verbs, groups and resources, with * wildcards', (t) => {
  t.true(ruleAllows({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }, res('list', 'pods')));
  t.false(ruleAllows({ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, res('delete', 'pods')));
  t.false(ruleAllows({ apiGroups: ['apps'], resources: ['pods'], verbs: ['*'] }, res('get', 'pods')));
  t.true(
    ruleAllows({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, res('get', 'pods', { group: 'x' })),
  );
});

test('subresources need their own entry or */sub', (t) => {
  const status = res('update', 'nodes', { subresource: 'status', name: 'n' });
  t.false(ruleAllows({ apiGroups: [''], resources: ['nodes'], verbs: ['update'] }, status));
  t.true(ruleAllows({ apiGroups: [''], resources: ['nodes/status'], verbs: ['update'] }, status));
  t.true(ruleAllows({ apiGroups: [''], resources: ['*/status'], verbs: ['update'] }, status));
});

test('resourceNames restrict named requests and never allow list/create', (t) => {
  const rule = {
    apiGroups: [''],
    resources: ['configmaps'],
    verbs: ['get', 'list', 'create'],
    resourceNames: ['a'],
  };
  t.true(ruleAllows(rule, res('get', 'configmaps', { name: 'a' })));
  t.false(ruleAllows(rule, res('get', 'configmaps', { name: 'b' })));
  t.false(ruleAllows(rule, res('list', 'configmaps')));
  t.false(ruleAllows(rule, res('create', 'configmaps')));
});

test('non-resource URLs, exact or with a trailing *', (t) => {
  const rule = { nonResourceURLs: ['/version', '/apis/*'], verbs: ['get'] };
  t.true(ruleAllows(rule, { user, verb: 'get', path: '/version' }));
  t.true(ruleAllows(rule, { user, verb: 'get', path: '/apis/apps/v1' }));
  t.false(ruleAllows(rule, { user, verb: 'get', path: '/healthz' }));
  t.false(
    ruleAllows({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { user, verb: 'get', path: '/version' }),
  );
});
