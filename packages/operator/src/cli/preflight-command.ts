import { delimiter } from 'node:path';
import { Command } from 'commander';
import { KubeConfig } from '@kubernetes/client-node';
import {
  DEFAULT_VXLAN_PORT,
  SshWindowsHost,
  createWmcoCore,
  runPreflight,
  tcpProbe,
  type PreflightPorts,
  type PreflightReport,
  type WmcoCore,
} from '@wmco/core';
import { describeApiError, systemIpv4Resolver } from '@wmco/core/internal';
import {
  CloudContext,
  DEFAULT_OPERATOR_NAMESPACE,
  FirewallFacts,
  InstanceIdentity,
  InstanceTagging,
  PlatformPrerequisites,
  isPlatformName,
  type CloudCredentials,
} from '@wmco/core/provider';
import { checkCloud } from '@wmco/core/internal';
import { kubeCloudContext } from '../clouds/kube-cloud-context.js';
import { loadProviders } from '../providers/load-provider-package.js';
import type { CliContext } from './cli-context.js';
import { integerFlag, readKeyFlag } from './host-flags.js';
import { parseOutputFormat, renderStructured } from './output-format.js';
import { outputOption } from './output-option.js';
import { collect, providerPackages } from './provider-packages-option.js';
import { readPreflightCluster, type PreflightCluster } from './preflight-cluster.js';

interface PreflightFlags {
  readonly user: string;
  readonly key: string;
  readonly platform: string;
  readonly port: string;
  readonly vxlanPort: string;
  readonly timeout: string;
  readonly output?: string;
  readonly providerPackage?: string[];
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly cloudCredentials: string;
  readonly namespace: string;
}

/** `--cloud-credentials` and `-n` of preflight: which Secret the cloud checks read. */
function cloudCredentialsFlag(flags: PreflightFlags): CloudCredentials {
  if (flags.cloudCredentials !== 'minted' && flags.cloudCredentials !== 'root')
    throw new Error(`--cloud-credentials: "${flags.cloudCredentials}" is not minted or root`);
  return { mode: flags.cloudCredentials, namespace: flags.namespace };
}

/** One line per check (status, name, detail), the fix indented below it, then a summary line. */
export function renderPreflight(report: PreflightReport): string {
  const width = Math.max(...report.findings.map((f) => f.check.length));
  const lines = report.findings.flatMap((f) => {
    const head = `${f.status.toUpperCase().padEnd(4)}  ${f.check.padEnd(width)}  ${f.detail}`;
    return f.fix ? [head, `${' '.repeat(width + 8)}fix: ${f.fix}`] : [head];
  });
  const count = (s: string): number => report.findings.filter((f) => f.status === s).length;
  const where =
    report.ipv4 && report.ipv4 !== report.address ? `${report.address} (${report.ipv4})` : report.address;
  if (report.notes.length > 0)
    lines.push(
      '',
      `also required on platform ${report.platform} (not checked):`,
      ...report.notes.map((n) => `  - ${n}`),
    );
  lines.push(
    '',
    `${where} on platform ${report.platform}: ${count('pass')} passed, ${count('warn')} warning${count('warn') === 1 ? '' : 's'}, ` +
      `${count('fail')} failed, ${count('skip')} skipped: ${report.ok ? 'ready to add to windows-instances' : 'not ready'}`,
  );
  return lines.join('\n');
}

/** The system resolver, a real TCP probe and the SSH adapter. */
export const REAL_PREFLIGHT_PORTS: PreflightPorts = {
  resolve: systemIpv4Resolver,
  probeTcp: tcpProbe,
  openHost: (o) => new SshWindowsHost(o),
};

async function cloudFindings(
  core: Pick<WmcoCore, 'tryResolve'>,
  cloud: CloudContext,
  input: { address: string; vxlanPort: number },
): Promise<PreflightReport['findings']> {
  return checkCloud({
    address: input.address,
    vxlanPort: input.vxlanPort,
    infrastructureName: cloud.infrastructureName,
    identity: core.tryResolve(InstanceIdentity),
    tagging: core.tryResolve(InstanceTagging),
    firewall: core.tryResolve(FirewallFacts),
  });
}

/** Cloud findings warn at worst, so they never change whether the host is ready. */
function withCloudFindings(report: PreflightReport, cloud: PreflightReport['findings']): PreflightReport {
  return { ...report, findings: [...report.findings, ...cloud] };
}

/**
 * The cluster to read, from `--kubeconfig` or else `$KUBECONFIG` (its first file when it lists several),
 * or none: then the flags alone describe the cluster.
 */
function clusterKubeConfig(flags: PreflightFlags, env: CliContext['env']): KubeConfig | undefined {
  const file = flags.kubeconfig ?? env['KUBECONFIG']?.split(delimiter).find((f) => f !== '');
  if (file === undefined) return undefined;
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  if (flags.context) kc.setCurrentContext(flags.context);
  return kc;
}

function unreadable(err: unknown): never {
  throw new Error(
    `cannot read the cluster's platform and network (--kubeconfig or $KUBECONFIG): ${describeApiError(err)}`,
    { cause: err },
  );
}

/** Platform and VXLAN port: a flag given on the command line wins over what the cluster says. */
function platformAndPort(
  flags: PreflightFlags,
  cluster: PreflightCluster | undefined,
  given: (option: string) => boolean,
): { platform: string; vxlanPort: number } {
  const platform = given('platform') || cluster === undefined ? flags.platform : cluster.platform;
  if (!isPlatformName(platform))
    throw new Error(`--platform: "${platform}" is not a platform type name (e.g. None, AWS, VSphere)`);
  const vxlanPort =
    given('vxlanPort') || cluster === undefined
      ? integerFlag('--vxlan-port', flags.vxlanPort, 1, 65535)
      : cluster.vxlanPort;
  return { platform, vxlanPort };
}

/** `wmco preflight <address>`: checks a BYOH host before it is added to windows-instances. */
export function preflightCommand(ctx: CliContext, ports: PreflightPorts = REAL_PREFLIGHT_PORTS): Command {
  return new Command('preflight')
    .description(
      'Check a Windows host before adding it to windows-instances (one line per check, with the fix)',
    )
    .argument('<address>', 'IPv4 address or DNS name of the host')
    .requiredOption('--user <name>', 'the Windows user to connect as (the windows-instances username)')
    .requiredOption('--key <file>', 'the private key the operator uses (cloud-private-key)')
    .option(
      '--platform <type>',
      "cluster platform whose prerequisites apply (default: the cluster's with a kubeconfig, else None)",
      'None',
    )
    .option('--port <n>', 'SSH port', '22')
    .option(
      '--vxlan-port <n>',
      `the cluster's hybrid overlay VXLAN port (default: the cluster's with a kubeconfig, else ${DEFAULT_VXLAN_PORT})`,
      String(DEFAULT_VXLAN_PORT),
    )
    .option('--timeout <seconds>', 'time limit for connecting', '10')
    .addOption(outputOption(['table', 'json', 'yaml']))
    .option('--provider-package <name>', 'also load a third-party provider package (repeatable)', collect)
    .option(
      '--kubeconfig <file>',
      "the cluster to read platform, VXLAN port, infrastructure name and cloud credentials from, and add the cloud's view (instance, ownership tag, firewall) (default: $KUBECONFIG)",
    )
    .option('--context <name>', 'kubeconfig context (with --kubeconfig)')
    .option(
      '--cloud-credentials <source>',
      "with --kubeconfig: 'minted' reads the operator's minted Secret, 'root' the installer's root Secret in kube-system",
      'minted',
    )
    .option(
      '-n, --namespace <name>',
      "the operator's namespace (where the minted Secret is)",
      DEFAULT_OPERATOR_NAMESPACE,
    )
    .action(async (address: string, flags: PreflightFlags, cmd: Command) => {
      const format = parseOutputFormat(flags.output);
      const kc = clusterKubeConfig(flags, ctx.env);
      const cluster = kc === undefined ? undefined : await readPreflightCluster(kc).catch(unreadable);
      const { platform, vxlanPort } = platformAndPort(
        flags,
        cluster,
        (o) => cmd.getOptionValueSource(o) === 'cli',
      );
      if (cluster)
        ctx.stderr(
          `cluster ${cluster.infrastructureName || '(unnamed)'}: platform ${platform}, VXLAN port ${vxlanPort}`,
        );
      const input = {
        address,
        username: flags.user,
        port: integerFlag('--port', flags.port, 1, 65535),
        vxlanPort,
        timeoutMs: integerFlag('--timeout', flags.timeout, 1, 600) * 1000,
        privateKey: await readKeyFlag(flags.key),
        platform,
      };
      const providers = await loadProviders(
        ctx.builtinProviders,
        providerPackages(flags.providerPackage, ctx.env),
      );
      const parent = ctx.container.createChildContainer();
      const cloud = kc ? await kubeCloudContext(kc, cloudCredentialsFlag(flags)) : undefined;
      if (cloud) parent.register(CloudContext, { useValue: cloud });
      const core = createWmcoCore({
        parent,
        providers,
        platform,
      });
      let report: PreflightReport;
      try {
        report = await runPreflight(
          { ...input, prerequisites: core.tryResolve(PlatformPrerequisites) },
          ports,
        );
        if (cloud) report = withCloudFindings(report, await cloudFindings(core, cloud, input));
      } finally {
        await core.dispose();
      }
      ctx.stdout(
        format === 'json' || format === 'yaml' ? renderStructured(format, report) : renderPreflight(report),
      );
      if (!report.ok) {
        const failed = report.findings.filter((f) => f.status === 'fail').map((f) => f.check);
        throw new Error(`preflight: ${address} is not ready (failed: ${failed.join(', ')})`);
      }
    });
}
