import { apiStatus, describeApiError } from './client/api-errors.js';

/**
 * The logging port core writes to. Its shape is pino's, so the operator passes a pino logger straight in;
 * embedders pass an adapter. Log objects, not interpolated strings, and never key material.
 */
export interface Logger {
  debug(obj: Record<string, unknown>, msg?: string): void;
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** Discards everything; the default where no logger is given. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

/** The message of an unknown thrown value, without stack or attached response headers. */
export function errorMessage(err: unknown): string {
  // client-node's ApiException message quotes the whole response body and headers; keep status + message.
  if (apiStatus(err) !== undefined && typeof err === 'object' && err !== null && 'body' in err)
    return describeApiError(err);
  if (err instanceof Error) return err.message.replace(/\s*\n\s*/g, ' ').slice(0, 600) || err.name;
  return String(err);
}
