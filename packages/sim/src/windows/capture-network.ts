import type { CaptureItem, CaptureRecord } from '@wmco/core/internal';
import { bool, enumOf, item, record, str, strs, u32 } from './capture-item.js';
import type { WindowsModel } from './windows-model.js';

// NetSecurity and NetTCPIP are CDXML modules: their objects are CIM instances of MSFT_NetFirewallRule,
// MSFT_NetProtocolPortFilter (LocalPort, RemotePort, IcmpType: string[]), MSFT_NetRoute (RouteMetric
// uint16, InterfaceIndex uint32), MSFT_NetIPAddress, MSFT_NetAdapter; their enums show by name.
const NETSEC = 'Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetSecurity';
const CIM = 'Microsoft.Management.Infrastructure.CimInstance#root/';

/** net-firewall-rule and net-firewall-port-filter, from the model's rules. */
export function firewall(model: WindowsModel): CaptureRecord[] {
  const rules = model.firewallRules;
  return [
    record(
      'net-firewall-rule',
      'Get-NetFirewallRule (by Name or DisplayName)',
      rules.map((r) =>
        item(`${CIM}StandardCimv2/MSFT_NetFirewallRule`, {
          Name: str(r.name),
          DisplayName: str(r.name),
          Enabled: enumOf(`${NETSEC}.Enabled`, 'True'),
          Direction: enumOf(`${NETSEC}.Direction`, r.direction),
          Action: enumOf(`${NETSEC}.Action`, 'Allow'),
          Profile: enumOf(`${NETSEC}.Profile`, 'Any'),
          PrimaryStatus: enumOf(`${NETSEC}.PrimaryStatus`, 'OK'),
          PolicyStoreSource: str('PersistentStore'),
        }),
      ),
    ),
    record(
      'net-firewall-port-filter',
      'Get-NetFirewallPortFilter -AssociatedNetFirewallRule <rule>',
      rules.map((r) =>
        item(`${CIM}StandardCimv2/MSFT_NetProtocolPortFilter`, {
          InstanceID: str(r.name),
          Protocol: str(r.protocol),
          LocalPort: strs([String(r.localPort)]),
          RemotePort: strs(['Any']),
          IcmpType: strs(['Any']),
          DynamicTarget: enumOf(`${NETSEC}.DynamicTransport`, 'Any'),
        }),
      ),
    ),
  ];
}

const route = (r: { destinationPrefix: string; nextHop: string; interfaceIndex: number }): CaptureItem =>
  item(`${CIM}StandardCimv2/MSFT_NetRoute`, {
    DestinationPrefix: str(r.destinationPrefix),
    NextHop: str(r.nextHop),
    RouteMetric: [r.destinationPrefix === '0.0.0.0/0' ? 0 : 256, 'System.UInt16'],
    InterfaceIndex: u32(r.interfaceIndex),
    ifIndex: u32(r.interfaceIndex),
    InterfaceAlias: str(r.interfaceIndex === 1 ? 'Loopback Pseudo-Interface 1' : 'Ethernet'),
    Protocol: enumOf('Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetRoute.Protocol', 'NetMgmt'),
    Store: enumOf('Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetRoute.Store', 'ActiveStore'),
    AddressFamily: enumOf('Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetRoute.AddressFamily', 'IPv4'),
  });

/** net-route, net-ip-address and net-adapter: the model's routes and its one adapter. */
export function network(model: WindowsModel): CaptureRecord[] {
  const address = item(`${CIM}StandardCimv2/MSFT_NetIPAddress`, {
    IPAddress: str(model.ipv4),
    InterfaceIndex: u32(6),
    ifIndex: u32(6),
    InterfaceAlias: str('Ethernet'),
    PrefixLength: [24, 'System.Byte'],
    PrefixOrigin: enumOf(
      'Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetIPAddress.PrefixOrigin',
      'Dhcp',
    ),
    AddressState: enumOf(
      'Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetIPAddress.AddressState',
      'Preferred',
    ),
    Store: enumOf('Microsoft.PowerShell.Cmdletization.GeneratedTypes.NetIPAddress.Store', 'ActiveStore'),
  });
  const adapter = item(`${CIM}StandardCimv2/MSFT_NetAdapter`, {
    Name: str('Ethernet'),
    InterfaceDescription: str('Microsoft Hyper-V Network Adapter'),
    ifIndex: u32(6),
    MacAddress: str('00-15-5D-00-00-06'),
    Status: str('Up'),
    Hidden: bool(false),
    Virtual: bool(false),
  });
  return [
    record('net-route', 'Get-NetRoute -AddressFamily IPv4', model.routes.map(route)),
    record('net-ip-address', 'Get-NetIPAddress -AddressFamily IPv4', [address]),
    record('net-adapter', 'Get-NetAdapter -IncludeHidden', [adapter]),
  ];
}
