import test from 'ava';
import {
  emptyHostSpec,
  FACTS,
  testDeps,
  testNode,
  StateHost,
  stateMatching,
} from '../lifecycle/lifecycle.test-helper.js';
import { designNode, hostSpecWith, nodeHostSpec, nodeScripts, variableScripts } from './node-spec.js';

const deps = testDeps(new StateHost(stateMatching(emptyHostSpec())));

test('the spec of a Ready node holds every service, resolved for the Node and the host values', (t) => {
  const design = designNode(deps, FACTS);
  const spec = nodeHostSpec(design, { NODE_IP: '10.0.0.5' }, testNode());
  t.deepEqual(
    spec.services.map((s) => s.name),
    design.services.map((s) => s.name),
  );
  const command = (name: string): string => spec.services.find((s) => s.name === name)?.command ?? '';
  t.true(command('kubelet').includes('--node-ip=10.0.0.5'));
  t.true(command('hybrid-overlay-node').includes('--node win-a '));
  t.false(JSON.stringify(spec.services).includes('NODE_NAME'), 'no variable left');
  t.true(spec.files.some((f) => f.path === 'C:\\k\\kubelet.conf'));
  t.deepEqual(spec, hostSpecWith(design, design.services, { NODE_IP: '10.0.0.5' }, testNode()));
});

test('a missing pre-script value is an error naming the service and the variable', (t) => {
  const design = designNode(deps, FACTS);
  const err = t.throws(() => nodeHostSpec(design, {}, testNode()));
  t.regex(err.message, /kubelet: no value for NODE_IP/);
});

test('variable scripts leave out the scripts run for their effect', (t) => {
  const design = designNode(deps, FACTS);
  const all = nodeScripts(design, testNode());
  const network = all.find((s) => s.script.includes('network-conf.ps1'));
  t.is(
    network?.script,
    'C:\\Temp\\network-conf.ps1 -hostnameOverride $WmcoArg_NODE_NAME -clusterCIDR $WmcoArg_NODE_SUBNET' +
      ' -kubeConfigPath $WmcoArg_KUBE_CONFIG_PATH -kubeProxyConfigPath $WmcoArg_KUBE_PROXY_CONFIG_PATH' +
      ' -verbosity $WmcoArg_VERBOSITY',
    'node values are referenced, never spliced in',
  );
  t.like(network?.args, { NODE_NAME: 'win-a', NODE_SUBNET: '10.132.1.0/24', VERBOSITY: '0' });
  t.true(all.some((s) => s.script.includes('windows-defender-exclusion.ps1')));
  t.deepEqual(
    variableScripts(all).map((s) => s.variable),
    ['NODE_IP'],
  );
});

test('the design follows the operator settings: proxy variables and debug logging', (t) => {
  const design = designNode(
    testDeps(new StateHost(stateMatching(emptyHostSpec())), {
      debug: true,
      proxyEnv: { HTTP_PROXY: 'http://proxy:3128' },
    }),
    FACTS,
  );
  t.deepEqual(design.envVars, { HTTP_PROXY: 'http://proxy:3128' });
  t.true(design.services.some((s) => s.command.includes('--loglevel 5')));
});

test('a hostile hybrid-overlay subnet stops the spec of any level before anything reaches the host', (t) => {
  const design = designNode(deps, FACTS);
  const node = testNode();
  node.metadata!.annotations!['k8s.ovn.org/hybrid-overlay-node-subnet'] = '10.132.1.0/24; Remove-Item C:\\';
  const hybridOnly = design.services.filter((s) => s.priority <= 2);
  const err = t.throws(() => hostSpecWith(design, hybridOnly, { NODE_IP: '10.0.0.5' }, node));
  t.is(err.name, 'NodeValueError');
  t.regex(err.message, /NODE_SUBNET .*not an IPv4 CIDR/);
  t.throws(() => nodeScripts(design, node), { name: 'NodeValueError' });
});
