import { gunzipSync } from 'node:zlib';
import { parseKubeletArgs } from './kubelet-unit-args.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Where OpenShift's Machine Config Operator puts the kubelet image credential provider configs of a
 * platform (`ecr-credential-provider.yaml` on AWS); the `ImageCredentialProvider` capability names its file.
 */
export const CREDENTIAL_PROVIDERS_DIR = '/etc/kubernetes/credential-providers/';

/** An ignition file whose `contents.source` cannot be decoded. */
export class IgnitionFileError extends Error {
  constructor(path: string, why: string) {
    super(`rendered worker MachineConfig, file ${path}: ${why}`);
    this.name = 'IgnitionFileError';
  }
}

/**
 * Decodes an Ignition `contents.source` data URL (RFC 2397: `data:[<media type>][;base64],<data>`, the
 * data percent-encoded unless base64), gunzipped when the file says `compression: gzip`.
 */
export function decodeIgnitionSource(path: string, source: string, compression = ''): string {
  const comma = source.indexOf(',');
  if (!source.startsWith('data:') || comma < 0)
    throw new IgnitionFileError(path, 'contents.source is not a data URL');
  if (compression !== '' && compression !== 'gzip')
    throw new IgnitionFileError(path, `unknown compression "${compression}"`);
  try {
    const raw = dataBytes(source.slice(5, comma), source.slice(comma + 1));
    return (compression === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  } catch (err) {
    throw new IgnitionFileError(path, err instanceof Error ? err.message : String(err));
  }
}

/** The bytes of a data URL's data: base64 when the header says so, else percent-encoded text. */
function dataBytes(header: string, data: string): Buffer {
  return header.endsWith(';base64')
    ? Buffer.from(data, 'base64')
    : Buffer.from(decodeURIComponent(data), 'utf8');
}

const meta = (mc: Obj, key: string): string => str(obj(mc['metadata'])[key]);

/**
 * The newest `rendered-worker-*` MachineConfig with a non-empty config (upstream picks the latest by
 * creation time), or undefined when there is none.
 */
export function latestRenderedWorker(machineConfigs: readonly unknown[]): Obj | undefined {
  return machineConfigs
    .map(obj)
    .filter((mc) => meta(mc, 'name').startsWith('rendered-worker-'))
    .filter((mc) => Object.keys(obj(obj(mc['spec'])['config'])).length > 0)
    .sort((a, b) => meta(b, 'creationTimestamp').localeCompare(meta(a, 'creationTimestamp')))[0];
}

/** The ignition config of a MachineConfig. */
const ignitionOf = (mc: Obj | undefined): Obj => obj(obj(mc?.['spec'])['config']);

/** The kubelet unit's contents, when the ignition has one. */
export function kubeletUnitOf(mc: Obj | undefined): string | undefined {
  const units = obj(ignitionOf(mc)['systemd'])['units'];
  const kubelet = (Array.isArray(units) ? units : []).map(obj).find((u) => u['name'] === 'kubelet.service');
  return typeof kubelet?.['contents'] === 'string' ? kubelet['contents'] : undefined;
}

/** Decoded ignition files by path, and the files that could not be decoded with the reason. */
export interface IgnitionFiles {
  readonly files: Record<string, string>;
  readonly errors: Record<string, string>;
}

/**
 * The decoded contents of the ignition's files that `wanted` selects, by path. A file that does not
 * decode is not thrown at once: it only fails the nodes that need it, with the reason.
 */
export function ignitionFiles(mc: Obj | undefined, wanted: (path: string) => boolean): IgnitionFiles {
  const files = obj(ignitionOf(mc)['storage'])['files'];
  const out: IgnitionFiles = { files: {}, errors: {} };
  for (const f of (Array.isArray(files) ? files : []).map(obj)) {
    const path = str(f['path']);
    if (!wanted(path)) continue;
    const contents = obj(f['contents']);
    try {
      out.files[path] = decodeIgnitionSource(path, str(contents['source']), str(contents['compression']));
    } catch (err) {
      out.errors[path] = err instanceof Error ? err.message : String(err);
    }
  }
  return out;
}

/** The kubelet unit of the newest rendered worker MachineConfig, or undefined when there is none. */
export function renderedWorkerKubeletUnit(machineConfigs: readonly unknown[]): string | undefined {
  return kubeletUnitOf(latestRenderedWorker(machineConfigs));
}

/** What a Windows node takes over from the Linux workers' ignition (reference §1.6 step 2). */
export interface WorkerIgnitionFacts {
  /** `--cloud-provider` of the Linux workers' kubelet. */
  readonly cloudProvider?: string;
  /** `--cloud-config` of the Linux workers' kubelet: a path in the ignition. */
  readonly cloudConfig?: string;
  /** The cloud config file and the credential provider configs, decoded, by ignition path. */
  readonly workerFiles?: Readonly<Record<string, string>>;
  /** Those of them that could not be decoded, with the reason. */
  readonly workerFileErrors?: Readonly<Record<string, string>>;
}

/** The kubelet's cloud flags and the files they name, from the newest rendered worker MachineConfig. */
export function workerIgnitionFacts(machineConfigs: readonly unknown[]): WorkerIgnitionFacts {
  const mc = latestRenderedWorker(machineConfigs);
  const unit = kubeletUnitOf(mc);
  const args = unit === undefined ? {} : parseKubeletArgs(unit);
  const { files, errors } = ignitionFiles(
    mc,
    (p) =>
      p.startsWith(CREDENTIAL_PROVIDERS_DIR) || (args.cloudConfig !== undefined && p === args.cloudConfig),
  );
  return {
    ...(args.cloudProvider ? { cloudProvider: args.cloudProvider } : {}),
    ...(args.cloudConfig ? { cloudConfig: args.cloudConfig } : {}),
    ...(Object.keys(files).length > 0 ? { workerFiles: files } : {}),
    ...(Object.keys(errors).length > 0 ? { workerFileErrors: errors } : {}),
  };
}
