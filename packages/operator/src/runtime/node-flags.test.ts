import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { OPERATOR_MALLOC_ENV, OPERATOR_NODE_FLAGS } from './node-flags.js';

const CONTAINERFILE = new URL('../../../../Containerfile', import.meta.url);

test('the image entrypoint runs node with the flags the scale bench measures', async (t) => {
  const text = await readFile(CONTAINERFILE, 'utf8');
  const line = /^ENTRYPOINT (\[.*\])$/m.exec(text);
  if (!line) return t.fail('the Containerfile has no exec-form ENTRYPOINT');
  const argv = JSON.parse(line[1]!) as string[];
  t.is(argv[0], 'node');
  t.is(argv.at(-1), '/app/dist/main.js');
  t.deepEqual(argv.slice(1, -1), [...OPERATOR_NODE_FLAGS]);
});

test('the image sets the malloc environment the scale bench gives its operator', async (t) => {
  const text = await readFile(CONTAINERFILE, 'utf8');
  const finalStage = text.slice(text.lastIndexOf('\nFROM '));
  const env = Object.fromEntries(
    [...finalStage.matchAll(/^ENV (.+)$/gm)].flatMap((m) =>
      m[1]!.split(/\s+/).map((kv) => kv.split('=') as [string, string]),
    ),
  );
  for (const [k, v] of Object.entries(OPERATOR_MALLOC_ENV)) t.is(env[k], v, k);
});

/**
 * ssh2's native crypto binding wraps each cipher in an ObjectWrap. Node 24's node::ObjectWrap aborts the
 * process when V8 collects one in a GC run from a task (no context entered), which --optimize-for-size makes
 * common; patches/ssh2@1.17.0.patch makes them Nan::ObjectWraps. 20,000 deciphers promoted to the old
 * generation, dropped, then console's first use (which collects them outside a context) and an idle
 * second: without the patch the process aborts with "Assertion failed: (env) != nullptr".
 */
test('ssh2 cipher objects are collected safely under the entrypoint flags', async (t) => {
  const core = createRequire(import.meta.resolve('@wmco/core'));
  const binding = core.resolve('ssh2/lib/protocol/crypto/build/Release/sshcrypto.node');
  const script = `
    const { AESGCMDecipher } = require(${JSON.stringify(binding)});
    const key = Buffer.alloc(16, 1), iv = Buffer.alloc(12, 2);
    let keep = [];
    for (let i = 0; i < 20000; i++) keep.push(new AESGCMDecipher('aes-128-gcm', key, iv));
    let junk = [];
    for (let i = 0; i < 200; i++) { junk.push(new Array(10000).fill(i)); if (junk.length > 20) junk = []; }
    keep = null; junk = null;
    console.log('dropped');
    setTimeout(() => console.log('survived'), 1500);
  `;
  // Run as a CommonJS file, as ssh2 itself loads the binding (under `node -e` it did not reproduce).
  const dir = await mkdtemp(join(tmpdir(), 'wmco-objectwrap-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'collect.cjs'), script);
  const run = promisify(execFile)(process.execPath, [...OPERATOR_NODE_FLAGS, join(dir, 'collect.cjs')]);
  const { stdout } = await run.catch((err: { stderr?: string }) => {
    throw new Error(
      `the process died: ${(err.stderr ?? '').split('\n').find((l) => l.includes('Assertion')) ?? err.stderr}`,
    );
  });
  t.is(stdout, 'dropped\nsurvived\n');
});
