import { CloudApiError } from '@wmco/core/provider';

const UNAUTHORIZED = new Set([
  'AuthFailure',
  'UnauthorizedOperation',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'RequestExpired',
]);
const THROTTLED = new Set(['RequestLimitExceeded', 'Throttling', 'ThrottlingException']);

function kindOf(code: string): CloudApiError['kind'] {
  if (UNAUTHORIZED.has(code)) return 'unauthorized';
  if (THROTTLED.has(code)) return 'throttled';
  if (code.endsWith('.NotFound')) return 'not-found';
  return 'other';
}

/** Turns an SDK error (its `name` is EC2's error code) into a `CloudApiError`; messages carry no secrets. */
export function awsApiError(operation: string, error: unknown): CloudApiError {
  if (error instanceof CloudApiError) return error;
  const code = error instanceof Error ? error.name : 'Unknown';
  const message = error instanceof Error ? error.message : String(error);
  return new CloudApiError('aws', { operation, cloudCode: code, kind: kindOf(code), detail: message });
}

/** Runs one SDK call (the SDK retries throttling itself) and maps its failure. */
export async function awsCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw awsApiError(operation, error);
  }
}
