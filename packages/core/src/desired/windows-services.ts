import type { CloudNodeManager } from '../provider/capabilities/cloud-node-manager.js';
import type { HostnameOverride } from '../provider/capabilities/hostname-override.js';
import type { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import { coreServices, type ServiceWithLog } from './core-services.js';
import { isLogRotationConfigured, kubeLogRunnerCommand, type LogRotation } from './log-rotation.js';
import { sortServicesByPriority, validateServices } from './services-list-rules.js';

/** The platform's optional contributions, as plain values (the planner resolves them from DI). */
export interface ServiceCapabilities {
  readonly cloudNodeManager?: CloudNodeManager | undefined;
  readonly hostnameOverride?: HostnameOverride | undefined;
  readonly imageCredentialProvider?: ImageCredentialProvider | undefined;
}

export interface ServicesOptions {
  readonly apiServerInternalUrl: string;
  readonly vxlanPort?: string | undefined;
  readonly debug: boolean;
  readonly cloudProvider?: string | undefined;
  readonly cloudConfigFile?: string | undefined;
  readonly logRotation?: LogRotation | undefined;
  readonly capabilities?: ServiceCapabilities | undefined;
}

const VXLAN_PORT = /^[1-9]\d{0,4}$/;
const serviceLog = (name: string): string => `C:\\var\\log\\${name}\\${name}.log`;

function checkOptions(o: ServicesOptions): void {
  if (o.vxlanPort !== undefined && (!VXLAN_PORT.test(o.vxlanPort) || Number(o.vxlanPort) > 65535)) {
    throw new Error(`VXLAN port "${o.vxlanPort}" is not a port number (1-65535)`);
  }
  if (!/^https?:\/\/[^\s"'`;|&$<>]+$/.test(o.apiServerInternalUrl)) {
    throw new Error(`API server URL "${o.apiServerInternalUrl}" is not an http(s) URL`);
  }
}

function wrap(s: ServiceWithLog, rotation: LogRotation, all: boolean): WindowsServiceSpec {
  if (!all && !s.alwaysLogRunner) return s.spec;
  return { ...s.spec, command: kubeLogRunnerCommand(rotation, s.spec.command, s.logFile) };
}

/**
 * The services a Windows node runs (reference §1.4), in priority order: the core's six plus the
 * platform's contributions, validated as a list.
 *
 * Log rotation, deliberately unlike upstream (QUIRK 19): when any SERVICES_LOG_* setting is present, EVERY
 * service is wrapped in kube-log-runner, each writing its own `C:\var\log\<service>\` file, and services
 * that wrote their own log file log to stderr instead so the runner's file is the one rotated. With no
 * settings, only kubelet and kube-proxy are wrapped, exactly as upstream does, and every command line
 * equals upstream's.
 */
export function buildWindowsServices(options: ServicesOptions): WindowsServiceSpec[] {
  checkOptions(options);
  const rotation = options.logRotation ?? {};
  const all = isLogRotationConfigured(rotation);
  const caps = options.capabilities ?? {};
  const base = coreServices({
    apiServerInternalUrl: options.apiServerInternalUrl,
    debug: options.debug,
    logRunnerForAll: all,
    ...(options.vxlanPort ? { vxlanPort: options.vxlanPort } : {}),
    ...(options.cloudProvider ? { cloudProvider: options.cloudProvider } : {}),
    ...(options.cloudConfigFile ? { cloudConfigFile: options.cloudConfigFile } : {}),
    ...(caps.hostnameOverride ? { hostnameCommand: caps.hostnameOverride.command } : {}),
    ...(caps.imageCredentialProvider ? { kubeletFlags: caps.imageCredentialProvider.kubeletFlags() } : {}),
  });
  const services = base.map((s) => wrap(s, rotation, all));
  if (caps.cloudNodeManager) {
    const spec = caps.cloudNodeManager.service({ debug: options.debug });
    services.push(wrap({ spec, logFile: serviceLog(spec.name), alwaysLogRunner: false }, rotation, all));
  }
  validateServices(services);
  return sortServicesByPriority(services);
}
