import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { ClusterCa } from '../apiserver/pki.js';
import { MANAGED_CERTIFICATE_NAME, RootCertificateStore } from './root-certificate-store.js';

const thumb = (pem: string): string => new X509Certificate(pem).fingerprint.replaceAll(':', '').toUpperCase();

test('imports the listed certificates of a bundle with the mark; one already there keeps its name', async (t) => {
  const [a, b, c] = await Promise.all(['a', 'b', 'c'].map(async (n) => (await ClusterCa.create(n)).certPem));
  const store = new RootCertificateStore();
  store.add(b!, 'admin');
  const bundle = Buffer.from(`# registry\n${a!}\n${b!}not a certificate\n${c!}`);
  store.importFromBundle(bundle, 'C:\\k\\ca-bundle.crt', [thumb(a!), thumb(b!)]);
  t.is(store.get(thumb(a!))?.friendlyName, MANAGED_CERTIFICATE_NAME);
  t.is(store.get(thumb(b!))?.friendlyName, 'admin');
  t.is(store.get(thumb(c!)), undefined, 'not listed, not imported');
  t.deepEqual(
    store.observe([thumb(b!)]),
    [
      { thumbprint: thumb(a!), managed: true },
      { thumbprint: thumb(b!), managed: false },
    ].sort((x, y) => x.thumbprint.localeCompare(y.thumbprint)),
  );
});

test('a listed thumbprint the bundle lacks fails the import and imports nothing', async (t) => {
  const [a, b] = await Promise.all(['a', 'b'].map(async (n) => (await ClusterCa.create(n)).certPem));
  const store = new RootCertificateStore();
  t.throws(() => store.importFromBundle(Buffer.from(a!), 'C:\\k\\ca-bundle.crt', [thumb(a!), thumb(b!)]), {
    message: /not found in 'C:\\k\\ca-bundle.crt'/,
  });
  t.deepEqual(store.thumbprints(), []);
  t.throws(() => store.importFromBundle(undefined, 'C:\\k\\ca-bundle.crt', [thumb(a!)]), {
    message: /does not exist/,
  });
});

test('removes only certificates with the operator’s mark', async (t) => {
  const [a, b] = await Promise.all(['a', 'b'].map(async (n) => (await ClusterCa.create(n)).certPem));
  const store = new RootCertificateStore();
  store.add(a!, 'admin');
  store.importFromBundle(Buffer.from(b!), 'C:\\k\\ca-bundle.crt', [thumb(b!)]);
  t.throws(() => store.removeManaged(thumb(a!)), { message: /not added by the operator/ });
  store.removeManaged(thumb(b!));
  store.removeManaged(thumb(b!));
  t.deepEqual(store.thumbprints(), [thumb(a!)]);
});
