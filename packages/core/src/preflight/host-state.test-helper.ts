import type { HostState } from '../host/protocol/index.js';
import {
  WINDOWS_SERVER_2019,
  WINDOWS_SERVER_2022,
  WINDOWS_SERVER_2025,
  type PlatformPrerequisites,
} from '../provider/index.js';
import type { HostCheckOptions } from './preflight-options.js';

/** A host ready to join: WS2022, Containers on, a valid name, 100 GiB free, all three ports open. */
export function healthyState(over: Partial<HostState> = {}): HostState {
  return {
    v: 1,
    hostname: 'WIN-1',
    os: { build: 20348, ubr: 2700 },
    containersFeature: true,
    lastBootTime: '2026-01-01T00:00:00.000Z',
    bootId: '3f2c1e0a-0000-4000-8000-000000000001',
    freeDiskBytes: 100 * 2 ** 30,
    defaultShell: 'cmd',
    directories: [],
    files: [],
    staged: [],
    services: [],
    envVars: {},
    routes: [],
    hnsNetworks: [],
    firewallRules: [],
    firewallPorts: [
      { protocol: 'TCP', localPort: 10250, rules: ['ContainerLogsPort'] },
      { protocol: 'TCP', localPort: 9182, rules: ['WindowsExporter'] },
      { protocol: 'UDP', localPort: 4789, rules: ['HybridOverlayVXLAN'] },
    ],
    folderProblems: [],
    evaluated: {},
    ...over,
  };
}

/** Like platform None: any of the three releases, no name limit, default VXLAN port. */
export const ANY_BUILD: PlatformPrerequisites = {
  supportedBuilds: [WINDOWS_SERVER_2019, WINDOWS_SERVER_2022, WINDOWS_SERVER_2025],
  customVxlanPortRequired: false,
  notes: [],
};

/** vSphere-like rules (a fixture: vSphere itself now requires UBR 681): WS2022 from UBR 643, 15-character names, a custom VXLAN port. */
export const STRICT: PlatformPrerequisites = {
  supportedBuilds: [
    { ...WINDOWS_SERVER_2022, minRevision: 643, note: 'needs KB5012637' },
    WINDOWS_SERVER_2025,
  ],
  machineNameMaxLength: 15,
  customVxlanPortRequired: true,
  notes: [],
};

export const NONE: HostCheckOptions = { platform: 'None', vxlanPort: 4789 };
