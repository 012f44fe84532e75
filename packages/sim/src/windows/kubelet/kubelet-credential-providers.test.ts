import test from 'ava';
import { FileSystem } from '../file-system.js';
import { checkCredentialProviders, CredentialProviderError } from './kubelet-credential-providers.js';

const CONFIG = 'C:\\k\\credential-provider-config.yaml';
const config = (name: string, extra = 'defaultCacheDuration: "12h"'): string =>
  [
    'apiVersion: kubelet.config.k8s.io/v1',
    'kind: CredentialProviderConfig',
    'providers:',
    `  - name: ${name}`,
    '    apiVersion: credentialprovider.kubelet.k8s.io/v1',
    '    matchImages: ["*.dkr.ecr.*.amazonaws.com"]',
    `    ${extra}`,
    '',
  ].join('\n');

function host(files: Record<string, string>): FileSystem {
  const fs = new FileSystem();
  fs.mkdirp('C:\\k');
  for (const [path, text] of Object.entries(files)) fs.write(path, Buffer.from(text));
  return fs;
}

test('a Windows config naming the .exe binary in the bin dir passes', (t) => {
  const fs = host({
    [CONFIG]: config('ecr-credential-provider.exe'),
    'C:\\k\\ecr-credential-provider.exe': 'MZ',
  });
  t.deepEqual(checkCredentialProviders(fs, CONFIG, 'C:\\k'), ['ecr-credential-provider.exe']);
  t.deepEqual(checkCredentialProviders(fs, CONFIG, 'C:\\k\\'), ['ecr-credential-provider.exe']);
});

test('the kubelet refuses: no config file, the Linux name without .exe, no bin dir, an invalid provider', (t) => {
  const exe = { 'C:\\k\\ecr-credential-provider.exe': 'MZ' };
  const refuse = (fs: FileSystem, re: RegExp, dir = 'C:\\k'): void => {
    t.throws(() => checkCredentialProviders(fs, CONFIG, dir), {
      instanceOf: CredentialProviderError,
      message: re,
    });
  };
  refuse(host(exe), /unable to read external registry credential provider configuration/);
  refuse(
    host({ ...exe, [CONFIG]: config('ecr-credential-provider') }),
    /plugin binary executable C:\\k\\ecr-credential-provider did not exist/,
  );
  refuse(
    host({ ...exe, [CONFIG]: config('ecr-credential-provider.exe') }),
    /binary directory C:\\bin did not exist/,
    'C:\\bin',
  );
  refuse(
    host({ ...exe, [CONFIG]: config('ecr-credential-provider.exe', 'args: []') }),
    /defaultCacheDuration: Required/,
  );
  refuse(
    host({ ...exe, [CONFIG]: 'kind: KubeletConfiguration\n' }),
    /not a kubelet.config.k8s.io CredentialProviderConfig/,
  );
});
