import test from 'ava';
import type { FirewallPortState } from '../host/protocol/index.js';
import { checkFirewall, firewallPortsToCheck } from './firewall-check.js';
import { ANY_BUILD, NONE, STRICT, healthyState } from './host-state.test-helper.js';

function ports(open: Record<string, string[]>, vxlan = 4789): FirewallPortState[] {
  return firewallPortsToCheck(vxlan).map((p) => ({
    ...p,
    rules: open[`${p.protocol}/${p.localPort}`] ?? [],
  }));
}

test('asks about kubelet, windows_exporter and the VXLAN port', (t) => {
  t.deepEqual(firewallPortsToCheck(4800), [
    { protocol: 'TCP', localPort: 10250 },
    { protocol: 'TCP', localPort: 9182 },
    { protocol: 'UDP', localPort: 4800 },
  ]);
});

test('all three open passes', (t) => {
  const f = checkFirewall(healthyState(), ANY_BUILD, NONE);
  t.is(f.status, 'pass');
  t.regex(f.detail, /TCP 10250 \(kubelet\), TCP 9182 \(windows_exporter\), UDP 4789 \(VXLAN\)/);
});

test('a missing VXLAN rule fails with the rule to add', (t) => {
  const state = healthyState({ firewallPorts: ports({ 'TCP/10250': ['a'], 'TCP/9182': ['b'] }) });
  const f = checkFirewall(state, ANY_BUILD, NONE);
  t.is(f.status, 'fail');
  t.regex(f.detail, /UDP 4789 \(VXLAN\)$/);
  t.is(
    f.fix,
    "New-NetFirewallRule -DisplayName 'HybridOverlayVXLAN' -Direction Inbound -Protocol UDP -LocalPort 4789 -Action Allow",
  );
});

test('missing kubelet or exporter rules warn: the join adds them', (t) => {
  const state = healthyState({ firewallPorts: ports({ 'UDP/4789': ['v'] }) });
  const f = checkFirewall(state, ANY_BUILD, NONE);
  t.is(f.status, 'warn');
  t.regex(
    f.detail,
    /TCP 10250 \(kubelet\), TCP 9182 \(windows_exporter\): the join adds ContainerLogsPort and WindowsExporter/,
  );
  const nothing = checkFirewall(healthyState({ firewallPorts: ports({}) }), ANY_BUILD, NONE);
  t.is(nothing.status, 'fail');
  t.regex(nothing.detail, /nor TCP 10250/);
});

test('a platform needing a custom VXLAN port fails on 4789 and checks the given port', (t) => {
  const custom = { platform: 'VSphere', vxlanPort: 4800 };
  const f = checkFirewall(healthyState(), STRICT, { platform: 'VSphere', vxlanPort: 4789 });
  t.is(f.status, 'fail');
  t.regex(f.fix ?? '', /--vxlan-port/);
  t.is(checkFirewall(healthyState(), STRICT, custom).status, 'fail');
  const open = ports({ 'TCP/10250': ['a'], 'TCP/9182': ['b'], 'UDP/4800': ['v'] }, 4800);
  t.is(checkFirewall(healthyState({ firewallPorts: open }), STRICT, custom).status, 'pass');
});

test('a host that reports no firewall ports fails (old module)', (t) => {
  const { firewallPorts: _, ...state } = healthyState();
  t.is(checkFirewall(state, ANY_BUILD, NONE).status, 'fail');
});
