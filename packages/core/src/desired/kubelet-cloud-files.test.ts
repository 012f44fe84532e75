import test from 'ava';
import type { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import type { ClusterFacts } from './cluster-facts.js';
import { kubeletCloudFiles } from './kubelet-cloud-files.js';

const PATH = '/etc/kubernetes/credential-providers/test-provider.yaml';
const provider: ImageCredentialProvider = {
  payload: () => [],
  ignitionConfigPath: PATH,
  rewriteConfig: (c) => {
    if (!c.startsWith('ok')) throw new Error('not a config');
    return `${c} (windows)`;
  },
  kubeletFlags: () => ['--image-credential-provider-config=C:\\k\\credential-provider-config.yaml'],
};
const facts = (extra: Partial<ClusterFacts>): ClusterFacts => extra as ClusterFacts;

test('the credential provider config is written, rewritten, only when the workers have it', (t) => {
  const out = kubeletCloudFiles(provider, facts({ workerFiles: { [PATH]: 'ok' } }));
  t.deepEqual(out.files, [{ path: 'C:\\k\\credential-provider-config.yaml', content: 'ok (windows)' }]);
  t.is(out.imageCredentialProvider, provider, 'its kubelet flags apply');
  const none = kubeletCloudFiles(provider, facts({}));
  t.deepEqual(none.files, []);
  t.is(none.imageCredentialProvider, undefined, 'no flags naming a file that is not written');
  t.deepEqual(kubeletCloudFiles(undefined, facts({ workerFiles: { [PATH]: 'ok' } })).files, []);
});

test('a malformed or undecodable credential provider config fails the design with the file named', (t) => {
  t.throws(() => kubeletCloudFiles(provider, facts({ workerFiles: { [PATH]: 'bad' } })), {
    message: new RegExp(`credential provider config ${PATH}: not a config`),
  });
  t.throws(
    () => kubeletCloudFiles(provider, facts({ workerFileErrors: { [PATH]: `file ${PATH}: broken` } })),
    {
      message: /broken/,
    },
  );
});

test('--cloud-config: the named file goes to C:\\k under its own name', (t) => {
  const out = kubeletCloudFiles(
    undefined,
    facts({
      cloudConfig: '/etc/kubernetes/cloud.conf',
      workerFiles: { '/etc/kubernetes/cloud.conf': '[Global]' },
    }),
  );
  t.deepEqual(out, {
    files: [{ path: 'C:\\k\\cloud.conf', content: '[Global]' }],
    cloudConfigFile: 'cloud.conf',
  });
  t.throws(() => kubeletCloudFiles(undefined, facts({ cloudConfig: '/etc/kubernetes/cloud.conf' })), {
    message: /has no such file/,
  });
  t.throws(() => kubeletCloudFiles(undefined, facts({ cloudConfig: '/etc/kubernetes/..' })), {
    message: /is not a file name/,
  });
});
