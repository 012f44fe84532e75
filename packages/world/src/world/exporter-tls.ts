import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { EXPORTER_TLS_FILES } from '@wmco/core/internal';
import type { ServiceListener } from '@wmco/sim';
import { apis, NS } from './world-fixture.js';
import type { SimWorld } from './sim-world.js';

/** The name Prometheus checks windows_exporter's certificate against (reference §1.16 serverName). */
export const EXPORTER_SERVER_NAME = `windows-exporter.${NS}.svc`;

/** `tls.crt` and `tls.key` of the service CA's Secret for the windows-exporter Service. */
export async function exporterSecret(world: SimWorld): Promise<{ cert: string; key: string } | undefined> {
  const s = await apis(world)
    .core.readNamespacedSecret({ name: 'windows-machine-config-operator-tls', namespace: NS })
    .catch(() => undefined);
  const d = s?.data ?? {};
  const text = (k: string): string => Buffer.from(d[k] ?? '', 'base64').toString('utf8');
  return s ? { cert: text('tls.crt'), key: text('tls.key') } : undefined;
}

/** The certificate file windows_exporter reads on each of the world's hosts. */
export function deliveredCerts(world: SimWorld): (string | undefined)[] {
  return world.hosts.hosts.map((h) => h.sim.model.files.read(EXPORTER_TLS_FILES.cert)?.toString('utf8'));
}

export function exporterListener(world: SimWorld, i: number): ServiceListener | undefined {
  return world.hosts.hosts[i]?.sim.model.listeners.get('windows_exporter');
}

/**
 * Connects to `address:port` as Prometheus does (the service CA as the only trust anchor, the Service's
 * name as server name) and returns the certificate served, or throws when it does not verify.
 */
export function servedCertificate(address: string, port: number, caPem: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, ca: caPem, servername: EXPORTER_SERVER_NAME }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(new X509Certificate(raw));
    });
    socket.once('error', reject);
  });
}

/** GET /metrics over verified TLS. */
export function scrape(address: string, port: number, caPem: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, ca: caPem, servername: EXPORTER_SERVER_NAME }, () => {
      socket.write(`GET /metrics HTTP/1.1\r\nHost: ${EXPORTER_SERVER_NAME}\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.once('error', reject);
  });
}
