import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { findPwsh } from '../pwsh/find-pwsh.js';
import { loadHostCaptureScript, parseCaptureOutput, type CaptureRecord } from './host-capture.js';

// WmcoCapture.ps1 itself, run by pwsh with the Windows-only commands it reads replaced by functions that
// return Windows' shapes (one firewall rule whose LocalPort is a string[] of one, a registry key, a
// failing DISM). This proves the script's own logic (item conversion, types, per-source errors, the
// output lines); pwsh 7's ConvertTo-Json is not 5.1's, which only a real host shows (hostcheck).
const STUBS = String.raw`
function Get-CimInstance([string]$ClassName) {
  if ($ClassName -eq 'Win32_Service') {
    $s = [pscustomobject]@{ Name = 'kubelet'; State = 'Running'; StartMode = 'Auto'; ProcessId = [uint32]4242; ExitCode = [uint32]0; Description = 'OpenShift managed'; PathName = 'C:\k\kubelet.exe' }
    $s.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service')
    return $s
  }
  $os = [pscustomobject]@{ Caption = 'Microsoft Windows Server 2022 Datacenter'; BuildNumber = '20348'; LastBootUpTime = [datetime]'2026-01-02T03:04:05Z'; MUILanguages = [string[]]@('en-US') }
  $os.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_OperatingSystem')
  return $os
}
function Get-NetFirewallRule { [pscustomobject]@{ Name = 'ContainerLogsPort'; DisplayName = 'ContainerLogsPort'; Enabled = 'True' } }
function Get-NetFirewallPortFilter { $f = [pscustomobject]@{ InstanceID = 'ContainerLogsPort'; Protocol = 'TCP'; LocalPort = [string[]]@('10250') }; $f.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/StandardCimv2/MSFT_NetProtocolPortFilter'); $f }
function Get-NetRoute { [pscustomobject]@{ DestinationPrefix = '0.0.0.0/0'; NextHop = '10.0.0.1'; RouteMetric = [uint16]0; InterfaceIndex = [uint32]6 } }
function Get-NetIPAddress { [pscustomobject]@{ IPAddress = '10.0.0.10'; InterfaceIndex = [uint32]6; PrefixLength = [byte]24 } }
function Get-NetAdapter { [pscustomobject]@{ Name = 'Ethernet'; ifIndex = [uint32]6; MacAddress = '00-15-5D-00-00-06'; Hidden = $false } }
function Get-WindowsOptionalFeature { throw 'Class not registered' }
function Get-Item([string]$LiteralPath) {
  if ($LiteralPath -notlike 'HKLM:\SYSTEM\CurrentControlSet\Services\kubelet') { return $null }
  $key = [pscustomobject]@{ Path = $LiteralPath }
  $key | Add-Member -MemberType ScriptMethod -Name GetValueNames -Value { @('Environment', 'Start') }
  $key | Add-Member -MemberType ScriptMethod -Name GetValue -Value { param($n) if ($n -eq 'Environment') { , [string[]]@('HTTP_PROXY=http://proxy:3128') } else { 2 } }
  $key | Add-Member -MemberType ScriptMethod -Name GetValueKind -Value { param($n) if ($n -eq 'Environment') { 'MultiString' } else { 'DWord' } }
  return $key
}
function Get-ChildItem { }
`;

/** Runs a script file (`-Command -` would read stdin line by line, as typed input). */
async function runPwsh(pwsh: string, script: string): Promise<{ stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-capture-'));
  const file = join(dir, 'capture.ps1');
  await writeFile(file, script);
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(pwsh, ['-NoProfile', '-NonInteractive', '-File', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      child.on('error', reject);
      child.on('close', () => resolve({ stdout, stderr }));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const pwsh = findPwsh(process.env);
const title = 'WmcoCapture.ps1 runs to its end and records each source with its .NET types, or its error';
if ('missing' in pwsh) test.skip(`${title} (skipped: ${pwsh.missing})`, () => undefined);
else
  test(title, async (t) => {
    const capture = await loadHostCaptureScript();
    const { stdout, stderr } = await runPwsh(pwsh.path, `${STUBS}\n& {\n${capture.text}\n}\n`);
    const { records, complete } = parseCaptureOutput(stdout);
    t.true(complete, stderr);
    t.regex(stdout, /^wmco-capture-done 17\r?$/m);
    const byName = (n: string): CaptureRecord | undefined => records.find((r) => r.name === n);
    t.like(byName('net-firewall-port-filter')?.items[0], {
      type: 'Microsoft.Management.Infrastructure.CimInstance#root/StandardCimv2/MSFT_NetProtocolPortFilter',
      value: { LocalPort: ['10250'], Protocol: 'TCP' },
      types: { LocalPort: 'System.String[]', Protocol: 'System.String' },
    });
    t.like(byName('win32-service')?.items[0], {
      value: { ProcessId: 4242 },
      types: { ProcessId: 'System.UInt32' },
    });
    const os = byName('win32-operatingsystem');
    t.is(os?.items.length, 2);
    t.like(os?.items[0], {
      value: { LastBootUpTime: '2026-01-02T03:04:05.0000000Z', MUILanguages: ['en-US'] },
      types: { LastBootUpTime: 'System.DateTime', MUILanguages: 'System.String[]' },
    });
    t.deepEqual(
      byName('service-registry')?.items.map((i) => [i.value.Name, i.value.Value, i.types.Value]),
      [
        ['Environment', ['HTTP_PROXY=http://proxy:3128'], 'System.String[]'],
        ['Start', 2, 'System.Int32'],
      ],
    );
    t.like(byName('windows-optional-feature'), { items: [], error: 'Class not registered' });
    t.is(byName('root-certificate')?.error, null);
  });
