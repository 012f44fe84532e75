import type { HostLogger } from '../host/host-logger.js';
import type { HostState } from '../host/protocol/index.js';
import { loadPrivateKey, type LoadedPrivateKey } from '../host/ssh/private-key.js';
import { oneShotSshOptions } from '../host/ssh/one-shot-ssh-options.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import { isConnectError, sshFinding } from './connection-findings.js';
import { HostFolderRefusedError } from '../host/errors.js';
import { HostPaths } from '../host/protocol/host-paths.js';
import { fail, type Finding } from './finding.js';
import { refusedWorkAreaFindings } from './folders-check.js';
import { firewallPortsToCheck } from './firewall-check.js';

/** How to reach the host over SSH. */
export interface SessionTarget {
  readonly ipv4: string;
  readonly port: number;
  readonly username: string;
  readonly privateKey: string | Buffer;
  readonly timeoutMs: number;
  readonly vxlanPort: number;
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
    checkFolders: [...HostPaths.protectedRoots],
  };
}

function loadKey(privateKey: string | Buffer, warnings: string[]): LoadedPrivateKey | Error {
  const logger: HostLogger = {
    debug: () => undefined,
    warn: (message) => warnings.push(message.replace(/^the SSH private key is/, 'the key is')),
  };
  try {
    return loadPrivateKey(privateKey, logger);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

async function observe(t: SessionTarget, openHost: (o: SshHostOptions) => WindowsHost): Promise<HostState> {
  const host = openHost(oneShotSshOptions({ ...t, host: t.ipv4 }, 60_000));
  try {
    return await host.observe(preflightQuery(t.vxlanPort));
  } finally {
    await host.close();
  }
}

/**
 * The SSH check and, when it passes, the host's state. A failure after authentication (the host module
 * could not run) fails the shell check, since nothing else about the host can be learnt then.
 */
export async function openSession(
  t: SessionTarget,
  openHost: (o: SshHostOptions) => WindowsHost,
): Promise<{ findings: Finding[]; state?: HostState }> {
  const warnings: string[] = [];
  const key = loadKey(t.privateKey, warnings);
  if (key instanceof Error) return { findings: [sshFinding(t.username, undefined, key, [])] };
  try {
    const state = await observe(t, openHost);
    return { findings: [sshFinding(t.username, key, undefined, warnings)], state };
  } catch (err) {
    const ssh = sshFinding(t.username, key, err, warnings);
    if (isConnectError(err)) return { findings: [ssh] };
    if (err instanceof HostFolderRefusedError) return { findings: [ssh, ...refusedWorkAreaFindings(err)] };
    const why = err instanceof Error ? err.message : String(err);
    const shell = fail(
      'shell',
      `authenticated, but the host module could not run: ${why}`,
      "make sure powershell.exe (Windows PowerShell 5.1) runs for this user and sshd's sftp subsystem is enabled",
    );
    return { findings: [ssh, shell] };
  }
}
