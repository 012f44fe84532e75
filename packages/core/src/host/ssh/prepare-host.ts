import { HostProtocolError } from '../errors.js';
import { HostPaths, PREPARED_MARKER, encodePowerShellCommand, hostPrepareScript } from '../protocol/index.js';
import type { SshSession } from './ssh-session.js';

/**
 * Before the first upload to a host: the operator's working area and staging folder are created (or taken
 * over) with an ACL for SYSTEM and Administrators only, so nothing is ever written into a folder someone
 * else can change. One PowerShell start, only when the host module is not on the host yet.
 */
export async function prepareHost(session: SshSession, address: string): Promise<void> {
  const { code, stdout, stderr } = await session.exec(encodePowerShellCommand(hostPrepareScript()), '');
  if (code !== 0 || !stdout.includes(PREPARED_MARKER)) {
    throw new HostProtocolError(
      address,
      `cannot prepare ${HostPaths.root}: exit ${String(code)}; ${stderr.slice(0, 500)}`,
    );
  }
}
