/** Registry CA bundles from ControllerConfig `machine-config-controller` (reference §1.10). */
export interface ImageRegistryBundle {
  /** File name; upstream encodes `host:port` as `host..port`. */
  readonly file: string;
  readonly data: string;
}

export interface CaBundleInput {
  /** `spec.imageRegistryBundleUserData`. */
  readonly userBundles: readonly ImageRegistryBundle[];
  /** `spec.imageRegistryBundleData`. */
  readonly bundles: readonly ImageRegistryBundle[];
  /** `ca-bundle.crt` of the `trusted-ca` ConfigMap; only when the cluster has a proxy. */
  readonly proxyTrustedCa?: string | undefined;
}

export const TRUSTED_CA_BUNDLE_PATH = 'C:\\k\\ca-bundle.crt';

/**
 * `C:\k\ca-bundle.crt`: for each user bundle then each bundle, `# <file with '..' as ':'>\n<data>\n\n`,
 * then the proxy's trusted CA bundle when there is one.
 */
export function trustedCaBundle(input: CaBundleInput): string {
  const section = (b: ImageRegistryBundle): string => `# ${b.file.replaceAll('..', ':')}\n${b.data}\n\n`;
  return [...input.userBundles, ...input.bundles].map(section).join('') + (input.proxyTrustedCa ?? '');
}
