import test from 'ava';
import { startBareCluster } from './bare-cluster.js';

test('a bare cluster is plain Kubernetes: no OpenShift types, objects or bindings, RBAC enforced', async (t) => {
  const c = await startBareCluster();
  t.teardown(() => c.stop());
  t.is(c.server.registry.find('config.openshift.io', 'v1', 'infrastructures'), undefined);
  t.is(c.server.registry.find('operator.openshift.io', 'v1', 'networks'), undefined);
  t.true(c.server.ctx.authorizer.rbac);
  const names = (plural: string, group = 'rbac.authorization.k8s.io', version = 'v1'): string[] =>
    c.server.store
      .all(c.server.registry.mustFind(group, version, plural))
      .map((o) => String((o['metadata'] as { name?: string }).name));
  t.true(names('clusterrolebindings').includes('system:node-bootstrapper'));
  t.false(names('clusterrolebindings').includes('system-bootstrap-node-bootstrapper'));
  t.deepEqual(names('namespaces', '', 'v1').sort(), [
    'default',
    'kube-node-lease',
    'kube-public',
    'kube-system',
  ]);
});
