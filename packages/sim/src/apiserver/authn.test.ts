import test from 'ava';
import type { IncomingMessage } from 'node:http';
import { Authenticator } from './authn.js';

function connection(cn: string, o: string[], authorized = true): { socket: object; reads: () => number } {
  let reads = 0;
  const socket = {
    authorized,
    getPeerCertificate: () => {
      reads++;
      return { subject: { CN: cn, O: o } };
    },
  };
  return { socket, reads: () => reads };
}

const request = (socket: object, authorization?: string): IncomingMessage =>
  ({ headers: authorization ? { authorization } : {}, socket }) as unknown as IncomingMessage;

test('a client certificate names the user; a keep-alive connection is read once', (t) => {
  const a = new Authenticator();
  const kubelet = connection('system:node:win-a', ['system:nodes']);
  const expected = { name: 'system:node:win-a', groups: ['system:nodes', 'system:authenticated'] };
  t.deepEqual(a.authenticate(request(kubelet.socket)), expected);
  t.deepEqual(a.authenticate(request(kubelet.socket)), expected);
  t.is(kubelet.reads(), 1, 'the second request on the connection did not parse the certificate again');
  const other = connection('system:node:win-b', ['system:nodes']);
  t.is((a.authenticate(request(other.socket)) as { name: string }).name, 'system:node:win-b');
  t.is(other.reads(), 1);
});

test('a connection whose certificate did not verify is anonymous, and a bearer token wins over it', (t) => {
  const a = new Authenticator();
  a.addToken('tok', { name: 'admin', groups: [] });
  const bad = connection('system:node:win-a', ['system:nodes'], false);
  t.is(a.authenticate(request(bad.socket)), undefined);
  t.is(a.authenticate(request(bad.socket)), undefined);
  t.is(bad.reads(), 0);
  const good = connection('system:node:win-a', ['system:nodes']);
  t.is((a.authenticate(request(good.socket, 'Bearer tok')) as { name: string }).name, 'admin');
  t.is(a.authenticate(request(good.socket, 'Bearer nope')), 'invalid');
});
