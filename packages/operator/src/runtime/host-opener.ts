import type { CoreV1Api } from '@kubernetes/client-node';
import { ConfigMapHostKeyStore, sharedTransfers, type HostTarget } from '@wmco/core/internal';
import {
  NamePinnedHostKeyStore,
  SshWindowsHost,
  type HostKeyStore,
  type Logger,
  type SshHostOptions,
  type WindowsHost,
} from '@wmco/core';
import { MeteredWindowsHost, type HostMeter } from './metered-host.js';
import type { Redactor } from './redactor.js';
import { sshLimits, type HostLimits } from './host-limits-config.js';

export interface HostOpenerParts {
  readonly core: CoreV1Api;
  readonly namespace: string;
  readonly redactor: Redactor;
  readonly logger: Logger;
  /** Test hooks: SSH options per host address. */
  readonly sshOverrides?: ((address: string) => Partial<SshHostOptions>) | undefined;
  /** Where each host's operations, PowerShell starts and bytes sent are counted (the operator's metrics). */
  readonly meter?: HostMeter;
  /** Where host keys are pinned (default: the host-keys ConfigMap, read at each connection). */
  readonly pins?: HostKeyStore;
  /** Hosts uploading at once, across every host this opener opens (unset: no limit). */
  readonly parallelUploads?: number | undefined;
  /** Deadlines and output bounds from the operator's config; the test hooks override them. */
  readonly limits?: HostLimits | undefined;
}

/** The hooks' SSH options, with the shorter of the two connect deadlines. */
export function withConnectDeadline(
  target: number | undefined,
  o: Partial<SshHostOptions> = {},
): Partial<SshHostOptions> {
  const deadline = Math.min(target ?? Infinity, o.connectDeadlineMs ?? Infinity);
  return Number.isFinite(deadline) ? { ...o, connectDeadlineMs: deadline } : o;
}

/**
 * How the operator reaches a host: SSH with host keys pinned in the host-keys ConfigMap. A host listed
 * by DNS name is pinned by that name too, so a name moved to another machine is a key mismatch.
 */
export function hostOpener(p: HostOpenerParts): (t: HostTarget) => WindowsHost {
  const { logger } = p;
  const transfers = p.parallelUploads === undefined ? {} : { transfers: sharedTransfers(p.parallelUploads) };
  return (t) => {
    p.redactor.register(t.privateKeyPem);
    const pins = p.pins ?? new ConfigMapHostKeyStore(p.core, p.namespace);
    const host = new SshWindowsHost({
      host: t.ipv4,
      username: t.username,
      privateKey: t.privateKeyPem,
      hostKeys: t.address === t.ipv4 ? pins : new NamePinnedHostKeyStore(pins, t.address),
      logger: { debug: (m, f) => logger.debug(f ?? {}, m), warn: (m, f) => logger.warn(f ?? {}, m) },
      ...(t.quickAuth ? { authRetryMs: 0 } : {}),
      ...(t.moduleExpected ? { assumeModule: true } : {}),
      ...(t.signal ? { signal: t.signal } : {}),
      ...transfers,
      ...sshLimits(p.limits),
      ...withConnectDeadline(t.connectDeadlineMs, p.sshOverrides?.(t.ipv4)),
    });
    return p.meter ? new MeteredWindowsHost(host, p.meter) : host;
  };
}
