import type { SimulatedWindowsHost } from '@wmco/sim';
import type { SimHostSpec } from './world-hosts.js';

const MiB = 1024 * 1024;

/** Whether `value` reached the host in any form: in a command line, a script or a script argument. */
function reached(sim: SimulatedWindowsHost, value: string): boolean {
  const escaped = JSON.stringify(value).slice(1, -1);
  return (
    JSON.stringify(sim.invocations).includes(escaped) || [...sim.commandLines].some((c) => c.includes(value))
  );
}

/**
 * One line about what a scenario host saw: its SSH connections, and per scenario field what the checks
 * of issue 10 look at (the hostile subnet never reaching the host; the operator's memory under a flood).
 */
export function hostReport(
  h: { readonly spec: SimHostSpec; readonly sim: SimulatedWindowsHost; readonly address: string },
  rssPeakBytes: number,
): string {
  const sc = h.spec.scenario ?? {};
  const facts = [`${h.sim.stats.connectionsAccepted} SSH connections accepted`];
  if (sc.nodeSubnet !== undefined) {
    const scripts = h.sim.invocations.flatMap((i) => i.scripts);
    const network = scripts.some((s) => s.script.includes('network-conf.ps1'));
    facts.push(
      `hostile node subnet reached the host: ${reached(h.sim, sc.nodeSubnet) ? 'YES' : 'no'}`,
      `network-conf.ps1 ran: ${network ? 'yes' : 'no'}`,
    );
  }
  if (sc.faults?.includes('endlessOutput'))
    facts.push(
      `streamed endless output on its first command; RSS of this process (world and operator) grew by at most ${Math.ceil(rssPeakBytes / MiB)} MiB while it streamed`,
    );
  return `world: ${h.spec.hostname} (${h.address}): ${facts.join('; ')}`;
}
