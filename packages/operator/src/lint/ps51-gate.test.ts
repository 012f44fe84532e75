import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { findPwsh, formatFindings, runPs51Gate, type GateReport } from '@wmco/core/internal';
import { allOperatorScripts } from './operator-scripts.test-helper.js';

// The Windows PowerShell 5.1 gate over every script the operator sends, in one pwsh start.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const pwsh = findPwsh(process.env);
const scripts = allOperatorScripts();
const report: Promise<GateReport> | undefined =
  'missing' in pwsh ? undefined : scripts.then((s) => runPs51Gate(pwsh.path, s));
report?.catch(() => undefined);

const title = 'every script the operator sends passes the Windows PowerShell 5.1 gate';
if ('missing' in pwsh) test.skip(`${title} (skipped: ${pwsh.missing})`, () => undefined);
else
  test(title, async (t) => {
    const { findings, inventory } = await (report as Promise<GateReport>);
    t.is(formatFindings(findings), '');
    t.deepEqual(Object.keys(inventory).sort(), (await scripts).map((s) => s.name).sort());
    // The module's own checks really ran: its cmdlets and parameters were looked up in the 5.1 profile.
    t.deepEqual(inventory['WmcoHost.psm1']?.commands['Get-NetFirewallPortFilter'], [
      'AssociatedNetFirewallRule',
      'ErrorAction',
      'PolicyStore',
    ]);
  });

test('the gated set holds the module, every invocation, network-conf.ps1, the capture and each provider', async (t) => {
  const names = (await scripts).map((s) => s.name);
  for (const name of [
    'WmcoHost.psm1',
    'hostInvocationScript',
    'hostInstallInvocationScript',
    'hostSessionScript',
    'hostSessionScript (install)',
    'WmcoCapture.ps1',
    'hostCaptureInvocationScript',
    'network-conf.ps1',
    'pre-script core kubelet.0',
    'pre-script core kube-proxy.0',
    'pre-script aws kubelet.0',
    'gcp C:\\Temp\\gcp-get-hostname.ps1',
  ])
    t.true(names.includes(name), name);
  for (const id of ['aws', 'azure', 'gcp', 'vsphere', 'nutanix'])
    t.true(names.includes(`user-data ${id}`), `user-data ${id}`);
  const userData = (await scripts).find((s) => s.name === 'user-data aws');
  t.notRegex(userData?.text ?? '', /<\/?powershell>|<persist>/, 'the platform tags are not PowerShell');
});

// Source files with PowerShell in their code (a cmdlet name outside comments). Each one either builds a
// script operatorScripts() gathers, or only shows the user a command to type (never sent). A new file with
// PowerShell fails here until its script is added to operatorScripts() or it is listed as a hint.
const GATHERED = [
  'packages/core/src/desired/core-services.ts',
  'packages/core/src/desired/network-script.ts',
  'packages/core/src/desired/user-data.ts',
  'packages/core/src/host/capture/host-capture.ts',
  'packages/core/src/host/protocol/install-invocation.ts',
  'packages/core/src/host/protocol/invocation.ts',
  'packages/core/src/host/protocol/session-invocation.ts',
  'packages/provider-aws/src/aws-ec2launch-steps.ts',
  'packages/provider-aws/src/aws-hostname-override.ts',
  'packages/provider-gcp/src/gcp-hostname-override.ts',
];
const HINTS_ONLY = [
  'packages/core/src/preflight/basic-host-checks.ts',
  'packages/core/src/preflight/connection-findings.ts',
  'packages/core/src/preflight/firewall-check.ts',
  'packages/core/src/preflight/hostname-check.ts',
  'packages/operator/src/cli/hostcheck-command.ts',
];
const CMDLET =
  /\b(Get|Set|New|Remove|Invoke|Start|Stop|Add|Test|Enable|Rename|Import|Install)-[A-Z][A-Za-z]+\b/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.test\.ts$|test-helper/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

test('every source file with PowerShell in it is gathered for the gate or only shows a hint', async (t) => {
  // @wmco/sim stands for Windows (its shims, and the payload's script stand-ins in payload-text-files.ts,
  // run only by simulated hosts on the PowerShell engine): not operator code, so not gated.
  const packages = (await readdir(join(root, 'packages'))).filter((p) => p !== 'sim');
  const withPowerShell: string[] = [];
  for (const p of packages) {
    for (const file of await sourceFiles(join(root, 'packages', p, 'src'))) {
      const code = (await readFile(file, 'utf8'))
        .split('\n')
        .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
        .join('\n');
      if (CMDLET.test(code)) withPowerShell.push(relative(root, file));
    }
  }
  t.deepEqual(withPowerShell.sort(), [...GATHERED, ...HINTS_ONLY].sort());
});
