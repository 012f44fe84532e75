import test from 'ava';
import { gzipSync } from 'node:zlib';
import { decodeIgnitionSource, IgnitionFileError, workerIgnitionFacts } from './worker-ignition.js';

const ECR = '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml';
const CONFIG = 'apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders: []\n';

const unit = (flags: string): string =>
  `[Service]\nExecStart=/usr/bin/kubelet \\\n    --config=/etc/kubernetes/kubelet.conf${flags} \\\n    --v=2\n\n`;

function renderedWorker(
  name: string,
  created: string,
  files: readonly { path: string; contents: Record<string, string> }[],
  flags = '',
): unknown {
  return {
    metadata: { name, creationTimestamp: created },
    spec: {
      config: {
        ignition: { version: '3.4.0' },
        storage: { files },
        systemd: { units: [{ name: 'kubelet.service', contents: unit(flags) }] },
      },
    },
  };
}

test('data URLs: percent-encoded, base64, gzip+base64 (as the Machine Config Operator renders them)', (t) => {
  t.is(decodeIgnitionSource('/a', `data:,${encodeURIComponent(CONFIG)}`), CONFIG);
  t.is(
    decodeIgnitionSource(
      '/a',
      `data:text/plain;charset=utf-8;base64,${Buffer.from(CONFIG).toString('base64')}`,
    ),
    CONFIG,
  );
  const gz = gzipSync(Buffer.from(CONFIG)).toString('base64');
  t.is(decodeIgnitionSource('/a', `data:;base64,${gz}`, 'gzip'), CONFIG);
  t.throws(() => decodeIgnitionSource('/a', 'https://example.com/x'), {
    instanceOf: IgnitionFileError,
    message: /file \/a: contents.source is not a data URL/,
  });
  t.throws(() => decodeIgnitionSource('/a', 'data:,%E0%A4%A'), { instanceOf: IgnitionFileError });
  t.throws(() => decodeIgnitionSource('/a', 'data:,x', 'xz'), { message: /unknown compression "xz"/ });
});

test('the newest rendered worker gives the cloud flags, its credential provider configs and cloud config', (t) => {
  const facts = workerIgnitionFacts([
    renderedWorker('rendered-worker-old', '2026-01-01T00:00:00Z', [
      { path: ECR, contents: { source: 'data:,old' } },
    ]),
    renderedWorker(
      'rendered-worker-new',
      '2026-02-01T00:00:00Z',
      [
        { path: ECR, contents: { source: `data:,${encodeURIComponent(CONFIG)}` } },
        { path: '/etc/kubernetes/cloud.conf', contents: { source: 'data:,%5BGlobal%5D' } },
        { path: '/etc/kubernetes/kubelet.conf', contents: { source: 'data:,not-copied' } },
      ],
      ' \\\n    --cloud-provider=aws \\\n    --cloud-config=/etc/kubernetes/cloud.conf',
    ),
  ]);
  t.deepEqual(facts, {
    cloudProvider: 'aws',
    cloudConfig: '/etc/kubernetes/cloud.conf',
    workerFiles: { [ECR]: CONFIG, '/etc/kubernetes/cloud.conf': '[Global]' },
  });
});

test('a file that does not decode is kept as an error, not thrown; no MachineConfig gives nothing', (t) => {
  const facts = workerIgnitionFacts([
    renderedWorker('rendered-worker-a', '2026-01-01T00:00:00Z', [
      { path: ECR, contents: { source: 'nope' } },
    ]),
  ]);
  t.deepEqual(Object.keys(facts.workerFileErrors ?? {}), [ECR]);
  t.is(facts.workerFiles, undefined);
  t.deepEqual(workerIgnitionFacts([]), {});
});
