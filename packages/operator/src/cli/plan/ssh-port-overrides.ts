/** The environment variable: `address=port,...`, for hosts whose sshd is not on port 22 (the simulated world). */
export const SSH_PORT_OVERRIDES_ENV = 'WMCO_SSH_PORT_OVERRIDES';

/**
 * Parses `10.0.0.5=2222,10.0.0.6=2223` into address → port. An advanced setting, for hosts reached
 * through a port other than 22; a malformed entry is an error naming it.
 */
export function parseSshPortOverrides(raw: string | undefined): ReadonlyMap<string, number> {
  const out = new Map<string, number>();
  for (const part of (raw ?? '').split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const eq = entry.lastIndexOf('=');
    const address = entry.slice(0, eq).trim();
    const port = Number(entry.slice(eq + 1).trim());
    if (eq <= 0 || address === '' || !Number.isInteger(port) || port < 1 || port > 65535)
      throw new Error(
        `${SSH_PORT_OVERRIDES_ENV}: "${entry}" is not address=port (a port is 1-65535), e.g. 10.0.0.5=2222`,
      );
    out.set(address, port);
  }
  return out;
}
