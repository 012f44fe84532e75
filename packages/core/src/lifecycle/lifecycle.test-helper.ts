// Test helpers for the BYOH flows (not exported from the package): cluster facts, a Node, JoinDeps with
// in-memory parts, the shipped core payload, and a WindowsHost that holds a HostState and applies plans to it.
import { createHash } from 'node:crypto';
import { CORE_PAYLOAD, type PayloadEntry } from '../desired/payload-manifest.js';
import type { UploadFile } from '../host/windows-host.js';
import type { CoreV1Api, V1ConfigMap, V1Node } from '@kubernetes/client-node';
import type { Plan } from '../converge/plan.js';
import type { HostState, ServiceState } from '../host/protocol/index.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { silentLogger } from '../kube/logger.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import type { HostSpec } from '../desired/host-spec.js';
import type { JoinDeps } from './join-deps.js';
import { MemoryNodeRecords } from '../identity/memory-node-records.js';
import { Registrations } from '../identity/registrations.js';

export const FACTS: ClusterFacts = {
  platform: 'None',
  infrastructureName: 'test-abcde',
  apiServerInternalUrl: 'https://api-int.test.example:6443',
  network: { networkType: 'OVNKubernetes', serviceNetwork: ['172.30.0.0/16'] },
  serviceCidr: '172.30.0.0/16',
  vxlanPort: '',
  kubeletCaPem: '-----BEGIN CERTIFICATE-----\nkubelet-ca\n-----END CERTIFICATE-----\n',
  bootstrap: { caCrt: '-----BEGIN CERTIFICATE-----\napi-ca\n-----END CERTIFICATE-----\n', token: 'tok' },
  digestMirrors: [],
  tagMirrors: [],
};

/** A Node this operator joined from instance `ip` (it carries the instance-address annotation). */
export function testNode(name = 'win-a', ip = '10.0.0.5'): V1Node {
  return {
    metadata: {
      name,
      annotations: {
        'k8s.ovn.org/hybrid-overlay-node-subnet': '10.132.1.0/24',
        'windowsmachineconfig.openshift.io/instance-address': ip,
      },
    },
    status: { addresses: [{ type: 'InternalIP', address: ip }] },
  };
}

/** A CoreV1Api with just the ConfigMap calls the services ConfigMap publisher makes. */
export function fakeConfigMaps(): { api: CoreV1Api; created: V1ConfigMap[] } {
  const created: V1ConfigMap[] = [];
  const api = {
    readNamespacedConfigMap: () => Promise.reject(Object.assign(new Error('not found'), { code: 404 })),
    createNamespacedConfigMap: (r: { body: V1ConfigMap }) => {
      created.push(r.body);
      return Promise.resolve(r.body);
    },
  } as unknown as CoreV1Api;
  return { api, created };
}

/** `deps` whose openHost hands out `host` and records the signal of each target it was given. */
export function recordingSignals<D extends JoinDeps>(
  deps: D,
  host: WindowsHost,
): { deps: D; signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  const openHost: JoinDeps['openHost'] = (target) => {
    signals.push(target.signal);
    return host;
  };
  return { deps: { ...deps, openHost }, signals };
}

export function testDeps(
  host: WindowsHost,
  extra: Partial<JoinDeps> = {},
): JoinDeps & { events: MemoryEventRecorder } {
  const events = new MemoryEventRecorder();
  return {
    core: fakeConfigMaps().api,
    namespace: 'wmco',
    version: '0.1.0',
    openHost: () => host,
    payload: [],
    payloadDir: '/payload',
    capabilities: {},
    providerFiles: [],
    facts: () => Promise.resolve(FACTS),
    logger: silentLogger,
    status: {
      get: () => undefined,
      set: () => Promise.resolve(),
      remove: () => Promise.resolve(),
      retain: () => Promise.resolve(),
    },
    names: new Registrations({ ttlMs: 60_000 }),
    records: new MemoryNodeRecords(),
    debug: false,
    logRotation: {},
    proxyEnv: {},
    timings: { nodeRegistrationMs: 1000, nodeReadyMs: 1000, pollMs: 10 },
    ...extra,
    events,
  };
}

/** A host spec with nothing in it (no files, services, variables, routes, rules or features). */
export function emptyHostSpec(): HostSpec {
  return {
    directories: [],
    files: [],
    services: [],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  };
}

/** A host that already matches `spec`, every service running. */
export function stateMatching(spec: HostSpec): HostState {
  return {
    v: 1,
    hostname: 'WIN-A',
    os: { build: 20348, ubr: 2700 },
    containersFeature: true,
    lastBootTime: '2026-01-01T00:00:00Z',
    bootId: '3f2c1e0a-0000-4000-8000-000000000001',
    freeDiskBytes: 1e11,
    defaultShell: 'cmd',
    directories: [...spec.directories],
    files: spec.files.map((f) => ({ path: f.path, sha256: f.sha256 })),
    staged: [],
    services: spec.services.map((s): ServiceState => ({
      name: s.name,
      state: 'running',
      startType: 'auto',
      commandLine: s.command,
      dependencies: [...(s.dependencies ?? [])],
      description: `OpenShift managed ${s.name}`,
    })),
    envVars: { ...spec.envVars },
    routes: [],
    hnsNetworks: [],
    firewallRules: spec.firewallRules.map(({ localPort, ...r }) => ({
      ...r,
      localPorts: [String(localPort)],
    })),
    evaluated: {},
  };
}

/** Holds a HostState; observe answers `evaluate` from `outputs` (by script name, '' otherwise). */
export class StateHost implements WindowsHost {
  readonly address = '10.0.0.5';
  readonly queries: ObserveQuery[] = [];
  readonly applied: Plan[] = [];
  closed = 0;

  constructor(
    public state: HostState,
    private readonly outputs: Readonly<Record<string, string>> = {},
  ) {}

  observe(query: ObserveQuery): Promise<HostState> {
    this.queries.push(query);
    const evaluated = Object.fromEntries(
      (query.evaluate ?? []).map((e) => [e.name, { ok: true as const, output: this.outputs[e.name] ?? '' }]),
    );
    return Promise.resolve({ ...this.state, evaluated });
  }

  upload(
    _files?: readonly UploadFile[],
  ): Promise<{ uploaded: string[]; skipped: string[]; bytesSent: number }> {
    return Promise.resolve({ uploaded: [], skipped: [], bytesSent: 0 });
  }

  apply(plan: Plan): Promise<{ done: []; rebootRequired: boolean }> {
    this.applied.push(plan);
    const services = this.state.services.map((s) => {
      const step = plan.steps.find((p) => p.kind === 'configureService' && p.name === s.name);
      return step && step.kind === 'configureService' ? { ...s, commandLine: step.commandLine } : s;
    });
    this.state = { ...this.state, services };
    return Promise.resolve({ done: [], rebootRequired: false });
  }

  reboot(): Promise<void> {
    return Promise.reject(new Error('no reboot expected'));
  }

  deconfigure(): Promise<{ done: []; rebootRequired: boolean }> {
    return Promise.reject(new Error('no deconfigure expected'));
  }

  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}

/** The core payload as the image ships it, compressed (hashes made up from the names: paths are what count). */
export function shippedCorePayload(): PayloadEntry[] {
  return CORE_PAYLOAD.map((f) => ({
    name: f.name,
    source: f.name,
    destination: `${f.directory}\\${f.name}`,
    sha256: createHash('sha256').update(f.name).digest('hex'),
    compressed: true,
  }));
}
