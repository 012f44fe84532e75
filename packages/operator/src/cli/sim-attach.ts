import type { CliContext } from './cli-context.js';
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
  /** Called once every host is Ready (or failed), with the hosts and the operator still running. */
  readonly whileRunning?: () => Promise<void>;
}

/**
 * `wmco sim --cluster KUBECONFIG`: simulated hosts and the operator against that cluster, progress per
 * host, then a summary; throws when a host did not become Ready.
 */
export async function runAttached(ctx: CliContext, o: AttachOptions): Promise<void> {
  const t0 = Date.now();
  const world = await AttachWorld.start({
    kubeconfig: o.cluster,
    hosts: o.hosts,
    seed: o.seed,
    platform: o.platform,
    providers: ctx.builtinProviders,
    out: ctx.stdout,
    ...(o.bootstrapGroup !== undefined ? { bootstrapGroup: o.bootstrapGroup } : {}),
  });
  try {
    ctx.stdout(`windows-instances: ${world.hosts.hosts.map((_, i) => world.hosts.key(i)).join(', ')}`);
    const statuses = await follow(world, { out: ctx.stdout, timeoutMs: o.timeoutMs }, t0);
    ctx.stdout('');
    ctx.stdout(summaryTable(statuses.map(([a, s]) => [world.hosts.label(a), s])));
    await o.whileRunning?.();
    if (!statuses.every(([, s]) => s?.phase === 'Ready'))
      throw new Error('not every host became Ready (see the table above)');
  } finally {
    await world.stop();
  }
  ctx.stdout('hosts and operator stopped; the Nodes and objects created in the cluster stay');
}
