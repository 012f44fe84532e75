import test from 'ava';
import {
  bootstrapRequesterProblem,
  bootstrapTokenIdentity,
  openShiftBootstrapIdentity,
  OPENSHIFT_NODE_BOOTSTRAPPER,
} from './bootstrap-identity.js';

const SA_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:openshift-machine-config-operator'];

test('on OpenShift only the node-bootstrapper service account may ask for a client certificate', (t) => {
  t.is(
    OPENSHIFT_NODE_BOOTSTRAPPER,
    'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
  );
  const ok = { username: OPENSHIFT_NODE_BOOTSTRAPPER, groups: SA_GROUPS };
  t.is(bootstrapRequesterProblem(openShiftBootstrapIdentity, ok), undefined);
  for (const username of [
    'system:bootstrap:abcdef',
    'system:serviceaccount:openshift-machine-config-operator:machine-config-daemon',
    'SYSTEM:SERVICEACCOUNT:OPENSHIFT-MACHINE-CONFIG-OPERATOR:NODE-BOOTSTRAPPER',
    'admin',
  ]) {
    t.regex(
      bootstrapRequesterProblem(openShiftBootstrapIdentity, { username, groups: SA_GROUPS }) ?? '',
      /not by the node bootstrapper/,
      username,
    );
  }
});

test('with a bootstrap-token group, only bootstrap-token users in that group may', (t) => {
  const id = bootstrapTokenIdentity('system:bootstrappers:worker');
  const user = {
    username: 'system:bootstrap:abcdef',
    groups: ['system:bootstrappers', 'system:bootstrappers:worker'],
  };
  t.is(bootstrapRequesterProblem(id, user), undefined);
  t.regex(
    bootstrapRequesterProblem(id, { ...user, groups: ['system:bootstrappers'] }) ?? '',
    /not in system:bootstrappers:worker/,
  );
  t.regex(
    bootstrapRequesterProblem(id, { username: 'mallory', groups: user.groups }) ?? '',
    /not by a bootstrap token/,
  );
});

test('a bootstrap group that is not a bootstrappers group is refused', (t) => {
  t.throws(() => bootstrapTokenIdentity('system:masters'), { message: /must be system:bootstrappers/ });
  t.notThrows(() => bootstrapTokenIdentity('system:bootstrappers'));
});
