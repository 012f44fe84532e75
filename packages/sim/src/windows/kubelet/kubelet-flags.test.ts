import test from 'ava';
import { buildWindowsServices } from '@wmco/core';
import { splitCommandLine } from '../command-line.js';
import { parseKubeletFlags, stripLogRunner } from './kubelet-flags.js';

const operatorCommand = (): string => {
  const svc = buildWindowsServices({
    apiServerInternalUrl: 'https://api-int.example.com:6443',
    debug: true,
    cloudProvider: 'external',
    capabilities: { hostnameOverride: { command: 'hostname' } as never },
  }).find((s) => s.name === 'kubelet');
  return (svc?.command ?? '')
    .replaceAll('NODE_IP', '10.1.2.3')
    .replaceAll('HOSTNAME_OVERRIDE', 'Ip-10-1-2-3');
};

test('the operator command line: log runner stripped, flags read', (t) => {
  const f = parseKubeletFlags(splitCommandLine(operatorCommand()));
  t.like(f, {
    binary: 'C:\\k\\kubelet.exe',
    config: 'C:\\k\\kubelet.conf',
    bootstrapKubeconfig: 'C:\\k\\bootstrap-kubeconfig',
    kubeconfig: 'C:\\k\\kubeconfig',
    certDir: 'c:\\var\\lib\\kubelet\\pki\\',
    hostnameOverride: 'Ip-10-1-2-3',
    nodeIp: '10.1.2.3',
    verbosity: 4,
    windowsService: true,
    cloudProvider: 'external',
  });
  t.deepEqual(f.nodeLabels, { 'node.openshift.io/os_id': 'Windows' });
});

test('stripLogRunner leaves an unwrapped command alone and drops the runner flags', (t) => {
  t.deepEqual(stripLogRunner(['C:\\k\\kubelet.exe', '--v=2']), ['C:\\k\\kubelet.exe', '--v=2']);
  t.deepEqual(
    stripLogRunner([
      'C:\\k\\kube-log-runner.exe',
      '-log-file=x',
      '-log-file-size=1',
      'C:\\k\\kubelet.exe',
      '-v',
    ]),
    ['C:\\k\\kubelet.exe', '-v'],
  );
  t.throws(() => parseKubeletFlags(['C:\\k\\kube-log-runner.exe', '-log-file=x']), {
    message: 'kube-log-runner wraps no command',
  });
});

test('bad flags are named', (t) => {
  t.throws(() => parseKubeletFlags(['k.exe', '--node-labels=a=b,bad key=x']), {
    message: /bad label key "bad key"/,
  });
  t.throws(() => parseKubeletFlags(['k.exe', '--node-ip=HOST']), { message: /invalid --node-ip "HOST"/ });
  t.throws(() => parseKubeletFlags(['k.exe', '--v=x']), { message: /invalid --v "x"/ });
});
