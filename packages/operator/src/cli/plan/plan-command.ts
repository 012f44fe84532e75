import { Command, Option } from 'commander';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { loadProviders } from '../../providers/load-provider-package.js';
import type { CliContext } from '../cli-context.js';
import { kubeConfigFrom, namespaceFrom, withKubeFlags, type KubeFlags } from '../kube-flags.js';
import { parseOutputFormat, renderStructured } from '../output-format.js';
import { outputOption } from '../output-option.js';
import { collect, providerPackages } from '../provider-packages-option.js';
import { planMachines, type MachinePlanReport } from './machine-planner.js';
import { NodePlanner, type NodePlanReport } from './node-planner.js';
import { machineJson, nodeJson, planText, summary, type PlanReports } from './plan-output.js';
import { DesignSource, byohNodes, readPrivateKey, type NodeProblem, type PlanSource } from './plan-inputs.js';
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

interface PlanContext {
  readonly source: PlanSource;
  readonly sshPorts: ReadonlyMap<string, number>;
  readonly connectTimeoutMs: number;
}

function planContext(ctx: CliContext, flags: PlanFlags, providers: PlanSource['providers']): PlanContext {
  const kc = kubeConfigFrom(flags);
  const connectTimeoutMs = Number(flags.connectTimeout) * 1000;
  if (!Number.isFinite(connectTimeoutMs) || connectTimeoutMs <= 0)
    throw new Error(`--connect-timeout: "${flags.connectTimeout}" is not a positive number of seconds`);
  return {
    source: {
      core: kc.makeApiClient(CoreV1Api),
      custom: kc.makeApiClient(CustomObjectsApi),
      namespace: namespaceFrom(flags, ctx.env),
      privateKeySecret: flags.privateKeySecret ?? ctx.env['WMCO_PRIVATE_KEY_SECRET'] ?? 'cloud-private-key',
      payloadDir: flags.payload,
      container: ctx.container,
      providers,
    },
    sshPorts: parseSshPortOverrides(flags.sshPortOverrides ?? ctx.env[SSH_PORT_OVERRIDES_ENV]),
    connectTimeoutMs,
  };
}

/** A named node that is not BYOH is no problem when it belongs to a listed Machine. */
function unplannedNodes(
  problems: readonly NodeProblem[],
  machines: readonly MachinePlanReport[],
): NodePlanReport[] {
  const machineNodes = new Set(machines.flatMap((m) => [m.machine, ...(m.node ? [m.node] : [])]));
  return problems
    .filter((p) => !machineNodes.has(p.node))
    .map((p) => ({
      node: p.node,
      address: '',
      result: 'error',
      plan: { steps: [] },
      notes: [],
      error: p.error,
    }));
}

async function planAll(ctx: CliContext, names: readonly string[], flags: PlanFlags): Promise<PlanReports> {
  const providers = await loadProviders(
    ctx.builtinProviders,
    providerPackages(flags.providerPackage, ctx.env),
  );
  const { source, sshPorts, connectTimeoutMs } = planContext(ctx, flags, providers);
  const designs = await DesignSource.load(source);
  const key = await readPrivateKey(source).then(
    (pem) => ({ pem, error: undefined }),
    (err: unknown) => ({ pem: undefined, error: err }),
  );
  const machines = await planMachines({
    ...source,
    machines: designs.machineParts,
    privateKeyPem: key.pem,
    names,
  });
  const { nodes, problems } = await byohNodes(source.core, names);
  const unplanned = unplannedNodes(problems, machines.reports);
  const note = machines.note !== undefined ? { machineNote: machines.note } : {};
  if (nodes.length === 0) return { nodes: unplanned, machines: machines.reports, ...note };
  if (key.pem === undefined) throw key.error;
  const planner = new NodePlanner({ source, designs, privateKeyPem: key.pem, sshPorts, connectTimeoutMs });
  const planned = await mapLimited(nodes, (n) => planner.plan(n));
  return { nodes: [...planned, ...unplanned], machines: machines.reports, ...note };
}

/**
 * `wmco plan`: per BYOH node, what converging it now would change, from a real observe; per Windows Machine,
 * what the Machine reconciler would do (join, replace, wait, ...); applies nothing.
 */
export function planCommand(ctx: CliContext): Command {
  return withKubeFlags(new Command('plan'))
    .description(
      'Show what the operator would do now: per BYOH node the changes of converging it, per Windows Machine its next action',
    )
    .argument('[node...]', 'nodes or Machines to plan (default: every BYOH node and every Windows Machine)')
    .addOption(outputOption(['json', 'yaml'], 'text'))
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
      const p = await planAll(ctx, names, flags);
      if (format === 'json' || format === 'yaml') {
        const machines = {
          machines: p.machines.map(machineJson),
          ...(p.machineNote ? { machineNote: p.machineNote } : {}),
        };
        ctx.stdout(
          renderStructured(format, { nodes: p.nodes.map(nodeJson), ...machines, summary: summary(p) }),
        );
      } else if (p.nodes.length + p.machines.length === 0)
        ctx.stderr(
          `No BYOH nodes and no Windows Machines.${p.machineNote ? ` (Machines not listed: ${p.machineNote})` : ''}`,
        );
      else ctx.stdout(planText(p));
      const failed = p.nodes.filter((r) => r.result === 'error').length;
      if (failed > 0) throw new Error(`${failed} of ${p.nodes.length} nodes could not be planned`);
    });
}
