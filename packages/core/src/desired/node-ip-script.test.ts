// NODE_IP_SCRIPT run by a real PowerShell (7, from the project's toolchain) against stand-ins of NetTCPIP's
// Get-NetRoute and Get-NetIPAddress, shaped as Windows returns them (MSFT_NetRoute: DestinationPrefix,
// ifIndex, NextHop, RouteMetric, InterfaceMetric, PolicyStore; MSFT_NetIPAddress: IPAddress, InterfaceIndex
// with the alias ifIndex and taken from the pipeline by property name, SkipAsSource).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { findPwsh } from '../host/pwsh/find-pwsh.js';
import { NODE_IP_SCRIPT } from './core-services.js';

const pwsh = findPwsh(process.env);
const withPwsh = 'missing' in pwsh ? test.skip : test;
if ('missing' in pwsh) console.log(`NODE_IP script run skipped: ${pwsh.missing}`);

/** Two NICs with a default route each; the second one's persistent route is listed by both stores. */
const STAND_INS = `
$script:routes = @(
  [pscustomobject]@{ DestinationPrefix = '0.0.0.0/0'; ifIndex = 12; NextHop = '192.168.5.1'; RouteMetric = 0; InterfaceMetric = 25; PolicyStore = 'ActiveStore'; AddressFamily = 'IPv4' }
  [pscustomobject]@{ DestinationPrefix = '0.0.0.0/0'; ifIndex = 6; NextHop = '10.0.0.1'; RouteMetric = 0; InterfaceMetric = 15; PolicyStore = 'ActiveStore'; AddressFamily = 'IPv4' }
  [pscustomobject]@{ DestinationPrefix = '0.0.0.0/0'; ifIndex = 6; NextHop = '10.0.0.1'; RouteMetric = 0; InterfaceMetric = 15; PolicyStore = 'PersistentStore'; AddressFamily = 'IPv4' }
)
$script:addresses = @(
  [pscustomobject]@{ IPAddress = '192.168.5.20'; InterfaceIndex = 12; SkipAsSource = $false }
  [pscustomobject]@{ IPAddress = '10.0.0.10'; InterfaceIndex = 6; SkipAsSource = $false }
  [pscustomobject]@{ IPAddress = '10.0.0.99'; InterfaceIndex = 6; SkipAsSource = $true }
)
function Get-NetRoute {
  param([string[]] $DestinationPrefix, [string] $AddressFamily, [string] $PolicyStore)
  $script:routes | Where-Object { (-not $DestinationPrefix -or $DestinationPrefix -contains $_.DestinationPrefix) -and (-not $PolicyStore -or $_.PolicyStore -eq $PolicyStore) }
}
function Get-NetIPAddress {
  param([string] $AddressFamily,
    [Parameter(ValueFromPipelineByPropertyName = $true)] [Alias('ifIndex')] [uint32[]] $InterfaceIndex)
  process { $script:addresses | Where-Object { $InterfaceIndex -contains $_.InterfaceIndex } }
}
`;

function nodeIp(script: string): { status: number | null; lines: string[]; stderr: string } {
  const encoded = Buffer.from(`${STAND_INS}\n${script}\n`, 'utf16le').toString('base64');
  const r = spawnSync(
    (pwsh as { path: string }).path,
    ['-NoProfile', '-NonInteractive', '-EncodedCommand', encoded],
    {
      input: '',
      encoding: 'utf8',
    },
  );
  return { status: r.status, lines: r.stdout.split(/\r?\n/).filter((l) => l !== ''), stderr: r.stderr };
}

withPwsh('NODE_IP is one address: the default route with the lowest route plus interface metric', (t) => {
  const r = nodeIp(NODE_IP_SCRIPT);
  t.is(r.status, 0, r.stderr);
  t.deepEqual(r.lines, ['10.0.0.10']);
});
