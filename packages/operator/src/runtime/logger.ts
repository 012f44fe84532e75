import { pino, type Logger as PinoLogger } from 'pino';
import type { Logger } from '@wmco/core';
import type { Redactor } from './redactor.js';

export interface LoggerOptions {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly redactor: Redactor;
  /** Where lines go; stdout by default. Tests pass a collector. */
  readonly destination?: { write(line: string): void };
}

/**
 * Structured JSON logs (pino) with every object and message passed through the redactor, so no private
 * key, token, password or user data can reach a log line, whatever a caller passes in.
 */
export function createLogger(options: LoggerOptions): Logger & PinoLogger {
  const { redactor } = options;
  return pino(
    {
      level: options.level,
      base: { app: 'wmco' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (obj) => redactor.scrub(obj) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) =>
            typeof a === 'string' ? redactor.scrubText(a) : a,
          ) as typeof args;
          method.apply(this, scrubbed);
        },
      },
    },
    options.destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
