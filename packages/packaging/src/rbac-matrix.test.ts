import test from 'ava';
import { accessChecks, accessReview } from './rbac-matrix.js';

test('grants become SelfSubjectAccessReview attributes', (t) => {
  t.deepEqual(accessReview('*||pods/eviction|create|*'), {
    namespace: '',
    verb: 'create',
    group: '',
    resource: 'pods',
    subresource: 'eviction',
    name: '',
  });
  t.deepEqual(
    accessReview('<operator-namespace>|coordination.k8s.io|leases|get|windows-machine-config-operator-lock'),
    {
      namespace: 'openshift-windows-machine-config-operator',
      verb: 'get',
      group: 'coordination.k8s.io',
      resource: 'leases',
      subresource: '',
      name: 'windows-machine-config-operator-lock',
    },
  );
  t.deepEqual(accessReview('*|certificates.k8s.io|signers|approve|kubernetes.io/kubelet-serving'), {
    namespace: '',
    verb: 'approve',
    group: 'certificates.k8s.io',
    resource: 'signers',
    subresource: '',
    name: 'kubernetes.io/kubelet-serving',
  });
  t.is(accessReview('openshift-config||secrets|watch|pull-secret').namespace, 'openshift-config');
});

test('every deploy/ grant is checked as allowed, plus the forbidden list as denied', (t) => {
  const checks = accessChecks();
  t.true(checks.filter((c) => c.allowed).length > 30);
  t.true(checks.some((c) => !c.allowed && c.grant === '*||secrets|list|*'));
  const granted = new Set(checks.filter((c) => c.allowed).map((c) => c.grant));
  t.deepEqual(
    checks.filter((c) => !c.allowed && granted.has(c.grant)),
    [],
    'nothing is both granted and forbidden',
  );
});
