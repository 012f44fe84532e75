import { isIP } from 'node:net';
import { flagValue } from '../command-line.js';

/** The kubelet flags the simulated kubelet acts on (others are accepted and ignored, as unknown ones are not). */
export interface KubeletFlags {
  /** The kubelet binary, after any kube-log-runner prefix. */
  readonly binary: string;
  readonly config?: string;
  readonly bootstrapKubeconfig?: string;
  readonly kubeconfig?: string;
  readonly certDir?: string;
  readonly nodeLabels: Readonly<Record<string, string>>;
  readonly hostnameOverride?: string;
  readonly nodeIp?: string;
  readonly verbosity?: number;
  readonly windowsService: boolean;
  readonly cloudProvider?: string;
  readonly imageCredentialProviderConfig?: string;
  readonly imageCredentialProviderBinDir?: string;
}

/** A command line the kubelet refuses to start with. */
export class KubeletFlagError extends Error {}

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/**
 * Drops a `kube-log-runner.exe [-flags] <binary> ...` wrapper (reference §1.4: kubelet and kube-proxy are
 * always wrapped); the runner's own flags are the single-dash ones before the wrapped binary.
 */
export function stripLogRunner(argv: readonly string[]): string[] {
  const first = argv[0] ?? '';
  if (!/(^|\\|\/)kube-log-runner(\.exe)?$/i.test(first)) return [...argv];
  let i = 1;
  while (i < argv.length && (argv[i] ?? '').startsWith('-')) i++;
  return argv.slice(i);
}

function parseLabels(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (text === undefined || text === '') return labels;
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (!LABEL_KEY.test(key)) throw new KubeletFlagError(`invalid --node-labels: bad label key "${key}"`);
    if (value.length > 63 || !LABEL_VALUE.test(value))
      throw new KubeletFlagError(`invalid --node-labels: bad value "${value}" for label "${key}"`);
    labels[key] = value;
  }
  return labels;
}

/** Parses the kubelet command line (argv[0] is the binary or kube-log-runner). */
export function parseKubeletFlags(fullArgv: readonly string[]): KubeletFlags {
  const argv = stripLogRunner(fullArgv);
  const binary = argv[0];
  if (binary === undefined) throw new KubeletFlagError('kube-log-runner wraps no command');
  const nodeIp = flagValue(argv, '--node-ip');
  if (nodeIp !== undefined && isIP(nodeIp) === 0)
    throw new KubeletFlagError(`invalid --node-ip "${nodeIp}": not an IP address`);
  const v = flagValue(argv, '--v');
  if (v !== undefined && !/^\d+$/.test(v)) throw new KubeletFlagError(`invalid --v "${v}": not a number`);
  type PathFlag =
    | 'config'
    | 'bootstrapKubeconfig'
    | 'kubeconfig'
    | 'certDir'
    | 'hostnameOverride'
    | 'cloudProvider'
    | 'imageCredentialProviderConfig'
    | 'imageCredentialProviderBinDir';
  const pick = (name: string, key: PathFlag): Partial<Record<PathFlag, string>> => {
    const value = flagValue(argv, name);
    return value === undefined ? {} : { [key]: value };
  };
  return {
    binary,
    ...pick('--config', 'config'),
    ...pick('--bootstrap-kubeconfig', 'bootstrapKubeconfig'),
    ...pick('--kubeconfig', 'kubeconfig'),
    ...pick('--cert-dir', 'certDir'),
    ...pick('--hostname-override', 'hostnameOverride'),
    ...pick('--cloud-provider', 'cloudProvider'),
    ...pick('--image-credential-provider-config', 'imageCredentialProviderConfig'),
    ...pick('--image-credential-provider-bin-dir', 'imageCredentialProviderBinDir'),
    ...(nodeIp !== undefined ? { nodeIp } : {}),
    ...(v !== undefined ? { verbosity: Number(v) } : {}),
    nodeLabels: parseLabels(flagValue(argv, '--node-labels')),
    windowsService: argv.includes('--windows-service'),
  };
}
