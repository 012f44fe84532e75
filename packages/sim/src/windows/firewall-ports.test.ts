import test from 'ava';
import { HOST_PROTOCOL_VERSION } from '@wmco/core/internal';
import { type ObserveRequest } from '@wmco/core';
import { observe } from './host-operations.js';
import { WindowsModel } from './windows-model.js';

const query: ObserveRequest = {
  v: HOST_PROTOCOL_VERSION,
  op: 'observe',
  directories: [],
  files: [],
  services: [],
  envVars: [],
  firewallRules: [],
};

test('observe reports inbound rules by port only when asked, whatever their names', (t) => {
  const m = new WindowsModel();
  m.firewallRules.push(
    { name: 'b-kubelet', protocol: 'TCP', localPort: 10250, direction: 'Inbound' },
    { name: 'a-kubelet', protocol: 'TCP', localPort: 10250, direction: 'Inbound' },
    { name: 'out', protocol: 'UDP', localPort: 4789, direction: 'Outbound' },
    { name: 'tcp-4789', protocol: 'TCP', localPort: 4789, direction: 'Inbound' },
  );
  t.is(observe(m, query).firewallPorts, undefined);
  const state = observe(m, {
    ...query,
    firewallPorts: [
      { protocol: 'TCP', localPort: 10250 },
      { protocol: 'UDP', localPort: 4789 },
    ],
  });
  t.deepEqual(state.firewallPorts, [
    { protocol: 'TCP', localPort: 10250, rules: ['a-kubelet', 'b-kubelet'] },
    { protocol: 'UDP', localPort: 4789, rules: [] },
  ]);
  t.deepEqual(state.firewallRules, []);
});
