import type { HostnameOverride } from '@wmco/core/provider';

/**
 * On vSphere the node registers under its FQDN, `<Host Name>.<Primary Dns Suffix>` from `ipconfig /all`
 * (OCPBUGS-33319), or the bare host name when the host has no primary DNS suffix. Its twin is
 * fqdnFromIpconfig().
 *
 * Decision: the same result as upstream's GetHostnameFQDNCommand (reference §3.7), written anew. Upstream
 * runs `-split '`n'` on the output; in single quotes that is a literal backtick and `n`, so it splits
 * nothing (ipconfig's output already arrives as lines); it is left out here. The first matching line is
 * used, the value is what follows the first `:`, and a missing line yields an error, never an empty name.
 */
export const vsphereHostnameOverride: HostnameOverride = {
  command: [
    '$ipconfig = ipconfig /all',
    "$hostLine = $ipconfig | Where-Object { $_ -match 'Host Name' } | Select-Object -First 1",
    "$suffixLine = $ipconfig | Where-Object { $_ -match 'Primary Dns Suffix' } | Select-Object -First 1",
    "$hostName = ([string](($hostLine -split ':', 2)[1])).Trim()",
    "$dnsSuffix = ([string](($suffixLine -split ':', 2)[1])).Trim()",
    "if (-not $hostName) { throw 'ipconfig /all shows no Host Name' }",
    'if (-not $dnsSuffix) { return $hostName }',
    "return $hostName + '.' + $dnsSuffix",
  ].join('; '),
  files: [],
};
