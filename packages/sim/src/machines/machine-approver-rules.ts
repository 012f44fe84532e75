import type { JsonObject } from '../apiserver/json.js';
import { meta, str } from '../apiserver/json.js';
import { machineAddresses, nodeRefName } from './machine-objects.js';

/** cluster-machine-approver pkg/controller/csr_check.go constants. */
export const NODE_BOOTSTRAPPER_USER =
  'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper';
const NODE_BOOTSTRAPPER_GROUPS = [
  'system:serviceaccounts:openshift-machine-config-operator',
  'system:serviceaccounts',
  'system:authenticated',
];
const MAX_MACHINE_CLOCK_SKEW_MS = 10_000;
const MAX_MACHINE_DELTA_MS = 2 * 3600_000;

/** The parts of a CSR the approver reads. */
export interface ApproverCsr {
  readonly signerName: string;
  readonly username: string;
  readonly groups: readonly string[];
  readonly usages: readonly string[];
  readonly createdMs: number;
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
}

export interface ApproverWorld {
  readonly machines: readonly JsonObject[];
  nodeExists(name: string): boolean;
}

function sameSet(have: readonly string[], want: readonly string[]): boolean {
  return have.length === want.length && want.every((u) => have.includes(u));
}

/** A kubelet client CSR, as isNodeClientCert tells it: kubelet client signer, O=system:nodes, CN=system:node:*. */
function isNodeClient(c: ApproverCsr): boolean {
  return (
    c.signerName === 'kubernetes.io/kube-apiserver-client-kubelet' &&
    c.organizations.length === 1 &&
    c.organizations[0] === 'system:nodes' &&
    c.commonName.startsWith('system:node:') &&
    (sameSet(c.usages, ['key encipherment', 'digital signature', 'client auth']) ||
      sameSet(c.usages, ['digital signature', 'client auth']))
  );
}

function clientRefusal(c: ApproverCsr, w: ApproverWorld): string | undefined {
  if (c.username !== NODE_BOOTSTRAPPER_USER || !NODE_BOOTSTRAPPER_GROUPS.every((g) => c.groups.includes(g)))
    return 'not a node bootstrapper client cert request';
  const nodeName = c.commonName.slice('system:node:'.length);
  if (nodeName === '') return 'empty node name';
  if (w.nodeExists(nodeName)) return `node ${nodeName} already exists`;
  const machine = w.machines.find((m) =>
    machineAddresses(m).some((a) => a.type === 'InternalDNS' && a.address === nodeName),
  );
  if (!machine) return `no machine for node ${nodeName}`;
  if (nodeRefName(machine) !== undefined) return `machine for node ${nodeName} already has a node ref`;
  const created = Date.parse(str(meta(machine)['creationTimestamp']) ?? '');
  if (c.createdMs < created - MAX_MACHINE_CLOCK_SKEW_MS || c.createdMs > created + MAX_MACHINE_DELTA_MS)
    return 'CSR creation time not in range of the machine creation';
  return undefined;
}

function servingRefusal(c: ApproverCsr, w: ApproverWorld): string | undefined {
  if (!c.username.startsWith('system:node:') || c.username === 'system:node:')
    return 'not a node serving cert';
  if (!['system:nodes', 'system:authenticated'].every((g) => c.groups.includes(g))) return 'missing groups';
  if (
    !sameSet(c.usages, ['digital signature', 'key encipherment', 'server auth']) &&
    !sameSet(c.usages, ['digital signature', 'server auth'])
  )
    return 'wrong usages';
  if (c.commonName !== c.username) return 'mismatched common name';
  if (!c.organizations.includes('system:nodes')) return 'organization lacks system:nodes';
  return sansRefusal(c, w, c.username.slice('system:node:'.length));
}

/** authorizeServingCertWithMachine: every DNS and IP SAN must be one of the linked Machine's addresses. */
function sansRefusal(c: ApproverCsr, w: ApproverWorld, nodeName: string): string | undefined {
  const machine = w.machines.find((m) => nodeRefName(m) === nodeName);
  if (!machine) return `no machine for node ${nodeName}`;
  const addrs = machineAddresses(machine);
  const names = addrs
    .filter((a) => ['InternalDNS', 'ExternalDNS', 'Hostname'].includes(a.type))
    .map((a) => a.address.replace(/\.$/, '').toLowerCase());
  const ips = addrs.filter((a) => ['InternalIP', 'ExternalIP'].includes(a.type)).map((a) => a.address);
  const badName = c.dnsNames.find((n) => n !== '' && !names.includes(n.toLowerCase()));
  if (badName !== undefined) return `DNS name '${badName}' not in machine names`;
  const badIp = c.ipAddresses.find((ip) => ip !== '' && !ips.includes(ip));
  return badIp === undefined ? undefined : `IP address '${badIp}' not in machine addresses`;
}

/**
 * cluster-machine-approver's authorizeCSR without the serving-renewal and egress-IP paths: undefined
 * means approve, else why not.
 */
export function machineApproverRefusal(c: ApproverCsr, w: ApproverWorld): string | undefined {
  if (isNodeClient(c)) return clientRefusal(c, w);
  if (c.signerName !== 'kubernetes.io/kubelet-serving') return 'not a kubelet certificate';
  return servingRefusal(c, w);
}
