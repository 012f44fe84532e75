import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { until } from '../world/world-fixture.js';

const REGISTRIES = 'C:\\k\\containerd\\registries';
const IDMS = { group: 'config.openshift.io', version: 'v1', plural: 'imagedigestmirrorsets' };
const SOURCE = 'registry.scale.example.com';
const MIRROR = 'mirror.scale.example.net';

/** Whether this host's containerd has the scale bench's mirror (its hosts.toml for the source). */
export function hasBenchMirror(host: Pick<SimulatedWindowsHost, 'model'>): boolean {
  const toml = host.model.files.read(`${REGISTRIES}\\${SOURCE}\\hosts.toml`)?.toString() ?? '';
  return toml.includes(`https://${MIRROR}/v2`);
}

/**
 * A cluster admin's registry-mirror change (an ImageDigestMirrorSet created) and the seconds until every
 * host's containerd has its hosts.toml; `log` hears progress every 30 s.
 */
export async function mirrorChangeSeconds(
  adminKubeconfig: string,
  hosts: readonly Pick<SimulatedWindowsHost, 'model'>[],
  log: (line: string) => void,
): Promise<number> {
  const kc = new KubeConfig();
  kc.loadFromFile(adminKubeconfig);
  const t0 = Date.now();
  await kc.makeApiClient(CustomObjectsApi).createClusterCustomObject({
    ...IDMS,
    body: {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ImageDigestMirrorSet',
      metadata: { name: 'scale-bench-mirror' },
      spec: { imageDigestMirrors: [{ source: `${SOURCE}/team`, mirrors: [`${MIRROR}/team`] }] },
    },
  });
  let next = t0 + 30_000;
  await until(
    'the mirror on every node',
    () => {
      const done = hosts.filter(hasBenchMirror).length;
      if (Date.now() > next) {
        log(`mirror change: ${done}/${hosts.length} nodes after ${Math.round((Date.now() - t0) / 1000)} s`);
        next += 30_000;
      }
      return Promise.resolve(done === hosts.length ? true : undefined);
    },
    30 * 60_000,
    500,
  );
  return (Date.now() - t0) / 1000;
}
