import type { WmcoProvider } from '@wmco/core/provider';

/**
 * The first-party providers, in listing order, each with its package and a loader. Loaded with dynamic
 * imports so that an image built with fewer providers (Containerfile `PROVIDERS`) does not need the
 * others' packages: see baked-providers.ts.
 */
export const BUILTIN_PROVIDER_PACKAGES = {
  aws: '@wmco/provider-aws',
  azure: '@wmco/provider-azure',
  gcp: '@wmco/provider-gcp',
  vsphere: '@wmco/provider-vsphere',
  nutanix: '@wmco/provider-nutanix',
  none: '@wmco/provider-none',
} as const;

export type BuiltinProviderId = keyof typeof BUILTIN_PROVIDER_PACKAGES;

export const BUILTIN_PROVIDER_IDS = Object.keys(BUILTIN_PROVIDER_PACKAGES) as readonly BuiltinProviderId[];

export type ProviderLoader = () => Promise<WmcoProvider>;

/** One loader per built-in provider; string literals so that bundlers and tsc see every import. */
export const BUILTIN_PROVIDER_LOADERS: Readonly<Record<BuiltinProviderId, ProviderLoader>> = {
  aws: async () => (await import('@wmco/provider-aws')).awsProvider,
  azure: async () => (await import('@wmco/provider-azure')).azureProvider,
  gcp: async () => (await import('@wmco/provider-gcp')).gcpProvider,
  vsphere: async () => (await import('@wmco/provider-vsphere')).vsphereProvider,
  nutanix: async () => (await import('@wmco/provider-nutanix')).nutanixProvider,
  none: async () => (await import('@wmco/provider-none')).noneProvider,
};

export function isBuiltinProviderId(id: string): id is BuiltinProviderId {
  return Object.hasOwn(BUILTIN_PROVIDER_PACKAGES, id);
}
