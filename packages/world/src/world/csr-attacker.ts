import type { InstanceStatus } from '@wmco/core/internal';
import { describeAttack, performCsrAttack } from './csr-attacks.js';
import type { CsrAttack } from './host-scenario.js';
import type { SimWorld } from './sim-world.js';

/** Attacks that need a live registration (WaitingForNode) or at least a joined host (Ready). */
const EARLY: readonly CsrAttack[] = ['secondClient', 'wrongRequester'];

interface HostAttacks {
  readonly attacks: readonly CsrAttack[];
  run?: Promise<void>;
  done: boolean;
  removed: boolean;
}

export interface CsrAttackerDeps {
  readonly world: SimWorld;
  /** Prints one line of progress about host `i`. */
  readonly say: (i: number, line: string) => void;
  /** Removes host `i`'s entries from windows-instances and waits until the operator let it go. */
  readonly removeHost: (i: number) => Promise<void>;
}

/**
 * The world's CSR attacks of a hosts file, run once per host as its join allows: client CSRs as soon as
 * the operator waits for the Node (its registration is live), the serving CSR and the removal once Ready.
 */
export class CsrAttacker {
  private readonly hosts = new Map<number, HostAttacks>();
  private stopped = false;
  /** Attacks whose CSR was approved (or that could not be performed): the run must fail. */
  readonly breaches: string[] = [];

  constructor(private readonly deps: CsrAttackerDeps) {
    deps.world.hosts.hosts.forEach((h, i) => {
      const attacks = h.spec.scenario?.hostileCsrs ?? [];
      if (attacks.length > 0) this.hosts.set(i, { attacks, done: false, removed: false });
    });
  }

  /** Starts host `i`'s attacks once its status allows them (at most once). */
  observe(i: number, s: InstanceStatus | undefined): void {
    const h = this.hosts.get(i);
    if (!h || h.run || s?.node === undefined) return;
    if (s.phase !== 'WaitingForNode' && s.phase !== 'Ready') return;
    const node = s.node;
    h.run = this.attack(i, h, node)
      .catch((err: unknown) => {
        const msg = `attack on ${node} could not be performed: ${err instanceof Error ? err.message : String(err)}`;
        if (this.stopped) return; // the world is gone: the run already reported its outcome
        this.breaches.push(msg);
        this.deps.say(i, `world: ${msg}`);
      })
      .finally(() => {
        h.done = true;
      });
  }

  /** Every attack of host `i` finished, or none can start because its join failed first. */
  settled(i: number, s: InstanceStatus | undefined): boolean {
    const h = this.hosts.get(i);
    if (!h) return true;
    return h.run ? h.done : s?.phase === 'Failed';
  }

  removed(i: number): boolean {
    return this.hosts.get(i)?.removed ?? false;
  }

  /** Ends the attacks still waiting for a host (the run is over). */
  stop(): void {
    this.stopped = true;
  }

  private async attack(i: number, h: HostAttacks, node: string): Promise<void> {
    const address = this.deps.world.hosts.hosts[i]?.address ?? '';
    for (const a of h.attacks.filter((x) => EARLY.includes(x))) await this.one(i, a, node, address);
    const late = h.attacks.filter((x) => !EARLY.includes(x));
    if (late.length === 0) return;
    await this.untilReady(i, address);
    if (late.includes('servingExtraSans')) await this.one(i, 'servingExtraSans', node, address);
    if (!late.includes('afterRemoval')) return;
    await this.deps.removeHost(i);
    h.removed = true;
    this.deps.say(i, `world: removed the entry; the operator let ${node} go`);
    await this.one(i, 'afterRemoval', node, address);
  }

  private async one(i: number, a: CsrAttack, node: string, address: string): Promise<void> {
    const v = await performCsrAttack(this.deps.world, a, node, address);
    if (v.approved) this.breaches.push(`${a}: ${v.csr} was approved`);
    this.deps.say(i, `world: ${describeAttack(a, v)}`);
  }

  private async untilReady(i: number, address: string): Promise<void> {
    for (;;) {
      const s = await this.deps.world.status(address);
      if (s?.phase === 'Ready') return;
      if (s?.phase === 'Failed') throw new Error(`host ${address} failed before Ready (host ${i})`);
      if (this.stopped) throw new Error(`the run ended before host ${address} was Ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
