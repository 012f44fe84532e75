import type { CoreV1Api } from '@kubernetes/client-node';
import { ConfigMapHostKeyStore } from '../controllers/kube-host-key-store.js';
import type { HostKeyStore } from '../host/host-key-store.js';
import { NamePinnedHostKeyStore } from '../host/name-pinned-host-key-store.js';
import { sharedTransfers, type SshHostOptions } from '../host/ssh/ssh-options.js';
import { SshWindowsHost } from '../host/ssh/ssh-windows-host.js';
import type { WindowsHost } from '../host/windows-host.js';
import type { Logger } from '../kube/logger.js';
import type { HostTarget } from '../lifecycle/join-deps.js';

export interface HostOpenerParts {
  readonly core: CoreV1Api;
  readonly namespace: string;
  /** Told each private key the opener uses, so logs never show it. */
  readonly registerSecret: (secret: string) => void;
  readonly logger: Logger;
  /** Test hooks: SSH options per host address. */
  readonly sshOverrides?: ((address: string) => Partial<SshHostOptions>) | undefined;
  /** Wraps each host opened (the operator's metrics count its operations there). */
  readonly wrap?: ((host: WindowsHost) => WindowsHost) | undefined;
  /** Where host keys are pinned (default: the host-keys ConfigMap, read at each connection). */
  readonly pins?: HostKeyStore;
  /** Hosts uploading at once, across every host this opener opens (unset: no limit). */
  readonly parallelUploads?: number | undefined;
  /** Deadlines and output bounds of host operations (the embedding's settings); the test hooks override them. */
  readonly limits?: Partial<SshHostOptions> | undefined;
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
 * How the controllers reach a host: SSH with host keys pinned in the host-keys ConfigMap. A host listed
 * by DNS name is pinned by that name too, so a name moved to another machine is a key mismatch.
 */
export function hostOpener(p: HostOpenerParts): (t: HostTarget) => WindowsHost {
  const { logger } = p;
  const transfers = p.parallelUploads === undefined ? {} : { transfers: sharedTransfers(p.parallelUploads) };
  return (t) => {
    p.registerSecret(t.privateKeyPem);
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
      ...p.limits,
      ...withConnectDeadline(t.connectDeadlineMs, p.sshOverrides?.(t.ipv4)),
    });
    return p.wrap ? p.wrap(host) : host;
  };
}
