import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClusterCa } from '../apiserver/pki.js';

export type RequestHandler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<void>;

/** A loopback HTTPS listener with its own generated CA, shared by the simulated clouds. */
export class HttpsEndpoint {
  private constructor(
    private readonly server: Server,
    /** `https://127.0.0.1:<port>` (no trailing slash). */
    readonly url: string,
    /** PEM of the CA that signed the serving certificate; clients trust only this. */
    readonly caPem: string,
  ) {}

  static async start(name: string, handler: RequestHandler, host = '127.0.0.1'): Promise<HttpsEndpoint> {
    const ca = await ClusterCa.create(`wmco-sim-${name}-ca`);
    const serving = await ca.serving(['localhost'], [host]);
    const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        handler(req, Buffer.concat(chunks), res).catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`simulated ${name}: internal error: ${String(error)}`);
        });
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new HttpsEndpoint(server, `https://${host}:${port}`, ca.certPem);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
