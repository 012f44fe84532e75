import test from 'ava';
import { checkContainers, checkDisk, checkShell } from './basic-host-checks.js';
import { checkHost } from './check-host.js';
import { checkHostname, suggestHostname } from './hostname-check.js';
import { checkOsBuild } from './os-build-check.js';
import { ANY_BUILD, NONE, STRICT, healthyState } from './host-state.test-helper.js';

test('a healthy host passes every host check, in report order', (t) => {
  const findings = checkHost(healthyState(), ANY_BUILD, NONE);
  t.deepEqual(
    findings.map((f) => `${f.check}:${f.status}`),
    [
      'shell:pass',
      'folders:pass',
      'os-build:pass',
      'containers:pass',
      'hostname:pass',
      'disk:pass',
      'firewall:pass',
    ],
  );
  t.true(findings.every((f) => f.fix === undefined));
});

test('both default shells pass and are named', (t) => {
  t.regex(checkShell(healthyState({ defaultShell: 'cmd' })).detail, /cmd\.exe/);
  const ps = checkShell(healthyState({ defaultShell: 'powershell' }));
  t.is(ps.status, 'pass');
  t.regex(ps.detail, /PowerShell/);
});

test('os-build: an unlisted build fails and lists what is supported', (t) => {
  const f = checkOsBuild(healthyState({ os: { build: 19045, ubr: 1 } }), ANY_BUILD, NONE);
  t.is(f.status, 'fail');
  t.regex(f.detail, /19045\.1 is not supported on platform None/);
  t.regex(
    f.fix ?? '',
    /Windows Server 2019 \(17763\), Windows Server 2022 \(20348\), Windows Server 2025 \(26100\)/,
  );
});

test('os-build: a revision below minRevision fails; at minRevision passes', (t) => {
  const opts = { platform: 'VSphere', vxlanPort: 4800 };
  const old = checkOsBuild(healthyState({ os: { build: 20348, ubr: 642 } }), STRICT, opts);
  t.is(old.status, 'fail');
  t.regex(old.detail, /older than 20348\.643 \(needs KB5012637\)/);
  t.regex(old.fix ?? '', /cumulative update/);
  t.is(checkOsBuild(healthyState({ os: { build: 20348, ubr: 643 } }), STRICT, opts).status, 'pass');
  t.is(checkOsBuild(healthyState({ os: { build: 17763, ubr: 9999 } }), STRICT, opts).status, 'fail');
});

test('os-build: Windows Server 2019 with a custom VXLAN port fails', (t) => {
  const ws2019 = healthyState({ os: { build: 17763, ubr: 5000 } });
  t.is(checkOsBuild(ws2019, ANY_BUILD, NONE).status, 'pass');
  const f = checkOsBuild(ws2019, ANY_BUILD, { platform: 'None', vxlanPort: 4800 });
  t.is(f.status, 'fail');
  t.regex(f.detail, /custom VXLAN port 4800/);
});

test('containers: missing warns that the join installs it and restarts the host', (t) => {
  t.is(checkContainers(healthyState()).status, 'pass');
  const f = checkContainers(healthyState({ containersFeature: false }));
  t.is(f.status, 'warn');
  t.regex(f.detail, /restarts the host/);
  t.regex(f.fix ?? '', /Install-WindowsFeature -Name Containers/);
});

test('hostname: RFC 1123 after lower-casing, 63 characters, and the platform limit', (t) => {
  const check = (hostname: string, prereqs = ANY_BUILD): string =>
    checkHostname(healthyState({ hostname }), prereqs).status;
  t.is(check('WIN-1'), 'pass');
  t.is(check('a'.repeat(63)), 'pass');
  t.is(check('a'.repeat(64)), 'fail');
  for (const bad of ['WIN_1', '-win', 'win-', 'win.example', 'wïn', '']) t.is(check(bad), 'fail', bad);
  t.is(check('a'.repeat(15), STRICT), 'pass');
  const long = checkHostname(healthyState({ hostname: 'windows-worker-01' }), STRICT);
  t.is(long.status, 'fail');
  t.regex(long.detail, /17 characters; at most 15/);
  t.regex(long.fix ?? '', /Rename-Computer -NewName windows-worker -Restart/);
});

test('suggestHostname makes a valid name', (t) => {
  t.is(suggestHostname('WIN_NODE 1', 63), 'win-node-1');
  t.is(suggestHostname('__', 63), 'windows-node');
  t.is(suggestHostname('abcdefghij-klmnop', 11), 'abcdefghij');
});

test('disk: fail under 10 GiB, warn under 20 GiB, pass from 20 GiB', (t) => {
  const at = (gib: number): string => checkDisk(healthyState({ freeDiskBytes: gib * 2 ** 30 })).status;
  t.is(at(9.9), 'fail');
  t.is(at(10), 'warn');
  t.is(at(19.9), 'warn');
  t.is(at(20), 'pass');
  t.regex(checkDisk(healthyState({ freeDiskBytes: 5 * 2 ** 30 })).detail, /5\.0 GiB free on C:/);
});
