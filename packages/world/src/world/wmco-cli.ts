import { newRootContainer } from '@wmco/core';
import { buildProgram } from '@wmco/operator';
import { loadBuiltinProviders } from '@wmco/operator';
import type { SimWorld } from './sim-world.js';
import { NS } from './world-fixture.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `wmco <command> ...` in-process against the world, as a user would run it with the admin kubeconfig
 * (SSH ports of the simulated hosts passed as the hidden overrides).
 */
export async function wmcoCli(world: SimWorld, command: string, ...args: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const ports = world.hosts.hosts
    .filter((h) => h.sim.port !== 22)
    .map((h) => `${h.address}=${h.sim.port}`)
    .join(',');
  const program = await buildProgram({
    container: newRootContainer().createChildContainer(),
    builtinProviders: await loadBuiltinProviders(),
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: { WMCO_SSH_PORT_OVERRIDES: ports },
  });
  program.exitOverride();
  const base = ['--kubeconfig', world.adminKubeconfig, '-n', NS];
  let code = 0;
  try {
    await program.parseAsync(['node', 'wmco', command, ...base, ...args]);
  } catch (e) {
    code = 1;
    err.push(e instanceof Error ? e.message : String(e));
  }
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}
