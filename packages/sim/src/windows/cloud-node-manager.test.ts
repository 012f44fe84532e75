import test from 'ava';
import { startApiServerWith } from '../apiserver/started-api-server.test-helper.js';
import { WindowsModel } from './windows-model.js';
import { cloudNodeManagerLastError, UNINITIALIZED_TAINT } from './cloud-node-manager.js';

const BINARY = 'C:\\k\\azure-cloud-node-manager.exe';
const KUBECONFIG = 'C:\\k\\cnm-kubeconfig';
const COMMAND = `${BINARY} --windows-service --node-name=win-a --wait-routes=false --kubeconfig=${KUBECONFIG}`;
const SERVICE = {
  name: 'cloud-node-manager',
  commandLine: COMMAND,
  startType: 'auto' as const,
  dependencies: [],
  description: 'OpenShift managed cloud-node-manager',
};

async function setup(
  t: { teardown(fn: () => Promise<void> | void): void },
  kubeconfig: (sim: Awaited<ReturnType<typeof startApiServerWith>>) => Promise<string> | string,
): Promise<{ host: WindowsModel; taints: () => unknown[] }> {
  const sim = await startApiServerWith(['kube-node-lease']);
  t.teardown(() => sim.stop());
  const nodes = sim.registry.mustFind('', 'v1', 'nodes');
  sim.writer.create(nodes, undefined, {
    metadata: { name: 'win-a' },
    spec: { taints: [{ key: UNINITIALIZED_TAINT, value: 'true', effect: 'NoSchedule' }] },
  });
  const host = new WindowsModel();
  host.files.mkdirp('C:\\k');
  host.files.write(BINARY, Buffer.from('MZ'));
  host.files.write(KUBECONFIG, Buffer.from(await kubeconfig(sim)));
  host.scm.create(SERVICE);
  t.teardown(() => host.scm.stop('cloud-node-manager').then(() => undefined));
  const taints = (): unknown[] => {
    const spec = (sim.writer.store.get(nodes, undefined, 'win-a')?.['spec'] ?? {}) as { taints?: unknown[] };
    return spec.taints ?? [];
  };
  return { host, taints };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

test('with a ServiceAccount token it removes the uninitialized taint of its Node', async (t) => {
  const { host, taints } = await setup(t, (sim) =>
    sim.kubeconfig(sim.addServiceAccount('wmco', 'windows-cloud-node-manager')),
  );
  await host.scm.start('cloud-node-manager');
  await until('the taint removed', () => taints().length === 0);
  t.is(cloudNodeManagerLastError(host), undefined);
});

test('with the node’s own identity NodeRestriction refuses it, and the taint stays', async (t) => {
  const { host, taints } = await setup(t, (sim) =>
    sim.clientCertKubeconfig('system:node:win-a', ['system:nodes']),
  );
  await host.scm.start('cloud-node-manager');
  await until('a refusal', () => cloudNodeManagerLastError(host) !== undefined);
  t.regex(cloudNodeManagerLastError(host) ?? '', /403 .*node "win-a" is not allowed to modify taints/);
  t.is(taints().length, 1);
});

test('a missing --kubeconfig file fails the start', async (t) => {
  const model = new WindowsModel();
  model.files.mkdirp('C:\\k');
  model.files.write(BINARY, Buffer.from('MZ'));
  model.scm.create(SERVICE);
  await t.throwsAsync(model.scm.start('cloud-node-manager'), {
    message: /file not found: C:\\k\\cnm-kubeconfig/,
  });
});
