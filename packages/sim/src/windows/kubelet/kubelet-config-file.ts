import { parse } from 'yaml';
import type { FileSystem } from '../file-system.js';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** The parts of a KubeletConfiguration the simulated kubelet uses. */
export interface KubeletConfig {
  readonly registerNode: boolean;
  readonly registerWithTaints: readonly Taint[];
  readonly clusterDNS: readonly string[];
  readonly clientCAFile?: string;
}

/** A `--config` file the kubelet refuses. */
export class KubeletConfigError extends Error {}

const EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function taints(v: unknown, path: string): Taint[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new KubeletConfigError(`${path}: registerWithTaints is not a list`);
  return v.map((t, i) => {
    if (!isObj(t) || typeof t['key'] !== 'string' || !EFFECTS.has(String(t['effect'])))
      throw new KubeletConfigError(`${path}: registerWithTaints[${i}] needs a key and a valid effect`);
    return {
      key: t['key'],
      effect: t['effect'] as Taint['effect'],
      ...(typeof t['value'] === 'string' ? { value: t['value'] } : {}),
    };
  });
}

function parseDocument(files: FileSystem, path: string): Obj {
  const raw = files.read(path);
  if (raw === undefined) throw new KubeletConfigError(`kubelet config file not found: ${path}`);
  let doc: unknown;
  try {
    doc = parse(raw.toString('utf8'));
  } catch (e) {
    throw new KubeletConfigError(`${path}: not YAML/JSON: ${(e as Error).message}`);
  }
  if (!isObj(doc) || doc['kind'] !== 'KubeletConfiguration')
    throw new KubeletConfigError(
      `${path}: not a KubeletConfiguration (kind is ${JSON.stringify(isObj(doc) ? doc['kind'] : doc)})`,
    );
  if (
    doc['apiVersion'] !== 'kubelet.config.k8s.io/v1beta1' &&
    doc['apiVersion'] !== 'kubelet.config.k8s.io/v1'
  )
    throw new KubeletConfigError(`${path}: unsupported apiVersion ${JSON.stringify(doc['apiVersion'])}`);
  return doc;
}

function clusterDns(doc: Obj, path: string): string[] {
  const dns = doc['clusterDNS'] ?? [];
  if (!Array.isArray(dns) || dns.some((d) => typeof d !== 'string'))
    throw new KubeletConfigError(`${path}: clusterDNS is not a list of addresses`);
  return dns as string[];
}

/** `authentication.x509.clientCAFile`, which must exist: the kubelet fails to start without it. */
function clientCa(files: FileSystem, doc: Obj): string | undefined {
  const auth = isObj(doc['authentication']) ? doc['authentication'] : {};
  const x509 = isObj(auth['x509']) ? auth['x509'] : {};
  const file = x509['clientCAFile'];
  if (typeof file !== 'string' || file === '') return undefined;
  if (!files.isFile(file))
    throw new KubeletConfigError(`unable to load client CA file ${file}: file not found`);
  return file;
}

/** Reads and checks the KubeletConfiguration at `path` (JSON or YAML), as `kubelet --config` does. */
export function readKubeletConfig(files: FileSystem, path: string): KubeletConfig {
  const doc = parseDocument(files, path);
  const clientCAFile = clientCa(files, doc);
  return {
    registerNode: doc['registerNode'] !== false,
    registerWithTaints: taints(doc['registerWithTaints'], path),
    clusterDNS: clusterDns(doc, path),
    ...(clientCAFile !== undefined ? { clientCAFile } : {}),
  };
}
