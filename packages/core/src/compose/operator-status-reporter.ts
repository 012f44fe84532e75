import type { ConfigMapStatusStore } from '../lifecycle/configmap-status-store.js';
import {
  operatorConditions,
  withTransitions,
  type OperatorCondition,
  type OperatorFacts,
  type OperatorStatus,
  type PrivateKeyState,
} from '../lifecycle/operator-conditions.js';
import { privateKeyProblem } from '../lifecycle/private-key-problem.js';
import { errorMessage, type Logger } from '../kube/logger.js';

/** What the reporter uses of the status store. */
export type OperatorStatusStore = Pick<
  ConfigMapStatusStore,
  'onChange' | 'all' | 'setOperator' | 'loadedOperatorConditions'
>;

export interface OperatorStatusReporterDeps {
  readonly store: OperatorStatusStore;
  readonly version: string;
  readonly logger: Logger;
  /** The Secret holding the private key, and its PEM as the operator's informer holds it. */
  readonly privateKeySecret: string;
  readonly privateKey: () => string | undefined;
  /** Why the cluster is not supported, read once per start; empty when it is. */
  readonly clusterProblems: () => Promise<readonly string[]>;
  readonly now?: () => Date;
  /** Least time between two writes (default 1 s): a thousand joins must not double the ConfigMap's writes. */
  readonly minIntervalMs?: number;
}

/**
 * Keeps the operator's own conditions (operator-conditions.ts) in the `operator` key of
 * `windows-instances-status`, where `wmco status` reads them: written at start and again whenever an
 * instance status or the private key changes what they say. Writes are coalesced (at most one per
 * `minIntervalMs`), and one that says what the last one said is skipped.
 */
export class OperatorStatusReporter {
  private written: readonly OperatorCondition[] = [];
  private clusterProblems: readonly string[] = [];
  private key: { pem: string | undefined; state: PrivateKeyState } | undefined;
  private dirty = false;
  private running: Promise<void> | undefined;
  private active = false;
  /** Nothing written yet this start: the first write happens whatever the last run wrote (its version). */
  private fresh = true;
  private lastWrite = 0;
  /** Ends the wait between two writes (a stop). */
  private wake: (() => void) | undefined;

  constructor(private readonly d: OperatorStatusReporterDeps) {
    d.store.onChange(() => this.update());
  }

  async start(): Promise<void> {
    this.clusterProblems = await this.d.clusterProblems();
    this.written = this.d.store.loadedOperatorConditions();
    this.fresh = true;
    this.active = true;
    this.update();
    await this.running;
  }

  stop(): Promise<void> {
    this.active = false;
    this.wake?.();
    return this.running ?? Promise.resolve();
  }

  /** Something the conditions are decided from may have changed. */
  update(): void {
    if (!this.active) return;
    this.dirty = true;
    this.running ??= this.flush().finally(() => (this.running = undefined));
  }

  private async flush(): Promise<void> {
    while (this.dirty && this.active) {
      await this.restSinceLastWrite();
      if (!this.active) return;
      this.dirty = false;
      await this.writeIfChanged().catch((err: unknown) =>
        this.d.logger.warn({ err: errorMessage(err) }, 'cannot write the operator status'),
      );
    }
  }

  /** Waits until `minIntervalMs` passed since the last write (changes meanwhile are coalesced). */
  private restSinceLastWrite(): Promise<void> {
    const left = this.lastWrite + (this.d.minIntervalMs ?? 1000) - Date.now();
    if (left <= 0) return Promise.resolve();
    return new Promise((done) => {
      const timer = setTimeout(done, left);
      this.wake = () => {
        clearTimeout(timer);
        done();
      };
    });
  }

  private async writeIfChanged(): Promise<void> {
    const next = withTransitions(
      this.written,
      operatorConditions(this.facts()),
      this.d.now?.() ?? new Date(),
    );
    const same = (a: OperatorCondition, b: OperatorCondition | undefined): boolean =>
      b !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;
    const unchanged = next.length === this.written.length && next.every((c, i) => same(c, this.written[i]));
    if (unchanged && !this.fresh) return;
    const section: OperatorStatus = { version: this.d.version, conditions: next };
    this.lastWrite = Date.now();
    await this.d.store.setOperator(section);
    this.d.logger.debug({ conditions: next.map((c) => `${c.type}=${c.status}`) }, 'operator status written');
    this.written = next;
    this.fresh = false;
  }

  private facts(): OperatorFacts {
    return {
      privateKey: this.keyState(),
      clusterProblems: this.clusterProblems,
      instances: this.d.store.all(),
    };
  }

  /** The key's state, parsed once per key. */
  private keyState(): PrivateKeyState {
    const pem = this.d.privateKey();
    if (this.key !== undefined && this.key.pem === pem) return this.key.state;
    const secret = this.d.privateKeySecret;
    const problem = pem === undefined ? undefined : privateKeyProblem(pem);
    const state: PrivateKeyState =
      pem === undefined
        ? { state: 'missing', secret }
        : problem === undefined
          ? { state: 'usable' }
          : { state: 'unusable', secret, problem };
    this.key = { pem, state };
    return state;
  }
}
