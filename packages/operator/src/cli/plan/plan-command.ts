import { Command, Option } from 'commander';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { describePlan, describeStep } from '@wmco/core';
import { loadProviders } from '../../providers/load-provider-package.js';
import type { CliContext } from '../cli-context.js';
import { kubeConfigFrom, namespaceFrom, withKubeFlags, type KubeFlags } from '../kube-flags.js';
import { parseOutputFormat, renderStructured } from '../output-format.js';
import { collect, providerPackages } from '../provider-packages-option.js';
import { NodePlanner, type NodePlanReport } from './node-planner.js';
import { DesignSource, byohNodes, readPrivateKey, type PlanSource } from './plan-inputs.js';
import { SSH_PORT_OVERRIDES_ENV, parseSshPortOverrides } from './ssh-port-overrides.js';

interface PlanFlags extends KubeFlags {
  output?: string;
  payload: string;
  privateKeySecret?: string;
  connectTimeout: string;
  providerPackage?: string[];
  sshPortOverrides?: string;
}

const PARALLEL = 4;

async function mapLimited<T, R>(items: readonly T[], f: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

function text(r: NodePlanReport): string {
  const head = `${r.node}${r.address ? ` (${r.address})` : ''}`;
  const notes = r.notes.map((n) => `  note: ${n}`);
  if (r.result === 'error') return [`${head}: error: ${r.error ?? ''}`, ...notes].join('\n');
  const body = describePlan(r.plan)
    .split('\n')
    .map((l) => `  ${l}`);
  return [`${head}:`, ...body, ...notes].join('\n');
}

function json(r: NodePlanReport): object {
  return {
    node: r.node,
    address: r.address,
    result: r.result,
    steps: r.plan.steps.map((s) => ({ kind: s.kind, description: describeStep(s) })),
    ...(r.notes.length > 0 ? { notes: r.notes } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

function summary(reports: readonly NodePlanReport[]): string {
  const count = (x: NodePlanReport['result']): number => reports.filter((r) => r.result === x).length;
  const steps = reports.reduce((n, r) => n + r.plan.steps.length, 0);
  const nodes = (n: number): string => `${n} node${n === 1 ? '' : 's'}`;
  return (
    `Plan: ${nodes(count('changes'))} to change (${steps} step${steps === 1 ? '' : 's'}), ` +
    `${count('no-changes')} unchanged, ${count('error')} not planned. Nothing was applied.`
  );
}

async function planAll(
  ctx: CliContext,
  names: readonly string[],
  flags: PlanFlags,
): Promise<NodePlanReport[]> {
  const kc = kubeConfigFrom(flags);
  const source: PlanSource = {
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    namespace: namespaceFrom(flags, ctx.env),
    privateKeySecret: flags.privateKeySecret ?? ctx.env['WMCO_PRIVATE_KEY_SECRET'] ?? 'cloud-private-key',
    payloadDir: flags.payload,
    container: ctx.container,
    providers: await loadProviders(ctx.builtinProviders, providerPackages(flags.providerPackage, ctx.env)),
  };
  const sshPorts = parseSshPortOverrides(flags.sshPortOverrides ?? ctx.env[SSH_PORT_OVERRIDES_ENV]);
  const connectTimeoutMs = Number(flags.connectTimeout) * 1000;
  if (!Number.isFinite(connectTimeoutMs) || connectTimeoutMs <= 0)
    throw new Error(`--connect-timeout: "${flags.connectTimeout}" is not a positive number of seconds`);
  const { nodes, problems } = await byohNodes(source.core, names);
  const unplanned: NodePlanReport[] = problems.map((p) => ({
    node: p.node,
    address: '',
    result: 'error',
    plan: { steps: [] },
    notes: [],
    error: p.error,
  }));
  if (nodes.length === 0) return unplanned;
  const privateKeyPem = await readPrivateKey(source);
  const planner = new NodePlanner({
    source,
    designs: await DesignSource.load(source),
    privateKeyPem,
    sshPorts,
    connectTimeoutMs,
  });
  return [...(await mapLimited(nodes, (n) => planner.plan(n))), ...unplanned];
}

/** `wmco plan`: per BYOH node, what converging it now would change, from a real observe; applies nothing. */
export function planCommand(ctx: CliContext): Command {
  return withKubeFlags(new Command('plan'))
    .description('Show, per BYOH node, what the operator would change if it converged the node now')
    .argument(
      '[node...]',
      'nodes to plan (default: every node labelled windowsmachineconfig.openshift.io/byoh=true)',
    )
    .option('-o, --output <format>', 'json or yaml (default: text)')
    .option('--payload <dir>', 'the Windows payload directory the operator uses', '/payload')
    .option('--private-key-secret <name>', 'Secret with the operator key (default: cloud-private-key)')
    .option('--connect-timeout <seconds>', 'give up on a host after this long', '30')
    .option('--provider-package <name>', 'load a third-party provider package (repeatable)', collect)
    .addOption(
      new Option(
        '--ssh-port-overrides <list>',
        `address=port,... (or $${SSH_PORT_OVERRIDES_ENV})`,
      ).hideHelp(),
    )
    .action(async (names: string[], flags: PlanFlags) => {
      const format = parseOutputFormat(flags.output);
      const reports = await planAll(ctx, names, flags);
      if (format === 'json' || format === 'yaml')
        ctx.stdout(renderStructured(format, { nodes: reports.map(json), summary: summary(reports) }));
      else if (reports.length === 0) ctx.stderr('No BYOH nodes.');
      else ctx.stdout([...reports.map(text), '', summary(reports)].join('\n'));
      const failed = reports.filter((r) => r.result === 'error').length;
      if (failed > 0) throw new Error(`${failed} of ${reports.length} nodes could not be planned`);
    });
}
