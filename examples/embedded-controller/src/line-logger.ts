import type { Logger } from '@wmco/core';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: readonly Level[] = ['debug', 'info', 'warn', 'error'];

/**
 * The example's own logger: one JSON object a line, written to `write` (stdout by default). Any logger
 * with pino's shape fits `@wmco/core`'s `Logger`; this one shows how little that takes.
 */
export function lineLogger(
  o: {
    readonly level?: Level;
    readonly write?: (line: string) => void;
    readonly bindings?: Record<string, unknown>;
  } = {},
): Logger {
  const min = ORDER.indexOf(o.level ?? 'info');
  const write = o.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const bindings = o.bindings ?? {};
  const at =
    (level: Level) =>
    (obj: Record<string, unknown>, msg?: string): void => {
      if (ORDER.indexOf(level) < min) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, ...bindings, ...obj, msg }));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => lineLogger({ ...o, bindings: { ...bindings, ...more } }),
  };
}
