import { posix } from 'node:path';
import { credentialProviderConfigFile } from './credential-provider-config.js';
import type { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import type { HostFile } from '../provider/types/payload-file.js';
import { WindowsPaths } from '../provider/types/windows-paths.js';
import type { ClusterFacts } from './cluster-facts.js';

/** The kubelet's cloud flags of one design and the files they name (reference §1.6 step 2, §2). */
export interface KubeletCloudFiles {
  /** `C:\k\<name>` files: the cloud config, the credential provider config. */
  readonly files: readonly HostFile[];
  /** The cloud config's file name in `C:\k` (`--cloud-config=C:\k\<name>`), when the workers have one. */
  readonly cloudConfigFile?: string;
  /** The platform's credential provider, only when its config is written (so its kubelet flags apply). */
  readonly imageCredentialProvider?: ImageCredentialProvider;
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

function workerFile(facts: ClusterFacts, path: string): string | undefined {
  const error = facts.workerFileErrors?.[path];
  if (error !== undefined) throw new Error(error);
  return facts.workerFiles?.[path];
}

/** As upstream: the file the workers' `--cloud-config` names, copied to `C:\k` under its own name. */
function cloudConfig(facts: ClusterFacts): Pick<KubeletCloudFiles, 'files' | 'cloudConfigFile'> {
  if (facts.cloudConfig === undefined) return { files: [] };
  const name = posix.basename(facts.cloudConfig);
  if (!FILE_NAME.test(name))
    throw new Error(`--cloud-config ${facts.cloudConfig} of the Linux workers: "${name}" is not a file name`);
  const content = workerFile(facts, facts.cloudConfig);
  if (content === undefined)
    throw new Error(
      `--cloud-config ${facts.cloudConfig} of the Linux workers: the rendered worker MachineConfig has no such file`,
    );
  return { files: [{ path: `${WindowsPaths.k8sDir}\\${name}`, content }], cloudConfigFile: name };
}

/**
 * The kubelet's cloud configuration of a Windows node, from the Linux workers' ignition: the cloud
 * config and the platform's credential provider config (rewritten by the capability). Upstream adds the
 * credential provider flags on AWS whether or not the config exists, and a kubelet whose
 * `--image-credential-provider-config` cannot be read does not start; here the flags come only with the
 * file (ADR 0024). An undecodable or malformed file throws, naming the file: the node cannot be described.
 */
export function kubeletCloudFiles(
  provider: ImageCredentialProvider | undefined,
  facts: ClusterFacts,
): KubeletCloudFiles {
  const cloud = cloudConfig(facts);
  const linux = provider === undefined ? undefined : workerFile(facts, provider.ignitionConfigPath);
  if (provider === undefined || linux === undefined) return cloud;
  return {
    ...cloud,
    files: [...cloud.files, credentialProviderConfigFile(provider, linux)],
    imageCredentialProvider: provider,
  };
}
