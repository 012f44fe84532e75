import { Command } from 'commander';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import {
  REBOOT_REQUESTED_ANNOTATION,
  describeApiError,
  isNotFound,
  joinedByOperator,
} from '@wmco/core/internal';
import type { CliContext } from './cli-context.js';
import { integerFlag } from './host-flags.js';
import { kubeConfigFrom, withKubeFlags, type KubeFlags } from './kube-flags.js';
import { waitBackInService } from './node-back-in-service.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Asks the operator for a graceful reboot of one Windows node it joined: sets the reboot-requested
 * annotation. The operator then drains, reboots, reconfigures (routes included) and uncordons it under the
 * disruption budget. A node the operator does not own is refused here, with a message.
 */
export async function requestReboot(api: CoreV1Api, name: string, now = new Date()): Promise<string> {
  let node;
  try {
    node = await api.readNode({ name });
  } catch (err) {
    if (isNotFound(err)) throw new Error(`node ${name} does not exist`, { cause: err });
    throw new Error(`cannot read node ${name}: ${describeApiError(err)}`, { cause: err });
  }
  if (node.metadata?.labels?.['kubernetes.io/os'] !== 'windows' || !joinedByOperator(node))
    throw new Error(`node ${name} is not a Windows node joined by the operator; nothing was changed`);
  const at = now.toISOString();
  await api.patchNode(
    { name, body: { metadata: { annotations: { [REBOOT_REQUESTED_ANNOTATION]: at } } } },
    mergePatch,
  );
  return at;
}

/** `wmco reboot NODE`: a graceful, budgeted reboot of a Windows node (docs/upgrades.md). */
export function rebootCommand(ctx: CliContext): Command {
  return withKubeFlags(new Command('reboot'))
    .description('Reboot a Windows node gracefully: cordon, drain, reboot, restore routes, uncordon')
    .argument('<node>', 'the Node name')
    .option('--wait', 'wait until the node is back in service: rebooted, Ready and uncordoned')
    .option('--timeout <seconds>', 'with --wait: give up waiting after this long (the reboot goes on)', '600')
    .action(async (name: string, flags: KubeFlags & { wait?: boolean; timeout: string }) => {
      const timeoutMs = integerFlag('--timeout', flags.timeout, 1, 86_400) * 1000;
      const kc = kubeConfigFrom(flags);
      const at = await requestReboot(kc.makeApiClient(CoreV1Api), name);
      ctx.stdout(
        `Reboot of ${name} requested at ${at}; the operator drains and reboots it when the disruption ` +
          `budget allows (watch: kubectl get events --field-selector involvedObject.name=${name})`,
      );
      if (flags.wait !== true) return;
      await waitBackInService(kc, name, { timeoutMs, signal: ctx.signal });
      ctx.stdout(`node ${name} is back in service: rebooted, Ready and uncordoned`);
    });
}
