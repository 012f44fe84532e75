import type { V1Node } from '@kubernetes/client-node';
import { needsReboot } from '../converge/reboot-steps.js';
import { cniResetSteps } from '../converge/cni-reset-step.js';
import type { HostState, PlanStep } from '../host/protocol/index.js';
import type { UploadFile, WindowsHost } from '../host/windows-host.js';
import { CORE_PAYLOAD } from '../desired/payload-manifest.js';
import { scriptsFor } from '../desired/service-scripts.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import {
  applyObserved,
  convergeRound,
  HostScriptError,
  observeAndPlan,
  stagingNeeded,
  type ObservedPlan,
} from '../converge/converge-round.js';
import { deferrableFiles, filesNamedBy } from './deferred-files.js';
import { hostSpecWith, variableScripts, type NodeDesign } from '../desired/node-spec.js';

/** What the join's rounds work on, and what they count (the instance status reports it). */
export interface JoinRoundState {
  readonly host: WindowsHost;
  readonly design: NodeDesign;
  readonly content: (sha256: string) => UploadFile['source'];
  /** Rename the host to this (vSphere and Nutanix Machines). */
  readonly hostname?: string | undefined;
  /** Host module calls (observe, apply) of the join: its PowerShell starts where the adapter does not count. */
  hostCalls: number;
  bytes: number;
  servicesStarted: boolean;
  /** The payload files the bootstrap apply did without, still uploading (awaited by the node round). */
  deferredUpload?: Promise<void> | undefined;
  /** Of those, the first node services' files upload first; `later` are the rest. */
  firstNodeFiles?: { readonly upload: Promise<void>; readonly later: ReadonlySet<string> } | undefined;
}

/** Sees the script values and the observed host after observe, before anything changes; may refuse. */
export type BeforeApply = (values: Record<string, string>, state: HostState) => Promise<void>;

function observeFor(
  s: JoinRoundState,
  services: readonly WindowsServiceSpec[],
  node: V1Node | undefined,
): Promise<ObservedPlan> {
  s.hostCalls++;
  return observeAndPlan(s.host, {
    specFor: (values) => ({
      ...hostSpecWith(s.design, services, values, node),
      ...(s.hostname === undefined ? {} : { hostname: s.hostname }),
    }),
    // Value scripts only: the ones run for their effect are `runScript` steps of the apply (HostSpec).
    scripts: variableScripts(scriptsFor(services, node)),
  });
}

/**
 * The files-only round of the old protocol, kept for the cases one apply cannot cover: a value script
 * that failed (GCP's hostname script is a payload file, absent on a fresh host) or a rename, which the
 * node name is decided from. Observe, apply, and a reboot when a step asks for one.
 */
async function filesRound(s: JoinRoundState): Promise<void> {
  const round = await convergeRound(s.host, {
    specFor: (values) => ({
      ...hostSpecWith(s.design, [], values, undefined),
      ...(s.hostname === undefined ? {} : { hostname: s.hostname }),
    }),
    scripts: [],
    content: s.content,
  });
  s.hostCalls += round.plan.steps.length > 0 ? 2 : 1;
  s.bytes += round.bytesSent;
}

/** The bootstrap observe; one files round first when a value script needs a file or the host is renamed. */
async function observeBootstrap(
  s: JoinRoundState,
  bootstrap: readonly WindowsServiceSpec[],
): Promise<ObservedPlan> {
  const first = await observeFor(s, bootstrap, undefined).catch((err: unknown) => {
    if (err instanceof HostScriptError) return undefined;
    throw err;
  });
  if (first && !first.plan.steps.some((p) => p.kind === 'setHostname')) return first;
  await filesRound(s);
  return observeFor(s, bootstrap, undefined);
}

/**
 * Before the Node exists: one observe (value pre-scripts evaluated), the name decided (`beforeApply`),
 * one apply with everything: directories, files, the Defender exclusion, the bootstrap services. When a
 * step needs a restart (the Containers feature, machine variables) the services are created but not
 * started, and the same apply schedules the restart: the SCM starts them at boot. Two PowerShell starts.
 */
export async function bootstrapRound(
  s: JoinRoundState,
  bootstrap: readonly WindowsServiceSpec[],
  beforeApply: BeforeApply,
): Promise<void> {
  const observed = await observeBootstrap(s, bootstrap);
  await beforeApply(observed.values, observed.state);
  const reboot = needsReboot(observed.plan);
  const planned = reboot
    ? observed.plan.steps.filter((p) => p.kind !== 'startService' && p.kind !== 'startServices')
    : observed.plan.steps;
  const steps = [...cniResetSteps(observed.state), ...planned];
  // A host that restarts at the end of this apply gets everything first; else the files no bootstrap
  // service needs upload while the services start and the Node registers.
  const deferred = reboot ? new Set<string>() : deferrableFiles(observed, corePayloadHashes(s.design));
  const staged = await stageFiles(s, observed, (sha) => !deferred.has(sha));
  if (deferred.size > 0) startDeferred(s, observed, deferred);
  const early = withoutFiles(steps, deferred);
  // While files upload the host must not restart on its own: an unforeseen restart waits for them (below).
  const options = s.deferredUpload ? {} : { rebootWhenRequired: true };
  const outcome =
    early.length > 0 ? await s.host.apply({ steps: early }, options) : { done: [], rebootRequired: false };
  if (early.length > 0) s.hostCalls++;
  s.bytes += staged;
  s.servicesStarted = true;
  // A restart the plan did not foresee (a step of another kind asked for it): wait for it the usual way.
  if (outcome.rebootRequired && !outcome.rebootScheduled) {
    await s.deferredUpload;
    await s.host.reboot();
  }
}

/**
 * The core's own payload files (not a platform's: the credential provider plugin the kubelet checks for at
 * start is named only in a generated config, by plugin name). Which of these a bootstrap service needs is
 * exactly what its steps name.
 */
const CORE_DESTINATIONS = new Set(CORE_PAYLOAD.map((f) => `${f.directory}\\${f.name}`.toLowerCase()));
const corePayloadHashes = (design: NodeDesign): Set<string> =>
  new Set(
    design.payload.filter((p) => CORE_DESTINATIONS.has(p.destination.toLowerCase())).map((p) => p.sha256),
  );

/** The steps without the placing of `files` (by SHA-256): those are still uploading. */
const withoutFiles = (steps: readonly PlanStep[], files: ReadonlySet<string>): PlanStep[] =>
  steps.filter((p) => p.kind !== 'placeFile' || !files.has(p.sha256));

/** Uploads the files of `observed`'s plan that `which` selects and the host has not staged: bytes sent. */
async function stageFiles(
  s: JoinRoundState,
  observed: ObservedPlan,
  which: (sha256: string) => boolean,
): Promise<number> {
  const needed = stagingNeeded(observed).filter(which);
  if (needed.length === 0) return 0;
  const report = await s.host.upload(needed.map((sha256) => ({ sha256, source: s.content(sha256) })));
  return report.bytesSent;
}

/** Node services that start first: they depend on no node service (hybrid-overlay, windows_exporter, ...). */
function firstNodeServices(design: NodeDesign): WindowsServiceSpec[] {
  const bootstrap = new Set(
    design.services.filter((svc) => svc.bootstrap).map((svc) => svc.name.toLowerCase()),
  );
  return design.services.filter(
    (svc) => !svc.bootstrap && (svc.dependencies ?? []).every((d) => bootstrap.has(d.toLowerCase())),
  );
}

/**
 * The deferred files upload: those the first node services name first, so the node round can start those
 * services while the rest (kube-proxy's, the CNI plugins, the runhcs shim) still uploads.
 */
function startDeferred(s: JoinRoundState, observed: ObservedPlan, deferred: ReadonlySet<string>): void {
  const commands = firstNodeServices(s.design).map((svc) => svc.command);
  const first = filesNamedBy(observed, deferred, commands);
  const later = new Set([...deferred].filter((sha) => !first.has(sha)));
  const upload = deferUpload(s, observed, (sha) => first.has(sha));
  s.deferredUpload = upload.then(() => deferUpload(s, observed, (sha) => later.has(sha)));
  s.deferredUpload.catch(() => undefined);
  if (first.size > 0 && later.size > 0) s.firstNodeFiles = { upload, later };
}

/** The deferred files' upload, under way; its failure is the node round's (it awaits it) or nobody's. */
function deferUpload(
  s: JoinRoundState,
  observed: ObservedPlan,
  which: (sha256: string) => boolean,
): Promise<void> {
  const upload = stageFiles(s, observed, which).then((bytes) => {
    s.bytes += bytes;
  });
  upload.catch(() => undefined);
  return upload;
}

/**
 * After the Node exists: one observe and one apply for every service level at once (after the first node
 * services' own observe and apply when files were deferred: `firstNodeRound`). The plan starts the
 * services in dependency and priority order, each after its pre-scripts (kube-proxy's network-conf.ps1
 * after hybrid-overlay is running and has created its HNS network), and the host module waits for each
 * start inside the same PowerShell process, the join's one PowerShell start, whatever the number of levels.
 */
export async function nodeRound(s: JoinRoundState, node: V1Node): Promise<void> {
  if (s.firstNodeFiles) await firstNodeRound(s, node, s.firstNodeFiles);
  await s.deferredUpload;
  const observed = await observeFor(s, s.design.services, node);
  const { outcome, bytesSent } = await applyObserved(s.host, observed, s.content);
  if (observed.plan.steps.length > 0) s.hostCalls++;
  s.bytes += bytesSent;
  if (outcome.rebootRequired) await s.host.reboot();
}

/**
 * Once the first node services' files are in: one observe and one apply that place them and start those
 * services (the bootstrap ones stay as they are), while the rest of the files still uploads. Skipped when
 * that apply would need a file still uploading or a restart; the node round's own apply does it all then.
 */
async function firstNodeRound(
  s: JoinRoundState,
  node: V1Node,
  first: NonNullable<JoinRoundState['firstNodeFiles']>,
): Promise<void> {
  await first.upload;
  const services = [...s.design.services.filter((svc) => svc.bootstrap), ...firstNodeServices(s.design)];
  const observed = await observeFor(s, services, node);
  const staged = new Set(observed.state.staged);
  const uploading = new Set([...first.later].filter((sha) => !staged.has(sha)));
  const spare = deferrableFiles(observed, uploading);
  const needed = observed.plan.steps.some(
    (p) => p.kind === 'placeFile' && uploading.has(p.sha256) && !spare.has(p.sha256),
  );
  if (needed || needsReboot(observed.plan)) return;
  const steps = withoutFiles(observed.plan.steps, uploading);
  if (steps.length === 0) return;
  s.hostCalls++;
  await s.host.apply({ steps });
}
