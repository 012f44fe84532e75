import { NODE_IP_SCRIPT } from '@wmco/core/internal';
import type { WindowsModel } from '../windows-model.js';
import type { Cmdlet, ExactScript, ScriptFile } from './evaluator-registry.js';
import { PowerShellError, UnsupportedScriptError } from './script-errors.js';

/**
 * NODE_IP: the IPv4 address of the interface of the default route with the lowest route plus interface
 * metric (one NIC by default; `WindowsModel.addDefaultRoute` adds another).
 */
export const nodeIpScript: ExactScript = {
  text: NODE_IP_SCRIPT,
  run(m) {
    const best = m.interfaces.best(m.routes.filter((r) => r.destinationPrefix === '0.0.0.0/0'));
    if (!best) {
      throw new PowerShellError(
        "No MSFT_NetRoute objects found with property 'DestinationPrefix' equal to '0.0.0.0/0'.  Verify the " +
          'value of the property and retry.',
      );
    }
    return best.ipv4;
  },
};

/**
 * The vSphere HostnameOverride command, as @wmco/provider-vsphere sends it (a test in @wmco/operator keeps
 * the two texts in step). `ipconfig /all` shows the host name and the primary DNS suffix.
 */
export const VSPHERE_FQDN_SCRIPT = [
  '$ipconfig = ipconfig /all',
  "$hostLine = $ipconfig | Where-Object { $_ -match 'Host Name' } | Select-Object -First 1",
  "$suffixLine = $ipconfig | Where-Object { $_ -match 'Primary Dns Suffix' } | Select-Object -First 1",
  "$hostName = ([string](($hostLine -split ':', 2)[1])).Trim()",
  "$dnsSuffix = ([string](($suffixLine -split ':', 2)[1])).Trim()",
  "if (-not $hostName) { throw 'ipconfig /all shows no Host Name' }",
  'if (-not $dnsSuffix) { return $hostName }',
  "return $hostName + '.' + $dnsSuffix",
].join('; ');

export const vsphereFqdnScript: ExactScript = {
  text: VSPHERE_FQDN_SCRIPT,
  run: (m) => (m.dnsSuffix ? `${m.hostname}.${m.dnsSuffix}` : m.hostname),
};

/** The instance metadata the model answers: AWS IMDSv1 `local-hostname` (no headers needed). */
const METADATA: Record<string, (m: WindowsModel) => string> = {
  'http://169.254.169.254/latest/meta-data/local-hostname': (m) => m.metadataHostname,
};

/** `Invoke-RestMethod -Uri <url>` for the metadata URLs above; other URLs are not modelled. */
export const invokeRestMethod: Cmdlet = {
  name: 'Invoke-RestMethod',
  params: [
    { name: 'Uri', type: 'string', mandatory: true },
    { name: 'UseBasicParsing', type: 'switch' },
    { name: 'Method', type: 'string' },
  ],
  run(m, args) {
    const uri = String(args.get('Uri'));
    const method = String(args.get('Method') ?? 'Get');
    const answer = METADATA[uri];
    if (!answer || method.toLowerCase() !== 'get') {
      throw new UnsupportedScriptError(
        `Invoke-RestMethod: the simulated host does not serve ${method} ${uri}`,
      );
    }
    return answer(m);
  },
};

/** The GCP node name rule (gcp-get-hostname.ps1): at most 63 characters, else the first label. */
export function gcpNodeNameOf(metadataHostname: string): string {
  const hostname = metadataHostname.trim();
  if (hostname.length <= 63) return hostname;
  const firstDot = hostname.indexOf('.');
  if (firstDot > 0 && firstDot <= 63) return hostname.slice(0, firstDot);
  return hostname.slice(0, 63);
}

export const gcpHostnameScript: ScriptFile = {
  fileName: 'gcp-get-hostname.ps1',
  params: [],
  run: (m) => gcpNodeNameOf(m.metadataHostname),
};

/** Excludes the binary from Defender scanning when Defender runs (reference §1.4); prints nothing. */
export const defenderExclusionScript: ScriptFile = {
  fileName: 'windows-defender-exclusion.ps1',
  params: [{ name: 'BinPath', type: 'string', mandatory: true }],
  run(m, args) {
    const path = String(args.get('BinPath'));
    if (m.defenderRunning && !m.defenderExclusions.some((p) => p.toLowerCase() === path.toLowerCase())) {
      m.defenderExclusions.push(path);
    }
    return '';
  },
};
