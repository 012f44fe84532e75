import test from 'ava';
import { buildProgram, type CliContext } from '@wmco/operator';
import { newRootContainer } from '@wmco/core';
import type { SimWorld } from './sim-world.js';
import { NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

/** `wmco reboot <args>` in-process: what it printed and the error it ended with, if any. */
async function reboot(world: SimWorld, args: readonly string[]): Promise<{ out: string; error?: string }> {
  const out: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => out.push(s),
    env: {},
  };
  const program = (await buildProgram(ctx)).exitOverride();
  try {
    await program.parseAsync(['reboot', '--kubeconfig', world.adminKubeconfig, '-n', NS, ...args], {
      from: 'user',
    });
    return { out: out.join('\n') };
  } catch (err) {
    return { out: out.join('\n'), error: err instanceof Error ? err.message : String(err) };
  }
}

test.serial(
  'wmco reboot --wait returns once the node rebooted and is Ready and uncordoned again',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-RW' }], { costs: { rebootMs: 500 } });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const host = world.hosts.hosts[0]!;
    const ready = await until('Ready', phaseIs(world, host.address, 'Ready'), 90_000);
    const booted = host.sim.model.lastBootTime.getTime();
    const run = await reboot(world, [ready.node ?? '', '--wait', '--timeout', '300']);
    t.is(run.error, undefined, run.out);
    t.regex(run.out, /is back in service/);
    // What --wait promised holds when it returns, without waiting any further.
    t.true(host.sim.model.lastBootTime.getTime() > booted, 'the host rebooted');
    const node = (await windowsNodes(world)).find((n) => n.metadata?.name === ready.node);
    t.not(node?.spec?.unschedulable, true);
    t.true((node?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
  },
);

test.serial(
  'wmco reboot --wait gives up after --timeout when nobody reboots the node, naming where it is',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-RT' }]);
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    const operator = await world.startOperator();
    const ready = await until('Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 90_000);
    await operator.stop();
    const run = await reboot(world, [ready.node ?? '', '--wait', '--timeout', '1']);
    t.regex(run.error ?? '', /not back in service after 1s \(reboot requested, not started\)/);
  },
);
