import { createServer, type Server as TcpServer, type Socket } from 'node:net';
import type { Server as SshServer } from 'ssh2';

function bind(server: TcpServer, port: number, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.removeListener('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/**
 * The TCP socket a simulated host's SSH server listens on, and every connection it accepted that is still
 * open. ssh2 hands a connection to its server's listener only once the client sent its identification
 * line, so a host going down must drop the connections still identifying too: otherwise one is served by
 * a host that is down, and the listening socket's close waits for it for ever (the host never comes back).
 */
export class HostListener {
  private constructor(
    private readonly server: TcpServer,
    private readonly sockets: Set<Socket>,
    readonly port: number,
  ) {}

  /** Listens on `address` at the first of `ports` that binds (0: an ephemeral port); each connection goes to `ssh`. */
  static async open(address: string, ports: readonly number[], ssh: SshServer): Promise<HostListener> {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      ssh.injectSocket(socket);
    });
    let failure: unknown = new Error('no port to listen on');
    for (const port of ports) {
      try {
        return new HostListener(server, sockets, await bind(server, port, address));
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }

  /** Stops listening and drops every connection at once (a power-off sends no goodbye). */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
