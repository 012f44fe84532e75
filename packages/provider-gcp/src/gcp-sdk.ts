import type * as ComputeModule from '@google-cloud/compute';
import type * as AuthModule from 'google-auth-library';
import type * as GaxModule from 'google-gax';

/** The Google Cloud modules this provider uses, as loaded on first use. */
export interface GcpSdk {
  readonly compute: typeof ComputeModule;
  readonly auth: typeof AuthModule;
  readonly gax: typeof GaxModule;
}

let loading: Promise<GcpSdk> | undefined;

/**
 * The Compute Engine client library, loaded on first use: an operator on another platform, and every
 * `wmco` command that never calls GCE, does not pay for loading it (over half a second of CPU).
 */
export function gcpSdk(): Promise<GcpSdk> {
  loading ??= Promise.all([
    import('@google-cloud/compute'),
    import('google-auth-library'),
    import('google-gax'),
  ]).then(([compute, auth, gax]) => ({ compute, auth, gax }));
  return loading;
}
