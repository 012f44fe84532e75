import test from 'ava';
import { evaluateNodeJsonPath } from './node-jsonpath.js';
import {
  resolveNodeVariables,
  resolvePreScriptVariables,
  resolveServiceCommand,
  type PowerShellRunner,
} from './service-variables.js';

const node = {
  metadata: {
    name: 'node',
    annotations: { desiredkey: 'desiredvalue', 'k8s.ovn.org/hybrid-overlay-node-subnet': 'nodesubnet' },
    labels: { label: 'labelvalue' },
  },
};

// A fake host: known command lines print fixed output, anything else fails (controller_test.go).
const outputs: Record<string, string> = {
  'c:\\k\\script.ps1': '127.0.0.1\r\n',
  'c:\\k\\test.ps1': 'test-output',
  'c:\\k\\script.ps1 -hostnameOverride node -clusterCIDR nodesubnet -kubeConfigPath C:\\k\\kubeconfig -kubeProxyConfigPath C:\\k\\kube-proxy.conf -verbosity 0':
    '127.0.0.1',
};
const ran: string[] = [];
const runner: PowerShellRunner = (cmd) => {
  ran.push(cmd);
  const out = outputs[cmd];
  return out === undefined ? Promise.reject(new Error(`unknown script ${cmd}`)) : Promise.resolve(out);
};

test('node variables: vectors', (t) => {
  t.throws(() => resolveNodeVariables([{ name: 'X', jsonPath: '{.metadata.name}' }], undefined), {
    message: /no Node/,
  });
  t.throws(() => resolveNodeVariables([{ name: 'X', jsonPath: '{.metadata.annotations.missing}' }], node), {
    message: /no value at/,
  });
  t.deepEqual(resolveNodeVariables([{ name: 'X', jsonPath: '{.metadata.annotations.desiredkey}' }], node), {
    X: 'desiredvalue',
  });
  t.deepEqual(
    resolveNodeVariables(
      [
        { name: 'A', jsonPath: '{.metadata.annotations.desiredkey}' },
        { name: 'L', jsonPath: '{.metadata.labels.label}' },
      ],
      node,
    ),
    { A: 'desiredvalue', L: 'labelvalue' },
  );
});

test('node JSONPath subset: escaped dots, literals, and errors', (t) => {
  t.is(
    evaluateNodeJsonPath('{.metadata.annotations.k8s\\.ovn\\.org/hybrid-overlay-node-subnet}', node),
    'nodesubnet',
  );
  t.is(evaluateNodeJsonPath('C:\\k\\kubeconfig', node), 'C:\\k\\kubeconfig');
  t.is(evaluateNodeJsonPath('name={.metadata.name}!', node), 'name=node!');
  t.throws(() => evaluateNodeJsonPath('{.metadata}', node), { message: /not a single string/ });
  t.throws(() => evaluateNodeJsonPath('{.metadata.name', node), { message: /unclosed/ });
  t.throws(() => evaluateNodeJsonPath('{metadata}', node), { message: /only \{\.field/ });
});

test('pre-script variables: vectors', async (t) => {
  t.deepEqual(await resolvePreScriptVariables([], node, runner), {});
  const withArgs = {
    variableName: 'CMD_REPLACE',
    script:
      'c:\\k\\script.ps1 -hostnameOverride NODE_NAME -clusterCIDR NODE_SUBNET -kubeConfigPath KUBE_CONFIG_PATH -kubeProxyConfigPath KUBE_PROXY_CONFIG_PATH -verbosity VERBOSITY',
    nodeArgs: [
      { name: 'NODE_NAME', jsonPath: '{.metadata.name}' },
      { name: 'KUBE_CONFIG_PATH', jsonPath: 'C:\\k\\kubeconfig' },
      { name: 'KUBE_PROXY_CONFIG_PATH', jsonPath: 'C:\\k\\kube-proxy.conf' },
      { name: 'VERBOSITY', jsonPath: '0' },
      { name: 'NODE_SUBNET', jsonPath: '{.metadata.annotations.k8s\\.ovn\\.org/hybrid-overlay-node-subnet}' },
    ],
  };
  t.deepEqual(await resolvePreScriptVariables([withArgs], node, runner), { CMD_REPLACE: '127.0.0.1' });
  await t.throwsAsync(
    resolvePreScriptVariables([{ variableName: 'X', script: 'c:\\k\\unknown.ps1' }], node, runner),
    { message: /unknown script/ },
  );
  ran.length = 0;
  t.deepEqual(await resolvePreScriptVariables([{ script: 'c:\\k\\test.ps1' }], node, runner), {});
  t.deepEqual(ran, ['c:\\k\\test.ps1']);
  t.deepEqual(
    await resolvePreScriptVariables(
      [
        { variableName: 'A', script: 'c:\\k\\script.ps1' },
        { variableName: 'B', script: 'c:\\k\\test.ps1' },
      ],
      node,
      runner,
    ),
    { A: '127.0.0.1', B: 'test-output' },
  );
});

test('service command: node variables then pre-script variables', async (t) => {
  const base = { name: 'fakeservice', bootstrap: false, priority: 1 };
  t.is(
    await resolveServiceCommand(
      {
        ...base,
        command: 'fakeservice --node-name=NAME_REPLACE -v',
        nodeVariables: [{ name: 'NAME_REPLACE', jsonPath: '{.metadata.name}' }],
      },
      node,
      runner,
    ),
    'fakeservice --node-name=node -v',
  );
  t.is(
    await resolveServiceCommand(
      {
        ...base,
        command: 'fakeservice --ip_example=IP_REPLACE -v',
        preScripts: [{ variableName: 'IP_REPLACE', script: 'c:\\k\\script.ps1' }],
      },
      node,
      runner,
    ),
    'fakeservice --ip_example=127.0.0.1 -v',
  );
  t.is(
    await resolveServiceCommand(
      {
        ...base,
        command: 'fakeservice --node-name=NAME_REPLACE --ip_example=IP_REPLACE -v',
        nodeVariables: [{ name: 'NAME_REPLACE', jsonPath: '{.metadata.name}' }],
        preScripts: [{ variableName: 'IP_REPLACE', script: 'c:\\k\\script.ps1' }],
      },
      node,
      runner,
    ),
    'fakeservice --node-name=node --ip_example=127.0.0.1 -v',
  );
});
