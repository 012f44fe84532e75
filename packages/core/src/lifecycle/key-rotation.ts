import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../desired/windows-instances.js';
import { AuthenticationError } from '../host/errors.js';
import { assertOwned } from '../identity/node-ownership.js';
import { Annotations } from '../identity/node-metadata.js';
import { encryptUsername } from '../identity/username-crypto.js';
import { MAINTAIN_CONNECT_DEADLINE_MS, type JoinDeps } from './join-deps.js';
import { patchNodeMetadata } from './node-ops.js';

/** What a re-key needs of the flows' dependencies: the API and a way to reach the host. */
export type KeyRotationDeps = Pick<JoinDeps, 'core' | 'openHost'>;

const NOTHING = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

/**
 * A new `cloud-private-key` on a joined BYOH node (reference §1.11): check that the host already accepts
 * the new key (one cheap SSH call), then re-encrypt the username and update `pub-key-hash`. A host that
 * does not accept it yet is reported, not retried in a tight loop: the admin must install the new public
 * key on BYOH hosts themselves.
 */
export class KeyRotation {
  constructor(private readonly deps: KeyRotationDeps) {}

  async rotate(
    node: V1Node,
    instance: WindowsInstance,
    privateKeyPem: string,
    hash: string,
  ): Promise<'rotated' | 'not-accepted'> {
    assertOwned(node, 're-key', instance.address);
    const host = this.deps.openHost({
      address: instance.address,
      ipv4: instance.ipv4Address,
      username: instance.username,
      privateKeyPem,
      quickAuth: true,
      connectDeadlineMs: MAINTAIN_CONNECT_DEADLINE_MS,
    });
    try {
      await host.observe(NOTHING);
    } catch (err) {
      if (err instanceof AuthenticationError) return 'not-accepted';
      throw err;
    } finally {
      await host.close();
    }
    await patchNodeMetadata(this.deps.core, node.metadata?.name ?? '', {
      annotations: {
        [Annotations.pubKeyHash]: hash,
        [Annotations.username]: encryptUsername(instance.username, privateKeyPem),
      },
    });
    return 'rotated';
  }
}
