import { X509Certificate } from 'node:crypto';

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

/**
 * The Windows thumbprints (SHA-1 of the DER bytes, upper-case hex) of the certificates in a PEM bundle,
 * in bundle order without repeats. A block that does not parse as a certificate is returned in `unusable`
 * (by position), so the caller can say so; it is never imported.
 */
export function certificateThumbprints(pem: string): { thumbprints: string[]; unusable: number[] } {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const thumbprints: string[] = [];
  const unusable: number[] = [];
  blocks.forEach((block, i) => {
    try {
      const t = new X509Certificate(block).fingerprint.replaceAll(':', '').toUpperCase();
      if (!thumbprints.includes(t)) thumbprints.push(t);
    } catch {
      unusable.push(i + 1);
    }
  });
  return { thumbprints, unusable };
}
