// On a proxied OpenShift cluster the Proxy object holds the proxy and OLM gives the operator the same
// variables. A join published the services ConfigMap with the operator's variables as machine variables,
// while the keeper (and drift repair) publish the node design, where the cluster proxy goes into the
// services' environments: the ConfigMap flipped between the two after every join.
import test from 'ava';
import type { CoreV1Api, V1ConfigMap, V1Node } from '@kubernetes/client-node';
import { observedHost } from '../converge/plan.test-helper.js';
import { designNode, variableScripts } from '../desired/node-spec.js';
import { scriptsFor } from '../desired/service-scripts.js';
import { InMemoryHostKeyStore } from '../host/host-key-store.js';
import { Annotations } from '../identity/node-metadata.js';
import type { JoiningInstance } from './node-source.js';
import { JoinFlow } from './join-flow.js';
import { FACTS, shippedCorePayload, StateHost, testDeps, testNode } from './lifecycle.test-helper.js';
import { ServicesConfigMapKeeper } from './services-configmap-keeper.js';

const PROXY = {
  HTTP_PROXY: 'http://proxy.example.com:3128',
  HTTPS_PROXY: 'http://proxy.example.com:3129',
  NO_PROXY: '.cluster.local,10.0.0.0/16',
};

/** The ConfigMaps and the one Node (registered, with its subnet, Ready) a join and the keeper touch. */
function cluster(): { core: CoreV1Api; writes: string[]; stored: Map<string, V1ConfigMap> } {
  const stored = new Map<string, V1ConfigMap>();
  const writes: string[] = [];
  const node: V1Node = {
    ...testNode(),
    metadata: { name: 'win-a', annotations: { [Annotations.hybridOverlaySubnet]: '10.132.1.0/24' } },
    status: { ...testNode().status, conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const core = {
    readNode: () => Promise.resolve(node),
    patchNode: () => Promise.resolve(node),
    listNamespacedConfigMap: () => Promise.resolve({ items: [...stored.values()] }),
    readNamespacedConfigMap: ({ name }: { name: string }) => {
      const cm = stored.get(name);
      return cm ? Promise.resolve(cm) : Promise.reject(Object.assign(new Error('404'), { code: 404 }));
    },
    deleteNamespacedConfigMap: ({ name }: { name: string }) => {
      writes.push(`delete ${name}`);
      stored.delete(name);
      return Promise.resolve({});
    },
    createNamespacedConfigMap: ({ body }: { body: V1ConfigMap }) => {
      writes.push(`create ${body.metadata?.name ?? ''}`);
      stored.set(body.metadata?.name ?? '', body);
      return Promise.resolve(body);
    },
  };
  return { core: core as unknown as CoreV1Api, writes, stored };
}

const identity: JoiningInstance = {
  owner: '10.0.0.5',
  owns: () => true,
  status: { key: '10.0.0.5', extra: {} },
  eventTarget: { apiVersion: 'v1', kind: 'ConfigMap', name: 'windows-instances', namespace: 'wmco' },
  labels: {},
  annotations: {},
  record: { source: 'windows-instances', instance: '10.0.0.5' },
  decideName: () => Promise.resolve('win-a'),
  claim: () => Promise.resolve(),
  end: () => undefined,
};

test('with the cluster proxy and the operator’s proxy set, a join publishes what the keeper does', async (t) => {
  const { core, writes, stored } = cluster();
  const facts = { ...FACTS, proxy: PROXY };
  const base = testDeps(new StateHost(observedHost()), { core, facts: () => Promise.resolve(facts) });
  const deps = { ...base, payload: shippedCorePayload(), proxyEnv: PROXY };
  const design = designNode(deps, facts);
  const outputs = Object.fromEntries(
    variableScripts(scriptsFor(design.services, testNode())).map((v) => [
      v.name,
      v.variable === 'NODE_IP' ? '10.0.0.5' : 'win-a',
    ]),
  );
  const host = new StateHost(observedHost(), outputs);
  // The keeper publishes; it never reaches a host (ServicesKeeperDeps has no openHost).
  const keeper = new ServicesConfigMapKeeper(deps, () => []);

  await keeper.sync();
  await new JoinFlow({ ...deps, openHost: () => host }, new InMemoryHostKeyStore()).join({
    instance: { address: '10.0.0.5', ipv4Address: '10.0.0.5', username: 'Administrator' },
    privateKeyPem: 'not used to connect here',
    publicKeyHash: 'f'.repeat(64),
    signal: new AbortController().signal,
    identity,
  });
  await keeper.sync();

  t.deepEqual(writes, ['create windows-services-0.1.0'], 'published once, by the keeper at start');
  const data = stored.get('windows-services-0.1.0')?.data ?? {};
  t.is(data['environmentVars'], undefined, 'the cluster proxy is no machine variable');
  t.true((data['services'] ?? '').length > 0);
});
