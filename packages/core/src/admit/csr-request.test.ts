import test from 'ava';
import { createCsr } from './create-csr.js';
import { CsrParseError, parseCsr } from './csr-request.js';

test('parses subject, organizations and SANs of a real request, base64 or PEM', async (t) => {
  const { pem } = await createCsr({
    commonName: 'system:node:test',
    organizations: ['system:nodes'],
    dnsNames: ['node1', 'node1.local'],
    ipAddresses: ['10.0.0.1', '127.0.0.1'],
  });
  for (const input of [pem, Buffer.from(pem).toString('base64')]) {
    const csr = await parseCsr(input);
    t.is(csr.commonName, 'system:node:test');
    t.deepEqual(csr.organizations, ['system:nodes']);
    t.deepEqual(csr.dnsNames, ['node1', 'node1.local']);
    t.deepEqual(csr.ipAddresses, ['10.0.0.1', '127.0.0.1']);
    t.deepEqual(csr.otherNames, []);
    t.true(csr.signatureValid);
  }
});

test('reports SAN kinds a kubelet never uses', async (t) => {
  const { pem } = await createCsr({ commonName: 'system:node:x', emails: ['a@b.c'] });
  t.deepEqual((await parseCsr(pem)).otherNames, ['email:a@b.c']);
});

test('rejects empty, truncated, unterminated and foreign PEM blocks (upstream vectors)', async (t) => {
  const { pem } = await createCsr({ commonName: 'system:node:test', organizations: ['system:nodes'] });
  await t.throwsAsync(parseCsr(''), { instanceOf: CsrParseError, message: /empty/ });
  await t.throwsAsync(parseCsr('-----BEGIN??'), { instanceOf: CsrParseError });
  await t.throwsAsync(parseCsr(pem.replace(/-----END CERTIFICATE REQUEST-----\s*$/, '')), {
    instanceOf: CsrParseError,
  });
  await t.throwsAsync(parseCsr(pem.replaceAll('CERTIFICATE REQUEST', 'CERTIFICATE')), {
    instanceOf: CsrParseError,
  });
  const body = pem.split('\n');
  body.splice(2, 1);
  await t.throwsAsync(parseCsr(body.join('\n')), { instanceOf: CsrParseError });
});

test('a tampered request parses but its signature does not verify', async (t) => {
  const a = await createCsr({ commonName: 'system:node:aaaa', organizations: ['system:nodes'] });
  const der = Buffer.from(a.pem.replace(/-----[^-]+-----/g, '').replace(/\s/g, ''), 'base64');
  const at = der.indexOf(Buffer.from('aaaa'));
  der.write('bbbb', at);
  const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE REQUEST-----\n`;
  const csr = await parseCsr(pem.replace('\n\n', '\n'));
  t.is(csr.commonName, 'system:node:bbbb');
  t.false(csr.signatureValid);
});
