import { clusterDnsAddress } from './cluster-dns.js';
import { cniConfiguration } from './cni-config.js';
import { HYBRID_OVERLAY_NETWORK, kubeProxyConfiguration } from './kube-proxy-config.js';

/** The inputs of `network-conf.ps1` known to the operator (upstream generateNetworkConfigScript). */
export interface NetworkScriptInput {
  /** The cluster's service network CIDR. */
  readonly serviceCidr: string;
  readonly hnsNetwork?: string;
  readonly hnsModulePath?: string;
  readonly cniConfigPath?: string;
}

const SAFE_PATH = /^[A-Za-z]:\\[A-Za-z0-9_.\-\\]+$/;
const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;

// Values the host learns at run time are written as @@NAME@@ in the generated JSON and filled in by the
// script; the JSON itself comes from the same builders `wmco render` uses, so there is one source of truth.
function templates(serviceCidr: string, network: string): { cni: string; kubeProxy: string } {
  const cni = cniConfiguration({
    networkName: network,
    subnet: '@@SUBNET@@',
    serviceCidr,
    providerAddress: '@@PROVIDER_ADDRESS@@',
  });
  const kubeProxy = kubeProxyConfiguration({
    hostnameOverride: '@@HOSTNAME_OVERRIDE@@',
    clusterCIDR: '@@CLUSTER_CIDR@@',
    sourceVip: '@@SOURCE_VIP@@',
    kubeconfig: '@@KUBECONFIG@@',
    verbosity: -1,
    networkName: network,
  }).replace('"verbosity": -1', '"verbosity": @@VERBOSITY@@');
  return { cni, kubeProxy };
}

/**
 * `C:\Temp\network-conf.ps1`, run as kube-proxy's pre-script (reference §1.17): waits for the hybrid-overlay
 * HNS network, writes the CNI config if it changed (ignoring `\r`), ensures the `VIPEndpoint` HNS endpoint
 * on the host compartment, and writes kube-proxy's config (DSR on) if it changed.
 *
 * The source VIP is the IPv4 address of the interface whose MAC is the endpoint's, found as upstream's
 * network-conf.ps1 finds it (`pkg/nodeconfig/payload/payload.go`): through `Get-NetIPConfiguration
 * -AllCompartments -All -Detailed`. The endpoint's host vNIC is a hidden adapter, which `Get-NetAdapter`
 * lists only with `-IncludeHidden`; the IP configuration of every compartment includes it. No match is
 * a clear error rather than an index into nothing.
 */
export function networkConfigScript(input: NetworkScriptInput): string {
  clusterDnsAddress(input.serviceCidr); // validates the CIDR (IPv4, with a prefix)
  const network = input.hnsNetwork ?? HYBRID_OVERLAY_NETWORK;
  const module = input.hnsModulePath ?? 'C:\\Temp\\hns.psm1';
  const cniPath = input.cniConfigPath ?? 'C:\\k\\cni\\config\\cni.conf';
  if (!SAFE_NAME.test(network)) throw new Error(`HNS network name "${network}" has unsafe characters`);
  for (const p of [module, cniPath])
    if (!SAFE_PATH.test(p)) throw new Error(`path "${p}" has unsafe characters`);
  const { cni, kubeProxy } = templates(input.serviceCidr, network);
  return `param(
  [Parameter(Mandatory = $true)][string]$hostnameOverride,
  [Parameter(Mandatory = $true)][string]$clusterCIDR,
  [Parameter(Mandatory = $true)][string]$kubeConfigPath,
  [Parameter(Mandatory = $true)][string]$kubeProxyConfigPath,
  [Parameter(Mandatory = $true)][int]$verbosity
)
$ErrorActionPreference = 'Stop'
Import-Module -DisableNameChecking '${module}'

function Write-IfChanged([string]$path, [string]$content) {
  $current = ''
  if (Test-Path -LiteralPath $path) { $current = (Get-Content -Raw -LiteralPath $path) -replace "\`r", '' }
  if ($current.Trim() -ne $content.Trim()) { Set-Content -LiteralPath $path -Value $content -Encoding ascii }
}

$hnsNetwork = $null
for ($i = 0; $i -lt 20; $i++) {
  $hnsNetwork = Get-HnsNetwork | Where-Object { $_.Name -eq '${network}' }
  if ($hnsNetwork) { break }
  Start-Sleep -Seconds 1
}
if (-not $hnsNetwork) { throw 'HNS network ${network} not found' }
$subnet = $hnsNetwork.Subnets[0].AddressPrefix
$cniConfig = @'
${cni}
'@
$cniConfig = $cniConfig.Replace('@@SUBNET@@', $subnet).Replace('@@PROVIDER_ADDRESS@@', $hnsNetwork.ManagementIP)
Write-IfChanged '${cniPath}' $cniConfig

$endpoint = Get-HnsEndpoint | Where-Object { $_.Name -eq 'VIPEndpoint' }
if (-not $endpoint) {
  $endpoint = New-HnsEndpoint -NetworkId $hnsNetwork.ID -Name 'VIPEndpoint'
  Attach-HnsHostEndpoint -EndpointID $endpoint.ID -CompartmentID 1
}
$mac = $endpoint.MacAddress -replace ':', '-'
$vipConfig = @(Get-NetIPConfiguration -AllCompartments -All -Detailed | Where-Object { $_.NetAdapter.LinkLayerAddress -eq $mac })
if ($vipConfig.Count -eq 0) { throw "no network interface has the MAC $mac of the VIPEndpoint HNS endpoint" }
$sourceVip = @($vipConfig[0].IPv4Address)[0].IPAddress.Trim()
$kubeProxyConfig = @'
${kubeProxy}
'@
foreach ($field in @{ HOSTNAME_OVERRIDE = $hostnameOverride; CLUSTER_CIDR = $clusterCIDR; SOURCE_VIP = $sourceVip; KUBECONFIG = $kubeConfigPath }.GetEnumerator()) {
  $kubeProxyConfig = $kubeProxyConfig.Replace('"@@' + $field.Key + '@@"', (ConvertTo-Json -InputObject ([string]$field.Value)))
}
$kubeProxyConfig = $kubeProxyConfig.Replace('@@VERBOSITY@@', [string]$verbosity)
Write-IfChanged $kubeProxyConfigPath $kubeProxyConfig
`;
}
