import {
  Annotations,
  encryptUpstreamUsername,
  HOST_KEYS_CONFIGMAP,
  PENDING_HOST_KEYS_CONFIGMAP,
  NODE_RECORD_LABEL,
  STATUS_CONFIGMAP,
} from '@wmco/core/internal';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { stageGoWmcoDaemon } from './go-wmco-daemon-staging.js';
import type { SimWorld } from './sim-world.js';
import { apis, NS, windowsNodes } from './world-fixture.js';

/** The version annotation the staged Go WMCO left (upstream's form: `<semver>-<commit>`). */
export const GO_WMCO_VERSION = '10.19.0-8a2b3c4';

const ignoreNotFound = (err: unknown): void => {
  if ((err as { code?: number }).code !== 404) throw err;
};

/**
 * Turns a world whose hosts a wmco-ts operator joined (and that operator stopped) into one the Go WMCO
 * joined and was then uninstalled from, as far as the cluster shows it (reference §1.6 steps 10-13, §3.2):
 * each Windows Node keeps its labels (`byoh`, worker), `pub-key-hash` and `ssh-host-key`/`-type`
 * annotations; its `version` and `desired-version` become `GO_WMCO_VERSION`; its `username` becomes the
 * Go WMCO's OpenPGP message (encrypted with the bytes of the world's private key); wmco-ts's own
 * `instance-address` annotation, node records (with the host-key pins in them), pending pins, an old
 * `windows-ssh-host-keys` (upstream keeps pins on the Node and removes them from the ConfigMap) and
 * `windows-instances-status` are removed. The hosts keep the files and services the join left, which are
 * upstream's layout (see FIDELITY.md for what differs), and each gets the Go WMCO's daemon (WICD) as its
 * `ConfigureWICD` leaves it, running.
 */
export async function stageGoWmcoJoined(world: SimWorld, username = 'Administrator'): Promise<void> {
  const { core } = apis(world);
  for (const node of await windowsNodes(world)) {
    const annotations = {
      [Annotations.instanceAddress]: null,
      [Annotations.username]: await encryptUpstreamUsername(username, world.privateKey),
      [Annotations.version]: GO_WMCO_VERSION,
      [Annotations.desiredVersion]: GO_WMCO_VERSION,
    };
    await core.patchNode(
      { name: node.metadata?.name ?? '', body: { metadata: { annotations } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }
  for (const h of world.hosts.hosts) await stageGoWmcoDaemon(h.sim.model, NS);
  await forgetWmcoTsRecords(world);
}

/**
 * Removes what only wmco-ts keeps in the operator namespace and the Go WMCO never wrote: the node records,
 * with the host-key pins in them, the pending pins and any old `windows-ssh-host-keys` (upstream moves
 * pins onto the Node) and `windows-instances-status`.
 */
export async function forgetWmcoTsRecords(world: SimWorld): Promise<void> {
  const { core } = apis(world);
  const records = await core.listNamespacedConfigMap({
    namespace: NS,
    labelSelector: `${NODE_RECORD_LABEL}=true`,
  });
  for (const cm of records.items)
    await core.deleteNamespacedConfigMap({ name: cm.metadata?.name ?? '', namespace: NS });
  for (const name of [HOST_KEYS_CONFIGMAP, PENDING_HOST_KEYS_CONFIGMAP, STATUS_CONFIGMAP])
    await core.deleteNamespacedConfigMap({ name, namespace: NS }).catch(ignoreNotFound);
}
