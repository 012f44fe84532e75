import { isDeepStrictEqual } from 'node:util';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { hostConfiguration, type HostConfiguration } from '../world/host-configuration.js';
import { until } from '../world/world-fixture.js';
import type { ScaleWorld } from './scale-world.js';

/** What one host holds that the reference does not (`+`) and the reference holds that it lacks (`-`). */
export function configurationDiff(
  h: SimulatedWindowsHost,
  reference: SimulatedWindowsHost,
  max = 10,
): string[] {
  const mine = configurationOf(h);
  const theirs = configurationOf(reference);
  const diff = (a: readonly string[], b: readonly string[], sign: string): string[] => {
    const other = new Set(b);
    return a.filter((x) => !other.has(x)).map((x) => `${sign} ${x}`);
  };
  return [
    ...diff([...mine.paths, ...mine.services], [...theirs.paths, ...theirs.services], '+'),
    ...diff([...theirs.paths, ...theirs.services], [...mine.paths, ...mine.services], '-'),
  ].slice(0, max);
}

/** The fleet at the end of the soak: hosts not Ready, and Ready hosts whose configuration differs. */
export interface SoakEnd {
  readonly stuck: readonly string[];
  readonly partial: readonly string[];
}

/** Files and services of a host, its own names (hostname, address) replaced: as the fault matrix compares. */
function configurationOf(h: SimulatedWindowsHost): HostConfiguration {
  return hostConfiguration(h, h.model.hostname, h.host);
}

async function readyAddresses(world: ScaleWorld): Promise<Set<string>> {
  return new Set((await world.statuses()).filter((s) => s.phase === 'Ready').map((s) => s.address));
}

/** The fleet's hosts not Ready, and the Ready ones whose configuration is not `expected`. */
async function look(
  world: ScaleWorld,
  fleet: readonly SimulatedWindowsHost[],
  expected: HostConfiguration,
): Promise<SoakEnd> {
  const ready = await readyAddresses(world);
  const stuck = fleet.filter((h) => !ready.has(h.host));
  const partial = fleet.filter((h) => ready.has(h.host) && !isDeepStrictEqual(configurationOf(h), expected));
  return { stuck: stuck.map((h) => h.host), partial: partial.map((h) => h.host) };
}

/**
 * After the faults: the reference host (never faulted) is listed and joins cleanly with the operator as it
 * is now; its configuration is what every host of the fleet must hold. Waits at most `boundMs` until every
 * host is Ready with exactly that configuration (the kubelets' serving certificates arrive after Ready, so
 * a Ready host may need a moment), then says which are not.
 */
export interface SoakSettle {
  readonly fleet: readonly SimulatedWindowsHost[];
  readonly reference: SimulatedWindowsHost;
  readonly boundMs: number;
  readonly log: (line: string) => void;
}

export async function settleSoak(
  world: ScaleWorld,
  { fleet, reference, boundMs, log }: SoakSettle,
): Promise<SoakEnd> {
  const deadline = Date.now() + boundMs;
  await world.list(fleet.length + 1);
  await until(
    `the reference host ${reference.host} Ready`,
    async () => ((await readyAddresses(world)).has(reference.host) ? true : undefined),
    boundMs,
    500,
  );
  let shown = 0;
  for (;;) {
    // Read again each time: the reference's serving certificate, too, may arrive after Ready.
    const end = await look(world, fleet, configurationOf(reference));
    if ((end.stuck.length === 0 && end.partial.length === 0) || Date.now() > deadline) return end;
    if (Date.now() - shown > 30_000) {
      shown = Date.now();
      log(
        `  settling: ${end.stuck.length} not Ready, ${end.partial.length} Ready with another configuration`,
      );
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
}
