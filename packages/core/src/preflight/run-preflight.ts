import {
  parseInstanceUsername,
  parseWindowsInstances,
  type Ipv4Resolver,
} from '../desired/windows-instances.js';
import { InMemoryHostKeyStore } from '../host/host-key-store.js';
import type { HostLogger } from '../host/host-logger.js';
import type { HostState } from '../host/protocol/index.js';
import { loadPrivateKey, type LoadedPrivateKey } from '../host/ssh/private-key.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import type { PlatformPrerequisites } from '../provider/index.js';
import { checkHost } from './check-host.js';
import { isConnectError, reachabilityFinding, sshFinding } from './connection-findings.js';
import { fail, skip, PREFLIGHT_CHECKS, type Finding } from './finding.js';
import { firewallPortsToCheck } from './firewall-check.js';
import type { HostCheckOptions } from './preflight-options.js';
import type { TcpProbe } from './tcp-probe.js';

export interface PreflightInput extends HostCheckOptions {
  /** An IPv4 address or a DNS name, as it would be written in windows-instances. */
  readonly address: string;
  readonly username: string;
  readonly privateKey: string | Buffer;
  /** SSH port (22 unless the host listens elsewhere). */
  readonly port: number;
  /** Per-step time limit: TCP connect, SSH handshake. */
  readonly timeoutMs: number;
  /** The platform's prerequisites; undefined when its provider declares none. */
  readonly prerequisites: PlatformPrerequisites | undefined;
}

/** The I/O preflight needs, injected so that tests control it. */
export interface PreflightPorts {
  readonly resolve: Ipv4Resolver;
  readonly probeTcp: TcpProbe;
  readonly openHost: (options: SshHostOptions) => WindowsHost;
}

export interface PreflightReport {
  readonly address: string;
  readonly ipv4?: string;
  readonly platform: string;
  readonly findings: readonly Finding[];
  /** No check failed (warnings allowed). */
  readonly ok: boolean;
}

/** One observe for every host fact: no services, files or rules by name; the node's ports by number. */
export function preflightQuery(vxlanPort: number): ObserveQuery {
  return {
    directories: [],
    files: [],
    services: [],
    envVars: [],
    firewallRules: [],
    firewallPorts: firewallPortsToCheck(vxlanPort),
  };
}

function report(input: PreflightInput, found: Finding[], ipv4?: string): PreflightReport {
  const first = found.length;
  const blocker = found.find((f) => f.status === 'fail')?.check;
  const rest = PREFLIGHT_CHECKS.slice(first).map((c) =>
    skip(c, `skipped: the ${blocker ?? 'earlier'} check failed`),
  );
  const findings = [...found, ...rest];
  return {
    address: input.address,
    ...(ipv4 ? { ipv4 } : {}),
    platform: input.platform,
    findings,
    ok: findings.every((f) => f.status !== 'fail'),
  };
}

function loadKey(input: PreflightInput, warnings: string[]): LoadedPrivateKey | Error {
  const logger: HostLogger = {
    debug: () => undefined,
    warn: (message) => warnings.push(message.replace(/^the SSH private key is/, 'the key is')),
  };
  try {
    return loadPrivateKey(input.privateKey, logger);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

async function observe(input: PreflightInput, ipv4: string, ports: PreflightPorts): Promise<HostState> {
  const host = ports.openHost({
    host: ipv4,
    port: input.port,
    username: input.username,
    privateKey: input.privateKey,
    // Preflight pins nothing: the key it sees is forgotten when it exits.
    hostKeys: new InMemoryHostKeyStore(),
    connectDeadlineMs: input.timeoutMs,
    readyTimeoutMs: input.timeoutMs,
    authRetryMs: 0,
    retryInitialMs: Math.min(500, input.timeoutMs),
    commandTimeoutMs: Math.max(60_000, input.timeoutMs),
  });
  try {
    return await host.observe(preflightQuery(input.vxlanPort));
  } finally {
    await host.close();
  }
}

/**
 * Checks a BYOH host in order: address, reachability, SSH, then the host's state from one `observe`.
 * A check that needs an earlier failed one is skipped. Throws only for bad input (the username).
 */
export async function runPreflight(input: PreflightInput, ports: PreflightPorts): Promise<PreflightReport> {
  parseInstanceUsername(`username=${input.username}`);
  const [entry] = await parseWindowsInstances(
    { [input.address]: `username=${input.username}` },
    [],
    ports.resolve,
  );
  if (!entry?.ok)
    return report(input, [
      fail(
        'address',
        entry?.error ?? 'no address',
        'use an IPv4 address or a DNS name that resolves to IPv4 from where the operator runs',
      ),
    ]);
  const ipv4 = entry.instance.ipv4Address;
  const found: Finding[] = [
    {
      check: 'address',
      status: 'pass',
      detail: ipv4 === input.address ? ipv4 : `${input.address} resolves to ${ipv4}`,
    },
  ];
  const probe = await ports.probeTcp(ipv4, input.port, input.timeoutMs).then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
  found.push(reachabilityFinding(ipv4, input.port, probe));
  if (probe) return report(input, found, ipv4);
  const warnings: string[] = [];
  const key = loadKey(input, warnings);
  if (key instanceof Error)
    return report(input, [...found, sshFinding(input.username, undefined, key, [])], ipv4);
  let state: HostState;
  try {
    state = await observe(input, ipv4, ports);
  } catch (err) {
    const ssh = sshFinding(input.username, key, err, warnings);
    if (isConnectError(err)) return report(input, [...found, ssh], ipv4);
    const why = err instanceof Error ? err.message : String(err);
    return report(
      input,
      [
        ...found,
        ssh,
        fail(
          'shell',
          `authenticated, but the host module could not run: ${why}`,
          "make sure powershell.exe (Windows PowerShell 5.1) runs for this user and sshd's sftp subsystem is enabled",
        ),
      ],
      ipv4,
    );
  }
  found.push(sshFinding(input.username, key, undefined, warnings));
  const prereqs = input.prerequisites ?? { supportedBuilds: [], customVxlanPortRequired: false, notes: [] };
  const host = checkHost(state, prereqs, input).map((f) =>
    f.check === 'os-build' && !input.prerequisites
      ? skip('os-build', `platform ${input.platform} declares no supported Windows builds`)
      : f,
  );
  return report(input, [...found, ...host], ipv4);
}
