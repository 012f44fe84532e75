import { token } from '../token.js';
import type { HostFile } from '../types/payload-file.js';

/**
 * The name the kubelet must register under when it differs from the Windows computer name. The command
 * runs on the host (as a kubelet pre-script filling HOSTNAME_OVERRIDE, and by the CSR approver to learn
 * the exact node name a host will ask for).
 */
export interface HostnameOverride {
  /** A PowerShell command line whose trimmed output is the node name. */
  readonly command: string;
  /** Script files the command needs on the host, written before it runs. */
  readonly files: readonly HostFile[];
}
export const HostnameOverride = token<HostnameOverride>('platform.hostname-override');
