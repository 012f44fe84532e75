import type * as ComputeModule from '@azure/arm-compute';
import type * as IdentityModule from '@azure/identity';
import type * as PipelineModule from '@azure/core-rest-pipeline';

/** The Azure SDK modules this provider uses, as loaded on first use. */
export interface AzureSdk {
  readonly compute: typeof ComputeModule;
  readonly identity: typeof IdentityModule;
  readonly pipeline: typeof PipelineModule;
}

let loading: Promise<AzureSdk> | undefined;

/**
 * The Azure SDK, loaded on first use: an operator on another platform, and every `wmco` command that never
 * calls Azure, does not pay for loading it.
 */
export function azureSdk(): Promise<AzureSdk> {
  loading ??= Promise.all([
    import('@azure/arm-compute'),
    import('@azure/identity'),
    import('@azure/core-rest-pipeline'),
  ]).then(([compute, identity, pipeline]) => ({ compute, identity, pipeline }));
  return loading;
}
