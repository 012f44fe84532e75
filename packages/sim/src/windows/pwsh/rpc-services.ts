import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceStartType } from '@wmco/core';
import type { ServiceRecord } from '../service-control-manager.js';
import type { WindowsModel } from '../windows-model.js';
import { str, strings, type RpcHandler } from './shim-rpc.js';

/**
 * The service control manager's side of the shims (Win32_Service, ServiceController, New-Service,
 * Set-Service, sc.exe, the service's registry key): the model's SCM.
 * Win32_Service: https://learn.microsoft.com/en-us/windows/win32/cimwin32prov/win32-service
 * ServiceController: https://learn.microsoft.com/en-us/dotnet/api/system.serviceprocess.servicecontroller
 */

const STATE: Record<ServiceRecord['state'], string> = {
  running: 'Running',
  stopped: 'Stopped',
  'start-pending': 'Start Pending',
  'stop-pending': 'Stop Pending',
  'continue-pending': 'Continue Pending',
  'pause-pending': 'Pause Pending',
  paused: 'Paused',
  unknown: 'Unknown',
};
const START_MODE: Record<ServiceStartType, string> = {
  auto: 'Auto',
  demand: 'Manual',
  disabled: 'Disabled',
  boot: 'Boot',
  system: 'System',
};
/** New-Service -StartupType / Win32_Service.Change StartMode → the model's start type. */
const START_TYPE: Record<string, ServiceStartType> = {
  automatic: 'auto',
  auto: 'auto',
  manual: 'demand',
  disabled: 'disabled',
  boot: 'boot',
  system: 'system',
};

/** ERROR_PROCESS_ABORTED: what the SCM records when a service's process ends without reporting. */
const PROCESS_ABORTED = 1067;
const NOT_FOUND = (name: string): string => `Service '${name}' was not found on computer '.'.`;

function startType(value: string): ServiceStartType {
  const t = START_TYPE[value.toLowerCase()];
  if (t === undefined) throw new Error(`Cannot bind parameter 'StartupType': '${value}' is not a start mode`);
  return t;
}

/** Process ids the shims show for running services (stable while a service runs). */
class ProcessTable {
  private next = 4000;
  readonly ids = new Map<string, number>();
  readonly exitCodes = new Map<string, number>();

  idOf(svc: ServiceRecord): number {
    const key = svc.name.toLowerCase();
    if (svc.state === 'stopped') {
      this.ids.delete(key);
      return 0;
    }
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.next += 4;
      this.ids.set(key, id);
    }
    return id;
  }
}

function cim(svc: ServiceRecord, procs: ProcessTable): Record<string, unknown> {
  return {
    Name: svc.name,
    DisplayName: svc.name,
    State: STATE[svc.state],
    StartMode: START_MODE[svc.startType],
    PathName: svc.commandLine,
    Description: svc.description === '' ? null : svc.description,
    ProcessId: procs.idOf(svc),
    ExitCode: svc.state === 'stopped' ? (procs.exitCodes.get(svc.name.toLowerCase()) ?? 0) : 0,
    Started: svc.state === 'running',
  };
}

function mustGet(m: WindowsModel, name: string): ServiceRecord {
  const svc = m.scm.get(name);
  if (!svc) throw new Error(NOT_FOUND(name));
  return svc;
}

/** ServiceController.Start(): the SCM launches the service and returns at START_PENDING. */
function start(m: WindowsModel, procs: ProcessTable, name: string): void {
  const svc = mustGet(m, name);
  if (svc.state === 'running') throw new Error(`An instance of the service is already running.`);
  if (svc.startType === 'disabled') {
    throw new Error(
      `Cannot start service ${svc.name} on computer '.'. The service cannot be started, either because it is disabled or because it has no enabled devices associated with it.`,
    );
  }
  procs.exitCodes.delete(svc.name.toLowerCase());
  // A service that starts and dies is only seen as Stopped (with its exit code), as on Windows.
  m.scm.start(svc.name).catch(() => procs.exitCodes.set(svc.name.toLowerCase(), PROCESS_ABORTED));
}

/** ServiceController.WaitForStatus(status, timeout): polls until the status or the timeout (then false). */
async function waitForStatus(
  m: WindowsModel,
  name: string,
  status: string,
  timeoutMs: number,
): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const svc = m.scm.get(name);
    const now = svc ? STATE[svc.state].replace(' ', '') : 'Stopped';
    if (now.toLowerCase() === status.toLowerCase()) return true;
    if (performance.now() >= until) return false;
    await sleep(Math.min(25, Math.max(1, until - performance.now())));
  }
}

function controllerCalls(m: WindowsModel, procs: ProcessTable): [string, RpcHandler][] {
  return [
    ['service.status', (p) => STATE[mustGet(m, str(p, 'name')).state].replace(' ', '')],
    ['service.start', (p) => start(m, procs, str(p, 'name'))],
    ['service.stop', async (p) => m.scm.stop(mustGet(m, str(p, 'name')).name)],
    ['service.waitForStatus', (p) => waitForStatus(m, str(p, 'name'), str(p, 'status'), Number(p.timeoutMs))],
    [
      // ServicesDependedOn: the dependencies as services; one that does not exist throws (.NET).
      'service.dependsOn',
      (p) => mustGet(m, str(p, 'name')).dependencies.map((d) => mustGet(m, d).name),
    ],
    // The configured names, as sc.exe qc prints them (the registry's DependOnService; no existence check).
    ['service.dependencyNames', (p) => [...mustGet(m, str(p, 'name')).dependencies]],
    ['service.dependents', (p) => m.scm.dependents(mustGet(m, str(p, 'name')).name).map((s) => s.name)],
  ];
}

function configCalls(m: WindowsModel, procs: ProcessTable): [string, RpcHandler][] {
  return [
    ['service.list', () => m.scm.all().map((s) => cim(s, procs))],
    [
      'service.create',
      (p) => {
        m.scm.create({
          name: str(p, 'name'),
          commandLine: str(p, 'binaryPathName'),
          startType: startType(str(p, 'startupType')),
          dependencies: strings(p, 'dependsOn'),
          description: typeof p.description === 'string' ? p.description : '',
        });
        return cim(mustGet(m, str(p, 'name')), procs);
      },
    ],
    [
      'service.change',
      (p) => {
        const svc = mustGet(m, str(p, 'name'));
        m.scm.configure(svc.name, {
          commandLine: typeof p.pathName === 'string' ? p.pathName : svc.commandLine,
          startType: typeof p.startMode === 'string' ? startType(p.startMode) : svc.startType,
          dependencies: 'dependencies' in p ? strings(p, 'dependencies') : svc.dependencies,
          description: svc.description,
        });
        return 0;
      },
    ],
    ['service.setDescription', (p) => void (mustGet(m, str(p, 'name')).description = str(p, 'description'))],
    ['service.delete', async (p) => ((await m.scm.delete(str(p, 'name'))) ? 0 : 1060)],
    ['service.getEnvironment', (p) => mustGet(m, str(p, 'name')).environment ?? null],
    ['service.setEnvironment', (p) => void (mustGet(m, str(p, 'name')).environment = strings(p, 'value'))],
    ['service.removeEnvironment', (p) => void delete mustGet(m, str(p, 'name')).environment],
  ];
}

/** Get-Process / Stop-Process on a service's process id (the shims never reach a real Linux process). */
function processCalls(m: WindowsModel, procs: ProcessTable): [string, RpcHandler][] {
  const byId = (id: number): ServiceRecord | undefined =>
    m.scm.all().find((s) => s.state !== 'stopped' && procs.idOf(s) === id);
  return [
    ['process.byId', (p) => byId(Number(p.id))?.name ?? null],
    [
      'process.kill',
      async (p) => {
        const svc = byId(Number(p.id));
        if (!svc) throw new Error(`Cannot find a process with the process identifier ${String(p.id)}.`);
        procs.exitCodes.set(svc.name.toLowerCase(), 1);
        await m.scm.stop(svc.name);
      },
    ],
  ];
}

/** The service calls of one host. */
export function serviceCalls(m: WindowsModel): [string, RpcHandler][] {
  const procs = new ProcessTable();
  return [...controllerCalls(m, procs), ...configCalls(m, procs), ...processCalls(m, procs)];
}
