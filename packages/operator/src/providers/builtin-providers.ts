import type { WmcoProvider } from '@wmco/core/provider';
import { awsProvider } from '@wmco/provider-aws';
import { azureProvider } from '@wmco/provider-azure';
import { gcpProvider } from '@wmco/provider-gcp';
import { noneProvider } from '@wmco/provider-none';
import { nutanixProvider } from '@wmco/provider-nutanix';
import { vsphereProvider } from '@wmco/provider-vsphere';

/** The first-party providers baked into this build, in listing order. */
export const BUILTIN_PROVIDERS: readonly WmcoProvider[] = [
  awsProvider,
  azureProvider,
  gcpProvider,
  vsphereProvider,
  nutanixProvider,
  noneProvider,
];
