import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReadinessCheck {
  readonly name: string;
  /** Undefined when ready, else why not. */
  check(): string | undefined;
}

export interface ProbeServerOptions {
  readonly host: string;
  readonly port: number;
  readonly readiness: readonly ReadinessCheck[];
  /** Event-loop delay above which /healthz fails (a wedged process). */
  readonly maxLoopDelayMs?: number;
}

/**
 * `/healthz` (alive: the event loop turns) and `/readyz` (every readiness check passes) on one small HTTP
 * server, for the kubelet's probes. `/metrics` is not here: it is served over HTTPS with authentication
 * and authorisation (secure-metrics.ts).
 */
export class ProbeServer {
  private server: Server | undefined;
  private lastTick = Date.now();
  private loopDelay = 0;
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly options: ProbeServerOptions) {}

  async start(): Promise<number> {
    this.ticker = setInterval(() => {
      const now = Date.now();
      this.loopDelay = Math.max(0, now - this.lastTick - 500);
      this.lastTick = now;
    }, 500);
    this.ticker.unref();
    this.server = createServer((req, res) => {
      const [code, type, body] = this.handle(req.url ?? '/');
      res.writeHead(code, { 'content-type': type });
      res.end(body);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.options.port, this.options.host, resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    clearInterval(this.ticker);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(url: string): [number, string, string] {
    const path = url.split('?')[0];
    if (path === '/healthz') {
      const ok = this.loopDelay < (this.options.maxLoopDelayMs ?? 10_000);
      return [ok ? 200 : 500, 'text/plain', ok ? 'ok\n' : `event loop delayed ${this.loopDelay} ms\n`];
    }
    if (path === '/readyz') {
      const failing = this.options.readiness.flatMap((c) => {
        const why = c.check();
        return why === undefined ? [] : [`${c.name}: ${why}`];
      });
      return failing.length === 0
        ? [200, 'text/plain', 'ok\n']
        : [503, 'text/plain', `${failing.join('\n')}\n`];
    }
    return [404, 'text/plain', 'not found\n'];
  }
}
