import type { ModelHnsEndpoint, WindowsModel } from '../windows-model.js';
import { str, type RpcHandler } from './shim-rpc.js';

/**
 * Routes, adapters, firewall rules and HNS: the model's lists. Shapes are built on the PowerShell side
 * (shims-network.ps1); here only the data.
 */

/** The primary NIC's index (the model's default route uses it). */
const PRIMARY_IF = 6;

/** A stable MAC for an HNS endpoint (Hyper-V's 00-15-5D prefix), from its address. */
function macOf(ip: string): string {
  const octets = ip.split('.').map((o) => Number(o).toString(16).padStart(2, '0').toUpperCase());
  return ['00', '15', '5D', ...octets.slice(1)].join('-');
}

/** An endpoint's id: its network's GUID with the last group made of its address (unique in the network). */
function endpoint(e: ModelHnsEndpoint): Record<string, unknown> {
  const last = e.ipAddress
    .split('.')
    .map((o) => Number(o).toString(16).padStart(2, '0'))
    .join('')
    .padStart(12, '0');
  return {
    id: `${e.networkId.slice(0, 24)}${last}`,
    name: e.name,
    networkId: e.networkId,
    ipAddress: e.ipAddress,
    macAddress: macOf(e.ipAddress),
  };
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}
const intToIpv4 = (n: number): string => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

/** HNS hands an endpoint the next free address of the network's subnet (from .2; .1 is the gateway). */
function allocate(m: WindowsModel, subnet: string): string {
  const [base, bits] = subnet.split('/');
  const size = 2 ** (32 - Number(bits));
  const start = ipv4ToInt(base ?? '0.0.0.0') - (ipv4ToInt(base ?? '0.0.0.0') % size);
  const used = new Set(m.hnsEndpoints.map((e) => e.ipAddress));
  for (let i = 2; i < size - 1; i++) if (!used.has(intToIpv4(start + i))) return intToIpv4(start + i);
  throw new Error(`HNS network subnet '${subnet}' has no free address`);
}

/** Adapters: the primary NIC, and a host vNIC for each endpoint attached to the host compartment. */
function adapters(m: WindowsModel, attached: ReadonlySet<string>): Record<string, unknown>[] {
  const list = [
    { name: 'Ethernet', ifIndex: PRIMARY_IF, macAddress: macOf(m.ipv4), ipv4: m.ipv4, prefixLength: 24 },
  ];
  m.hnsEndpoints.forEach((e, i) => {
    const ep = endpoint(e);
    if (attached.has(String(ep.id)))
      list.push({
        name: `vEthernet (${e.name})`,
        ifIndex: 20 + i,
        macAddress: macOf(e.ipAddress),
        ipv4: e.ipAddress,
        prefixLength: 32,
      });
  });
  return list;
}

function routeCalls(m: WindowsModel, attached: ReadonlySet<string>): [string, RpcHandler][] {
  return [
    [
      'route.list',
      () =>
        m.routes.map((r) => ({
          ...r,
          routeMetric: m.interfaces.routeMetric(r.interfaceIndex, r.nextHop),
          interfaceMetric: m.interfaces.get(r.interfaceIndex)?.metric ?? 75,
          persistent: !m.volatileRoutes.has(r.destinationPrefix),
        })),
    ],
    [
      'route.add',
      (p) => {
        const prefix = str(p, 'destinationPrefix');
        if (
          m.routes.some(
            (r) => r.destinationPrefix === prefix && r.interfaceIndex === Number(p.interfaceIndex),
          )
        )
          throw new Error('Instance MSFT_NetRoute already exists');
        m.routes.push({
          destinationPrefix: prefix,
          nextHop: str(p, 'nextHop'),
          interfaceIndex: Number(p.interfaceIndex),
        });
      },
    ],
    ['adapter.list', () => adapters(m, attached)],
  ];
}

function firewallCalls(m: WindowsModel): [string, RpcHandler][] {
  return [
    ['firewall.list', () => m.firewallRules.map((r) => ({ ...r }))],
    [
      'firewall.add',
      (p) => {
        const name = str(p, 'name');
        if (m.firewallRules.some((r) => r.name === name))
          throw new Error(`Cannot create a file when that file already exists.`);
        const protocol = str(p, 'protocol').toUpperCase();
        const direction = str(p, 'direction');
        if (
          (protocol !== 'TCP' && protocol !== 'UDP') ||
          (direction !== 'Inbound' && direction !== 'Outbound')
        )
          throw new Error(`the simulated firewall models TCP/UDP Inbound/Outbound rules only`);
        const description = typeof p['description'] === 'string' ? p['description'] : '';
        m.firewallRules.push({
          name,
          protocol,
          localPort: Number(str(p, 'localPort')),
          direction,
          description,
        });
      },
    ],
    [
      'firewall.remove',
      (p) => {
        const i = m.firewallRules.findIndex((r) => r.name === str(p, 'name'));
        if (i < 0)
          throw new Error(
            `No MSFT_NetFirewallRule objects found with property 'Name' equal to '${str(p, 'name')}'.`,
          );
        m.firewallRules.splice(i, 1);
      },
    ],
  ];
}

function hnsCalls(m: WindowsModel, attached: Set<string>): [string, RpcHandler][] {
  return [
    [
      'hns.networks',
      () =>
        m.hnsNetworks.map((n) => ({
          ...n,
          subnet: n.subnet ?? m.podSubnet,
          managementIp: n.managementIp ?? m.ipv4,
        })),
    ],
    [
      'hns.removeNetwork',
      (p) => {
        const i = m.hnsNetworks.findIndex((n) => n.id === str(p, 'id'));
        if (i < 0) throw new Error(`HNS network ${str(p, 'id')} not found`);
        const [net] = m.hnsNetworks.splice(i, 1);
        for (const ep of m.hnsEndpoints.filter((e) => e.networkId === net?.id))
          m.hnsEndpoints.splice(m.hnsEndpoints.indexOf(ep), 1);
      },
    ],
    ['hns.endpoints', () => m.hnsEndpoints.map((e) => endpoint(e))],
    [
      'hns.newEndpoint',
      (p) => {
        const net = m.hnsNetworks.find((n) => n.id.toLowerCase() === str(p, 'networkId').toLowerCase());
        if (!net) throw new Error(`HNS network ${str(p, 'networkId')} not found`);
        const e = {
          name: str(p, 'name'),
          networkId: net.id,
          ipAddress: allocate(m, net.subnet ?? m.podSubnet),
        };
        m.hnsEndpoints.push(e);
        return endpoint(e);
      },
    ],
    ['hns.attach', (p) => void attached.add(str(p, 'id'))],
  ];
}

/** The network calls of one host. */
export function networkCalls(m: WindowsModel): [string, RpcHandler][] {
  // Endpoints attached to the host compartment (network-conf.ps1's VIPEndpoint): a host vNIC each.
  const attached = new Set<string>();
  return [...routeCalls(m, attached), ...firewallCalls(m), ...hnsCalls(m, attached)];
}
