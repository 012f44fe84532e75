import { parse } from 'yaml';
import type { FileSystem } from '../file-system.js';

/** What a kubelet takes from a kubeconfig: where the server is, whom to trust, and who it is. */
export interface KubeconfigCredentials {
  readonly server: string;
  readonly caPem: string;
  readonly token?: string;
  readonly certPem?: string;
  readonly keyPem?: string;
}

/** A kubeconfig that cannot be used. */
export class KubeconfigError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function named(list: unknown, name: string, what: string, file: string): Obj {
  const entry = Array.isArray(list) ? list.find((e): e is Obj => isObj(e) && e['name'] === name) : undefined;
  const body = entry?.[what];
  if (!isObj(body)) throw new KubeconfigError(`${file}: no ${what} named "${name}"`);
  return body;
}

function b64(v: unknown, field: string, file: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(v))
    throw new KubeconfigError(`${file}: ${field} is not base64`);
  return Buffer.from(v, 'base64').toString('utf8');
}

function fileOrData(files: FileSystem, o: Obj, key: string, file: string): string | undefined {
  const data = b64(o[`${key}-data`], `${key}-data`, file);
  if (data !== undefined) return data;
  const path = o[key];
  if (path === undefined) return undefined;
  const content = typeof path === 'string' ? files.read(path) : undefined;
  if (content === undefined)
    throw new KubeconfigError(`${file}: ${key} file not found: ${JSON.stringify(path)}`);
  return content.toString('utf8');
}

function parseDocument(files: FileSystem, path: string): Obj {
  const raw = files.read(path);
  if (raw === undefined) throw new KubeconfigError(`kubeconfig not found: ${path}`);
  let doc: unknown;
  try {
    doc = parse(raw.toString('utf8'));
  } catch (e) {
    throw new KubeconfigError(`${path}: not YAML/JSON: ${(e as Error).message}`);
  }
  if (!isObj(doc)) throw new KubeconfigError(`${path}: not a kubeconfig object`);
  return doc;
}

function currentContext(doc: Obj, path: string): { cluster: Obj; user: Obj } {
  const current = doc['current-context'];
  if (typeof current !== 'string' || current === '') throw new KubeconfigError(`${path}: no current-context`);
  const context = named(doc['contexts'], current, 'context', path);
  return {
    cluster: named(doc['clusters'], String(context['cluster']), 'cluster', path),
    user: named(doc['users'], String(context['user']), 'user', path),
  };
}

function serverAndCa(files: FileSystem, cluster: Obj, path: string): { server: string; caPem: string } {
  const server = cluster['server'];
  if (typeof server !== 'string' || !/^https:\/\/[^\s/]+/.test(server))
    throw new KubeconfigError(`${path}: cluster server ${JSON.stringify(server)} is not an https URL`);
  const caPem = fileOrData(files, cluster, 'certificate-authority', path);
  if (caPem?.includes('-----BEGIN CERTIFICATE-----') !== true)
    throw new KubeconfigError(`${path}: cluster has no PEM certificate-authority(-data)`);
  return { server, caPem };
}

/** Reads the current context of the kubeconfig at `path` in the host's files (JSON or YAML). */
export function readKubeconfig(files: FileSystem, path: string): KubeconfigCredentials {
  const { cluster, user } = currentContext(parseDocument(files, path), path);
  const certPem = fileOrData(files, user, 'client-certificate', path);
  const keyPem = fileOrData(files, user, 'client-key', path);
  const token = user['token'];
  return {
    ...serverAndCa(files, cluster, path),
    ...(typeof token === 'string' && token !== '' ? { token } : {}),
    ...(certPem !== undefined ? { certPem } : {}),
    ...(keyPem !== undefined ? { keyPem } : {}),
  };
}

/** The kubeconfig a kubelet writes after its TLS bootstrap: the client certificate inlined. */
export function clientCertKubeconfig(server: string, caPem: string, certPem: string, keyPem: string): string {
  const b = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'default-cluster', cluster: { server, 'certificate-authority-data': b(caPem) } }],
    users: [
      {
        name: 'default-auth',
        user: { 'client-certificate-data': b(certPem), 'client-key-data': b(keyPem) },
      },
    ],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', user: 'default-auth' } }],
    'current-context': 'default-context',
  });
}
