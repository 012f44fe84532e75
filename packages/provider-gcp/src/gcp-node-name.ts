/** The longest name the kubelet may register under on GCP: one DNS label. */
export const GCP_NODE_NAME_MAX = 63;

/**
 * The node name for a GCE instance's metadata hostname: the TypeScript twin of the rule the PowerShell in
 * gcp-hostname-override.ts runs on the host (keep the two in step). At most 63 characters: as is;
 * otherwise the part before the first `.` when that part is 1 to 63 characters; otherwise the first 63.
 */
export function gcpNodeName(metadataHostname: string): string {
  const hostname = metadataHostname.trim();
  if (hostname.length <= GCP_NODE_NAME_MAX) return hostname;
  const firstDot = hostname.indexOf('.');
  if (firstDot > 0 && firstDot <= GCP_NODE_NAME_MAX) return hostname.slice(0, firstDot);
  return hostname.slice(0, GCP_NODE_NAME_MAX);
}
