import { createServer } from 'node:net';
import test from 'ava';
import { tcpProbe } from './tcp-probe.js';

test('resolves when something listens and rejects once it is gone', async (t) => {
  const server = createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await t.notThrowsAsync(tcpProbe('127.0.0.1', port, 2000));
  await new Promise((resolve) => server.close(resolve));
  await t.throwsAsync(tcpProbe('127.0.0.1', port, 2000), { message: /ECONNREFUSED/ });
});
