import test from 'ava';
import { logOnFailure } from './log-on-failure.test-helper.js';

const line = (level: string, msg: string): string => JSON.stringify({ level, msg });

test('a failing body logs the last operator log lines and fails as it did; a passing one logs nothing', async (t) => {
  const logged: string[] = [];
  const fake = { log: (m: string): void => void logged.push(m) };
  const logs = ['one', 'two', 'three'];
  t.is(await logOnFailure(fake, logs, () => Promise.resolve(7)), 7);
  t.deepEqual(logged, []);
  const err = await t.throwsAsync(
    logOnFailure(fake, logs, () => Promise.reject(new Error('timed out')), { lines: 2 }),
  );
  t.is(err.message, 'timed out');
  t.deepEqual(logged, ["the operator's last 2 log lines above debug (0 debug lines left out):\ntwo\nthree"]);
});

test('debug lines are left out and counted, so retries do not push out the lines that say why', async (t) => {
  const logged: string[] = [];
  const fake = { log: (m: string): void => void logged.push(m) };
  const logs = [
    line('warn', 'reboot sent'),
    line('debug', 'ssh connect failed; retrying'),
    line('info', 'host down'),
    line('debug', 'ssh connect failed; retrying'),
  ];
  await t.throwsAsync(
    logOnFailure(fake, logs, () => Promise.reject(new Error('x')), {
      lines: 2,
      context: () => 'host 127.0.0.2: down',
    }),
  );
  t.deepEqual(logged, [
    `the operator's last 2 log lines above debug (2 debug lines left out):\n${logs[0]}\n${logs[2]}`,
    'host 127.0.0.2: down',
  ]);
});
