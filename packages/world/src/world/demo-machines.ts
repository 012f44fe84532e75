import { settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';

/** `--machinesets N --replicas R`: Windows MachineSets `winms<i>` in the simulated machine-api. */
export interface DemoMachineSets {
  readonly count: number;
  readonly replicas: number;
}

/** The demo's MachineSet names (at most 9 characters, as vSphere requires). */
export function demoMachineSetNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `winms${i}`);
}

/**
 * Creates the MachineSets and waits until each has its Running Machines with Ready nodes (or time is
 * up); prints one line per MachineSet; true when all made it.
 */
export async function runDemoMachineSets(
  world: SimWorld,
  m: DemoMachineSets,
  platform: string,
  o: { out: (line: string) => void; timeoutMs: number },
): Promise<boolean> {
  const api = world.machineApi();
  const names = demoMachineSetNames(m.count);
  for (const name of names) await api.createMachineSet({ name, replicas: m.replicas, platform });
  o.out(`MachineSets: ${names.map((n) => `${n} (${m.replicas} replicas)`).join(', ')}`);
  const results = await Promise.all(
    names.map(async (name) => {
      const t0 = Date.now();
      const ok = await settled(world, name, m.replicas, o.timeoutMs).then(
        (ms) => ms,
        () => undefined,
      );
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      o.out(
        ok
          ? `machineset ${name}: ${m.replicas}/${m.replicas} Machines Running with Ready nodes (${ok.map((x) => x.metadata.name).join(', ')}) in ${secs}s`
          : `machineset ${name}: not every Machine became Ready within the timeout`,
      );
      for (const x of ok ?? [])
        o.out(`  ${x.metadata.name}: ${x.spec?.providerID ?? '-'} → node ${x.status?.nodeRef?.name ?? '-'}`);
      return ok !== undefined;
    }),
  );
  return results.every(Boolean);
}

function count(flag: string, raw: string, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`--${flag}: "${raw}" is not a number from 1 to ${max}`);
  return n;
}

/** `--machinesets N --replicas R` (replicas default 2), or undefined without --machinesets. */
export function demoMachineSetsFlags(opts: {
  readonly machinesets?: string;
  readonly replicas?: string;
}): DemoMachineSets | undefined {
  if (opts.machinesets === undefined) return undefined;
  return {
    count: count('machinesets', opts.machinesets, 10),
    replicas: count('replicas', opts.replicas ?? '2', 20),
  };
}
