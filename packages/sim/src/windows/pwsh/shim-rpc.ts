import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** One shim call's parameters, as the PowerShell side sent them (JSON). */
export type RpcParams = Readonly<Record<string, unknown>>;
/** What a shim call does on the model; a thrown Error becomes the PowerShell exception's message. */
export type RpcHandler = (params: RpcParams) => unknown;

/** A string parameter (the shims send names, paths and values as strings). */
export function str(params: RpcParams, name: string): string {
  const v = params[name];
  if (typeof v !== 'string') throw new Error(`shim call: parameter '${name}' is not a string`);
  return v;
}

/** A list of strings (a PowerShell string[]; one value or none arrives as such from ConvertTo-Json). */
export function strings(params: RpcParams, name: string): string[] {
  const v = params[name];
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x));
}

const MAX_BODY = 1024 * 1024;

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_BODY) req.destroy(new Error('shim call body too large'));
      else parts.push(d);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The loopback endpoint a host's shims call (one per host, with its own token): POST {method, params},
 * answered {result} or {error}. Only the host's own pwsh processes know the token.
 */
export class ShimRpcServer {
  readonly token = randomBytes(24).toString('hex');
  private server: Server | undefined;
  private port = 0;

  constructor(
    private readonly address: string,
    private readonly handlers: ReadonlyMap<string, RpcHandler>,
  ) {}

  get url(): string {
    return `http://${this.address}:${this.port}/`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      void this.serve(req).then((answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.address, () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private authorised(req: IncomingMessage): boolean {
    const given = Buffer.from(String(req.headers['x-wmco-token'] ?? ''));
    const want = Buffer.from(this.token);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  private async serve(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (req.method !== 'POST' || !this.authorised(req)) return { status: 403, body: { error: 'forbidden' } };
    try {
      const call = JSON.parse(await body(req)) as { method?: unknown; params?: unknown };
      const handler = typeof call.method === 'string' ? this.handlers.get(call.method) : undefined;
      if (!handler) return { status: 200, body: { error: `no shim call '${String(call.method)}'` } };
      const params = (
        typeof call.params === 'object' && call.params !== null ? call.params : {}
      ) as RpcParams;
      const result: unknown = await handler(params);
      return { status: 200, body: { result: result ?? null } };
    } catch (err) {
      return { status: 200, body: { error: err instanceof Error ? err.message : String(err) } };
    }
  }
}
