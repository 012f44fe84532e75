import { resolve } from 'node:path';
import { Command } from 'commander';
import { AuthenticationError, HostUnreachableError, newRootContainer } from '@wmco/core';
import { HostnameOverride, registerProvider } from '@wmco/core/provider';
import {
  REAL_HOSTCHECK_PORTS,
  loadHostCaptureScript,
  loadHostModule,
  runHostcheck,
  type HostcheckPorts,
  type HostcheckResult,
} from '@wmco/core/internal';
import { isPlatformName } from '@wmco/core/provider';
import type { CliContext } from './cli-context.js';
import { integerFlag, readKeyFlag } from './host-flags.js';
import { writeHostcheckFiles } from './hostcheck-files.js';

interface HostcheckFlags {
  readonly user: string;
  readonly key: string;
  readonly port: string;
  readonly timeout: string;
  readonly out?: string;
  readonly platform?: string;
}

/** The platform's hostname command, when `--platform` names one whose provider has it. */
function hostnameCommand(ctx: CliContext, platform: string | undefined): string | undefined {
  if (platform === undefined) return undefined;
  if (!isPlatformName(platform))
    throw new Error(`--platform: "${platform}" is not a platform type name (e.g. None, AWS, VSphere)`);
  const provider = ctx.builtinProviders.find((p) => (p.platforms as readonly string[]).includes(platform));
  if (!provider) return undefined;
  const container = newRootContainer();
  registerProvider(container, provider);
  return container.isRegistered(HostnameOverride, true)
    ? container.resolve<HostnameOverride>(HostnameOverride).command
    : undefined;
}

/** What to check when the host could not be reached or refused the key. */
function hint(err: unknown): string {
  if (err instanceof AuthenticationError)
    return " (check --user, and that the key's public half is in C:\\ProgramData\\ssh\\administrators_authorized_keys)";
  if (err instanceof HostUnreachableError)
    return ' (check the address and --port, and that sshd runs on the host: Start-Service sshd)';
  return '';
}

function summary(result: HostcheckResult, dir: string, files: number): string {
  const width = Math.max(...result.records.map((r) => r.name.length), 7);
  const lines = result.records.map(
    (r) => `${r.name.padEnd(width)}  ${String(r.items.length).padStart(4)}  ${r.error ?? 'ok'}`,
  );
  const observe = 'error' in result.observe ? `FAILED: ${result.observe.error}` : 'ok';
  return [
    `${'observe'.padEnd(width)}     -  ${observe}`,
    ...lines,
    '',
    `wrote ${files} files to ${dir}`,
  ].join('\n');
}

/** `wmco hostcheck <address>`: the host module's read-only operations and a capture of what Windows returns. */
export function hostcheckCommand(ctx: CliContext, ports: HostcheckPorts = REAL_HOSTCHECK_PORTS): Command {
  return new Command('hostcheck')
    .description(
      'Run the host module read-only on a Windows host and save what its cmdlets return as test fixtures',
    )
    .argument('<address>', 'IPv4 address or DNS name of the host')
    .requiredOption('--user <name>', 'the Windows user to connect as (the windows-instances username)')
    .requiredOption('--key <file>', 'the private key the operator uses (cloud-private-key)')
    .option('--port <n>', 'SSH port', '22')
    .option('--timeout <seconds>', 'time limit for connecting', '10')
    .option('--out <dir>', 'folder for the fixture files (default ./hostcheck-<address>)')
    .option('--platform <type>', "also evaluate the platform's hostname override (AWS, GCP, VSphere)")
    .action(async (address: string, flags: HostcheckFlags) => {
      const target = {
        host: address,
        port: integerFlag('--port', flags.port, 1, 65535),
        username: flags.user,
        privateKey: await readKeyFlag(flags.key),
        timeoutMs: integerFlag('--timeout', flags.timeout, 1, 600) * 1000,
        hostnameCommand: hostnameCommand(ctx, flags.platform),
      };
      const dir = resolve(flags.out ?? `hostcheck-${address.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
      let result: HostcheckResult;
      try {
        result = await runHostcheck(target, ports);
      } catch (err) {
        throw new Error(
          `hostcheck: cannot run on ${address}: ${err instanceof Error ? err.message : String(err)}${hint(err)}`,
          { cause: err },
        );
      }
      const meta = {
        address,
        capturedAt: new Date().toISOString(),
        moduleSha256: (await loadHostModule()).sha256,
        captureSha256: (await loadHostCaptureScript()).sha256,
      };
      const written = await writeHostcheckFiles(dir, meta, result);
      ctx.stdout(summary(result, dir, written.files.length));
      if ('error' in result.observe)
        throw new Error(
          `hostcheck: the host module's observe failed on ${address} (kept in ${dir}/observe.json): ${result.observe.error}`,
        );
    });
}
