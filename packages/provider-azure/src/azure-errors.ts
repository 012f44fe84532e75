import { CloudApiError } from '@wmco/core/provider';

const UNAUTHORIZED = new Set(['AuthorizationFailed', 'InvalidAuthenticationToken', 'AuthenticationFailed']);

interface AzureishError {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly statusCode?: unknown;
  readonly message?: unknown;
  readonly errorResponse?: { readonly error?: unknown };
}

function kindOf(code: string, status: number): CloudApiError['kind'] {
  if (UNAUTHORIZED.has(code) || status === 401 || status === 403) return 'unauthorized';
  if (code === 'TooManyRequests' || status === 429) return 'throttled';
  if (code.endsWith('NotFound') || status === 404) return 'not-found';
  if (status === 409 || status === 412) return 'conflict';
  return 'other';
}

const AAD_TEXT = /^(invalid_client|unauthorized_client|invalid_tenant|invalid_grant|invalid_scope)\b/;

/** A refused sign-in (identity's AuthenticationError, or MSAL's server error text): its AAD error code. */
function aadCode(e: AzureishError, message: string): string | undefined {
  const fromText = AAD_TEXT.exec(message)?.[1];
  if (e.name !== 'AuthenticationError' && e.name !== 'CredentialUnavailableError' && !fromText)
    return undefined;
  const fromResponse = e.errorResponse?.error;
  return typeof fromResponse === 'string' ? fromResponse : (fromText ?? String(e.name));
}

/**
 * Maps an ARM `RestError` (its `code` is ARM's error code) or an `@azure/identity` sign-in failure
 * (a refused client secret: `invalid_client`) to a `CloudApiError`; messages carry no secret.
 */
export function azureApiError(operation: string, error: unknown): CloudApiError {
  if (error instanceof CloudApiError) return error;
  const e = (error ?? {}) as AzureishError;
  const message = typeof e.message === 'string' ? e.message : String(error);
  const aad = aadCode(e, message);
  if (aad)
    return new CloudApiError('azure', { operation, cloudCode: aad, kind: 'unauthorized', detail: message });
  const code = typeof e.code === 'string' ? e.code : 'Unknown';
  const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
  return new CloudApiError('azure', {
    operation,
    cloudCode: code,
    kind: kindOf(code, status),
    detail: message,
  });
}

export async function azureCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw azureApiError(operation, error);
  }
}
