import { parseInstanceUsername, type Ipv4Resolver } from '../desired/windows-instances.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { WindowsHost } from '../host/windows-host.js';
import type { PlatformPrerequisites } from '../provider/index.js';
import { checkAddress } from './address-check.js';
import { checkHost } from './check-host.js';
import { reachabilityFinding } from './connection-findings.js';
import { skip, PREFLIGHT_CHECKS, type Finding } from './finding.js';
import { openSession } from './host-session.js';
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
  /** The platform's other documented requirements, which preflight cannot check (for people). */
  readonly notes: readonly string[];
  /** No check failed (warnings allowed). */
  readonly ok: boolean;
}

/** The report: the findings so far, then every remaining check skipped because of the failure that ended it. */
function report(input: PreflightInput, found: readonly Finding[], ipv4?: string): PreflightReport {
  const blocker = found.find((f) => f.status === 'fail')?.check ?? 'earlier';
  const rest = PREFLIGHT_CHECKS.slice(found.length).map((c) =>
    skip(c, `skipped: the ${blocker} check failed`),
  );
  const findings = [...found, ...rest];
  return {
    address: input.address,
    ...(ipv4 === undefined ? {} : { ipv4 }),
    platform: input.platform,
    findings,
    notes: input.prerequisites?.notes ?? [],
    ok: findings.every((f) => f.status !== 'fail'),
  };
}

async function probe(ports: PreflightPorts, ipv4: string, input: PreflightInput): Promise<Error | undefined> {
  try {
    await ports.probeTcp(ipv4, input.port, input.timeoutMs);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function hostFindings(input: PreflightInput, state: Parameters<typeof checkHost>[0]): Finding[] {
  const prereqs = input.prerequisites ?? { supportedBuilds: [], customVxlanPortRequired: false, notes: [] };
  return checkHost(state, prereqs, input).map((f) =>
    f.check === 'os-build' && !input.prerequisites
      ? skip('os-build', `platform ${input.platform} declares no supported Windows builds`)
      : f,
  );
}

/**
 * Checks a BYOH host in order: address, reachability, SSH, then the host's state from one `observe`.
 * A check that needs an earlier failed one is skipped. Throws only for bad input (the username).
 */
export async function runPreflight(input: PreflightInput, ports: PreflightPorts): Promise<PreflightReport> {
  parseInstanceUsername(`username=${input.username}`);
  const address = await checkAddress(input.address, input.username, ports.resolve);
  const ipv4 = address.ipv4;
  if (ipv4 === undefined) return report(input, [address.finding]);
  const refused = await probe(ports, ipv4, input);
  const found = [address.finding, reachabilityFinding(ipv4, input.port, refused)];
  if (refused) return report(input, found, ipv4);
  const session = await openSession({ ...input, ipv4 }, ports.openHost);
  found.push(...session.findings);
  if (!session.state) return report(input, found, ipv4);
  return report(input, [...found, ...hostFindings(input, session.state)], ipv4);
}
