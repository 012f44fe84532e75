import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FileSystem } from '../file-system.js';

/** The kubelet's default port (`KubeletConfiguration.port`), published as daemonEndpoints.kubeletEndpoint. */
export const KUBELET_PORT = 10250;
/** Where the kubelet serves `/logs/` from on Windows (`C:\var\log`, pkg/kubelet/kubelet.go `logServer`). */
export const WINDOWS_LOG_DIR = 'C:\\var\\log';

export interface KubeletLogServerOptions {
  readonly files: FileSystem;
  readonly address: string;
  readonly certPem: string;
  readonly keyPem: string;
  /** The CA client certificates must chain to (`authentication.x509.clientCAFile`). */
  readonly clientCaPem: string;
  readonly port?: number;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');

/** Go's `http.FileServer` directory listing: names sorted, folders with a trailing slash. */
function listing(files: FileSystem, dir: string): string {
  const names = files
    .list(dir)
    .map((e) => (e.directory ? `${e.name}/` : e.name))
    .sort();
  const links = names.map((n) => `<a href="${escapeHtml(encodeURI(n))}">${escapeHtml(n)}</a>\n`);
  return `<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n${links.join('')}</pre>\n`;
}

/** `/logs/<rel>` as a path under C:\var\log; undefined when it climbs out (`..`). */
function windowsPath(rel: string): string | undefined {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..' || p.includes('\\'))) return undefined;
  return [WINDOWS_LOG_DIR, ...parts].join('\\');
}

function send(res: ServerResponse, code: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff' }).end(body);
}

/** A folder: Go's FileServer redirects to the name with a slash, then lists it. */
function serveFolder(files: FileSystem, path: string, urlPath: string, res: ServerResponse): void {
  if (!urlPath.endsWith('/')) return void res.writeHead(301, { Location: `${urlPath}/` }).end();
  send(res, 200, listing(files, path), 'text/html; charset=utf-8');
}

function serveLogs(files: FileSystem, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'https://kubelet.invalid');
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method Not Allowed\n');
  if (url.pathname === '/logs') return void res.writeHead(301, { Location: '/logs/' }).end();
  if (!url.pathname.startsWith('/logs/')) return send(res, 404, '404 page not found\n');
  const rel = decodeURIComponent(url.pathname.slice('/logs/'.length));
  const path = windowsPath(rel);
  if (path === undefined) return send(res, 400, 'invalid URL path\n');
  if (files.isDirectory(path)) return serveFolder(files, path, url.pathname, res);
  const data = files.read(path);
  if (data === undefined) return send(res, 404, '404 page not found\n');
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': data.length });
  res.end(req.method === 'HEAD' ? undefined : data);
}

/**
 * The kubelet's HTTPS server, the part that serves `/logs/`: with its serving certificate, on the node's
 * address and port 10250. Only clients with a certificate from the cluster CA get in (the API server's
 * kubelet client certificate); others get 401, as a kubelet with anonymous auth off answers.
 */
export async function startKubeletLogServer(o: KubeletLogServerOptions): Promise<Server> {
  const server = createServer(
    { cert: o.certPem, key: o.keyPem, ca: [o.clientCaPem], requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      if (!(req.socket as TLSSocket).authorized) return send(res, 401, 'Unauthorized\n');
      serveLogs(o.files, req, res);
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? KUBELET_PORT, o.address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Closes the server and its open connections. */
export function stopKubeletLogServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
