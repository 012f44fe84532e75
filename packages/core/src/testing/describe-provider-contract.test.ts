import test, { type Implementation, type TestFn } from 'ava';
import { parseDocument, isMap, isSeq } from 'yaml';
import {
  CloudNodeManager,
  HostnameOverride,
  HostRename,
  ImageCredentialProvider,
  FirewallFacts,
  InstanceIdentity,
  InstanceTagging,
  MachineAccess,
  MetadataRoutes,
  PlatformPrerequisites,
  UserDataFormat,
} from '../provider/capabilities/index.js';
import { defineProvider, type ProviderSpec } from '../provider/define-provider.js';
import { CloudNotConfiguredError } from '../provider/errors.js';
import { token } from '../provider/token.js';
import { WINDOWS_SERVER_2022, WINDOWS_SERVER_2025 } from '../provider/types/windows-build.js';
import { describeProviderContract } from './describe-provider-contract.js';

// A provider with every capability of contract v1, written to pass: it exercises every check of the suite.
const prerequisites: PlatformPrerequisites = {
  supportedBuilds: [{ ...WINDOWS_SERVER_2022, minRevision: 643, note: 'KB5012637' }, WINDOWS_SERVER_2025],
  machineNameMaxLength: 15,
  machineSetNameMaxLength: 9,
  customVxlanPortRequired: true,
  notes: ['a note'],
};
const tagWrap: UserDataFormat = {
  extraSteps: ["Write-Output 'step one'", 'if ($true) {\n  Write-Output 2\n}\n'],
  wrap: (s) => `<powershell>${s}</powershell>\n<persist>true</persist>\n`,
};
const cnm: CloudNodeManager = {
  service: () => ({
    name: 'cloud-node-manager',
    command: 'C:\\k\\cnm.exe --node-name=NODE_NAME --ip=NODE_IP',
    bootstrap: false,
    priority: 3,
    nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
    preScripts: [
      {
        variableName: 'NODE_IP',
        script: '(Get-NetIPAddress -AddressFamily IPv4 | Select-Object -First 1).IPAddress',
      },
    ],
  }),
  payload: () => [{ name: 'cnm.exe', directory: 'C:\\k' }],
};
const icp: ImageCredentialProvider = {
  payload: () => [{ name: 'plugin.exe', directory: 'C:\\k' }],
  ignitionConfigPath: '/etc/kubernetes/credential-providers/plugin.yaml',
  rewriteConfig(config) {
    const doc = parseDocument(config);
    if (doc.errors.length > 0) throw new Error('bad yaml');
    const providers = doc.get('providers');
    if (!isSeq(providers)) throw new Error('no providers');
    for (const p of providers.items) {
      const name = isMap(p) ? p.get('name') : undefined;
      if (typeof name !== 'string' || !isMap(p)) throw new Error('provider without a name');
      if (!name.endsWith('.exe')) p.set('name', `${name}.exe`);
    }
    return doc.toString();
  },
  kubeletFlags: () => ['--image-credential-provider-bin-dir=C:\\k'],
};
const rename: HostRename = {
  hostnameFor: (m) => m,
  matches: (current, target) => current.split('.')[0]?.toLowerCase() === target.toLowerCase(),
};
const notConfigured = (): Promise<never> =>
  Promise.reject(new CloudNotConfiguredError('example', 'no credentials Secret'));
const tagging: InstanceTagging = {
  ownershipTag: (infra, mode) => ({
    key: `example.com/cluster/${infra}`,
    value: mode === 'apply-owned' ? 'owned' : 'shared',
  }),
  ensureTag: notConfigured,
  removeTags: notConfigured,
};
const identity: InstanceIdentity = { identify: notConfigured };
const firewall: FirewallFacts = { inspect: notConfigured };
const ThirdPartyThing = token<{ readonly answer: number }>('example.third-party-thing');

function full(id: string, overrides: Partial<Record<string, unknown>> = {}): ProviderSpec {
  const pick = <T>(name: string, value: T): T => (name in overrides ? (overrides[name] as T) : value);
  return {
    id,
    platform: 'Example',
    contractVersion: 1,
    register(r) {
      r.useValue(MachineAccess, pick('access', { sshUser: 'Administrator' }));
      r.useValue(UserDataFormat, pick('format', tagWrap));
      r.useValue(
        HostnameOverride,
        pick('hostname', {
          command: "& 'C:\\Temp\\name.ps1'",
          files: [{ path: 'C:\\Temp\\name.ps1', content: 'Write-Output $env:COMPUTERNAME\n' }],
        }),
      );
      r.useValue(HostRename, pick('rename', rename));
      r.useValue(CloudNodeManager, pick('cnm', cnm));
      r.useValue(ImageCredentialProvider, pick('icp', icp));
      r.useValue(MetadataRoutes, {
        routes: () => [{ destinationPrefix: '169.254.169.254/32', description: 'metadata' }],
      });
      r.useValue(InstanceTagging, pick('tagging', tagging));
      r.useValue(InstanceIdentity, pick('identity', identity));
      r.useValue(FirewallFacts, firewall);
      r.useValue(PlatformPrerequisites, pick('prereqs', prerequisites));
      r.useValue(ThirdPartyThing, { answer: 42 });
    },
  };
}

describeProviderContract(test, defineProvider(full('complete')));

// Broken providers: each breaks one rule. The checks that must catch the fault run under test.failing,
// so they pass only if the suite fails them; every other check of the same provider must still pass.
const expected = new Set<string>();
const seen = new Set<string>();
const routed = ((title: string, impl: Implementation<[]>) => {
  if (expected.has(title)) {
    seen.add(title);
    test.failing(title, impl);
  } else test(title, impl);
}) as unknown as TestFn;

function broken(id: string, overrides: Record<string, unknown>, failing: readonly string[]): void {
  for (const f of failing) expected.add(`${id}: ${f}`);
  describeProviderContract(routed, defineProvider(full(id, overrides)));
}

const dropKey: UserDataFormat = { extraSteps: [], wrap: (s) => s.replace(/'(ssh|ecdsa)-[^']*'/, "''") };
broken('drops-key', { format: dropKey }, [
  'UserDataFormat: carries the public key exactly once, for each key type',
  'UserDataFormat: wrapping keeps the script verbatim, once',
]);
const doubleKey: UserDataFormat = { extraSteps: [], wrap: (s) => s + s };
broken('doubles-key', { format: doubleKey }, [
  'UserDataFormat: carries the public key exactly once, for each key type',
  'UserDataFormat: wrapping keeps the script verbatim, once',
]);
broken('bad-step', { format: { ...tagWrap, extraSteps: ['if ($x { Write-Output 1 }'] } }, [
  'UserDataFormat: every extra step parses as PowerShell',
  'UserDataFormat: the user-data script parses as PowerShell',
]);
broken('bad-hostname', { hostname: { command: 'Invoke-RestMethod -Uri (http://x', files: [] } }, [
  'HostnameOverride: the command parses as PowerShell',
]);
broken(
  'bad-host-file',
  {
    hostname: { command: 'C:\\Temp\\h.ps1', files: [{ path: 'C:\\Temp\\h.ps1', content: 'function f {\n' }] },
  },
  ['HostnameOverride: every script file parses as PowerShell'],
);
broken(
  'bad-service',
  { cnm: { ...cnm, service: () => ({ ...cnm.service({ debug: false }), name: 'kubelet', priority: -1 }) } },
  ['CloudNodeManager: service specs are valid'],
);
broken(
  'bad-prescript',
  {
    cnm: {
      ...cnm,
      service: () => ({
        ...cnm.service({ debug: false }),
        preScripts: [{ variableName: 'NODE_IP', script: '(Get-NetIPAddress' }],
      }),
    },
  },
  ['CloudNodeManager: service pre-scripts parse as PowerShell'],
);
broken('bad-payload', { cnm: { ...cnm, payload: () => [{ name: 'cnm.exe', directory: 'k\\bin' }] } }, [
  'CloudNodeManager: payload destinations are absolute Windows paths',
  'CloudNodeManager: the service runs a binary its payload delivers',
]);
broken(
  'substring-rename',
  { rename: { ...rename, matches: (c: string, t: string) => c.toLowerCase().includes(t.toLowerCase()) } },
  ['HostRename: matches is exact and case-insensitive on the first label'],
);
broken('bad-limits', { prereqs: { ...prerequisites, machineSetNameMaxLength: 15 } }, [
  'PlatformPrerequisites: name limits and VXLAN rule are consistent',
]);
broken('lax-credentials', { icp: { ...icp, rewriteConfig: (c: string) => c } }, [
  'ImageCredentialProvider: provider names are rewritten to end in .exe, idempotently',
  'ImageCredentialProvider: malformed config is refused with an error',
]);
broken(
  'crashes-unconfigured',
  {
    identity: { identify: () => Promise.reject(new TypeError('credentials undefined')) },
    tagging: { ...tagging, ownershipTag: () => ({ key: 'owned', value: '' }) },
  },
  [
    'InstanceIdentity: without a CloudContext, identify rejects with CloudNotConfiguredError',
    'InstanceTagging: the ownership tag names the infrastructure and is non-empty',
    'InstanceTagging: apply (the default) names the value shared, apply-owned names owned',
  ],
);
broken(
  'tags-owned',
  {
    tagging: {
      ...tagging,
      ownershipTag: (infra: string) => ({ key: `example.com/cluster/${infra}`, value: 'owned' }),
    },
  },
  ['InstanceTagging: apply (the default) names the value shared, apply-owned names owned'],
);
let counter = 0;
broken(
  'nondeterministic',
  {
    access: {
      get sshUser() {
        return `user${counter++}`;
      },
    },
  },
  ['MachineAccess: deterministic across containers and calls'],
);

test('every expected fault is checked by a test of the suite', (t) => {
  t.deepEqual(
    [...expected].filter((title) => !seen.has(title)),
    [],
  );
});
