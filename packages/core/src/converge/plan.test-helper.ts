import type { HostState, ServiceState } from '../host/protocol/index.js';

/** An observed host with nothing configured yet (Server 2022, Containers feature on); `over` replaces fields. */
export function observedHost(over: Partial<HostState> = {}): HostState {
  return {
    v: 1,
    hostname: 'WIN-1',
    os: { build: 20348, ubr: 1 },
    containersFeature: true,
    lastBootTime: '2026-01-01T00:00:00.000Z',
    bootId: '3f2c1e0a-0000-4000-8000-000000000001',
    freeDiskBytes: 1e10,
    defaultShell: 'cmd',
    directories: [],
    files: [],
    staged: [],
    services: [],
    envVars: {},
    routes: [],
    hnsNetworks: [],
    firewallRules: [],
    evaluated: {},
    ...over,
  };
}

/** A running, automatic service the operator created (its description marks it managed). */
export function managedService(name: string, over: Partial<ServiceState> = {}): ServiceState {
  return {
    name,
    state: 'running',
    startType: 'auto',
    commandLine: `C:\\k\\${name}.exe`,
    dependencies: [],
    description: `OpenShift managed ${name}`,
    ...over,
  };
}
