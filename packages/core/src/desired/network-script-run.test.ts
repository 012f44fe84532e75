// network-conf.ps1 run by a real PowerShell (7, from the project's toolchain) against stand-ins of the
// Windows-only commands it calls, shaped as Windows returns them.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPwsh } from '../host/pwsh/find-pwsh.js';
import { networkConfigScript } from './network-script.js';

const pwsh = findPwsh(process.env);
const withPwsh = 'missing' in pwsh ? test.skip : test;
if ('missing' in pwsh) console.log(`network-conf.ps1 run skipped: ${pwsh.missing}`);

const VIP_MAC = '00-15-5D-AA-BB-CC';

// hns.psm1 and the NetTCPIP/NetAdapter cmdlets as a Windows host with the hybrid-overlay network shows
// them. The VIPEndpoint's host vNIC is a hidden adapter: Get-NetAdapter lists it only with -IncludeHidden,
// while Get-NetIPConfiguration -AllCompartments -All -Detailed lists every interface with its
// NetAdapter (MSFT_NetAdapter: LinkLayerAddress in dash form) and IPv4Address (MSFT_NetIPAddress[]).
const STAND_INS = `
function Get-HnsNetwork {
  [pscustomobject]@{ Name = 'OVNKubernetesHybridOverlayNetwork'; ID = 'net-1'; ManagementIP = '10.0.0.10'
    Subnets = @([pscustomobject]@{ AddressPrefix = '10.132.0.0/24' }) }
}
function Get-HnsEndpoint { }
function New-HnsEndpoint { param($NetworkId, $Name) [pscustomobject]@{ ID = 'ep-1'; Name = $Name; MacAddress = '${VIP_MAC}' } }
function Attach-HnsHostEndpoint { param($EndpointID, $CompartmentID) }
function Get-NetAdapter {
  param([switch] $IncludeHidden)
  [pscustomobject]@{ Name = 'Ethernet'; MacAddress = '00-15-5D-00-00-01'; ifIndex = 6 }
  if ($IncludeHidden) { [pscustomobject]@{ Name = 'vEthernet (VIPEndpoint)'; MacAddress = '${VIP_MAC}'; ifIndex = 20 } }
}
function Get-NetIPAddress {
  param([Parameter(ValueFromPipeline = $true)] $InputObject, $AddressFamily)
  process { if ($InputObject.ifIndex -eq 6) { [pscustomobject]@{ IPAddress = '10.0.0.10' } } else { [pscustomobject]@{ IPAddress = '10.132.0.2' } } }
}
function Get-NetIPConfiguration {
  param([switch] $AllCompartments, [switch] $All, [switch] $Detailed)
  [pscustomobject]@{ InterfaceAlias = 'Ethernet'; NetAdapter = [pscustomobject]@{ LinkLayerAddress = '00-15-5D-00-00-01' }
    IPv4Address = @([pscustomobject]@{ IPAddress = '10.0.0.10' }) }
  if ($All) {
    [pscustomobject]@{ InterfaceAlias = 'vEthernet (VIPEndpoint)'; NetAdapter = [pscustomobject]@{ LinkLayerAddress = '${VIP_MAC}' }
      IPv4Address = @([pscustomobject]@{ IPAddress = '10.132.0.2' }) }
  }
}
`;

withPwsh(
  "network-conf.ps1 finds the source VIP on the endpoint's hidden vNIC, as upstream's script does",
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'wmco-netconf-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    // Drive C: of the script is this folder (a PowerShell drive), so its paths land here.
    for (const d of ['Temp', 'k/cni/config']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'Temp/hns.psm1'), STAND_INS);
    writeFileSync(join(dir, 'network-conf.ps1'), networkConfigScript({ serviceCidr: '172.30.0.0/16' }));
    const command =
      `$null = New-PSDrive -Name C -PSProvider FileSystem -Root '${dir}'; ` +
      "& ./network-conf.ps1 -hostnameOverride win-1 -clusterCIDR 10.132.0.0/24 -kubeConfigPath 'C:\\k\\kubeconfig' " +
      "-kubeProxyConfigPath 'C:\\k\\kube-proxy.conf' -verbosity 0";
    const r = spawnSync(
      (pwsh as { path: string }).path,
      ['-NoProfile', '-NonInteractive', '-Command', command],
      {
        cwd: dir,
        input: '',
        encoding: 'utf8',
      },
    );
    t.is(r.status, 0, r.stderr);
    const config = JSON.parse(readFileSync(join(dir, 'k/kube-proxy.conf'), 'utf8')) as {
      winkernel: { sourceVip: string };
    };
    t.is(config.winkernel.sourceVip, '10.132.0.2');
  },
);
