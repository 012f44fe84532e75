import { Command } from 'commander';
import { CoreV1Api } from '@kubernetes/client-node';
import type { CliContext } from './cli-context.js';
import { kubeConfigFrom, namespaceFrom, withKubeFlags, type KubeFlags } from './kube-flags.js';
import { outputOption } from './output-option.js';
import {
  filterView,
  instanceObjects,
  operatorOnly,
  readStatusView,
  renderView,
  type StatusView,
} from './status-view.js';
import { watchStatus } from './status-watch.js';

export { nodeFacts, rows, type NodeFacts } from './status-rows.js';

interface StatusFlags extends KubeFlags {
  output?: string;
  headers: boolean;
  watch?: boolean;
}

/** What each instance is now, to tell which changed (`-w`). */
function signatures(view: StatusView): Map<string, string> {
  const objects = instanceObjects(view);
  return new Map(view.statuses.map((s, i) => [s.address, JSON.stringify(objects[i])]));
}

/** `wmco status`: each Windows instance's phase, timings and last error, from `windows-instances-status`. */
export function statusCommand(ctx: CliContext): Command {
  return withKubeFlags(new Command('status'))
    .description(
      "Show the operator's conditions and each Windows instance: phase, node, timings and last error",
    )
    .argument('[node]', 'only the instance of this node name, host address or Machine name')
    .addOption(outputOption(['table', 'wide', 'json', 'yaml', 'name'], 'table', ['jsonpath']))
    .option('--no-headers', 'print the table without its header row')
    .option('-w, --watch', 'after the list, print each instance again whenever it changes, until interrupted')
    .action(async (node: string | undefined, flags: StatusFlags) => {
      const namespace = namespaceFrom(flags, ctx.env);
      const kc = kubeConfigFrom(flags);
      const api = kc.makeApiClient(CoreV1Api);
      const read = async (): Promise<StatusView> =>
        filterView(await readStatusView(api, namespace, ctx.stderr), node);
      const view = await read();
      if (view.statuses.length === 0 && node !== undefined && flags.watch !== true)
        throw new Error(
          `no Windows instance with the node name, address or Machine name "${node}" in ${namespace}`,
        );
      const alone = view.statuses.length === 0 ? operatorOnly(view, flags.output, flags.headers) : undefined;
      if (alone !== undefined) ctx.stdout(alone);
      if (view.statuses.length === 0 && flags.output === undefined)
        ctx.stderr(`No Windows instances in ${namespace}.`);
      else ctx.stdout(renderView(view, flags.output, flags.headers));
      if (flags.watch !== true) return;
      let seen = signatures(view);
      await watchStatus(kc, namespace, ctx.signal, {
        warn: ctx.stderr,
        changed: async () => {
          const now = await read();
          const last = seen;
          seen = signatures(now);
          const changed = now.statuses.filter((s) => last.get(s.address) !== seen.get(s.address));
          if (changed.length > 0) ctx.stdout(renderView({ ...now, statuses: changed }, flags.output, false));
        },
      });
    });
}
