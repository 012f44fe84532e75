import { WindowsPaths, type ImageCredentialProvider, type PayloadFile } from '@wmco/core/provider';
import { isMap, isSeq, parseDocument } from 'yaml';
import { CredentialProviderConfigError } from './credential-provider-config-error.js';

// Windows binaries end in `.exe`; the kubelet looks the provider up by name in the bin dir. Any case of
// `.exe` already counts (Windows file names are case-insensitive), so rewriting is idempotent.
const EXE = /\.exe$/i;

/** Rewrites every `providers[].name` to end in `.exe`, keeping the rest of the document (and comments). */
export function rewriteCredentialProviderConfig(config: string): string {
  const doc = parseDocument(config);
  const [first] = doc.errors;
  if (first) throw new CredentialProviderConfigError(`not valid YAML: ${first.message.split('\n')[0] ?? ''}`);
  if (!isMap(doc.contents)) throw new CredentialProviderConfigError('expected a mapping at the top level');
  const providers = doc.contents.get('providers');
  if (!isSeq(providers)) throw new CredentialProviderConfigError('expected a "providers" list');
  providers.items.forEach((item, index) => {
    const path = ['providers', index, 'name'];
    const name: unknown = isMap(item) ? doc.getIn(path) : undefined;
    if (typeof name !== 'string' || name === '') {
      throw new CredentialProviderConfigError(`providers[${index}] has no "name"`);
    }
    if (!EXE.test(name)) doc.setIn(path, `${name}.exe`);
  });
  return doc.toString();
}

/** The kubelet's ECR credential provider plugin (OCPBUGS-26602). */
export const awsImageCredentialProvider: ImageCredentialProvider = {
  payload: (): readonly PayloadFile[] => [
    { name: 'ecr-credential-provider.exe', directory: WindowsPaths.k8sDir },
  ],
  ignitionConfigPath: '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml',
  rewriteConfig: rewriteCredentialProviderConfig,
  kubeletFlags: () => [
    `--image-credential-provider-bin-dir=${WindowsPaths.k8sDir}`,
    `--image-credential-provider-config=${WindowsPaths.credentialProviderConfig}`,
  ],
};
