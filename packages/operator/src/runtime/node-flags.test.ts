import test from 'ava';
import { readFile } from 'node:fs/promises';
import { OPERATOR_NODE_FLAGS } from './node-flags.js';

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
