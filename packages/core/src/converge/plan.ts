import type { HostState, Plan, PlanStep, ServiceState } from '../host/protocol/index.js';
import type { WindowsServiceSpec } from '../provider/index.js';
import { managedDescription, type HostSpec } from '../desired/host-spec.js';
import { clientCertificateSteps } from './client-certificate-steps.js';
import { rootCertificateSteps } from './root-certificate-steps.js';
import { withServiceScripts } from './script-steps.js';
import { dependencyLevels, dependencyOrder, runningDependents } from './service-order.js';

export type { Plan } from '../host/protocol/index.js';

const lower = (s: string): string => s.toLowerCase();

type ServiceConfigStep = Extract<PlanStep, { kind: 'createService' | 'configureService' }>;

/**
 * The difference between a host and its spec, as steps in a safe order: directories; services stopped
 * (dependents first) when their configuration or a file on their command line changes; staged files moved
 * into place; services created or reconfigured; environment variables; routes; firewall rules; services
 * started level by level (a level: those whose dependencies are in earlier levels, started together),
 * each level after its services' pre-scripts; the Containers feature; the host name. Pure; empty when the
 * host already matches.
 */
export function plan(state: HostState, spec: HostSpec): Plan {
  const files = fileSteps(state, spec);
  const configs = serviceConfigSteps(state, spec.services);
  const environments = serviceEnvironmentSteps(state, spec);
  const touched = [
    ...new Set([...servicesTouchedBy(files, configs, spec), ...environments.map((e) => e.name)]),
  ];
  const stops = stopSteps(state.services, touched);
  return {
    steps: [
      ...directorySteps(state, spec),
      ...stops,
      ...files,
      ...pruneSteps(state, spec),
      ...rootCertificateSteps(state, spec),
      ...clientCertificateSteps(state, spec),
      ...configs,
      ...environments,
      ...envVarSteps(state, spec),
      ...routeSteps(state, spec),
      ...firewallSteps(state, spec),
      ...withServiceScripts(startSteps(state.services, spec.services, stops), spec),
      ...featureSteps(state, spec),
      ...hostnameSteps(state, spec),
    ],
  };
}

function directorySteps(state: HostState, spec: HostSpec): PlanStep[] {
  const present = new Set(state.directories.map(lower));
  return spec.directories
    .filter((d) => !present.has(lower(d)))
    .map((path) => ({ kind: 'createDirectory', path }));
}

function fileSteps(state: HostState, spec: HostSpec): Extract<PlanStep, { kind: 'placeFile' }>[] {
  const present = new Map(state.files.map((f) => [lower(f.path), f.sha256]));
  return spec.files
    .filter((f) => present.get(lower(f.path)) !== f.sha256.toLowerCase())
    .map((f) => ({ kind: 'placeFile', path: f.path, sha256: f.sha256.toLowerCase() }));
}

/** Sub-folders of a pruned folder that no spec file or directory lives in: removed. */
function pruneSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const wanted = [...spec.directories, ...spec.files.map((f) => f.path)].map(lower);
  const steps: PlanStep[] = [];
  for (const root of spec.prunedDirectories ?? []) {
    const observed = Object.entries(state.children ?? {}).find(([k]) => lower(k) === lower(root))?.[1];
    for (const name of [...(observed ?? [])].sort()) {
      const path = `${root}\\${name}`;
      const inside = lower(`${path}\\`);
      if (!wanted.some((w) => w === lower(path) || w.startsWith(inside)))
        steps.push({ kind: 'removeDirectory', path });
    }
  }
  return steps;
}

/** A service's environment differs from its spec: set it (the service then restarts to read it). */
function serviceEnvironmentSteps(
  state: HostState,
  spec: HostSpec,
): Extract<PlanStep, { kind: 'setServiceEnvironment' }>[] {
  const observed = new Map(state.services.map((s) => [lower(s.name), s.environment ?? []]));
  const specified = new Set(spec.services.map((s) => lower(s.name)));
  return Object.entries(spec.serviceEnvironment ?? {})
    .filter(([name]) => specified.has(lower(name)))
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([name, vars]) => {
      const environment = Object.entries(vars)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${v}`);
      const seen = [...(observed.get(lower(name)) ?? [])].sort((a, b) => a.localeCompare(b));
      return seen.join('\n') === environment.join('\n')
        ? []
        : [{ kind: 'setServiceEnvironment' as const, name, environment }];
    });
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const norm = (xs: readonly string[]): string => [...xs].map(lower).sort().join('\n');
  return norm(a) === norm(b);
}

function serviceConfigSteps(state: HostState, services: readonly WindowsServiceSpec[]): ServiceConfigStep[] {
  const observed = new Map(state.services.map((s) => [lower(s.name), s]));
  const steps: ServiceConfigStep[] = [];
  for (const svc of byPriority(services)) {
    const desired = {
      name: svc.name,
      commandLine: svc.command,
      dependencies: [...(svc.dependencies ?? [])],
      description: managedDescription(svc.name),
      startType: 'auto' as const,
    };
    const seen = observed.get(lower(svc.name));
    if (seen === undefined) steps.push({ kind: 'createService', ...desired });
    else if (!configMatches(seen, desired)) steps.push({ kind: 'configureService', ...desired });
  }
  return steps;
}

function configMatches(seen: ServiceState, desired: Omit<ServiceConfigStep, 'kind'>): boolean {
  return (
    seen.commandLine === desired.commandLine &&
    seen.description === desired.description &&
    seen.startType === desired.startType &&
    sameNames(seen.dependencies, desired.dependencies)
  );
}

/**
 * Services to restart: reconfigured ones, and those whose command line (or `serviceFiles` entry) names a
 * file being replaced.
 */
function servicesTouchedBy(
  files: readonly Extract<PlanStep, { kind: 'placeFile' }>[],
  configs: readonly ServiceConfigStep[],
  spec: HostSpec,
): string[] {
  const touched = new Set(configs.filter((c) => c.kind === 'configureService').map((c) => c.name));
  const placed = files.map((f) => lower(f.path));
  for (const svc of spec.services) {
    const command = lower(svc.command);
    const reads = (spec.serviceFiles?.[svc.name] ?? []).map(lower);
    if (placed.some((p) => command.includes(p) || reads.includes(p))) touched.add(svc.name);
  }
  return [...touched];
}

function stopSteps(observed: readonly ServiceState[], touched: readonly string[]): PlanStep[] {
  const byName = new Map(observed.map((s) => [lower(s.name), s]));
  const live = (n: string): boolean => (byName.get(lower(n))?.state ?? 'stopped') !== 'stopped';
  const all = [...touched.filter(live), ...runningDependents(touched, observed)];
  const deps = (n: string): readonly string[] => byName.get(lower(n))?.dependencies ?? [];
  return dependencyOrder(all, deps, () => 0)
    .reverse()
    .map((name) => ({ kind: 'stopService', name }));
}

function startSteps(
  observed: readonly ServiceState[],
  services: readonly WindowsServiceSpec[],
  stops: readonly PlanStep[],
): PlanStep[] {
  const state = new Map(observed.map((s) => [lower(s.name), s]));
  const stopped = new Set(stops.map((s) => (s.kind === 'stopService' ? lower(s.name) : '')));
  const spec = new Map(services.map((s) => [lower(s.name), s]));
  const names = [
    ...services
      .filter((s) => stopped.has(lower(s.name)) || state.get(lower(s.name))?.state !== 'running')
      .map((s) => s.name),
    ...stops.flatMap((s) => (s.kind === 'stopService' && !spec.has(lower(s.name)) ? [s.name] : [])),
  ];
  const deps = (n: string): readonly string[] =>
    spec.get(lower(n))?.dependencies ?? state.get(lower(n))?.dependencies ?? [];
  const priority = (n: string): number => spec.get(lower(n))?.priority ?? Number.MAX_SAFE_INTEGER;
  return dependencyLevels(names, deps, priority).map((level): PlanStep =>
    level.length === 1 ? { kind: 'startService', name: level[0]! } : { kind: 'startServices', names: level },
  );
}

function envVarSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const [name, value] of Object.entries(spec.envVars).sort(([a], [b]) => a.localeCompare(b))) {
    if (state.envVars[name] !== value) steps.push({ kind: 'setEnvVar', name, value });
  }
  for (const name of Object.keys(state.envVars).sort()) {
    if (!(name in spec.envVars)) steps.push({ kind: 'removeEnvVar', name });
  }
  return steps;
}

function routeSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const present = new Set(state.routes.map((r) => r.destinationPrefix));
  return spec.routes
    .filter((r) => !present.has(r.destinationPrefix))
    .map((r) => ({ kind: 'addRoute', destinationPrefix: r.destinationPrefix }));
}

function firewallSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const present = new Map(state.firewallRules.map((r) => [r.name, r]));
  return spec.firewallRules
    .filter((r) => {
      const seen = present.get(r.name);
      return (
        !seen ||
        seen.protocol !== r.protocol ||
        // Every port of the rule counts: one more port or range opens more than the spec asks for.
        seen.localPorts.length !== 1 ||
        seen.localPorts[0] !== String(r.localPort) ||
        seen.direction !== r.direction
      );
    })
    .map((r) => ({ kind: 'addFirewallRule', ...r }));
}

function featureSteps(state: HostState, spec: HostSpec): PlanStep[] {
  return spec.features.includes('Containers') && !state.containersFeature
    ? [{ kind: 'installFeature', name: 'Containers' }]
    : [];
}

function hostnameSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const name = spec.hostname;
  return name !== undefined && lower(name) !== lower(state.hostname) ? [{ kind: 'setHostname', name }] : [];
}

function byPriority(services: readonly WindowsServiceSpec[]): WindowsServiceSpec[] {
  return [...services].sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
}
