import test from 'ava';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { mergePatchNode } from './node-merge-patch.js';

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

test('a Node is written as a JSON merge patch of just the keys named; null removes one', async (t) => {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      seen.push({
        method: req.method,
        url: req.url,
        contentType: req.headers['content-type'],
        body: JSON.parse(text),
      });
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'win-a' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const kc = new KubeConfig();
  // Plain HTTP on loopback: client-node allows it only with skipTLSVerify (there is no TLS to verify).
  kc.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        skipTLSVerify: true,
      },
    ],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const body = { metadata: { annotations: { a: 'b', gone: null } }, spec: { unschedulable: null } };
  const node = await mergePatchNode(kc.makeApiClient(CoreV1Api), 'win-a', body);
  t.is(node.metadata?.name, 'win-a');
  t.deepEqual(seen, [
    {
      method: 'PATCH',
      url: '/api/v1/nodes/win-a',
      contentType: 'application/merge-patch+json',
      body,
    },
  ]);
});
