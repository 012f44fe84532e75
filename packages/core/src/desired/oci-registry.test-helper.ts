// Test helper: a loopback docker-registry (Debian's `docker-registry`, distribution 2.8) with TLS and
// optional htpasswd auth, a hand-built OCI image pushed to it, and the tools' installation.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildImage, digestOf } from './oci-image.test-helper.js';

export const run = promisify(execFile);
const TOOLS = ['ctr', 'docker-registry', 'htpasswd', 'openssl'];
const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/**
 * Makes sure containerd's `ctr`, `docker-registry`, `htpasswd` and `openssl` exist, installing the Debian
 * packages when they are missing. Returns why the tools cannot be had only when apt itself is missing;
 * a failing installation throws (and so fails the test).
 */
export function ensureRegistryTools(): string | undefined {
  if (TOOLS.every(has)) return undefined;
  if (!has('apt-get'))
    return `apt-get is not available to install ${TOOLS.filter((c) => !has(c)).join(', ')}`;
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  // No service may start at install time (there is no init system here, and we start our own).
  const script = [
    ownPolicy ? `printf '#!/bin/sh\\nexit 101\\n' > ${policy} && chmod +x ${policy}` : 'true',
    'apt-get update -qq',
    'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq containerd docker-registry apache2-utils openssl',
  ].join(' && ');
  const result = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 300_000 });
  if (ownPolicy) spawnSync('rm', ['-f', policy]);
  if (result.status !== 0) throw new Error(`installing the registry tools failed: ${result.stderr}`);
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function httpsCall(
  url: string,
  options: { method?: string; ca: Buffer; headers?: Record<string, string>; body?: Buffer },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', ca: options.ca, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A self-signed certificate for 127.0.0.1, also used as the trust root (SSL_CERT_FILE) by ctr. */
export async function makeCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return { cert, key };
}

/** A running registry; `log()` is everything it printed (its access log included). */
export interface Registry {
  readonly host: string;
  log(): string;
  stop(): Promise<void>;
}

export async function startRegistry(
  dir: string,
  tls: { cert: string; key: string },
  auth?: { user: string; password: string },
): Promise<Registry> {
  const port = await freePort();
  await mkdir(join(dir, 'data'), { recursive: true });
  const lines = [
    'version: 0.1',
    'log: {level: info}',
    `storage: {filesystem: {rootdirectory: ${join(dir, 'data')}}}`,
    `http: {addr: "127.0.0.1:${port}", tls: {certificate: ${tls.cert}, key: ${tls.key}}}`,
  ];
  if (auth) {
    const { stdout } = await run('htpasswd', ['-Bbn', auth.user, auth.password]);
    await writeFile(join(dir, 'htpasswd'), stdout);
    lines.push(`auth: {htpasswd: {realm: test, path: ${join(dir, 'htpasswd')}}}`);
  }
  await writeFile(join(dir, 'config.yml'), lines.join('\n') + '\n');
  const child: ChildProcess = spawn('docker-registry', ['serve', join(dir, 'config.yml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const ca = await readFile(tls.cert);
  for (let i = 0; i < 100; i++) {
    const up = await httpsCall(`https://127.0.0.1:${port}/v2/`, { ca }).catch(() => undefined);
    if (up) return { host: `127.0.0.1:${port}`, log: () => output, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`registry on ${port} did not start: ${output}`);
}

/** Pushes `image` to `repo:tag` on the registry with the distribution HTTP API. */
export async function pushImage(
  host: string,
  ca: Buffer,
  target: { repo: string; tag: string; auth?: string },
): Promise<void> {
  const { repo, tag, auth } = target;
  const image = buildImage();
  const headers = auth ? { authorization: `Basic ${auth}` } : {};
  for (const blob of image.blobs) {
    const start = await httpsCall(`https://${host}/v2/${repo}/blobs/uploads/`, {
      method: 'POST',
      ca,
      headers,
    });
    const location = String(start.headers.location ?? '');
    if (start.status !== 202 || !location)
      throw new Error(`upload start: ${start.status} ${start.body.toString()}`);
    const url = new URL(location, `https://${host}`);
    url.searchParams.set('digest', digestOf(blob));
    const put = await httpsCall(url.toString(), {
      method: 'PUT',
      ca,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: blob,
    });
    if (put.status !== 201) throw new Error(`blob upload: ${put.status} ${put.body.toString()}`);
  }
  const m = await httpsCall(`https://${host}/v2/${repo}/manifests/${tag}`, {
    method: 'PUT',
    ca,
    headers: { ...headers, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
    body: image.manifest,
  });
  if (m.status !== 201) throw new Error(`manifest upload: ${m.status} ${m.body.toString()}`);
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
