import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CORE = fileURLToPath(new URL('../index.js', import.meta.url));
const INTERNAL = fileURLToPath(new URL('../internal.js', import.meta.url));

// A fresh process records every module it resolves; openpgp must not be among them until a Go WMCO
// username is read or written.
const SCRIPT = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ resolve(spec, ctx, next) { seen.add(spec); return next(spec, ctx); } });
await import(${JSON.stringify(CORE)});
const internal = await import(${JSON.stringify(INTERNAL)});
const before = seen.has('openpgp');
const annotation = await internal.encryptUpstreamUsername('Administrator', 'key');
const back = await internal.decryptUpstreamUsername(annotation, 'key');
console.log(JSON.stringify({ before, after: seen.has('openpgp'), back }));
`;

test('the core loads openpgp only when a Go WMCO username is first read or written', async (t) => {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT]);
  t.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'), {
    before: false,
    after: true,
    back: 'Administrator',
  });
});
