import { Command, InvalidArgumentError } from 'commander';
import type { CliContext } from '../cli-context.js';
import type { KubeFlags } from '../kube-flags.js';
import { parseOutputFormat, renderStructured } from '../output-format.js';
import { outputOption } from '../output-option.js';
import { renderTable } from '../table.js';
import { verifyPayload, type PayloadReport } from './verify-payload.js';

interface VerifyFlags extends KubeFlags {
  kubernetesVersion?: string;
  output?: string;
}

function kubernetesVersionFlag(value: string): string {
  if (!/^v?\d+\.\d+(\.\d+)?([-+].*)?$/.test(value))
    throw new InvalidArgumentError(`"${value}" is not a Kubernetes version such as v1.36.2`);
  return value;
}

/** The cluster's version: the flag, or `/version` read with the kubeconfig. */
async function clusterVersion(flags: VerifyFlags): Promise<string> {
  if (flags.kubernetesVersion !== undefined) return flags.kubernetesVersion;
  const { VersionApi } = await import('@kubernetes/client-node');
  const { kubeConfigFrom } = await import('../kube-flags.js');
  try {
    return (await kubeConfigFrom(flags).makeApiClient(VersionApi).getCode()).gitVersion;
  } catch (err) {
    throw new Error(
      `cannot read the cluster's Kubernetes version (${(err as Error).message}); give --kubernetes-version`,
      { cause: err },
    );
  }
}

function print(ctx: CliContext, report: PayloadReport, output: string | undefined): void {
  const format = output === undefined ? undefined : parseOutputFormat(output);
  if (format === 'json' || format === 'yaml') return ctx.stdout(renderStructured(format, report));
  const rows = report.files.map((f) => [f.name, f.status.toUpperCase(), f.path ?? '-', f.detail]);
  ctx.stdout(renderTable(['file', 'status', 'path', 'detail'], rows));
}

async function verify(ctx: CliContext, dir: string, flags: VerifyFlags): Promise<void> {
  const version = await clusterVersion(flags);
  const report = await verifyPayload(dir, version);
  print(ctx, report, flags.output);
  if (report.bad.length > 0) {
    const bad = report.files.filter((f) => report.bad.includes(f.name));
    throw new Error(`payload ${dir} is not usable: ${bad.map((f) => `${f.name} (${f.status})`).join(', ')}`);
  }
}

export function payloadCommand(ctx: CliContext): Command {
  // kube-flags.js (and with it the Kubernetes client) is loaded only when the cluster is asked.
  const verifyCmd = new Command('verify')
    .description(
      "Check a payload folder: the files the operator reads, their sha256sum entries, and kubelet.exe's version against the cluster's",
    )
    .argument('<dir>', 'the payload folder (the image’s /payload)')
    .option(
      '--kubernetes-version <version>',
      "the cluster's Kubernetes version (default: read from the cluster)",
      kubernetesVersionFlag,
    )
    .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .addOption(outputOption(['table', 'json', 'yaml']))
    .action((dir: string, flags: VerifyFlags) => verify(ctx, dir, flags));
  return new Command('payload')
    .description('Check the Windows payload (binaries and their sha256sum file) before building an image')
    .addCommand(verifyCmd);
}
