import type { InstanceStatus } from '@wmco/core/internal';
import { CsrAttacker } from './csr-attacker.js';
import { EventFeed } from './event-feed.js';
import { installScenarios, instanceKeys } from './host-scenario.js';
import { hostReport } from './host-report.js';
import type { SimWorld } from './sim-world.js';
import { eventsAbout } from './world-fixture.js';

/** One windows-instances entry the demo follows (a host may be listed under several). */
interface DemoRow {
  readonly host: number;
  readonly key: string;
  readonly label: string;
  /**
   * Where its status is published: under the key when refused, under the host's address once admitted
   * (a DNS key); only the key when the host also has an entry by address, which owns that status.
   */
  readonly statusKeys: readonly string[];
}

/** A row's state: the operator's status, or `Removed` once the world removed its entry on purpose. */
export type RowState = InstanceStatus | 'Removed' | undefined;

const REMOVAL_WAIT_MS = 60_000;

/**
 * What the demo does with its hosts besides starting them: the windows-instances entries (one per key),
 * the scenarios of a hosts file (faults, hostile subnets, CSR attacks), and what it reports at the end.
 */
export class DemoDriver {
  readonly rows: readonly DemoRow[];
  private readonly entries: Record<string, string> = {};
  private readonly attacker: CsrAttacker;
  private readonly memory = { base: process.memoryUsage().rss, peak: 0 };
  private readonly sampler: NodeJS.Timeout;
  private readonly events: EventFeed;

  constructor(
    private readonly world: SimWorld,
    private readonly say: (label: string, line: string) => void,
  ) {
    const rows: DemoRow[] = [];
    world.hosts.hosts.forEach((h, host) => {
      const keys = instanceKeys(world, host);
      for (const key of keys) {
        const label =
          key === h.address
            ? key
            : key === h.spec.dnsName
              ? `${key} (${h.address})`
              : `${key} (host ${h.address})`;
        const statusKeys = key === h.address || keys.includes(h.address) ? [key] : [key, h.address];
        rows.push({ host, key, label, statusKeys });
        this.entries[key] = `username=${h.spec.username ?? 'Administrator'}`;
      }
    });
    this.rows = rows;
    const address = (i: number): string => world.hosts.hosts[i]?.address ?? '';
    this.events = new EventFeed(
      () => eventsAbout(world),
      rows.map((r) => ({ ...r, address: address(r.host) })),
    );
    this.attacker = new CsrAttacker({
      world,
      say: (i, line) => say(this.rows.find((r) => r.host === i)?.label ?? String(i), line),
      removeHost: (i) => this.removeHost(i),
    });
    // Sampled while a host floods the operator with output (the scenario's question), not over the whole
    // run: a full join afterwards (payload extraction in this same process) is not the flood's cost.
    this.sampler = setInterval(() => {
      if (!world.hosts.hosts.some((h) => h.sim.stats.floodsOpen > 0)) return;
      this.memory.peak = Math.max(this.memory.peak, process.memoryUsage().rss - this.memory.base);
    }, 50);
    this.sampler.unref();
  }

  /** Arms the hosts' faults and hostile values, then writes windows-instances. */
  async start(): Promise<string[]> {
    installScenarios(this.world);
    await this.world.setInstances({ ...this.entries });
    return Object.keys(this.entries);
  }

  /** Each row's state now (after printing the operator's new Warning events); starts the CSR attacks a status allows. */
  async states(): Promise<RowState[]> {
    for (const [label, line] of await this.events.next()) this.say(label, line);
    return Promise.all(
      this.rows.map(async (r): Promise<RowState> => {
        if (this.attacker.removed(r.host)) return 'Removed';
        let s: InstanceStatus | undefined;
        for (const k of r.statusKeys) s ??= await this.world.status(k);
        this.attacker.observe(r.host, s);
        return s;
      }),
    );
  }

  /** Every row is final and every attack is over. */
  settled(states: readonly RowState[]): boolean {
    return this.rows.every((r, i) => {
      const s = states[i];
      const final = s === 'Removed' || s?.phase === 'Ready' || s?.phase === 'Failed';
      return final && this.attacker.settled(r.host, s === 'Removed' ? undefined : s);
    });
  }

  /** Every row became Ready (or was removed by the world) and no attack succeeded. */
  ok(states: readonly RowState[]): boolean {
    const joined = states.every((s) => s === 'Removed' || s?.phase === 'Ready');
    return joined && this.attacker.breaches.length === 0;
  }

  /** What the world saw on the hosts of a scenario (printed before the summary table). */
  report(): string[] {
    clearInterval(this.sampler);
    this.attacker.stop();
    const lines = this.world.hosts.hosts.flatMap((h) =>
      h.spec.scenario ? [hostReport(h, this.memory.peak)] : [],
    );
    return [...lines, ...this.attacker.breaches.map((b) => `world: BREACH: ${b}`)];
  }

  private async removeHost(i: number): Promise<void> {
    for (const r of this.rows) if (r.host === i) delete this.entries[r.key];
    await this.world.setInstances({ ...this.entries });
    const address = this.world.hosts.hosts[i]?.address ?? '';
    const deadline = Date.now() + REMOVAL_WAIT_MS;
    while ((await this.world.status(address)) !== undefined) {
      if (Date.now() > deadline) throw new Error(`the operator kept ${address} after its entry was removed`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
