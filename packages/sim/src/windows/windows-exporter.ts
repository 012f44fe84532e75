import { createServer, type Server } from 'node:https';
import { parse } from 'yaml';
import { flagValue } from './command-line.js';
import {
  requiresFlagFiles,
  type ServiceBehaviour,
  type ServiceRun,
  type ServiceStartContext,
} from './service-behaviour.js';

/** windows_exporter's default listen port (`--web.listen-address=:9182`). */
export const EXPORTER_PORT = 9182;

/** What a simulated service serves on the network, or why it serves nothing (`WindowsModel.listeners`). */
export type ServiceListener =
  | { readonly state: 'serving'; readonly address: string; readonly port: number; readonly certPem: string }
  | { readonly state: 'not-serving'; readonly reason: string };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});

/** `tls_server_config.cert_file` and `key_file` of the exporter-toolkit web config, when it names both. */
function tlsFiles(text: string): { cert: string; key: string } | undefined {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return undefined;
  }
  const tls = obj(obj(doc)['tls_server_config']);
  const [cert, key] = [tls['cert_file'], tls['key_file']];
  return typeof cert === 'string' && typeof key === 'string' ? { cert, key } : undefined;
}

function metricsText(ctx: ServiceStartContext): string {
  const running = ctx.host.scm.all().filter((s) => s.state === 'running').length;
  return [
    '# HELP windows_exporter_build_info A metric with a constant 1 value labeled by version.',
    '# TYPE windows_exporter_build_info gauge',
    'windows_exporter_build_info{version="0.31.0-sim"} 1',
    '# HELP windows_cs_hostname Labelled system hostname information.',
    '# TYPE windows_cs_hostname gauge',
    `windows_cs_hostname{domain="",fqdn="${ctx.host.hostname}",hostname="${ctx.host.hostname}"} 1`,
    '# HELP windows_service_running_count Services in the Running state (simulated).',
    '# TYPE windows_service_running_count gauge',
    `windows_service_running_count ${running}`,
    '',
  ].join('\n');
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(EXPORTER_PORT, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The web config, and the certificate and key it names; a reason when there is nothing to serve. */
function readTls(
  ctx: ServiceStartContext,
): ServiceRun | { readonly reason: string } | { readonly cert: Buffer; readonly key: Buffer } {
  const started = requiresFlagFiles('--web.config.file').start(ctx);
  if ('state' in started && started.state === 'failed') return started;
  const configPath = flagValue(ctx.argv, '--web.config.file') ?? '';
  const config = ctx.files.read(configPath) ?? Buffer.alloc(0);
  const files = tlsFiles(config.toString('utf8'));
  if (!files) return { reason: `${configPath} names no tls_server_config cert_file and key_file` };
  const [cert, key] = [ctx.files.read(files.cert), ctx.files.read(files.key)];
  return cert && key ? { cert, key } : { reason: `certificate or key missing: ${files.cert}, ${files.key}` };
}

function metricsServer(ctx: ServiceStartContext, tls: { cert: Buffer; key: Buffer }): Server {
  return createServer(tls, (req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }).end(metricsText(ctx));
  });
}

/**
 * windows_exporter: runs when its binary and `--web.config.file` exist. It reads the web config and the
 * certificate and key it names once, at start (a new certificate needs a restart), and serves
 * `GET /metrics` over TLS with them on the host's IPv4, port 9182. A web config without usable TLS files
 * (the payload's stand-in, a certificate not delivered yet) or an address it cannot bind leaves it running
 * without a listener; the host's `listeners` say why (a real exporter would exit instead: FIDELITY.md).
 */
export const windowsExporter: ServiceBehaviour = {
  async start(ctx): Promise<ServiceRun> {
    const tls = readTls(ctx);
    if ('state' in tls) return tls;
    const { listeners, ipv4: where } = ctx.host;
    if ('reason' in tls) {
      listeners.set(ctx.name, { state: 'not-serving', reason: tls.reason });
      return { state: 'running' };
    }
    const server = metricsServer(ctx, tls);
    try {
      await listen(server, where);
    } catch (err) {
      const reason = `cannot serve: ${err instanceof Error ? err.message : String(err)}`;
      listeners.set(ctx.name, { state: 'not-serving', reason });
      return { state: 'running' };
    }
    listeners.set(ctx.name, {
      state: 'serving',
      address: where,
      port: EXPORTER_PORT,
      certPem: tls.cert.toString(),
    });
    const stop = (): Promise<void> =>
      new Promise((resolve) => {
        listeners.delete(ctx.name);
        server.close(() => resolve());
        server.closeAllConnections();
      });
    ctx.signal.addEventListener('abort', () => void stop(), { once: true });
    return { state: 'running', stop };
  },
};
