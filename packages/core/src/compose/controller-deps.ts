import { moveLegacyHostKeys } from '../controllers/legacy-host-key-migration.js';
import { CoreV1Api } from '@kubernetes/client-node';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { DEFAULT_REGISTRATION_TTL_MS, Registrations } from '../identity/registrations.js';
import { KubeEventRecorder } from '../kube/client/kube-event-recorder.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import { addressGuardedOpener } from '../lifecycle/address-guarded-host.js';
import { ConfigMapStatusStore } from '../lifecycle/instance-status.js';
import type { JoinDeps } from '../lifecycle/join-deps.js';
import type { NodeChanges } from '../lifecycle/node-changes.js';
import type { InstanceAddressPolicy } from '../desired/instance-address.js';
import type { ClusterCaches } from './cluster-caches.js';
import { factProblems } from './fact-problems.js';
import { fencedOpener } from './fenced-opener.js';
import { hostOpener } from './host-opener.js';
import { cloudJoin, type PlatformParts } from './platform-parts.js';
import type { SecretScrubber, WmcoControllersOptions } from './wmco-controllers-options.js';

/** The events' component when the embedding process names none: upstream WMCO's. */
export const DEFAULT_EVENT_COMPONENT = 'windows-machine-config-operator';

const NO_SCRUBBER: SecretScrubber = {
  register: () => undefined,
  registerProxy: () => undefined,
  scrubText: (t) => t,
};

export interface ControllerDepsInput {
  readonly o: WmcoControllersOptions;
  readonly parts: PlatformParts;
  readonly caches: ClusterCaches;
  readonly addressPolicy: () => Promise<InstanceAddressPolicy>;
  readonly nodeChanges: NodeChanges;
  /** The facts read at start, whose problems are reported before the controllers are built. */
  readonly facts: ClusterFacts;
  /** Where the instance statuses (and the operator's conditions) are kept: `statusStore(o)`. */
  readonly status: ConfigMapStatusStore;
}

/** The store of `windows-instances-status`; its errors pass the process's secret scrubber. */
export function statusStore(o: WmcoControllersOptions): ConfigMapStatusStore {
  const secrets = o.secrets ?? NO_SCRUBBER;
  return new ConfigMapStatusStore(o.kubeConfig.makeApiClient(CoreV1Api), o.namespace, (t) =>
    secrets.scrubText(t),
  );
}

/** The events recorder of the controllers: its messages pass the process's secret scrubber. */
export function eventRecorder(o: WmcoControllersOptions): EventRecorder {
  const secrets = o.secrets ?? NO_SCRUBBER;
  return new KubeEventRecorder(o.kubeConfig.makeApiClient(CoreV1Api), {
    component: o.component ?? DEFAULT_EVENT_COMPONENT,
    scrub: (t) => secrets.scrubText(t),
    logger: o.logger,
  });
}

/** The cluster facts as the flows read them: each read registers its secrets and reports its problems. */
async function factsReader(
  { o, caches, facts: atStart }: ControllerDepsInput,
  events: EventRecorder,
): Promise<() => Promise<ClusterFacts>> {
  const secrets = o.secrets ?? NO_SCRUBBER;
  for (const v of Object.values(o.proxyEnv ?? {})) secrets.registerProxy(v);
  const problems = factProblems(events, o.namespace);
  await problems(atStart);
  return async () => {
    const f = await caches.facts.facts();
    secrets.register(f.bootstrap.token);
    for (const v of Object.values(f.proxy ?? {})) secrets.registerProxy(v);
    await problems(f);
    return f;
  };
}

/** SSH with the pins of `caches`, every target behind the address policy (issue 27). */
function guardedOpener(i: ControllerDepsInput, core: CoreV1Api): JoinDeps['openHost'] {
  const { o } = i;
  const secrets = o.secrets ?? NO_SCRUBBER;
  const opener = hostOpener({
    core,
    namespace: o.namespace,
    registerSecret: (s) => secrets.register(s),
    logger: o.logger,
    sshOverrides: o.hooks?.sshOverrides,
    wrap: o.metrics?.wrapHost,
    pins: i.caches.hostKeys,
    parallelUploads: o.parallelUploads,
    limits: o.hostLimits,
  });
  const guarded = addressGuardedOpener(opener, i.addressPolicy);
  // No host step starts once the fence aborts (a lost Lease: fenced-opener.ts).
  return o.fence ? fencedOpener(guarded, o.fence) : guarded;
}

/** What every node gets from the process's settings: services' options and the join's waits. */
function nodeSettings(
  o: WmcoControllersOptions,
): Pick<JoinDeps, 'debug' | 'logRotation' | 'proxyEnv' | 'timings' | 'names'> {
  const timings = { nodeRegistrationMs: 10 * 60_000, nodeReadyMs: 10 * 60_000, pollMs: 1000 };
  return {
    debug: o.debug ?? false,
    logRotation: o.logRotation ?? {},
    proxyEnv: o.proxyEnv ?? {},
    timings: { ...timings, ...o.hooks?.timings },
    names: new Registrations({ ttlMs: o.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TTL_MS }),
  };
}

/**
 * What the shared flows (join, removal, drift repair, upgrades) need, assembled once: the clients, the
 * host opener behind the address policy, the facts (each read reports what an admin must fix), the
 * status store, the registrations and the node records. Reports the facts' problems once before it
 * resolves, and reads the node records: no decision is made before them (ADR 0035).
 */
export async function controllerDeps(i: ControllerDepsInput, events: EventRecorder): Promise<JoinDeps> {
  const { o, parts, caches } = i;
  const core = o.kubeConfig.makeApiClient(CoreV1Api);
  const facts = await factsReader(i, events);
  await caches.startRecords();
  await moveLegacyHostKeys(core, o.namespace, caches.hostKeys, o.logger).catch((err: unknown) =>
    o.logger.warn({ err: String(err) }, 'moving the old SSH host key pins failed; retried at the next start'),
  );
  const status = i.status;
  return {
    core,
    namespace: o.namespace,
    version: o.version,
    openHost: guardedOpener(i, core),
    capabilities: parts.capabilities,
    payload: parts.payload,
    providerFiles: parts.providerFiles,
    windowsBuilds: parts.windowsBuilds,
    payloadDir: o.payloadDir,
    facts,
    events,
    logger: o.logger,
    status: o.metrics?.wrapStatus?.(status) ?? status,
    records: caches.records,
    ...nodeSettings(o),
    cloud: cloudJoin(parts.cloud, {
      mode: o.cloudTagging ?? 'check',
      events,
      logger: o.logger,
      namespace: o.namespace,
    }),
    nodeChanges: i.nodeChanges,
  };
}
