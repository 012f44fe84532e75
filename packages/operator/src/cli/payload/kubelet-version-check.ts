import { readPeVersion } from './pe-version.js';

export interface VersionVerdict {
  readonly status: 'ok' | 'wrong-version' | 'unreadable';
  readonly detail: string;
}

function majorMinor(version: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.|$)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/**
 * Whether a kubelet of `own` may run in a cluster of `cluster`: the same major, not newer than the API
 * server (Kubernetes' version skew policy), and at most one minor older: a release's payload carries the
 * kubelet of its base version and the operator accepts that base and the next (upstream's Makefile:
 * kubelet v1.36.2, clusters v1.36 and v1.37; `SUPPORTED_KUBERNETES`).
 */
function fits(own: [number, number], cluster: [number, number]): boolean {
  return own[0] === cluster[0] && cluster[1] - own[1] >= 0 && cluster[1] - own[1] <= 1;
}

/**
 * Compares the kubelet's Windows version resource (FileVersion, e.g. `1.36.2.0`) with the cluster's
 * Kubernetes version (`v1.36.2`, `/version`'s gitVersion); see `fits`. A kubelet without a version
 * resource passes with a note, since not every build embeds one.
 */
export function kubeletVersionProblem(kubelet: Buffer, kubernetesVersion: string): VersionVerdict {
  const cluster = majorMinor(kubernetesVersion);
  if (cluster === undefined) throw new Error(`${kubernetesVersion} is not a Kubernetes version`);
  let version;
  try {
    version = readPeVersion(kubelet, 'kubelet.exe');
  } catch (err) {
    return { status: 'unreadable', detail: (err as Error).message };
  }
  if (version === undefined)
    return { status: 'ok', detail: 'sha256 matches; no version resource, version not checked' };
  const own = majorMinor(version.fileVersion);
  if (!own || !fits(own, cluster)) {
    const [major, minor] = cluster;
    const detail = `kubelet version ${version.fileVersion}, the cluster runs Kubernetes ${kubernetesVersion} (v${major}.${minor} or v${major}.${minor - 1} needed)`;
    return { status: 'wrong-version', detail };
  }
  return {
    status: 'ok',
    detail: `sha256 matches; kubelet version ${version.fileVersion} fits ${kubernetesVersion}`,
  };
}
