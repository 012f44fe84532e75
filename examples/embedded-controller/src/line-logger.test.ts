import test from 'ava';
import { lineLogger } from './line-logger.js';

test('one JSON object a line, below the level dropped, a child adds its bindings', (t) => {
  const lines: string[] = [];
  const log = lineLogger({ level: 'info', write: (l) => lines.push(l) });
  log.debug({ a: 1 }, 'hidden');
  log.child({ host: 'win-e' }).warn({ b: 2 }, 'shown');
  t.is(lines.length, 1);
  const parsed = JSON.parse(lines[0]!) as Record<string, unknown>;
  t.like(parsed, { level: 'warn', host: 'win-e', b: 2, msg: 'shown' });
});
