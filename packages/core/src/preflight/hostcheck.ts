import { NODE_IP_SCRIPT } from '../desired/core-services.js';
import { isConnectError } from './connection-findings.js';
import { firewallPortsToCheck } from './firewall-check.js';
import type { HostState } from '../host/protocol/index.js';
import { SshWindowsHost } from '../host/ssh/ssh-windows-host.js';
import { oneShotSshOptions } from '../host/ssh/one-shot-ssh-options.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import { captureHost } from '../host/capture/capture-session.js';
import type { CaptureRecord } from '../host/capture/host-capture.js';

/** How `wmco hostcheck` reaches the host. */
export interface HostcheckTarget {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly privateKey: string | Buffer;
  readonly timeoutMs: number;
  /** The platform's HOSTNAME_OVERRIDE command, evaluated (read-only) with NODE_IP. */
  readonly hostnameCommand?: string | undefined;
}

/** The two doors hostcheck uses; tests may hand in their own. */
export interface HostcheckPorts {
  readonly openHost: (o: SshHostOptions) => WindowsHost;
  readonly capture: (o: SshHostOptions) => Promise<CaptureRecord[]>;
}

export const REAL_HOSTCHECK_PORTS: HostcheckPorts = {
  openHost: (o) => new SshWindowsHost(o),
  capture: captureHost,
};

/** What hostcheck learnt: the module's observe (or why it failed) and what each Windows source returned. */
export interface HostcheckResult {
  readonly query: ObserveQuery;
  readonly observe: { readonly state: HostState } | { readonly error: string };
  readonly records: readonly CaptureRecord[];
}

const CORE_SERVICES = [
  'containerd',
  'kubelet',
  'windows_exporter',
  'hybrid-overlay-node',
  'csi-proxy',
  'kube-proxy',
];

/**
 * Everything observe reads, asked for the operator's own names: its services, both firewall rules of
 * every node, the node's ports, the Root store, the pre-scripts that only read (NODE_IP, the hostname
 * override). Nothing in it changes the host.
 */
export function hostcheckQuery(hostnameCommand?: string): ObserveQuery {
  return {
    directories: ['C:\\k', 'C:\\var\\log'],
    files: ['C:\\k\\kubelet.exe', 'C:\\k\\kubelet.conf'],
    services: CORE_SERVICES,
    envVars: ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'],
    firewallRules: ['ContainerLogsPort', 'WindowsExporter'],
    firewallPorts: firewallPortsToCheck(4789),
    rootCertificates: [],
    evaluate: [
      { name: 'NODE_IP', script: NODE_IP_SCRIPT },
      ...(hostnameCommand ? [{ name: 'HOSTNAME_OVERRIDE', script: hostnameCommand }] : []),
    ],
  };
}

function sshOptions(t: HostcheckTarget): SshHostOptions {
  return oneShotSshOptions(t, 120_000);
}

/**
 * The module's read-only operation (observe, with the read-only pre-scripts) and the capture script, over
 * the operator's SSH adapter. A connection that cannot be made throws (the adapter's typed errors); an
 * observe the module fails is reported, not thrown, so the capture still runs and both are kept.
 */
export async function runHostcheck(
  t: HostcheckTarget,
  ports: HostcheckPorts = REAL_HOSTCHECK_PORTS,
): Promise<HostcheckResult> {
  const query = hostcheckQuery(t.hostnameCommand);
  const host = ports.openHost(sshOptions(t));
  let observe: HostcheckResult['observe'];
  try {
    observe = { state: await host.observe(query) };
  } catch (err) {
    if (isConnectError(err)) throw err;
    observe = { error: err instanceof Error ? err.message : String(err) };
  } finally {
    await host.close();
  }
  const records = await ports.capture(sshOptions(t));
  return { query, observe, records };
}
