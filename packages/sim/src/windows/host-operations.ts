import {
  HOST_PROTOCOL_VERSION,
  HostPaths,
  stagedPathFor,
  type ChangeResult,
  type Evaluated,
} from '@wmco/core/internal';
import { type HostAction, type HostState, type ObserveRequest, type PlanStep } from '@wmco/core';
import { observedFolderProblems } from './folder-check.js';
import { splitCommandLine } from './command-line.js';
import { stripLogRunner } from './kubelet/kubelet-flags.js';
import { stopServiceLikeModule } from './module-service-stop.js';
import { applyServiceStep } from './service-steps.js';
import { sha256Of } from './content-hash.js';
import { firewallPorts } from './firewall-ports.js';
import { childFolders } from './pruned-folders.js';
import { clientCertificates } from './client-certificates.js';
import { applyStoreStep } from './store-steps.js';
import { MANAGED_CERTIFICATE_NAME } from './root-certificate-store.js';
import { expandStagedArchive } from './staged-archive.js';
import { removeStagedOncePlaced } from './staged-once-placed.js';
import type { WindowsModel } from './windows-model.js';

const MANAGED_TAG = 'OpenShift managed';

/** `observe`, as WmcoHost.psm1's Get-WmcoHostState computes it (after the request's scripts ran). */
export function observe(
  m: WindowsModel,
  req: ObserveRequest,
  evaluated: Record<string, Evaluated> = {},
): HostState {
  const wanted = new Set(req.services.map((s) => s.toLowerCase()));
  const services = m.scm
    .all()
    .filter((s) => wanted.has(s.name.toLowerCase()) || s.description.includes(MANAGED_TAG))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((s) => ({
      name: s.name,
      state: s.state,
      startType: s.startType,
      commandLine: s.commandLine,
      dependencies: [...s.dependencies],
      description: s.description,
      ...(s.environment ? { environment: [...s.environment] } : {}),
    }));
  const files = req.files.flatMap((path) => {
    const data = m.files.read(path);
    return data ? [{ path, sha256: sha256Of(data) }] : [];
  });
  const staged = m.files.isDirectory(HostPaths.staging)
    ? m.files
        .list(HostPaths.staging)
        .flatMap((e) =>
          !e.directory && /^[0-9a-f]{64}(\.tar\.gz)?$/.test(e.name) ? [e.name.slice(0, 64)] : [],
        )
        .filter((sha, i, all) => all.indexOf(sha) === i)
    : [];
  const envVars: Record<string, string> = {};
  for (const name of req.envVars) {
    const v = m.envVars.get(name.toLowerCase());
    if (v) envVars[name] = v.value;
  }
  const rules = new Set(req.firewallRules);
  const children = childFolders(m, req);
  const certificates = clientCertificates(m, req);
  return {
    v: HOST_PROTOCOL_VERSION,
    hostname: m.hostname,
    os: { build: m.osBuild, ubr: m.ubr },
    containersFeature: m.containersFeature,
    lastBootTime: m.readBootTime(),
    bootId: m.bootId(),
    freeDiskBytes: m.freeDiskBytes,
    defaultShell: m.defaultShell,
    directories: req.directories.filter((d) => m.files.isDirectory(d)),
    files,
    staged,
    services,
    envVars,
    routes: m.routes.map((r) => ({ ...r })),
    hnsNetworks: m.hnsNetworks.map((n) => ({ name: n.name, type: n.type, id: n.id })),
    firewallRules: m.firewallRules
      .filter((r) => rules.has(r.name))
      .map(({ localPort, name, protocol, direction }) => ({
        name,
        protocol,
        direction,
        localPorts: [String(localPort)],
      })),
    ...(req.firewallPorts ? { firewallPorts: firewallPorts(m, req.firewallPorts) } : {}),
    ...(children ? { children } : {}),
    ...(req.rootCertificates ? { rootCertificates: m.rootStore.observe(req.rootCertificates) } : {}),
    ...(certificates ? { clientCertificates: certificates } : {}),
    ...observedFolderProblems(m.files, req.checkFolders),
    evaluated,
  };
}

/** Copy-WmcoVerifiedFile: the copy is hashed, so a staged file swapped after the copy cannot matter. */
function copyVerified(
  m: WindowsModel,
  copy: { source: string; destination: string; sha: string; path: string },
): void {
  const { source, destination, sha, path } = copy;
  const data = m.files.read(source);
  if (data === undefined) throw new Error(`staged file for '${path}' is missing from the staging folder`);
  m.files.write(destination, data);
  const actual = sha256Of(m.files.read(destination)!);
  if (actual !== sha) {
    m.files.remove(destination);
    m.files.remove(source);
    throw new Error(`staged file for '${path}' has SHA-256 '${actual}', expected '${sha}'`);
  }
}

function sameFile(m: WindowsModel, a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  try {
    return m.files.resolve(a).toLowerCase() === m.files.resolve(b).toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The executables a live service holds open: its image, and the binary a kube-log-runner image runs as its
 * child process. Windows refuses to overwrite or delete an image while a process runs from it.
 */
function imagesOf(svc: { readonly commandLine: string }): (string | undefined)[] {
  const argv = splitCommandLine(svc.commandLine);
  return [argv[0], stripLogRunner(argv)[0]];
}

/** Install-WmcoStagedFile: copy next to the destination, verify the copy, then move it into place. */
function placeFile(m: WindowsModel, path: string, sha: string): void {
  const temporary = `${path}.wmco-new`;
  m.files.mkdirp(m.files.resolve(path).replace(/\\[^\\]*$/, '') || 'C:\\');
  copyVerified(m, { source: stagedPathFor(sha), destination: temporary, sha, path });
  const busy = m.scm
    .all()
    .find((svc) => svc.state !== 'stopped' && imagesOf(svc).some((i) => sameFile(m, i, path)));
  if (busy) {
    // Windows locks a running service's image: replacing it fails until the service stops.
    m.files.remove(temporary);
    throw new Error(
      `The process cannot access the file '${path}' because it is being used by another process (${busy.name}).`,
    );
  }
  m.files.rename(temporary, path, true);
}

/** One step; true when it needs a reboot. Mirrors Invoke-WmcoStep. */
export async function applyStep(m: WindowsModel, step: PlanStep): Promise<boolean> {
  switch (step.kind) {
    case 'createDirectory':
      m.files.mkdirp(step.path);
      return false;
    case 'stopService':
      await stopServiceLikeModule(m, step.name);
      return false;
    case 'placeFile':
      await expandStagedArchive(m, step.path, step.sha256);
      placeFile(m, step.path, step.sha256);
      return false;
    default:
      return (await applyServiceStep(m, step)) ?? applySystemStep(m, step);
  }
}

function applySystemStep(m: WindowsModel, step: PlanStep): boolean {
  switch (step.kind) {
    case 'setEnvVar':
      m.envVars.set(step.name.toLowerCase(), { name: step.name, value: step.value });
      return true;
    case 'removeEnvVar':
      m.envVars.delete(step.name.toLowerCase());
      return true;
    case 'addRoute': {
      const gw = m.routes.find((r) => r.destinationPrefix === '0.0.0.0/0');
      if (!gw) throw new Error('no default route to copy the gateway from');
      m.routes.push({
        destinationPrefix: step.destinationPrefix,
        nextHop: gw.nextHop,
        interfaceIndex: gw.interfaceIndex,
      });
      return false;
    }
    case 'addFirewallRule': {
      const i = m.firewallRules.findIndex((r) => r.name === step.name);
      if (i >= 0) m.firewallRules.splice(i, 1);
      const { name, protocol, localPort, direction } = step;
      m.firewallRules.push({ name, protocol, localPort, direction, description: MANAGED_CERTIFICATE_NAME });
      return false;
    }
    case 'installFeature':
      m.containersPending = true;
      return true;
    case 'setHostname':
      m.pendingHostname = step.name;
      return true;
    default:
      return applyStoreStep(m, step);
  }
}

function target(step: PlanStep): string {
  if ('names' in step) return step.names.join(', ');
  if ('path' in step) return step.path;
  if ('name' in step) return step.name;
  if ('thumbprint' in step) return step.thumbprint;
  return 'destinationPrefix' in step ? step.destinationPrefix : '';
}

/** What an apply needs beyond the model: a fault hook, and the pre-script evaluator for `runScript`. */
export interface ApplyHooks {
  readonly beforeStep?: (index: number) => Promise<void>;
  /** Runs one script on the model (Invoke-WmcoScript); an error result fails the step. */
  readonly runScript?: (step: RunScriptStep) => Evaluated;
}

type RunScriptStep = Extract<PlanStep, { kind: 'runScript' }>;

function runScriptStep(step: RunScriptStep, run: ApplyHooks['runScript']): void {
  if (!run) throw new Error('this host cannot run scripts');
  const result = run(step);
  if (!result.ok) throw new Error(result.error);
}

/**
 * Invoke-WmcoApply: the steps in order, each placed file's staged copy removed once placed; stop at the
 * first failure.
 */
export async function apply(
  m: WindowsModel,
  steps: readonly PlanStep[],
  hooks: ApplyHooks = {},
): Promise<ChangeResult> {
  const done: HostAction[] = [];
  let rebootRequired = false;
  for (const [i, step] of steps.entries()) {
    await hooks.beforeStep?.(i);
    try {
      if (step.kind === 'runScript') runScriptStep(step, hooks.runScript);
      else if (await applyStep(m, step)) rebootRequired = true;
    } catch (err) {
      const message = `step ${i} (${step.kind} ${target(step)}): ${err instanceof Error ? err.message : String(err)}`;
      return {
        v: HOST_PROTOCOL_VERSION,
        op: 'apply',
        ok: false,
        done,
        rebootRequired,
        error: { message, step: i },
      };
    }
    removeStagedOncePlaced(m, steps, i);
    done.push({ kind: step.kind, target: target(step) });
  }
  return { v: HOST_PROTOCOL_VERSION, op: 'apply', ok: true, done, rebootRequired };
}
