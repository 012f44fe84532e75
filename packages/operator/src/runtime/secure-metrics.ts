import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import type { Logger } from '@wmco/core';
import { ReviewsThrottledError } from './cached-metrics-access.js';
import type { MetricsAccess } from './metrics-access.js';
import { tlsProfileOptions, type TlsProfileOptions } from './tls-profile.js';

export interface SecureMetricsOptions {
  readonly host: string;
  readonly port: number;
  /** Holds `tls.crt` and `tls.key` (the serving-cert Secret, mounted). */
  readonly certDir: string;
  readonly registry: Registry;
  readonly access: MetricsAccess;
  readonly logger: Logger;
  /** How often the certificate files (a rotated Secret reaches the volume) and the TLS profile are read again. */
  readonly reloadMs?: number;
  /**
   * Reads the cluster's TLS security profile (`spec.tlsSecurityProfile` of the APIServer `cluster`;
   * undefined where there is none). Without it, or while it cannot be read, OpenShift's default,
   * Intermediate, applies.
   */
  readonly tlsProfile?: () => Promise<unknown>;
}

interface Served {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly tls: TlsProfileOptions;
}

const sameServed = (a: Served, b: Served): boolean =>
  a.cert.equals(b.cert) &&
  a.key.equals(b.key) &&
  a.tls.minVersion === b.tls.minVersion &&
  a.tls.ciphers === b.tls.ciphers;

const secureOptions = (s: Served): SecureContextOptions => ({
  cert: s.cert,
  key: s.key,
  minVersion: s.tls.minVersion,
  ciphers: s.tls.ciphers,
});

type Answer = readonly [number, string, string];

/**
 * `/metrics` over HTTPS, for callers the API server authenticates (TokenReview of the bearer token) and
 * authorises (SubjectAccessReview: `get` on the non-resource URL `/metrics`), as upstream's secure metrics
 * serving does: no token or an unknown one is 401, a user without the grant 403, and 429 when `access`
 * refuses to ask for more reviews now (CachedMetricsAccess's rate). The certificate comes
 * from `certDir`, the minimum TLS version and ciphers from the cluster's TLS security profile; both are
 * read again every `reloadMs` and a change applies to new connections without a restart. Probes stay on
 * the plain probe server.
 */
export class SecureMetricsServer {
  private server: Server | undefined;
  private timer: NodeJS.Timeout | undefined;
  private loaded: Served | undefined;

  constructor(private readonly o: SecureMetricsOptions) {}

  /** Starts serving once the certificate files can be read; resolves with the port. */
  async start(): Promise<number> {
    const served = { ...(await this.readCertificate()), tls: await this.readProfile() };
    this.loaded = served;
    this.server = createServer(secureOptions(served), (req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server?.listen(this.o.port, this.o.host, resolve));
    this.timer = setInterval(() => void this.reload(), this.o.reloadMs ?? 30_000);
    this.timer.unref();
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    const s = this.server;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  private async readCertificate(): Promise<{ cert: Buffer; key: Buffer }> {
    const [cert, key] = await Promise.all(
      ['tls.crt', 'tls.key'].map((f) => readFile(join(this.o.certDir, f))),
    );
    return { cert: cert ?? Buffer.alloc(0), key: key ?? Buffer.alloc(0) };
  }

  /** The profile's options; Intermediate, with a warning, when it cannot be read or used. */
  private async readProfile(): Promise<TlsProfileOptions> {
    let spec: unknown;
    try {
      spec = await this.o.tlsProfile?.();
    } catch (err) {
      const tls = tlsProfileOptions(undefined);
      if (this.loaded === undefined)
        this.o.logger.warn(
          { err: String(err) },
          'cannot read the cluster TLS security profile; using Intermediate',
        );
      return this.loaded?.tls ?? tls;
    }
    const tls = tlsProfileOptions(spec);
    if (tls.problem && tls.problem !== this.loaded?.tls.problem)
      this.o.logger.warn({ problem: tls.problem }, 'cluster TLS security profile not used as written');
    return tls;
  }

  private async reload(): Promise<void> {
    try {
      const now = { ...(await this.readCertificate()), tls: await this.readProfile() };
      if (this.loaded && sameServed(now, this.loaded)) return;
      this.server?.setSecureContext(secureOptions(now));
      this.loaded = now;
      this.o.logger.info(
        { certDir: this.o.certDir, tlsProfile: now.tls.profile, minVersion: now.tls.minVersion },
        'metrics serving certificate and TLS profile applied',
      );
    } catch (err) {
      this.o.logger.warn({ err: String(err) }, 'cannot reload the metrics serving certificate');
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let retryAfter: number | undefined;
    const [code, type, body] = await this.answer(req).catch((err: unknown): Answer => {
      if (err instanceof ReviewsThrottledError) {
        // A flood of new tokens: answered without asking the API server (no token in the log).
        retryAfter = err.retryAfterSeconds;
        return [429, 'text/plain', 'Too Many Requests\n'];
      }
      this.o.logger.warn({ err: String(err) }, 'metrics request could not be checked');
      return [500, 'text/plain', 'Internal Server Error\n'];
    });
    res.writeHead(code, {
      'content-type': type,
      ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
    });
    res.end(body);
  }

  private async answer(req: IncomingMessage): Promise<Answer> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== '/metrics' || req.method !== 'GET') return [404, 'text/plain', 'not found\n'];
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const user = token === undefined ? undefined : await this.o.access.authenticate(token);
    if (!user) return [401, 'text/plain', 'Unauthorized\n'];
    if (!(await this.o.access.authorize(user, path)))
      return [403, 'text/plain', `Forbidden: ${user.username} may not get ${path}\n`];
    return [200, this.o.registry.contentType, await this.o.registry.metrics()];
  }
}

/**
 * Starts the secure metrics server as soon as its certificate can be read (the service CA may fill the
 * mounted Secret after the pod started), trying again every `retryMs`; `stop()` ends either.
 */
export function serveMetricsWhenReady(o: SecureMetricsOptions, retryMs = 10_000): { stop(): Promise<void> } {
  const server = new SecureMetricsServer(o);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let warned = false;
  const attempt = (): void => {
    server.start().then(
      (port) => o.logger.info({ port, certDir: o.certDir }, 'serving /metrics over HTTPS'),
      (err: unknown) => {
        if (!warned)
          o.logger.warn({ err: String(err), certDir: o.certDir }, 'metrics wait for a serving certificate');
        warned = true;
        if (!stopped) timer = setTimeout(attempt, retryMs);
      },
    );
  };
  attempt();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await server.stop();
    },
  };
}
