/** The HTTP status of an error thrown by client-node (ApiException.code), if any. */
export function apiStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

export function isNotFound(err: unknown): boolean {
  return apiStatus(err) === 404;
}

export function isConflict(err: unknown): boolean {
  return apiStatus(err) === 409;
}

/**
 * A short, loggable description of an API error: status and the Status message. client-node's own
 * message embeds the whole body and response headers, which must not reach logs or events.
 */
export function describeApiError(err: unknown): string {
  const status = apiStatus(err);
  if (status === undefined)
    return err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
  const body = (err as { body?: unknown }).body;
  let message = '';
  try {
    const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as { message?: unknown } | undefined;
    if (typeof parsed?.message === 'string') message = parsed.message;
  } catch {
    message = '';
  }
  return message ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
}
