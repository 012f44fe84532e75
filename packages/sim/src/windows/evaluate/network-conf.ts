import type { ModelHnsNetwork, WindowsModel } from '../windows-model.js';
import type { ScriptFile } from './evaluator-registry.js';
import { PowerShellError, UnsupportedScriptError } from './script-errors.js';

/** What network-conf.ps1 (packages/core desired/network-script.ts) holds, read from the file on the host. */
interface NetworkScript {
  readonly module: string;
  readonly network: string;
  readonly cniPath: string;
  readonly cniTemplate: string;
  readonly kubeProxyTemplate: string;
}

function parseScript(content: string): NetworkScript {
  const crlf = content.includes('\r\n');
  const text = content.replace(/\r\n/g, '\n');
  const find = (what: string, pattern: RegExp): string => {
    const value = pattern.exec(text)?.[1];
    if (value === undefined) {
      throw new UnsupportedScriptError(`the simulated host cannot read this network-conf.ps1: no ${what}`);
    }
    return value;
  };
  // A here-string keeps the newlines of the file it is written in.
  const hereString = (name: string): string => {
    const body = find(`${name} template`, new RegExp(`\\$${name} = @'\\n([\\s\\S]*?)\\n'@`));
    return crlf ? body.replace(/\n/g, '\r\n') : body;
  };
  return {
    module: find('Import-Module line', /Import-Module -DisableNameChecking '([^']+)'/),
    network: find('HNS network name', /Where-Object \{ \$_\.Name -eq '([^']+)' \}/),
    cniPath: find('CNI config path', /Write-IfChanged '([^']+)' \$cniConfig/),
    cniTemplate: hereString('cniConfig'),
    kubeProxyTemplate: hereString('kubeProxyConfig'),
  };
}

/**
 * A string as Windows PowerShell 5.1's ConvertTo-Json writes it (JavaScriptSerializer): JSON escapes plus
 * `<`, `>`, `&` and `'` as \u escapes.
 */
export function powershellJsonString(value: string): string {
  return JSON.stringify(value).replace(
    /[<>&']/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Set-Content -Encoding ascii: non-ASCII characters become `?`, and a CRLF ends the text. */
function asciiWithNewline(content: string): Buffer {
  return Buffer.from(`${content.replace(/[\u0080-\uffff]/g, '?')}\r\n`, 'latin1');
}

/** Write-IfChanged: rewrite only when the content differs, ignoring `\r` and surrounding whitespace. */
function writeIfChanged(m: WindowsModel, path: string, content: string): void {
  const current = m.files.read(path)?.toString('latin1').replace(/\r/g, '') ?? '';
  if (current.trim() === content.trim()) return;
  try {
    m.files.write(path, asciiWithNewline(content));
  } catch (err) {
    throw new PowerShellError((err as Error).message);
  }
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const intToIpv4 = (n: number): string => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

/** The next free address of the network's subnet, from .2 up (.1 is the overlay gateway). */
function allocateAddress(m: WindowsModel, subnet: string): string {
  const match = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(subnet);
  if (!match) throw new PowerShellError(`HNS network subnet '${subnet}' is not an IPv4 CIDR`);
  const size = 2 ** (32 - Number(match[2]));
  const base = ipv4ToInt(match[1]!) - (ipv4ToInt(match[1]!) % size);
  const used = new Set(m.hnsEndpoints.map((e) => e.ipAddress));
  for (let i = 2; i < size - 1; i++) if (!used.has(intToIpv4(base + i))) return intToIpv4(base + i);
  throw new PowerShellError(`HNS network subnet '${subnet}' has no free address`);
}

/** The `VIPEndpoint` HNS endpoint on the host compartment, created when missing; its IPv4 is the source VIP. */
function ensureVipEndpoint(m: WindowsModel, network: ModelHnsNetwork, subnet: string): string {
  const existing = m.hnsEndpoints.find((e) => e.name === 'VIPEndpoint');
  if (existing) return existing.ipAddress;
  const endpoint = { name: 'VIPEndpoint', networkId: network.id, ipAddress: allocateAddress(m, subnet) };
  m.hnsEndpoints.push(endpoint);
  return endpoint.ipAddress;
}

/**
 * `C:\Temp\network-conf.ps1`, kube-proxy's pre-script, on the model: the same files the real script writes,
 * from the templates in the script file itself. The real script waits up to 20 s for the HNS network; the
 * simulator answers at once with the error the script throws after that wait.
 */
export const networkConfScript: ScriptFile = {
  fileName: 'network-conf.ps1',
  params: [
    { name: 'hostnameOverride', type: 'string', mandatory: true },
    { name: 'clusterCIDR', type: 'string', mandatory: true },
    { name: 'kubeConfigPath', type: 'string', mandatory: true },
    { name: 'kubeProxyConfigPath', type: 'string', mandatory: true },
    { name: 'verbosity', type: 'int', mandatory: true },
  ],
  run(m, args, file) {
    const script = parseScript(file.content);
    if (!m.files.isFile(script.module)) {
      throw new PowerShellError(
        `The specified module '${script.module}' was not loaded because no valid module file was found in any ` +
          'module directory.',
      );
    }
    const network = m.hnsNetworks.find((n) => n.name === script.network);
    if (!network) throw new PowerShellError(`HNS network ${script.network} not found`);
    const subnet = network.subnet ?? m.podSubnet;
    const cni = script.cniTemplate
      .split('@@SUBNET@@')
      .join(subnet)
      .split('@@PROVIDER_ADDRESS@@')
      .join(network.managementIp ?? m.ipv4);
    writeIfChanged(m, script.cniPath, cni);
    const sourceVip = ensureVipEndpoint(m, network, subnet);
    const fields: Record<string, string> = {
      HOSTNAME_OVERRIDE: String(args.get('hostnameOverride')),
      CLUSTER_CIDR: String(args.get('clusterCIDR')),
      SOURCE_VIP: sourceVip,
      KUBECONFIG: String(args.get('kubeConfigPath')),
    };
    let kubeProxy = script.kubeProxyTemplate;
    for (const [key, value] of Object.entries(fields)) {
      kubeProxy = kubeProxy.split(`"@@${key}@@"`).join(powershellJsonString(value));
    }
    kubeProxy = kubeProxy.split('@@VERBOSITY@@').join(String(args.get('verbosity')));
    writeIfChanged(m, String(args.get('kubeProxyConfigPath')), kubeProxy);
    return '';
  },
};
