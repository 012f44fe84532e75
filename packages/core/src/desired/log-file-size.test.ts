import test from 'ava';
import { logFileSizeMB } from './log-file-size.js';

// windows_test.go getLogFileSizeMB vectors (reference §4.2 "Windows helpers").
test('log file size in MB, rounded up', (t) => {
  for (const [q, mb] of [
    ['1M', 1],
    ['100Mi', 105],
    ['1G', 1000],
    ['1Gi', 1074],
    ['0', 0],
    ['500', 1],
    ['500k', 1],
    ['2000k', 2],
    ['1E', 1000000000000],
    ['1e3', 1],
    ['1.5Gi', 1611],
  ] as const) {
    t.is(logFileSizeMB(q), mb, q);
  }
  for (const bad of ['', 'notaquantity', '-1M'])
    t.throws(() => logFileSizeMB(bad), { message: /SERVICES_LOG_FILE_SIZE/ }, bad);
});
