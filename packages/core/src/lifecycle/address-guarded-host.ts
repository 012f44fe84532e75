import type { HostTarget } from './join-deps.js';
import { instanceAddressProblem, type InstanceAddressPolicy } from '../desired/instance-address.js';
import { GatedWindowsHost } from '../host/gated-windows-host.js';
import type { WindowsHost } from '../host/windows-host.js';

/** The operator refused to connect to an address its policy forbids (loopback, the API server, ...). */
export class AddressRefusedError extends Error {
  constructor(
    readonly ipv4: string,
    why: string,
  ) {
    super(`will not connect to ${ipv4}: ${why}`);
    this.name = 'AddressRefusedError';
  }
}

/**
 * A host whose every call first checks its address against the policy (issue 27 item 2): a refused
 * address never gets a connection, whatever flow (join, drift repair, upgrade, re-key, removal) and
 * whatever source the target came from. The check runs once per host; the inner host opens no
 * connection before its first call.
 */
class AddressGuardedHost extends GatedWindowsHost {
  private checked: Promise<void> | undefined;

  constructor(
    inner: WindowsHost,
    private readonly ipv4: string,
    private readonly policy: () => Promise<InstanceAddressPolicy>,
  ) {
    super(inner);
  }

  protected gate(): Promise<void> | undefined {
    this.checked ??= this.check();
    return this.checked;
  }

  private async check(): Promise<void> {
    const problem = instanceAddressProblem(this.ipv4, await this.policy());
    if (problem !== undefined) throw new AddressRefusedError(this.ipv4, problem);
  }
}

/** Wraps a host opener so that every target's IPv4 passes the address policy before any connection. */
export function addressGuardedOpener(
  open: (target: HostTarget) => WindowsHost,
  policy: () => Promise<InstanceAddressPolicy>,
): (target: HostTarget) => WindowsHost {
  return (target) => new AddressGuardedHost(open(target), target.ipv4, policy);
}
