import test from 'ava';
import { buildWindowsServices } from '@wmco/core';
import { WindowsModel } from './windows-model.js';

const services = buildWindowsServices({
  apiServerInternalUrl: 'https://api-int.example.com:6443',
  debug: false,
});
const command = (name: string): string => services.find((s) => s.name === name)?.command ?? '';

function withService(name: string, binary: string): WindowsModel {
  const m = new WindowsModel();
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\kube-log-runner.exe', Buffer.from('runner'));
  m.files.write(binary, Buffer.from('bin'));
  m.scm.create({
    name,
    commandLine: command(name).replaceAll('NODE_NAME', 'win-1'),
    startType: 'auto',
    dependencies: [],
    description: '',
  });
  return m;
}

test("hybrid-overlay-node needs the kubelet's kubeconfig named by --bootstrap-kubeconfig", async (t) => {
  const m = withService('hybrid-overlay-node', 'C:\\k\\hybrid-overlay-node.exe');
  await t.throwsAsync(m.scm.start('hybrid-overlay-node'), { message: /file not found: C:\\k\\kubeconfig/ });
  t.deepEqual(m.hnsNetworks, []);
  m.files.write('C:\\k\\kubeconfig', Buffer.from('{}'));
  await m.scm.start('hybrid-overlay-node');
  t.deepEqual(
    m.hnsNetworks.map((n) => n.name),
    ['BaseOVNKubernetesHybridOverlayNetwork', 'OVNKubernetesHybridOverlayNetwork'],
  );
});

test('kube-proxy needs the --config file network-conf.ps1 writes', async (t) => {
  const m = withService('kube-proxy', 'C:\\k\\kube-proxy.exe');
  m.files.remove('C:\\k\\kube-proxy.exe');
  await t.throwsAsync(m.scm.start('kube-proxy'), { message: /binary not found: C:\\k\\kube-proxy\.exe/ });
  m.files.write('C:\\k\\kube-proxy.exe', Buffer.from('bin'));
  t.regex(
    command('kube-proxy'),
    /kube-log-runner\.exe .* C:\\k\\kube-proxy\.exe --config C:\\k\\kube-proxy\.conf/,
  );
  await t.throwsAsync(m.scm.start('kube-proxy'), { message: /file not found: C:\\k\\kube-proxy\.conf/ });
  m.files.write('C:\\k\\kube-proxy.conf', Buffer.from('kind: KubeProxyConfiguration'));
  await m.scm.start('kube-proxy');
  t.is(m.scm.get('kube-proxy')?.state, 'running');
});
