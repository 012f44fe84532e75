import { REBOOT_REQUESTED_ANNOTATION, REBOOT_REQUIRED_ANNOTATION } from '@wmco/core/internal';
import { requestReboot } from '@wmco/operator';
import type { SimWorld } from './sim-world.js';
import type { FaultContext, FaultPhase, FaultRow, MatrixHost } from './fault-row.js';
import { allUpgraded, CHANGED_BINARY, VERSION_A, VERSION_B } from './upgrade-fixture.js';
import { apis, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

/** Bound of each wait: only there to name what a stuck row waited for; the test's own timeout is larger. */
const WAIT_MS = 240_000;

interface OperatorVersion {
  version?: string;
  payloadDir?: string;
}

/**
 * A world for one row: the target (gets the fault), a reference host joined the same way without faults
 * (its configuration is the expected one) and a late host listed last. The operators get one join lane,
 * so a lane the fault left held keeps every later host out and the row fails.
 */
export class FaultMatrixWorld implements FaultContext {
  private version: OperatorVersion = {};
  private generation = 0;

  private constructor(
    readonly world: SimWorld,
    readonly logs: string[],
    readonly row: FaultRow,
  ) {}

  static async start(row: FaultRow): Promise<FaultMatrixWorld> {
    const { world, logs } = await testWorld(
      [{ hostname: 'WIN-FAULT' }, { hostname: 'WIN-REF' }, { hostname: 'WIN-LATE' }],
      { parallelJoins: 1, costs: { powershellStartMs: 20, rebootMs: 300 }, ...row.world },
    );
    await world.createPrivateKeySecret();
    return new FaultMatrixWorld(world, logs, row);
  }

  get target(): MatrixHost {
    return this.world.hosts.hosts[0]!;
  }

  get reference(): MatrixHost {
    return this.world.hosts.hosts[1]!;
  }

  get late(): MatrixHost {
    return this.world.hosts.hosts[2]!;
  }

  async restartOperator(): Promise<void> {
    await this.world.operators.at(-1)?.kill();
    await this.world.startOperator(`wmco-${++this.generation}`, this.version);
  }

  async startOperator(): Promise<void> {
    if (this.row.phase === 'upgrade') this.version = { version: VERSION_A };
    await this.world.startOperator('wmco-0', this.version);
  }

  /** Lists exactly these hosts in windows-instances. */
  async list(...hosts: readonly MatrixHost[]): Promise<void> {
    const all = this.world.hosts.hosts;
    await this.world.setInstances(
      Object.fromEntries(hosts.map((h) => this.world.hosts.entry(all.indexOf(h)))),
    );
  }

  async ready(h: MatrixHost): Promise<void> {
    await until(`${h.spec.hostname} Ready`, phaseIs(this.world, h.address, 'Ready'), WAIT_MS);
  }

  /** Starts the phase's flow on the target, whose node and the reference's are joined. */
  async startPhase(phase: Exclude<FaultPhase, 'join'>): Promise<void> {
    if (phase === 'upgrade') {
      const payloadDir = await this.world.payloadVariant('b', [CHANGED_BINARY]);
      this.version = { version: VERSION_B, payloadDir };
      await this.world.operators.at(-1)?.stop();
      await this.world.startOperator(`wmco-${++this.generation}`, this.version);
    } else if (phase === 'reboot') {
      await requestReboot(apis(this.world).core, this.nodeName);
    } else {
      await this.list(this.reference);
    }
  }

  get nodeName(): string {
    return this.target.spec.hostname.toLowerCase();
  }

  /** Waits for the end of the phase on the target. */
  async phaseDone(phase: FaultPhase, bootsBefore: number): Promise<void> {
    if (phase === 'removal') return this.removed();
    if (phase === 'upgrade') await until('every node on B', allUpgraded(this.world), WAIT_MS);
    if (phase === 'reboot') await this.rebooted(bootsBefore);
    await this.ready(this.target);
  }

  /** Waits until the host's Node and its status entry are gone. */
  async removed(h: MatrixHost = this.target): Promise<void> {
    const name = h.spec.hostname.toLowerCase();
    await until(
      `${name} removed`,
      async () =>
        (await windowsNodes(this.world)).every((n) => n.metadata?.name !== name) &&
        (await this.world.status(h.address)) === undefined
          ? true
          : undefined,
      WAIT_MS,
    );
  }

  private async rebooted(bootsBefore: number): Promise<void> {
    await until(
      `${this.nodeName} rebooted and back in service`,
      async () => {
        const n = (await windowsNodes(this.world)).find((x) => x.metadata?.name === this.nodeName);
        const a = n?.metadata?.annotations ?? {};
        const requested = a[REBOOT_REQUESTED_ANNOTATION] ?? a[REBOOT_REQUIRED_ANNOTATION];
        return this.target.sim.stats.reboots > bootsBefore &&
          !n?.spec?.unschedulable &&
          requested === undefined
          ? true
          : undefined;
      },
      WAIT_MS,
    );
  }
}
