import type { WindowsModel } from '../windows-model.js';
import { str, strings, type RpcHandler } from './shim-rpc.js';

/**
 * The registry keys the module reads and writes, the OS, the Containers feature, the computer name,
 * restart, the folders' ACL bit, the Root store, Defender and the instance metadata: the model's fields.
 */

const ENV_KEY = 'hklm:\\system\\currentcontrolset\\control\\session manager\\environment';
const VERSION_KEY = 'hklm:\\software\\microsoft\\windows nt\\currentversion';
const OPENSSH_KEY = 'hklm:\\software\\openssh';
const SERVICE_KEY = /^hklm:\\system\\currentcontrolset\\services\\([^\\]+)$/;
const POWERSHELL = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
const METADATA = 'http://169.254.169.254/latest/meta-data/local-hostname';

/** A registry value as the shim rebuilds it: REG_SZ string, REG_DWORD number, REG_MULTI_SZ string[]. */
type RegistryValue = string | number | string[];

function serviceKey(m: WindowsModel, path: string): Record<string, RegistryValue> | undefined {
  const name = SERVICE_KEY.exec(path)?.[1];
  const svc = name === undefined ? undefined : m.scm.get(name);
  if (!svc) return undefined;
  const values: Record<string, RegistryValue> = { ImagePath: svc.commandLine, DisplayName: svc.name };
  if (svc.description !== '') values.Description = svc.description;
  if (svc.environment) values.Environment = [...svc.environment];
  // REG_MULTI_SZ, present only when the service has dependencies (sc.exe qc prints the same list).
  if (svc.dependencies.length > 0) values.DependOnService = [...svc.dependencies];
  return values;
}

/** The values of a key, or undefined when the key does not exist. */
function readKey(m: WindowsModel, path: string): Record<string, RegistryValue> | undefined {
  const key = path.toLowerCase();
  if (key === ENV_KEY) return Object.fromEntries([...m.envVars.values()].map((v) => [v.name, v.value]));
  if (key === VERSION_KEY) {
    return { CurrentBuildNumber: String(m.osBuild), CurrentBuild: String(m.osBuild), UBR: m.ubr };
  }
  if (key === OPENSSH_KEY) return m.defaultShell === 'powershell' ? { DefaultShell: POWERSHELL } : {};
  return serviceKey(m, key);
}

function setValue(m: WindowsModel, path: string, name: string, value: unknown): void {
  const key = path.toLowerCase();
  if (key === ENV_KEY) {
    m.envVars.set(name.toLowerCase(), { name, value: String(value) });
    return;
  }
  const svc = m.scm.get(SERVICE_KEY.exec(key)?.[1] ?? '');
  if (svc && name.toLowerCase() === 'environment') {
    svc.environment = (Array.isArray(value) ? value : [value]).map(String);
    return;
  }
  throw new Error(`the simulated registry does not model ${path}\\${name}`);
}

function removeValue(m: WindowsModel, path: string, name: string): void {
  const key = path.toLowerCase();
  const svc = m.scm.get(SERVICE_KEY.exec(key)?.[1] ?? '');
  const gone =
    key === ENV_KEY
      ? m.envVars.delete(name.toLowerCase())
      : svc !== undefined && name.toLowerCase() === 'environment' && svc.environment !== undefined;
  if (svc && gone && key !== ENV_KEY) delete svc.environment;
  if (!gone) throw new Error(`Property ${name} does not exist at path ${path}.`);
}

function registryCalls(m: WindowsModel): [string, RpcHandler][] {
  return [
    ['registry.read', (p) => readKey(m, str(p, 'path')) ?? null],
    ['registry.set', (p) => setValue(m, str(p, 'path'), str(p, 'name'), p.value)],
    ['registry.remove', (p) => removeValue(m, str(p, 'path'), str(p, 'name'))],
  ];
}

/** What the engine does for the host itself: restart it (after the answer in flight is out). */
export interface SystemHooks {
  readonly reboot: () => void;
}

function machineCalls(m: WindowsModel, hooks: SystemHooks): [string, RpcHandler][] {
  return [
    ['os.get', () => ({ lastBootUpTime: m.lastBootTime.toISOString(), buildNumber: String(m.osBuild) })],
    [
      'feature.state',
      () => (m.containersFeature ? 'Enabled' : m.containersPending ? 'EnablePending' : 'Disabled'),
    ],
    [
      'feature.install',
      (p) => {
        if (str(p, 'name').toLowerCase() !== 'containers')
          throw new Error(`the simulated host has no feature ${str(p, 'name')}`);
        if (m.containersFeature) return false;
        m.containersPending = true;
        return true;
      },
    ],
    ['host.rename', (p) => void (m.pendingHostname = str(p, 'name'))],
    ['host.reboot', () => hooks.reboot()],
    // Get-WmcoBootId's volatile HKLM key (harness.ps1 puts this in the module's place of it).
    ['host.bootId', () => m.bootId()],
    ['host.ipconfig', () => ({ hostname: m.hostname, dnsSuffix: m.dnsSuffix })],
    [
      'metadata.get',
      (p) => {
        if (str(p, 'uri') !== METADATA) throw new Error(`the simulated host does not serve ${str(p, 'uri')}`);
        return m.metadataHostname;
      },
    ],
    ['defender.running', () => m.defenderRunning],
    [
      'defender.exclude',
      (p) => {
        for (const path of strings(p, 'paths'))
          if (!m.defenderExclusions.some((x) => x.toLowerCase() === path.toLowerCase()))
            m.defenderExclusions.push(path);
      },
    ],
  ];
}

/** Get-Acl of a folder: its effective owner and DACL, explicit entries first (folder-security.ts). */
function aclOf(m: WindowsModel, path: string): unknown {
  const s = m.files.security(path);
  return {
    owner: s.owner,
    protected: s.protected,
    nullDacl: s.nullDacl === true,
    aces: s.aces.map((a) => ({ ...a, inheritOnly: a.inheritOnly === true, inherited: a.inherited === true })),
  };
}

function storeCalls(m: WindowsModel): [string, RpcHandler][] {
  return [
    ['acl.get', (p) => aclOf(m, str(p, 'path'))],
    ['acl.restrict', (p) => m.files.restrict(str(p, 'path'))],
    ['acl.resetBelow', (p) => m.files.resetSecurityBelow(str(p, 'path'))],
    [
      'certs.list',
      () =>
        m.rootStore
          .thumbprints()
          .map((t) => ({ thumbprint: t, friendlyName: m.rootStore.get(t)?.friendlyName ?? '' })),
    ],
    ['certs.remove', (p) => m.rootStore.remove(str(p, 'thumbprint'))],
  ];
}

/** The system calls of one host. */
export function systemCalls(m: WindowsModel, hooks: SystemHooks): [string, RpcHandler][] {
  return [...registryCalls(m), ...machineCalls(m, hooks), ...storeCalls(m)];
}
