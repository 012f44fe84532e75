import test from 'ava';
import { buildUserData } from '@wmco/core';
import { parseAuthorizedKey } from '@wmco/core';
import { meta, str, type JsonObject } from '../apiserver/json.js';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';
import { FREE_HOST_COSTS } from '../windows/host-costs.js';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import { eventually, machineAddress, registerNode, sshLogin, submitCsr } from './machine-api.test-helper.js';
import { SimInstanceLauncher } from './machine-instances.js';
import { machineSetType, machineType, nodeRefName, obj } from './machine-objects.js';

// The simulated machine-api on vSphere: MachineSet → Machines → VMs booted from user data, status as
// machine-api writes it, deletion, and the machine approver's rules.
const NS = 'openshift-machine-api';
const key = generateEd25519KeyPair();
const wrap = (s: string): string => `<powershell>${s}</powershell>\n<persist>true</persist>\n`;
let c: SimCluster;
let launcher: SimInstanceLauncher;

test.before(async () => {
  launcher = new SimInstanceLauncher({ allocateAddress: machineAddress, host: { costs: FREE_HOST_COSTS } });
  c = await startSimCluster({ platform: 'VSphere', machineInstances: launcher });
  secret('windows-user-data', buildUserData(parseAuthorizedKey(key.public), { extraSteps: [], wrap }));
});
test.after.always(async () => {
  await c.stop();
  await Promise.all([...launcher.instances.values()].map((i) => i.stop()));
});

function secret(name: string, userData: string): void {
  const w = c.server.writer;
  w.create(w.registry.mustFind('', 'v1', 'secrets'), NS, {
    metadata: { name, namespace: NS },
    data: { userData: Buffer.from(userData).toString('base64') },
  });
}

function machineSet(name: string, replicas: number, userDataSecret: string, os = 'Windows'): void {
  const sel = { 'machine.openshift.io/cluster-api-machineset': name };
  c.server.writer.create(machineSetType(c.server.writer), NS, {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: sel },
      template: {
        metadata: { labels: { ...sel, ...(os ? { 'machine.openshift.io/os-id': os } : {}) } },
        spec: {
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'VSphereMachineProviderSpec',
              userDataSecret: { name: userDataSecret },
            },
          },
        },
      },
    },
  });
}

function scale(name: string, replicas: number): void {
  c.server.writer.mutate({ type: machineSetType(c.server.writer), namespace: NS, name }, (ms) => ({
    ...ms,
    spec: { ...obj(ms['spec']), replicas },
  }));
}

const machinesOf = (set: string): JsonObject[] =>
  c.server.writer.store
    .all(machineType(c.server.writer))
    .filter((m) => str(meta(m)['name'])?.startsWith(`${set}-`));
const nameOf = (m: JsonObject): string => str(meta(m)['name']) ?? '';
const phase = (m: JsonObject): string | undefined => str(obj(m['status'])['phase']);
const ipOf = (m: JsonObject): string =>
  (obj(m['status'])['addresses'] as { type: string; address: string }[]).find((a) => a.type === 'InternalIP')
    ?.address ?? '';
const nodeBootstrapper = {
  name: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
  groups: [
    'system:serviceaccounts',
    'system:serviceaccounts:openshift-machine-config-operator',
    'system:authenticated',
  ],
};
const csrApproved = (name: string): boolean => {
  const w = c.server.writer;
  const csr = w.store.get(
    w.registry.mustFind('certificates.k8s.io', 'v1', 'certificatesigningrequests'),
    undefined,
    name,
  );
  return JSON.stringify(obj(csr?.['status'])['conditions'] ?? []).includes('"Approved"');
};

test.serial(
  'a MachineSet of 2 gives 2 Provisioned Machines whose VMs accept only the operator key',
  async (t) => {
    machineSet('win', 2, 'windows-user-data');
    const ms = await eventually('2 provisioned', () => {
      const list = machinesOf('win').filter((m) => phase(m) === 'Provisioned');
      return list.length === 2 ? list : undefined;
    });
    for (const m of ms) {
      t.regex(nameOf(m), /^win-[a-z0-9]{5}$/);
      t.regex(str(obj(m['spec'])['providerID']) ?? '', /^vsphere:\/\/[0-9a-f-]{36}$/);
      t.true(JSON.stringify(meta(m)['finalizers']).includes('machine.machine.openshift.io'));
      t.deepEqual(
        (obj(m['status'])['addresses'] as { type: string }[]).map((a) => a.type),
        ['InternalIP', 'InternalDNS'],
      );
      const vm = c.machineActuator?.instanceOf(NS, nameOf(m));
      t.regex(vm?.hostname ?? '', /^WIN-[A-Z0-9]{11}$/, 'the guest keeps the image name until renamed');
      t.is(await sshLogin(ipOf(m), vm?.host?.port ?? 22, key.private), 'ok');
      t.is(await sshLogin(ipOf(m), vm?.host?.port ?? 22, generateEd25519KeyPair().private), 'auth');
    }
  },
);

test.serial(
  'the machine approver approves a bootstrap CSR named after a Machine and nothing else',
  async (t) => {
    const [m] = machinesOf('win');
    if (!m) throw new Error('no machine');
    const client = {
      signer: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
    };
    await submitCsr(c, 'good-client', nodeBootstrapper, { ...client, cn: `system:node:${nameOf(m)}` });
    await submitCsr(c, 'stranger', nodeBootstrapper, { ...client, cn: 'system:node:stranger' });
    await submitCsr(
      c,
      'wrong-user',
      { name: 'mallory', groups: ['system:authenticated'] },
      {
        ...client,
        cn: `system:node:${nameOf(m)}`,
      },
    );
    await eventually('approved', () => (csrApproved('good-client') ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    t.false(csrApproved('stranger'));
    t.false(csrApproved('wrong-user'));
  },
);

test.serial(
  'the Node with the VM address becomes the nodeRef; serving CSRs need SANs of the Machine',
  async (t) => {
    const [m] = machinesOf('win');
    if (!m) throw new Error('no machine');
    registerNode(c, nameOf(m), ipOf(m));
    const linked = await eventually('running', () => {
      const now = machinesOf('win').find((x) => nameOf(x) === nameOf(m));
      return now && phase(now) === 'Running' ? now : undefined;
    });
    t.is(nodeRefName(linked), nameOf(m));
    await eventually('readyReplicas 1', () => {
      const ms = c.server.writer.store.get(machineSetType(c.server.writer), NS, 'win');
      return obj(ms?.['status'])['readyReplicas'] === 1 ? true : undefined;
    });
    const node = { name: `system:node:${nameOf(m)}`, groups: ['system:nodes', 'system:authenticated'] };
    const serving = {
      signer: 'kubernetes.io/kubelet-serving',
      usages: ['digital signature', 'server auth'],
      cn: node.name,
    };
    await submitCsr(c, 'serving-good', node, { ...serving, dns: [nameOf(m)], ips: [ipOf(m)] });
    await submitCsr(c, 'serving-bad', node, { ...serving, dns: [nameOf(m)], ips: ['10.9.9.9'] });
    await eventually('serving approved', () => (csrApproved('serving-good') ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    t.false(csrApproved('serving-bad'));
  },
);

test.serial('scaling down deletes unlinked Machines first, their VMs and their Nodes', async (t) => {
  const before = machinesOf('win');
  const linked = before.find((m) => nodeRefName(m) !== undefined);
  const unlinked = before.find((m) => nodeRefName(m) === undefined);
  if (!linked || !unlinked) throw new Error('setup');
  const unlinkedPort = c.machineActuator?.instanceOf(NS, nameOf(unlinked))?.host?.port ?? 22;
  scale('win', 1);
  await eventually('one left', () => (machinesOf('win').length === 1 ? true : undefined));
  t.is(nameOf(machinesOf('win')[0] ?? {}), nameOf(linked));
  t.is(await sshLogin(ipOf(unlinked), unlinkedPort, key.private), 'down', 'the VM is gone');
  scale('win', 0);
  await eventually('none left', () => (machinesOf('win').length === 0 ? true : undefined));
  const nodes = c.server.writer.registry.mustFind('', 'v1', 'nodes');
  t.is(c.server.writer.store.get(nodes, undefined, nameOf(linked)), undefined, 'the Node is deleted');
});

test.serial(
  "a Node registering at a deleted Machine's address after its deletion is deleted (the cloud's node lifecycle)",
  async (t) => {
    machineSet('late', 1, 'windows-user-data');
    const [m] = await eventually('provisioned', () => {
      const list = machinesOf('late').filter((x) => phase(x) === 'Provisioned');
      return list.length === 1 ? list : undefined;
    });
    if (!m) throw new Error('setup');
    const address = ipOf(m);
    scale('late', 0);
    await eventually('gone', () => (machinesOf('late').length === 0 ? true : undefined));
    const nodes = c.server.writer.registry.mustFind('', 'v1', 'nodes');
    // A kubelet's registration committed after machine-api looked for the Node.
    registerNode(c, 'late-kubelet', address);
    await eventually('the late Node deleted', () =>
      c.server.writer.store.get(nodes, undefined, 'late-kubelet') === undefined ? true : undefined,
    );
    // A Node at an address no destroyed VM had stays.
    registerNode(c, 'other-node', machineAddress());
    t.truthy(c.server.writer.store.get(nodes, undefined, 'other-node'));
    c.server.writer.delete(nodes, undefined, 'other-node');
    c.server.writer.delete(machineSetType(c.server.writer), NS, 'late');
  },
);

test.serial('a VM whose user data is wrong boots with nothing on port 22', async (t) => {
  secret(
    'untagged-user-data',
    buildUserData(parseAuthorizedKey(key.public), { extraSteps: [], wrap: (s) => s }),
  );
  machineSet('broken', 1, 'untagged-user-data');
  const [m] = await eventually('provisioned', () => {
    const l = machinesOf('broken').filter((x) => phase(x) === 'Provisioned');
    return l.length === 1 ? l : undefined;
  });
  if (!m) throw new Error('no machine');
  const vm = c.machineActuator?.instanceOf(NS, nameOf(m));
  t.is(vm?.host, undefined);
  t.deepEqual(vm?.boot?.problems, ['no <powershell> block: the agent ran nothing']);
  t.is(await sshLogin(ipOf(m), 22, key.private), 'down');
});

test.serial(
  'a Machine waits in Provisioning until its user data Secret exists; Linux Machines get no Windows host',
  async (t) => {
    machineSet('late', 1, 'late-user-data');
    await eventually('provisioning', () =>
      machinesOf('late').some((m) => phase(m) === 'Provisioning') ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 200));
    t.is(phase(machinesOf('late')[0] ?? {}), 'Provisioning');
    secret('late-user-data', buildUserData(parseAuthorizedKey(key.public), { extraSteps: [], wrap }));
    await eventually('provisioned', () =>
      machinesOf('late').some((m) => phase(m) === 'Provisioned') ? true : undefined,
    );
    machineSet('linux', 1, 'windows-user-data', '');
    const [l] = await eventually('linux provisioned', () => {
      const list = machinesOf('linux').filter((m) => phase(m) === 'Provisioned');
      return list.length === 1 ? list : undefined;
    });
    t.is(c.machineActuator?.instanceOf(NS, nameOf(l ?? {}))?.boot, undefined);
    t.deepEqual(
      c.errors.map((e) => e.controller),
      [],
    );
  },
);
