import type { KubeConfig } from '@kubernetes/client-node';
import type { WmcoControllersOptions } from '@wmco/core';
import { WMCO_VERSION } from '../cli/version-command.js';
import { cloudCredentialsSetting } from '../clouds/cloud-credentials-setting.js';
import { kubeCloudContext } from '../clouds/kube-cloud-context.js';
import { MeteredWindowsHost } from './metered-host.js';
import { MeteredStatusStore } from './metered-status-store.js';
import type { RuntimeParts } from './operator-runtime.js';
import { sshLimits } from './host-limits-config.js';
import { servicesLogRotation } from './services-log-rotation.js';

/**
 * The operator's flags, hooks, metrics and redactor as the options of `WmcoCore.controllers()`: what
 * `wmco run` is beyond the core (the cloud credentials it reads, the metrics it serves, the redaction of
 * its logs), handed to it.
 */
export async function controllersOptions(
  p: RuntimeParts,
  kubeConfig: KubeConfig,
  signal: AbortSignal,
): Promise<WmcoControllersOptions> {
  const { config, logger, metrics, redactor } = p;
  const hooks = p.hooks ?? {};
  const credentials = cloudCredentialsSetting(config, logger);
  const meter = metrics.hostMeter();
  return {
    kubeConfig,
    namespace: config.namespace,
    logger,
    version: hooks.version ?? WMCO_VERSION,
    payloadDir: config.payloadDir,
    privateKeySecret: config.privateKeySecret,
    parallelJoins: config.parallelJoins,
    parallelUploads: config.parallelUploads,
    driftRepairIntervalMs: config.driftRepairIntervalMs,
    maxUnavailable: config.maxUnavailable,
    operatorConditionName: config.operatorConditionName,
    bootstrapGroup: config.bootstrapGroup,
    registrationTimeoutMs: config.registrationTimeoutMs,
    proxyEnv: config.proxyEnv,
    logRotation: servicesLogRotation(config),
    keepLogsOnRemoval: config.keepLogsOnRemoval,
    drainForceAfterMs: config.drainForceAfterMs,
    debug: config.debug,
    cloudContext: await kubeCloudContext(kubeConfig, credentials).catch(() => undefined),
    cloudTagging: config.cloudTagging,
    allowLoopbackInstances: config.allowLoopbackInstances,
    hostLimits: sshLimits(config.hostLimits),
    signal,
    secrets: redactor,
    metrics: {
      ...metrics.byohMetrics(),
      wrapHost: (host) => new MeteredWindowsHost(host, meter),
      wrapStatus: (store) =>
        new MeteredStatusStore(
          store,
          (phase, seconds) => metrics.phaseDone(phase, seconds),
          (address, phase) => metrics.instancePhase(address, phase),
        ),
    },
    hooks: {
      ...(hooks.sshOverrides ? { sshOverrides: hooks.sshOverrides } : {}),
      ...(hooks.resolver ? { resolver: hooks.resolver } : {}),
      ...(hooks.timings ? { timings: hooks.timings } : {}),
      ...(hooks.lifecycle ? { lifecycle: hooks.lifecycle } : {}),
      ...(hooks.machineRetry ? { machineRetry: hooks.machineRetry } : {}),
    },
  };
}
