import test from 'ava';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { workerOctet } from './worker-octet.js';

test('two worker threads of one process get different octets (ava runs test files so)', async (t) => {
  const url = new URL('./worker-octet.js', import.meta.url).href;
  const octetIn = async (): Promise<number> => {
    const w = new Worker(
      `import(${JSON.stringify(url)}).then((m) => require('node:worker_threads').parentPort.postMessage(m.workerOctet()));`,
      { eval: true },
    );
    const [octet] = (await once(w, 'message')) as [number];
    await w.terminate();
    return octet;
  };
  const [a, b] = [await octetIn(), await octetIn()];
  const here = workerOctet();
  t.true(new Set([a, b, here]).size === 3, `octets ${a}, ${b}, ${here}`);
  t.true([a, b, here].every((o) => Number.isInteger(o) && o >= 0 && o < 250));
});
