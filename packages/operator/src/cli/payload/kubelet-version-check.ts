import { readPeVersion } from './pe-version.js';

export interface VersionVerdict {
  readonly status: 'ok' | 'wrong-version' | 'unreadable';
  readonly detail: string;
}

function majorMinor(version: string): string | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.|$)/.exec(version.trim());
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/**
 * Compares the kubelet's Windows version resource (FileVersion, e.g. `1.36.2.0`) with the cluster's
 * Kubernetes version (`v1.36.2`, `/version`'s gitVersion): the major and minor numbers must be equal, as
 * the operator ships the kubelet of the cluster's release. A kubelet without a version resource passes
 * with a note, since not every build embeds one.
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
  if (own !== cluster) {
    const detail = `kubelet version ${version.fileVersion}, the cluster runs Kubernetes ${kubernetesVersion} (v${cluster}.x needed)`;
    return { status: 'wrong-version', detail };
  }
  return {
    status: 'ok',
    detail: `sha256 matches; kubelet version ${version.fileVersion} fits ${kubernetesVersion}`,
  };
}
