import test from 'ava';
import { serviceNeeds } from './service-needs.js';

test('a service needs the payload files its command line names, as whole file names', (t) => {
  const files = ['kubelet.exe', 'kube-log-runner.exe', 'containerd.exe', 'containerd-shim-runhcs-v1.exe'];
  const needs = serviceNeeds(
    [
      {
        name: 'kubelet',
        dependencies: ['containerd'],
        commandLine:
          'C:\\k\\kube-log-runner.exe --log-file=C:\\var\\log\\kubelet\\kubelet.log C:\\k\\kubelet.exe --v=2',
      },
      {
        name: 'containerd',
        dependencies: [],
        commandLine: '"C:\\k\\containerd\\containerd.exe" --config x.toml',
      },
      { name: 'other', dependencies: [], commandLine: 'C:\\k\\not-kubelet.exe.bak' },
    ],
    files,
  );
  t.deepEqual(
    needs.map((n) => [n.name, n.files]),
    [
      ['kubelet', ['kubelet.exe', 'kube-log-runner.exe']],
      ['containerd', ['containerd.exe']],
      ['other', []],
    ],
  );
  t.deepEqual(needs[0]!.dependencies, ['containerd']);
});
