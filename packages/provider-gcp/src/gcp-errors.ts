import { CloudApiError } from '@wmco/core/provider';
import type * as GaxModule from 'google-gax';

// gRPC status codes google-gax maps HTTP answers to (401 -> 16, 403 -> 7, 404 -> 5, 412 -> 9, 429 -> 8).
const KINDS: ReadonlyMap<number, CloudApiError['kind']> = new Map([
  [16, 'unauthorized'],
  [7, 'unauthorized'],
  [8, 'throttled'],
  [5, 'not-found'],
  [9, 'conflict'],
  [10, 'conflict'],
]);
const STATUS_NAMES: ReadonlyMap<number, string> = new Map([
  [16, 'UNAUTHENTICATED'],
  [7, 'PERMISSION_DENIED'],
  [8, 'RESOURCE_EXHAUSTED'],
  [5, 'NOT_FOUND'],
  [9, 'FAILED_PRECONDITION'],
  [10, 'ABORTED'],
  [14, 'UNAVAILABLE'],
  [4, 'DEADLINE_EXCEEDED'],
]);

/** The per-call options every Compute call gets: gax's retry strategy, no auto-pagination. */
export interface GcpCallOptions {
  readonly retry: GaxModule.RetryOptions;
  readonly autoPaginate: false;
}

/**
 * The retry strategy of google-gax (its RetryOptions), widened from the compute client's defaults to
 * also retry RESOURCE_EXHAUSTED (HTTP 429 rateLimitExceeded) and an attempt that got no answer in time
 * (DEADLINE_EXCEEDED) with exponential backoff: 4 retries, 200 ms doubling to at most 5 s, each attempt
 * abandoned after `attemptTimeoutMs`. `gax` is the module as loaded on first use (gcp-sdk.ts), so that
 * importing this provider does not load google-gax.
 */
export function gcpRetry(gax: typeof GaxModule, attemptTimeoutMs: number): GcpCallOptions {
  const backoff = gax.createDefaultBackoffSettings();
  backoff.initialRetryDelayMillis = 200;
  backoff.retryDelayMultiplier = 2;
  backoff.maxRetryDelayMillis = 5000;
  backoff.maxRetries = 4;
  // Each attempt gets the request timeout (the defaults leave the per-call timeout unset, which gax reads
  // as 0 ms).
  backoff.initialRpcTimeoutMillis = attemptTimeoutMs;
  backoff.rpcTimeoutMultiplier = 1;
  backoff.maxRpcTimeoutMillis = attemptTimeoutMs;
  // RESOURCE_EXHAUSTED, UNAVAILABLE, and DEADLINE_EXCEEDED: an attempt that got no answer in time.
  return { retry: new gax.RetryOptions([8, 14, 4], backoff), autoPaginate: false };
}

function numericCode(error: unknown): number {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : -1;
}

/** gax reports retries run out as DEADLINE_EXCEEDED naming the last error; report that error's status. */
function exhaustedRetries(message: string): number | undefined {
  if (!message.includes('Exceeded maximum number of retries')) return undefined;
  if (/RESOURCE_EXHAUSTED|rateLimitExceeded|Quota exceeded/.test(message)) return 8;
  if (/DEADLINE_EXCEEDED|Deadline exceeded|did not respond within/.test(message)) return 4;
  return /UNAVAILABLE/.test(message) ? 14 : undefined;
}

/** Maps a google-gax error (or a token refusal from google-auth-library) to a `CloudApiError`. */
export function gcpApiError(operation: string, error: unknown): CloudApiError {
  if (error instanceof CloudApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = exhaustedRetries(message) ?? numericCode(error);
  // A refused service-account assertion (invalid_grant) is the key being wrong: unauthorized.
  const kind = KINDS.get(code) ?? (/invalid_grant|invalid_client/.test(message) ? 'unauthorized' : 'other');
  const cloudCode = STATUS_NAMES.get(code) ?? (kind === 'unauthorized' ? 'invalid_grant' : String(code));
  return new CloudApiError('gcp', { operation, cloudCode, kind, detail: message });
}

export async function gcpCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw gcpApiError(operation, error);
  }
}
