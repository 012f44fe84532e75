import type { CliContext } from '@wmco/operator';
import { cleanUp } from '../world/attach-cleanup.js';
import { AttachLedger } from '../world/attach-ledger.js';
import { OperatorLogFile } from '../world/attach-log.js';
import { AttachWorld } from '../world/attach-world.js';
import { summaryTable } from '../world/progress.js';
import { follow } from '../world/run-demo.js';
import type { SimHostSpec } from '../world/world-hosts.js';

export interface AttachOptions {
  readonly cluster: string;
  readonly seed: boolean;
  readonly bootstrapGroup?: string;
  readonly hosts: readonly SimHostSpec[];
  readonly platform: string;
  readonly timeoutMs: number;
  /** `--cleanup`: when the run ends, delete what it created in the cluster. */
  readonly cleanup?: boolean;
  /** `--log-out`: the operator's log file (default: operator.log in a new temporary directory). */
  readonly logOut?: string;
  /** Called once every host is Ready (or failed), with the hosts and the operator still running. */
  readonly whileRunning?: () => Promise<void>;
}

/** How many of the operator's last log lines a failed run prints. */
const TAIL_LINES = 20;

/** What a run writes to besides the cluster, and what interrupts it. */
interface RunParts {
  readonly log: OperatorLogFile;
  readonly ledger: AttachLedger | undefined;
  /** Aborted by SIGINT or SIGTERM: the run stops following the hosts and ends (cleaning up if asked). */
  readonly signal: AbortSignal;
}

async function run(ctx: CliContext, o: AttachOptions, p: RunParts): Promise<void> {
  const t0 = Date.now();
  const world = await AttachWorld.start({
    kubeconfig: o.cluster,
    hosts: o.hosts,
    seed: o.seed,
    platform: o.platform,
    providers: ctx.builtinProviders,
    out: ctx.stdout,
    logSink: p.log.write,
    ...(p.ledger ? { ledger: p.ledger } : {}),
    ...(o.bootstrapGroup !== undefined ? { bootstrapGroup: o.bootstrapGroup } : {}),
  });
  try {
    ctx.stdout(`windows-instances: ${world.hosts.hosts.map((_, i) => world.hosts.key(i)).join(', ')}`);
    const statuses = await follow(world, { out: ctx.stdout, timeoutMs: o.timeoutMs, signal: p.signal }, t0);
    if (p.signal.aborted) throw new Error(`interrupted by ${String(p.signal.reason)}`);
    ctx.stdout('');
    ctx.stdout(summaryTable(statuses.map(([a, s]) => [world.hosts.label(a), s])));
    await o.whileRunning?.();
    if (!statuses.every(([, s]) => s?.phase === 'Ready'))
      throw new Error('not every host became Ready (see the table above)');
  } finally {
    await world.stop();
  }
}

/**
 * The first SIGINT or SIGTERM aborts the returned signal (the run then stops and cleans up); a second
 * one ends the process as usual. `dispose` removes the handlers.
 */
function interruptible(ctx: CliContext): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  const on = (s: NodeJS.Signals): void => {
    ctx.stderr(`received ${s}: stopping the hosts and the operator (again to quit at once)`);
    ac.abort(s);
  };
  process.once('SIGINT', on);
  process.once('SIGTERM', on);
  return {
    signal: ac.signal,
    dispose: (): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

async function printTail(ctx: CliContext, log: OperatorLogFile): Promise<void> {
  const tail = await log.tail(TAIL_LINES);
  if (tail.length === 0) return;
  ctx.stderr(`last ${tail.length} lines of the operator's log (${log.path}):`);
  tail.forEach((l) => ctx.stderr(l));
}

/**
 * `wmco sim --cluster KUBECONFIG`: simulated hosts and the operator against that cluster, progress per
 * host, then a summary; throws when a host did not become Ready. The operator's log goes to a file named
 * at the start and at the end (a failed run also prints its last lines); with `cleanup`, what the run
 * created in the cluster is deleted when it ends, whether it succeeded or not.
 */
export async function runAttached(ctx: CliContext, o: AttachOptions): Promise<void> {
  const log = await OperatorLogFile.open(o.logOut);
  ctx.stdout(`operator log: ${log.path}`);
  const ledger = o.cleanup === true ? new AttachLedger() : undefined;
  const stop = interruptible(ctx);
  let failure: Error | undefined;
  try {
    await run(ctx, o, { log, ledger, signal: stop.signal });
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
  }
  await log.close();
  if (failure !== undefined) await printTail(ctx, log);
  const cleaned = ledger ? cleanUp(ledger, ctx.stdout) : Promise.resolve();
  await cleaned.catch((e: unknown) => {
    if (failure === undefined) failure = e instanceof Error ? e : new Error(String(e));
    else ctx.stderr(String(e));
  });
  stop.dispose();
  ctx.stdout(`operator log: ${log.path}`);
  if (failure !== undefined) throw failure;
  ctx.stdout(
    ledger
      ? 'hosts and operator stopped; what the run created in the cluster was deleted'
      : 'hosts and operator stopped; the Nodes and objects created in the cluster stay',
  );
}
