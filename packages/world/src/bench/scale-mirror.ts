import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { until } from '../world/world-fixture.js';

const REGISTRIES = 'C:\\k\\containerd\\registries';
const IDMS = { group: 'config.openshift.io', version: 'v1', plural: 'imagedigestmirrorsets' };
const SOURCE = 'registry.scale.example.com';
const MIRROR = 'mirror.scale.example.net';

/** The file, and the text in it, that says a host's containerd has the scale bench's mirror. */
export const BENCH_MIRROR = {
  path: `${REGISTRIES}\\${SOURCE}\\hosts.toml`,
  text: `https://${MIRROR}/v2`,
} as const;

/**
 * A cluster admin's registry-mirror change (an ImageDigestMirrorSet created) and the seconds until every
 * host's containerd has its hosts.toml; `log` hears progress every 30 s.
 */
export async function mirrorChangeSeconds(
  adminKubeconfig: string,
  hosts: { readonly count: number; mirrored(): Promise<number> },
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
    async () => {
      const done = await hosts.mirrored();
      if (Date.now() > next) {
        log(`mirror change: ${done}/${hosts.count} nodes after ${Math.round((Date.now() - t0) / 1000)} s`);
        next += 30_000;
      }
      return done === hosts.count ? true : undefined;
    },
    30 * 60_000,
    500,
  );
  return (Date.now() - t0) / 1000;
}
