/** The little logging the host layer does; the operator passes a pino child, tests a recorder. */
export interface HostLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

/** Drops everything. */
export const silentHostLogger: HostLogger = {
  warn: () => undefined,
  debug: () => undefined,
};
