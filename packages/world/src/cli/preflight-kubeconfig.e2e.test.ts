import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { buildProgram } from '@wmco/operator';
import type { SimWorld } from '../world/sim-world.js';
import { joinAll, testWorld } from '../world/world-fixture.js';
import { capturingContext, sshFlags, writeKeyFile } from './in-process-cli.test-helper.js';

/** `wmco preflight` of the world's first (Ready) host, with `env` as the environment. */
async function preflightOfReadyHost(
  t: ExecutionContext,
  world: SimWorld,
  o: { args: readonly string[]; env: Record<string, string> },
): Promise<{ out: string; error?: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-preflight-kc-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const keyFile = await writeKeyFile(dir, world.privateKey);
  const host = world.hosts.hosts[0]!;
  const out: string[] = [];
  const ctx = { ...(await capturingContext(out)), env: o.env };
  const program = (await buildProgram(ctx)).exitOverride();
  try {
    await program.parseAsync(['preflight', host.address, ...sshFlags(host.sim, keyFile), ...o.args], {
      from: 'user',
    });
    return { out: out.join('\n') };
  } catch (err) {
    return { out: out.join('\n'), error: err instanceof Error ? err.message : String(err) };
  }
}

test.serial(
  'preflight --kubeconfig reads platform None and VXLAN port 9898 from the cluster: a Ready host is ready',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-PRE' }]);
    t.teardown(() => world.stop());
    await joinAll(world);
    const read = await preflightOfReadyHost(t, world, {
      args: ['--kubeconfig', world.adminKubeconfig],
      env: {},
    });
    t.is(read.error, undefined, read.out);
    t.regex(read.out, /platform None, VXLAN port 9898/);
    t.regex(read.out, /on platform None: .* ready to add to windows-instances/);
    // The flags alone assume port 4789, which this cluster does not use: the host's VXLAN rule is for 9898.
    const guessed = await preflightOfReadyHost(t, world, { args: [], env: {} });
    t.regex(guessed.error ?? '', /not ready \(failed: firewall\)/);
    // $KUBECONFIG is read as kubectl reads it.
    const fromEnv = await preflightOfReadyHost(t, world, {
      args: [],
      env: { KUBECONFIG: world.adminKubeconfig },
    });
    t.is(fromEnv.error, undefined, fromEnv.out);
    // A flag given on the command line wins over the cluster.
    const overridden = await preflightOfReadyHost(t, world, {
      args: ['--kubeconfig', world.adminKubeconfig, '--vxlan-port', '4789'],
      env: {},
    });
    t.regex(overridden.error ?? '', /failed: firewall/);
  },
);

test.serial(
  'preflight --kubeconfig on a vSphere cluster with VXLAN port 9898: a Ready host is ready',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-PRE-VS' }], { platform: 'VSphere' });
    t.teardown(() => world.stop());
    await joinAll(world);
    const read = await preflightOfReadyHost(t, world, {
      args: ['--kubeconfig', world.adminKubeconfig],
      env: {},
    });
    t.is(read.error, undefined, read.out);
    t.regex(read.out, /platform VSphere, VXLAN port 9898/);
    t.regex(read.out, /on platform VSphere: .* ready to add to windows-instances/);
  },
);
