import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OperatorLogFile } from './attach-log.js';

test('keeps every line in the named file, creating its folder; tail reads the last ones back', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'wmco-log-test-')), 'nested', 'operator.log');
  const log = await OperatorLogFile.open(file);
  t.is(log.path, file);
  for (let i = 1; i <= 30; i++) log.write(`{"msg":"line ${i}"}\n`);
  log.write('{"msg":"no newline"}');
  await log.close();
  log.write('{"msg":"after close"}\n');
  const lines = readFileSync(file, 'utf8').split('\n');
  t.is(lines.length, 32, 'thirty-one lines and the final newline');
  t.deepEqual(await log.tail(2), ['{"msg":"line 30"}', '{"msg":"no newline"}']);
});

test('defaults to operator.log in a new temporary folder', async (t) => {
  const a = await OperatorLogFile.open();
  const b = await OperatorLogFile.open();
  await Promise.all([a.close(), b.close()]);
  t.regex(a.path, /wmco-attach-log-[^/]+\/operator\.log$/);
  t.not(dirname(a.path), dirname(b.path));
  t.deepEqual(await a.tail(5), []);
});

test('a path that cannot be written is named in the error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-log-test-'));
  writeFileSync(join(dir, 'a-file'), '');
  const err = await t.throwsAsync(OperatorLogFile.open(join(dir, 'a-file', 'operator.log')));
  t.regex(err?.message ?? '', /^--log-out .*a-file\/operator\.log: cannot write the operator's log/);
});

test('a file that cannot be opened is named in the error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-log-test-'));
  const err = await t.throwsAsync(OperatorLogFile.open(dir));
  t.regex(err?.message ?? '', /^--log-out .*wmco-log-test-[^:]+: cannot write the operator's log: .*EISDIR/);
});
