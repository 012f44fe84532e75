import { WindowsPaths, type HostFile, type HostnameOverride } from '@wmco/core/provider';
import { GCP_NODE_NAME_MAX } from './gcp-node-name.js';

const SCRIPT_PATH = `${WindowsPaths.remoteDir}\\gcp-get-hostname.ps1`;
const METADATA_URL = 'http://metadata.google.internal/computeMetadata/v1/instance/hostname';

/**
 * Prints the node name: the instance's metadata hostname, cut to one DNS label the way the GCP cloud
 * provider names nodes. Written for wmco-ts (upstream ships its own script in the payload); the same
 * rule in TypeScript is gcpNodeName(), which the tests exercise.
 */
const script = `# Prints the name this GCE instance registers under as a Kubernetes node (written by wmco).
$ErrorActionPreference = 'Stop'
$headers = @{ 'Metadata-Flavor' = 'Google' }
$hostname = ([string](Invoke-RestMethod -UseBasicParsing -Headers $headers -Uri '${METADATA_URL}')).Trim()
if ($hostname.Length -le ${GCP_NODE_NAME_MAX}) {
  return $hostname
}
$firstDot = $hostname.IndexOf('.')
if ($firstDot -gt 0 -and $firstDot -le ${GCP_NODE_NAME_MAX}) {
  return $hostname.Substring(0, $firstDot)
}
return $hostname.Substring(0, ${GCP_NODE_NAME_MAX})
`;

const hostFile: HostFile = { path: SCRIPT_PATH, content: script };

/** The kubelet's `--hostname-override` on GCP comes from the metadata server (reference §2). */
export const gcpHostnameOverride: HostnameOverride = {
  command: SCRIPT_PATH,
  files: [hostFile],
};
