import test from 'ava';
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deliveredCerts,
  exporterListener,
  exporterSecret,
  EXPORTER_SERVER_NAME,
  scrape,
  servedCertificate,
} from './exporter-tls.js';
import {
  apis,
  joinAll,
  NS,
  testWorld,
  until,
  windowsNodes,
  NO_DRIFT_POLL_MS,
  WATCHED_CHANGE_WAIT_MS,
} from './world-fixture.js';

/** `openssl s_client` verifying against the service CA; returns the served certificate's PEM. */
async function opensslServed(address: string, port: number, caFile: string): Promise<string> {
  const child = spawn(
    'openssl',
    [
      's_client',
      '-connect',
      `${address}:${port}`,
      '-servername',
      EXPORTER_SERVER_NAME,
      '-CAfile',
      caFile,
      '-verify_return_error',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  child.stdin.end();
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0 || !out.includes('Verify return code: 0 (ok)'))
    throw new Error(`openssl s_client failed: ${out}`);
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(out)?.[0];
  if (!pem) throw new Error('openssl showed no certificate');
  return pem;
}

// No drift poll within the test: the certificate reaches the nodes at the join and through the Secret watch.
test.serial(
  'windows_exporter serves the service CA certificate from the Secret, and a rotated one through the watch (no drift poll)',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: NO_DRIFT_POLL_MS,
    });
    t.teardown(() => world.stop());
    const ca = world.cluster.serviceCa.caPem;
    const dir = await mkdtemp(join(tmpdir(), 'wmco-exporter-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'service-ca.crt'), ca);
    await joinAll(world);

    const first = await until('the service CA filled the Secret', () => exporterSecret(world));
    const issued = new X509Certificate(first.cert);
    t.true(issued.checkIssued(new X509Certificate(ca)), 'signed by the service CA');
    t.true(issued.subjectAltName?.includes(`DNS:${EXPORTER_SERVER_NAME}`), issued.subjectAltName);
    t.deepEqual(deliveredCerts(world), [first.cert, first.cert], 'C:\\k\\tls\\certs\\tls.crt on every node');

    for (const [i, h] of world.hosts.hosts.entries()) {
      const l = exporterListener(world, i);
      if (l?.state !== 'serving') return t.fail(`host ${h.address}: ${JSON.stringify(l)}`);
      const served = await servedCertificate(l.address, l.port, ca);
      t.is(served.fingerprint256, issued.fingerprint256, 'Node TLS: the delivered certificate');
      const pem = await opensslServed(l.address, l.port, join(dir, 'service-ca.crt'));
      t.is(
        new X509Certificate(pem).fingerprint256,
        issued.fingerprint256,
        'openssl: the delivered certificate',
      );
      const body = await scrape(l.address, l.port, ca);
      t.regex(body, /^HTTP\/1\.1 200/);
      t.regex(body, /windows_exporter_build_info/);
    }

    // Rotation: deleting the Secret makes the service CA issue a new certificate and key.
    const before = world.hosts.hosts.map((h) => h.sim.model.scm.events.length);
    await apis(world).core.deleteNamespacedSecret({
      name: 'windows-machine-config-operator-tls',
      namespace: NS,
    });
    const started = Date.now();
    const second = await until('a new certificate', async () => {
      const s = await exporterSecret(world);
      return s && s.cert !== first.cert ? s : undefined;
    });
    await until(
      'the new certificate served on every node',
      async () => {
        for (const [i] of world.hosts.hosts.entries()) {
          const l = exporterListener(world, i);
          if (l?.state !== 'serving') return undefined;
          const served = await servedCertificate(l.address, l.port, ca);
          if (served.fingerprint256 !== new X509Certificate(second.cert).fingerprint256) return undefined;
        }
        return true;
      },
      WATCHED_CHANGE_WAIT_MS,
    );
    const ms = Date.now() - started;
    t.log(`rotated certificate served by every node in ${ms} ms`);
    t.deepEqual(deliveredCerts(world), [second.cert, second.cert]);
    for (const [i, h] of world.hosts.hosts.entries()) {
      const after = h.sim.model.scm.events.slice(before[i]);
      const touched = [...new Set(after.map((e) => e.name))];
      t.deepEqual(touched, ['windows_exporter'], `only windows_exporter restarted on ${h.address}`);
      t.deepEqual(
        after.map((e) => e.action),
        ['stop', 'start'],
      );
    }
    for (const n of await windowsNodes(world)) t.falsy(n.spec?.unschedulable, 'no node cordoned');
  },
);
