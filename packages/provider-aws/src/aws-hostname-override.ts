import type { HostnameOverride } from '@wmco/core/provider';

/**
 * The node name on AWS is the instance's private DNS name, read from the instance metadata service.
 * IMDSv1 (no session token), as upstream: instances must allow IMDSv1 (see the prerequisites notes).
 */
export const awsHostnameOverride: HostnameOverride = {
  command: 'Invoke-RestMethod -UseBasicParsing -Uri http://169.254.169.254/latest/meta-data/local-hostname',
  files: [],
};
