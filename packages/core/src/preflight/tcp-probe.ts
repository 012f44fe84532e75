import { connect } from 'node:net';

/** Opens a TCP connection and closes it again; rejects on refusal, an error, or no answer within `timeoutMs`. */
export type TcpProbe = (host: string, port: number, timeoutMs: number) => Promise<void>;

export const tcpProbe: TcpProbe = (host, port, timeoutMs) =>
  new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const done = (err?: Error): void => {
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    socket.setTimeout(timeoutMs, () => done(new Error(`no answer within ${timeoutMs} ms`)));
    socket.once('connect', () => done());
    socket.once('error', (err) => done(err));
  });
