import type { CaptureItem, CaptureRecord } from '@wmco/core/internal';
import {
  date,
  enumOf,
  i32,
  i64,
  item,
  record,
  registryValue,
  str,
  strs,
  type Typed,
} from './capture-item.js';
import { firewall, network } from './capture-network.js';
import type { WindowsModel } from './windows-model.js';

// Shapes from the classes' documentation: Win32_OperatingSystem (LastBootUpTime datetime, MUILanguages
// string[]), the NetSecurity/NetTCPIP CDXML cmdlets (MSFT_NetProtocolPortFilter.LocalPort string[],
// MSFT_NetRoute.RouteMetric uint16, InterfaceIndex uint32, enums shown by name), DISM's feature object.
const CIM = 'Microsoft.Management.Infrastructure.CimInstance#root/';
const OS_NAME: Record<number, { caption: string; release: string; display?: string }> = {
  17763: { caption: 'Microsoft Windows Server 2019 Datacenter', release: '1809' },
  20348: { caption: 'Microsoft Windows Server 2022 Datacenter', release: '2009', display: '21H2' },
};

function operatingSystem(model: WindowsModel): CaptureItem {
  return item(`${CIM}cimv2/Win32_OperatingSystem`, {
    Caption: str(OS_NAME[model.osBuild]?.caption ?? `Microsoft Windows (build ${model.osBuild})`),
    Version: str(`10.0.${model.osBuild}`),
    BuildNumber: str(String(model.osBuild)),
    OSArchitecture: str('64-bit'),
    LastBootUpTime: date(model.lastBootTime),
    LocalDateTime: date(new Date()),
    MUILanguages: strs(['en-US']),
    CSName: str(model.hostname.toUpperCase()),
  });
}

function currentVersion(model: WindowsModel): CaptureItem[] {
  const key = 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion';
  const os = OS_NAME[model.osBuild];
  const values = [
    registryValue(key, 'CurrentBuildNumber', 'String', str(String(model.osBuild))),
    registryValue(key, 'UBR', 'DWord', i32(model.ubr)),
    registryValue(
      key,
      'ProductName',
      'String',
      str((os?.caption ?? 'Windows Server').replace('Microsoft ', '')),
    ),
    registryValue(key, 'EditionID', 'String', str('ServerDatacenter')),
    registryValue(key, 'InstallationType', 'String', str('Server')),
  ];
  if (os?.display) values.push(registryValue(key, 'DisplayVersion', 'String', str(os.display)));
  if (os) values.push(registryValue(key, 'ReleaseId', 'String', str(os.release)));
  return values;
}

function hnsNetworks(model: WindowsModel): CaptureItem[] {
  return model.hnsNetworks.map((n) =>
    item('System.Management.Automation.PSCustomObject', {
      Name: str(n.name),
      Type: str(n.type),
      Id: str(n.id.toUpperCase()),
      Subnets: [[{ AddressPrefix: n.subnet ?? model.podSubnet }], 'System.Object[]'],
      ManagementIP: str(n.managementIp ?? model.ipv4),
    }),
  );
}

function rootCertificates(model: WindowsModel): CaptureItem[] {
  return model.rootStore.thumbprints().map((t) => {
    const c = model.rootStore.get(t);
    return item('System.Security.Cryptography.X509Certificates.X509Certificate2', {
      Thumbprint: str(t),
      FriendlyName: str(c?.friendlyName ?? ''),
      Subject: str(c?.subject.replace(/\n/g, ', ') ?? ''),
    });
  });
}

function feature(model: WindowsModel): CaptureItem {
  const state = model.containersFeature ? 'Enabled' : model.containersPending ? 'EnablePending' : 'Disabled';
  return item('Microsoft.Dism.Commands.AdvancedFeatureObject', {
    FeatureName: str('Containers'),
    State: enumOf('Microsoft.Dism.Commands.FeatureState', state),
    RestartRequired: enumOf('Microsoft.Dism.Commands.RestartType', 'Possible'),
  });
}

const drive = (model: WindowsModel): CaptureItem =>
  item('System.IO.DriveInfo', {
    Name: str('C:\\'),
    DriveFormat: str('NTFS'),
    AvailableFreeSpace: i64(model.freeDiskBytes),
    TotalSize: i64(Math.max(model.freeDiskBytes, 127 * 2 ** 30)),
  });

function psVersion(model: WindowsModel): CaptureItem {
  const typed = (v: string): Typed => str(v);
  return item('System.Management.Automation.PSCustomObject', {
    PSVersion: typed(`5.1.${model.osBuild}.${model.ubr}`),
    CLRVersion: typed('4.0.30319.42000'),
    BuildVersion: typed(`10.0.${model.osBuild}.${model.ubr}`),
    PSEdition: typed('Desktop'),
  });
}

/** Everything but the services, in WmcoCapture.ps1's order around them. */
export function systemRecords(model: WindowsModel): { before: CaptureRecord[]; after: CaptureRecord[] } {
  const env = 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment';
  const shell = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
  return {
    before: [record('ps-version', '$PSVersionTable', [psVersion(model)])],
    after: [
      record(
        'win32-operatingsystem',
        'Get-CimInstance -ClassName Win32_OperatingSystem (twice, one second apart)',
        [operatingSystem(model), operatingSystem(model)],
      ),
      record(
        'windows-nt-currentversion',
        'Get-ItemProperty HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion',
        currentVersion(model),
      ),
      record(
        'openssh-registry',
        'Get-Item HKLM:\\SOFTWARE\\OpenSSH',
        model.defaultShell === 'powershell'
          ? [registryValue('HKLM:\\SOFTWARE\\OpenSSH', 'DefaultShell', 'String', str(shell))]
          : [],
      ),
      record(
        'environment-registry',
        `Get-Item ${env}`,
        [...model.envVars.values()].map((v) => registryValue(env, v.name, 'String', str(v.value))),
      ),
      ...firewall(model),
      ...network(model),
      record('hns-network', 'Get-HnsNetwork', hnsNetworks(model)),
      record(
        'root-certificate',
        'Get-ChildItem -LiteralPath Cert:\\LocalMachine\\Root',
        rootCertificates(model),
      ),
      record('windows-optional-feature', 'Get-WindowsOptionalFeature -Online -FeatureName Containers', [
        feature(model),
      ]),
      record('drive-info', "[System.IO.DriveInfo]::new('C')", [drive(model)]),
    ],
  };
}
