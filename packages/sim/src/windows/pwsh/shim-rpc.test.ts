import test from 'ava';
import { ShimRpcServer } from './shim-rpc.js';

async function call(
  server: ShimRpcServer,
  body: string,
  token = server.token,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(server.url, { method: 'POST', body, headers: { 'x-wmco-token': token } });
  return { status: res.status, json: await res.json() };
}

test('a call with the host token reaches its handler; errors and unknown calls are answered, not thrown', async (t) => {
  const server = new ShimRpcServer(
    '127.0.0.1',
    new Map([
      ['echo', (p: Readonly<Record<string, unknown>>) => p.value],
      ['fail', () => Promise.reject(new Error('Service x was not found'))],
    ]),
  );
  await server.start();
  t.teardown(() => server.close());
  t.deepEqual(await call(server, JSON.stringify({ method: 'echo', params: { value: ['a'] } })), {
    status: 200,
    json: { result: ['a'] },
  });
  t.deepEqual((await call(server, JSON.stringify({ method: 'echo' }))).json, { result: null });
  t.deepEqual((await call(server, JSON.stringify({ method: 'fail' }))).json, {
    error: 'Service x was not found',
  });
  t.deepEqual((await call(server, JSON.stringify({ method: 'nope' }))).json, {
    error: "no shim call 'nope'",
  });
  const bad = (await call(server, '{not json')).json as { error?: string };
  t.regex(bad.error ?? '', /JSON/);
});

test('a call without the token is refused', async (t) => {
  const server = new ShimRpcServer('127.0.0.1', new Map([['echo', () => 'reached']]));
  await server.start();
  t.teardown(() => server.close());
  const refused = await call(server, JSON.stringify({ method: 'echo' }), 'x'.repeat(server.token.length));
  t.is(refused.status, 403);
  t.is((await call(server, JSON.stringify({ method: 'echo' }), '')).status, 403);
});
