import type { CaptureItem, CaptureRecord } from '@wmco/core/internal';
import { bool, enumOf, i32, item, record, registryValue, str, strs, u32 } from './capture-item.js';
import type { ServiceRecord } from './service-control-manager.js';
import type { WindowsModel } from './windows-model.js';

// Win32_Service (learn.microsoft.com win32-service): State and StartMode are strings, ProcessId and
// ExitCode uint32; System.ServiceProcess.ServiceController: Status is ServiceControllerStatus, StartType
// ServiceStartMode; the service key: ImagePath REG_EXPAND_SZ, Start REG_DWORD, DependOnService and
// Environment REG_MULTI_SZ (String[]).
const WIN32_STATE: Record<string, string> = {
  stopped: 'Stopped',
  'start-pending': 'Start Pending',
  'stop-pending': 'Stop Pending',
  running: 'Running',
  'continue-pending': 'Continue Pending',
  'pause-pending': 'Pause Pending',
  paused: 'Paused',
  unknown: 'Unknown',
};
const CONTROLLER_STATUS: Record<string, string> = {
  stopped: 'Stopped',
  'start-pending': 'StartPending',
  'stop-pending': 'StopPending',
  running: 'Running',
  'continue-pending': 'ContinuePending',
  'pause-pending': 'PausePending',
  paused: 'Paused',
  unknown: 'Stopped',
};
const START_MODE: Record<string, string> = {
  auto: 'Auto',
  demand: 'Manual',
  disabled: 'Disabled',
  boot: 'Boot',
  system: 'System',
};
const START_TYPE: Record<string, string> = {
  auto: 'Automatic',
  demand: 'Manual',
  disabled: 'Disabled',
  boot: 'Boot',
  system: 'System',
};
const START_VALUE: Record<string, number> = { boot: 0, system: 1, auto: 2, demand: 3, disabled: 4 };
const MANAGED = [
  'sshd',
  'containerd',
  'kubelet',
  'kube-proxy',
  'hybrid-overlay-node',
  'windows_exporter',
  'csi-proxy',
  'LanmanServer',
];

/** The services WmcoCapture.ps1 looks at closely: the operator's, sshd, LanmanServer, and every tagged one. */
export function managedServices(model: WindowsModel): ServiceRecord[] {
  const names = new Set(MANAGED.map((n) => n.toLowerCase()));
  return model.scm
    .all()
    .filter((s) => names.has(s.name.toLowerCase()) || s.description.includes('OpenShift managed'));
}

function win32Service(s: ServiceRecord, i: number): CaptureItem {
  const running = s.state === 'running';
  return item('Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service', {
    Name: str(s.name),
    DisplayName: str(s.name),
    State: str(WIN32_STATE[s.state] ?? 'Unknown'),
    Status: str('OK'),
    StartMode: str(START_MODE[s.startType] ?? 'Manual'),
    Started: bool(running),
    PathName: str(s.commandLine),
    // The model keeps no process ids: a running service gets a stable made-up one.
    ProcessId: u32(running ? 4000 + 4 * i : 0),
    // 1077 (ERROR_SERVICE_NEVER_STARTED) is what Windows reports for a stopped service with no exit code.
    ExitCode: u32(running ? 0 : 1077),
    ServiceSpecificExitCode: u32(0),
    Description: str(s.description),
    DelayedAutoStart: bool(false),
  });
}

function controller(model: WindowsModel, s: ServiceRecord): CaptureItem {
  const dependents = model.scm
    .all()
    .filter((d) => d.dependencies.some((n) => n.toLowerCase() === s.name.toLowerCase()));
  return item('System.Management.Automation.PSCustomObject', {
    ServiceName: str(s.name),
    Status: enumOf('System.ServiceProcess.ServiceControllerStatus', CONTROLLER_STATUS[s.state] ?? 'Stopped'),
    StartType: enumOf('System.ServiceProcess.ServiceStartMode', START_TYPE[s.startType] ?? 'Manual'),
    ServicesDependedOn: strs(s.dependencies),
    DependentServices: strs(dependents.map((d) => d.name)),
  });
}

function serviceKey(s: ServiceRecord): CaptureItem[] {
  const key = `HKLM:\\SYSTEM\\CurrentControlSet\\Services\\${s.name}`;
  const values = [
    registryValue(key, 'Type', 'DWord', i32(16)),
    registryValue(key, 'Start', 'DWord', i32(START_VALUE[s.startType] ?? 3)),
    registryValue(key, 'ImagePath', 'ExpandString', str(s.commandLine)),
    registryValue(key, 'DisplayName', 'String', str(s.name)),
    registryValue(key, 'ObjectName', 'String', str('LocalSystem')),
    registryValue(key, 'Description', 'String', str(s.description)),
  ];
  if (s.dependencies.length > 0)
    values.push(registryValue(key, 'DependOnService', 'MultiString', strs(s.dependencies)));
  if (s.environment) values.push(registryValue(key, 'Environment', 'MultiString', strs(s.environment)));
  return values;
}

/** win32-service, service-controller and service-registry, from the model's service control manager. */
export function serviceRecords(model: WindowsModel): CaptureRecord[] {
  const managed = managedServices(model);
  return [
    record('win32-service', 'Get-CimInstance -ClassName Win32_Service', model.scm.all().map(win32Service)),
    record(
      'service-controller',
      'New-Object System.ServiceProcess.ServiceController <name>',
      managed.map((s) => controller(model, s)),
    ),
    record(
      'service-registry',
      'Get-Item HKLM:\\SYSTEM\\CurrentControlSet\\Services\\<name>',
      managed.flatMap(serviceKey),
    ),
  ];
}
