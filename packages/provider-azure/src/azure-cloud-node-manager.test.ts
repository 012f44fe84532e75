import test from 'ava';
import { serviceSpecProblems } from '@wmco/core/provider';
import { azureCloudNodeManager } from './azure-cloud-node-manager.js';

test("the cloud-node-manager command line is upstream's, with its own ServiceAccount kubeconfig (OCPBUGS-36671)", (t) => {
  const spec = azureCloudNodeManager.service({ debug: false });
  t.is(
    spec.command,
    'C:\\k\\azure-cloud-node-manager.exe --windows-service --node-name=NODE_NAME --wait-routes=false --kubeconfig=C:\\k\\cloud-node-manager-kubeconfig',
  );
  // Never the node's own identity: NodeRestriction refuses a node that removes its own taints.
  t.false(spec.command.includes('--kubeconfig=C:\\k\\kubeconfig'));
});

test('the service is a priority 3, non-bootstrap service filled with the node name', (t) => {
  const spec = azureCloudNodeManager.service({ debug: false });
  t.is(spec.name, 'cloud-node-manager');
  t.is(spec.priority, 3);
  t.false(spec.bootstrap);
  t.deepEqual(spec.nodeVariables, [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }]);
  t.is(spec.preScripts, undefined);
  t.is(spec.dependencies, undefined);
  t.deepEqual(serviceSpecProblems(spec), []);
});

test('debug logging does not change the service (upstream has no debug variant)', (t) => {
  t.deepEqual(
    azureCloudNodeManager.service({ debug: true }),
    azureCloudNodeManager.service({ debug: false }),
  );
});

test('the binary goes to C:\\k (getFilesToTransfer vector)', (t) => {
  t.deepEqual(azureCloudNodeManager.payload(), [
    { name: 'azure-cloud-node-manager.exe', directory: 'C:\\k' },
  ]);
});
