import test from 'ava';
import { KubeletUnitError, parseKubeletArgs } from './kubelet-unit-args.js';
import { renderedWorkerKubeletUnit } from './worker-ignition.js';

const UNIT = [
  '[Service]',
  'Type=notify',
  'ExecStart=/usr/local/bin/kubenswrapper /usr/bin/kubelet \\',
  '    --config=/etc/kubernetes/kubelet.conf \\',
  '    --cloud-provider=azure \\',
  '    --cloud-config=/etc/kubernetes/cloud.conf \\',
  '    --v=2',
  '',
  'ExecStartPost=/bin/true --cloud-provider=other',
].join('\n');

test('the upstream vector: only cloud-provider and cloud-config are kept', (t) => {
  t.deepEqual(parseKubeletArgs(UNIT), { cloudProvider: 'azure', cloudConfig: '/etc/kubernetes/cloud.conf' });
});

test('an external cloud provider, and none at all', (t) => {
  t.deepEqual(parseKubeletArgs('ExecStart=/usr/bin/kubelet \\\n  --cloud-provider=external\n'), {
    cloudProvider: 'external',
  });
  t.deepEqual(parseKubeletArgs('ExecStart=/usr/bin/kubelet \\\n  --v=2\n'), {});
});

test('no ExecStart is an error', (t) => {
  t.throws(() => parseKubeletArgs('[Service]\nType=notify\n'), { instanceOf: KubeletUnitError });
});

test('the newest rendered-worker MachineConfig with a config is read', (t) => {
  const mc = (name: string, created: string, unit?: string): unknown => ({
    metadata: { name, creationTimestamp: created },
    spec: {
      config: unit === undefined ? {} : { systemd: { units: [{ name: 'kubelet.service', contents: unit }] } },
    },
  });
  const list = [
    mc('rendered-worker-old', '2024-01-01T00:00:00Z', 'old'),
    mc('rendered-master-x', '2025-01-01T00:00:00Z', 'master'),
    mc('rendered-worker-empty', '2026-01-01T00:00:00Z'),
    mc('rendered-worker-new', '2024-06-01T00:00:00Z', 'new'),
  ];
  t.is(renderedWorkerKubeletUnit(list), 'new');
  t.is(renderedWorkerKubeletUnit([]), undefined);
});
