import { Command, InvalidArgumentError } from 'commander';
import type { CliContext } from '../cli-context.js';
import { kubeConfigFrom, namespaceFrom, withKubeFlags, type KubeFlags } from '../kube-flags.js';
import { gatherNodeLogs } from './gather-node-logs.js';
import { GatherOutput } from './gather-output.js';
import { gatherPodLogs } from './gather-pod-logs.js';
import { gatherResources } from './gather-resources.js';

/** Per-file cap of node and pod logs (the end of each file is kept). */
export const DEFAULT_MAX_LOG_BYTES = 10 * 1024 * 1024;

interface MustGatherFlags extends KubeFlags {
  destDir?: string;
  maxLogBytes: number;
}

function positiveInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError('expected a positive whole number of bytes');
  return n;
}

/** `must-gather.local.<digits>`, as `oc adm must-gather` names its folder. */
function defaultDir(now: Date): string {
  return `must-gather.local.${now.getTime()}`;
}

/**
 * `wmco must-gather`: what a Windows support case needs, in one folder (layout: docs/troubleshooting.md):
 * the operator's Deployment and pod logs, events, its ConfigMaps, Windows Nodes and their CSRs, and each
 * Windows node's service logs through the node log proxy. Never Secrets.
 */
export function mustGatherCommand(ctx: CliContext): Command {
  return withKubeFlags(new Command('must-gather'))
    .description(
      "Collect the operator's logs, events, ConfigMaps, Windows Nodes, CSRs and each Windows node's service logs into a folder",
    )
    .option('--dest-dir <dir>', 'folder to write (default: ./must-gather.local.<timestamp>)')
    .option(
      '--max-log-bytes <n>',
      'keep at most the last n bytes of each log file',
      positiveInt,
      DEFAULT_MAX_LOG_BYTES,
    )
    .action(async (flags: MustGatherFlags) => {
      const ns = namespaceFrom(flags, ctx.env);
      const kc = kubeConfigFrom(flags);
      const out = new GatherOutput(flags.destDir ?? defaultDir(new Date()));
      out.note(`wmco must-gather: namespace ${ns}, server ${kc.getCurrentCluster()?.server ?? '?'}`);
      const nodes = await gatherResources(out, kc, ns);
      await gatherPodLogs(out, kc, ns, flags.maxLogBytes);
      await gatherNodeLogs(
        out,
        kc,
        nodes.map((n) => n.metadata?.name ?? '').filter((n) => n !== ''),
        flags.maxLogBytes,
      );
      await out.finish();
      ctx.stdout(`Wrote ${out.written.length} files to ${out.root} (see gather.log there).`);
    });
}
