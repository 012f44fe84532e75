/**
 * windows_exporter's web config as the operator image ships it (reference §1.16): the files the operator
 * writes from the `windows-machine-config-operator-tls` Secret. Real content, because the simulated
 * exporter reads it to serve TLS.
 */
export const EXPORTER_WEB_CONFIG = [
  'tls_server_config:',
  "  cert_file: 'C:\\k\\tls\\certs\\tls.crt'",
  "  key_file: 'C:\\k\\tls\\certs\\tls.key'",
  '',
].join('\n');

/**
 * The payload's PowerShell files as stand-ins that run (the PowerShell host engine executes them): the
 * Defender exclusion with upstream's behaviour (reference wmco-upstream §1.4: when process MsMpEng runs,
 * `Add-MpPreference -ExclusionProcess <BinPath>`), and an hns.psm1 that defines nothing (the simulated
 * host's HNS commands answer).
 */
export const POWERSHELL_STAND_INS: Readonly<Record<string, string>> = {
  'windows-defender-exclusion.ps1': [
    '# wmco-sim stand-in for upstream windows-defender-exclusion.ps1',
    'param([Parameter(Mandatory = $true)][string] $BinPath)',
    'if (Get-Process -Name MsMpEng -ErrorAction SilentlyContinue) { Add-MpPreference -ExclusionProcess $BinPath }',
    '',
  ].join('\r\n'),
  'hns.psm1': '# wmco-sim stand-in for upstream hns.psm1: the simulated host answers the HNS commands\r\n',
};

/** A payload file whose content is text a host reads or runs: that text (else undefined: a binary). */
export function payloadText(name: string): string | undefined {
  return name === 'windows-exporter-webconfig.yaml' ? EXPORTER_WEB_CONFIG : POWERSHELL_STAND_INS[name];
}
