import type { FileSystem } from './file-system.js';
import type { WindowsModel } from './windows-model.js';
import { flagValue, splitCommandLine } from './command-line.js';
import { kubeletBehaviour, type KubeletBehaviourOptions } from './kubelet/kubelet-behaviour.js';
import { stripLogRunner } from './kubelet/kubelet-flags.js';
import { windowsExporter } from './windows-exporter.js';
import { cloudNodeManager } from './cloud-node-manager.js';
import { withServiceLog } from './service-log.js';

/** What a behaviour sees when its service starts. */
export interface ServiceStartContext {
  readonly name: string;
  readonly commandLine: string;
  /** The command line split into arguments; `argv[0]` is the binary. */
  readonly argv: readonly string[];
  /** The whole host: env vars, HNS networks, hostname... (a kubelet reads its node name and IP here). */
  readonly host: WindowsModel;
  /** The host's files (read what the operator wrote; a behaviour may write, as a real service would). */
  readonly files: FileSystem;
  /** Aborted when the service stops or the host reboots; long-running work must end then. */
  readonly signal: AbortSignal;
}

/**
 * The outcome of a start: running (with an optional stop hook); failed with a reason (the process ended
 * during its start, with `exitCode`, 1067 when unset); or hung (it never reports RUNNING).
 */
export type ServiceRun =
  | { readonly state: 'running'; readonly stop?: () => Promise<void> }
  | { readonly state: 'failed'; readonly reason: string; readonly exitCode?: number }
  | { readonly state: 'hung' };

/**
 * Decides what happens when a service starts. A kubelet behaviour plugs in here: it parses its flags,
 * reads the bootstrap kubeconfig from `files`, and runs its TLS bootstrap and heartbeats until `signal`
 * aborts (or `stop` is called).
 */
export interface ServiceBehaviour {
  start(ctx: ServiceStartContext): Promise<ServiceRun> | ServiceRun;
}

/** Fails with the reason of the first check that fails. */
function requireFiles(ctx: ServiceStartContext, paths: readonly (string | undefined)[]): ServiceRun {
  // A kube-log-runner wrapper and the binary it runs must both exist.
  for (const binary of new Set([ctx.argv[0], stripLogRunner(ctx.argv)[0]])) {
    if (binary === undefined || !ctx.files.isFile(binary)) {
      return { state: 'failed', reason: `binary not found: ${binary ?? '(empty command line)'}` };
    }
  }
  for (const p of paths) {
    if (p !== undefined && !ctx.files.isFile(p)) return { state: 'failed', reason: `file not found: ${p}` };
  }
  return { state: 'running' };
}

/** Any service: runs when its binary exists. */
export const binaryExists: ServiceBehaviour = { start: (ctx) => requireFiles(ctx, []) };

/** Behaviours that check the flags naming files the service reads at start. */
export function requiresFlagFiles(...flags: string[]): ServiceBehaviour {
  return {
    start: (ctx) =>
      requireFiles(
        ctx,
        flags.map((f) => flagValue(ctx.argv, f)),
      ),
  };
}

/**
 * Service name → behaviour; names not registered use `binaryExists`. Every behaviour writes the log file
 * its command line names (`withServiceLog`).
 */
export class ServiceBehaviourRegistry {
  private readonly behaviours = new Map<string, ServiceBehaviour>();

  register(serviceName: string, behaviour: ServiceBehaviour): this {
    this.behaviours.set(serviceName.toLowerCase(), behaviour);
    return this;
  }

  for(serviceName: string): ServiceBehaviour {
    return withServiceLog(this.behaviours.get(serviceName.toLowerCase()) ?? binaryExists);
  }

  static splitCommandLine = splitCommandLine;
}

/**
 * hybrid-overlay-node: needs the kubeconfig its `--bootstrap-kubeconfig` names (`C:\k\kubeconfig`, written
 * by the kubelet after its TLS bootstrap); once running it creates the OVN hybrid-overlay HNS networks.
 */
export const hybridOverlay: ServiceBehaviour = {
  start(ctx) {
    const run = requireFiles(ctx, [flagValue(ctx.argv, '--bootstrap-kubeconfig')]);
    if (run.state !== 'running') return run;
    for (const [name, id] of [
      ['BaseOVNKubernetesHybridOverlayNetwork', '5f1d6a4e-0000-4000-8000-000000000001'],
      ['OVNKubernetesHybridOverlayNetwork', '5f1d6a4e-0000-4000-8000-000000000002'],
    ] as const) {
      if (!ctx.host.hnsNetworks.some((n) => n.name === name))
        ctx.host.hnsNetworks.push({ name, type: 'Overlay', id });
    }
    return run;
  },
};

/**
 * The node services the operator installs, modelled far enough to run or fail from their command lines:
 * containerd needs `--config`; the kubelet is simulated (TLS bootstrap, registration, heartbeats);
 * kube-proxy needs its `--config` (written by the network-conf.ps1 pre-script); hybrid-overlay its
 * `--bootstrap-kubeconfig` (and creates its HNS networks); windows_exporter its `--web.config.file` (and
 * serves HTTPS with the certificate it names, windows-exporter.ts);
 * csi-proxy its binary; Azure's cloud-node-manager its `--kubeconfig`, with which it removes its Node's
 * uninitialized taint (cloud-node-manager.ts). `kubelet` tunes the simulated kubelet (e.g. short heartbeats in tests).
 */
export function defaultServiceBehaviours(kubelet: KubeletBehaviourOptions = {}): ServiceBehaviourRegistry {
  return new ServiceBehaviourRegistry()
    .register('containerd', requiresFlagFiles('--config'))
    .register('kubelet', kubeletBehaviour(kubelet))
    .register('kube-proxy', requiresFlagFiles('--config'))
    .register('hybrid-overlay-node', hybridOverlay)
    .register('windows_exporter', windowsExporter)
    .register('csi-proxy', binaryExists)
    .register('cloud-node-manager', cloudNodeManager());
}
