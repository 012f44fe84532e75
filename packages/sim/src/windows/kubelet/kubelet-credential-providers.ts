import { parse } from 'yaml';
import type { FileSystem } from '../file-system.js';

/** The kubelet's credential provider start check failed (the kubelet exits). */
export class CredentialProviderError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const CONFIG_VERSIONS = new Set([
  'kubelet.config.k8s.io/v1',
  'kubelet.config.k8s.io/v1beta1',
  'kubelet.config.k8s.io/v1alpha1',
]);
const PLUGIN_VERSIONS = new Set([
  'credentialprovider.kubelet.k8s.io/v1',
  'credentialprovider.kubelet.k8s.io/v1beta1',
  'credentialprovider.kubelet.k8s.io/v1alpha1',
]);

function readConfig(files: FileSystem, path: string): Obj {
  const raw = files.read(path);
  if (raw === undefined)
    throw new CredentialProviderError(
      `unable to read external registry credential provider configuration from "${path}": The system cannot find the file specified.`,
    );
  let doc: unknown;
  try {
    doc = parse(raw.toString('utf8'));
  } catch (e) {
    throw new CredentialProviderError(`${path}: not YAML/JSON: ${(e as Error).message}`);
  }
  if (
    !isObj(doc) ||
    doc['kind'] !== 'CredentialProviderConfig' ||
    !CONFIG_VERSIONS.has(String(doc['apiVersion']))
  )
    throw new CredentialProviderError(`${path}: not a kubelet.config.k8s.io CredentialProviderConfig`);
  return doc;
}

function nameProblems(v: unknown, at: string): string[] {
  const name = typeof v === 'string' ? v : '';
  if (name === '') return [`${at}.name: Required value`];
  if (/[\\/]/.test(name) || name === '.' || name === '..')
    return [`${at}.name: Invalid value: "${name}": provider name cannot contain path separators`];
  return [];
}

/** The kubelet's `validateCredentialProviderConfig`: one reason per bad provider field. */
function providerProblems(p: unknown, i: number): string[] {
  const at = `providers[${i}]`;
  if (!isObj(p)) return [`${at}: not an object`];
  const out = nameProblems(p['name'], at);
  if (!Array.isArray(p['matchImages']) || p['matchImages'].length === 0)
    out.push(`${at}.matchImages: Required value: at least 1 item in matchImages is required`);
  if (p['defaultCacheDuration'] === undefined) out.push(`${at}.defaultCacheDuration: Required value`);
  if (!PLUGIN_VERSIONS.has(String(p['apiVersion'])))
    out.push(`${at}.apiVersion: Unsupported value: ${JSON.stringify(p['apiVersion'])}`);
  return out;
}

/**
 * The kubelet's `RegisterCredentialProviderPlugins` at start: the bin dir exists, the config file reads
 * and validates, and each provider's binary `<bin dir>\<name>` exists (matched by name as written: no
 * `.exe` is added, as the kubelets that WMCO's `.exe` rewrite was made for). Returns the provider names.
 */
export function checkCredentialProviders(
  files: FileSystem,
  configPath: string,
  binDir: string | undefined,
): string[] {
  const dir = (binDir ?? '').replace(/\\+$/, '');
  if (dir === '' || !files.isDirectory(dir))
    throw new CredentialProviderError(`plugin binary directory ${binDir ?? '""'} did not exist`);
  const providers = readConfig(files, configPath)['providers'];
  if (!Array.isArray(providers) || providers.length === 0)
    throw new CredentialProviderError(
      'failed to validate credential provider config: providers: Required value: at least 1 item in plugins is required',
    );
  const problems = providers.flatMap(providerProblems);
  if (problems.length > 0)
    throw new CredentialProviderError(
      `failed to validate credential provider config: [${problems.join(', ')}]`,
    );
  const names = providers.map((p) => String((p as Obj)['name']));
  for (const name of names) {
    const bin = `${dir}\\${name}`;
    if (!files.isFile(bin))
      throw new CredentialProviderError(`plugin binary executable ${bin} did not exist`);
  }
  return names;
}
