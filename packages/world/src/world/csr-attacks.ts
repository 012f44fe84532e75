import type { CertificatesV1Api } from '@kubernetes/client-node';
import type { CsrAttack } from './host-scenario.js';
import { CLIENT, csrApiAsNode, csrApiWithToken, isApproved, SERVING, submitCsr } from './identity-csrs.js';
import type { SimWorld } from './sim-world.js';
import { apis, eventsAbout } from './world-fixture.js';

/** An address no instance has; the attack writes it into the Node's own status. */
export const FOREIGN_IP = '192.0.2.10';
const VERDICT_WAIT_MS = 3000;

/** What became of one CSR the world submitted. */
export interface CsrVerdict {
  readonly csr: string;
  readonly approved: boolean;
  /** The operator's CSRNotApproved event, if it sent one. */
  readonly refusal?: string;
}

const subject = (
  node: string,
  extra: { dnsNames?: string[]; ipAddresses?: string[] } = {},
): { commonName: string; organizations: string[]; dnsNames?: string[]; ipAddresses?: string[] } => ({
  commonName: `system:node:${node}`,
  organizations: ['system:nodes'],
  ...extra,
});

/** Waits for the operator's answer to `csr`: approval, a refusal event, or (after 3 s) neither. */
async function verdict(world: SimWorld, csr: string): Promise<CsrVerdict> {
  const deadline = Date.now() + VERDICT_WAIT_MS;
  for (;;) {
    const c = await apis(world).certificates.readCertificateSigningRequest({ name: csr });
    if (isApproved(c)) return { csr, approved: true };
    const e = (await eventsAbout(world)).find(
      (x) => x.reason === 'CSRNotApproved' && x.message.includes(`CSR ${csr} `),
    );
    if (e) return { csr, approved: false, refusal: e.message };
    if (Date.now() > deadline) return { csr, approved: false };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Adds an address the operator never gave the instance to the Node's own status (as a node may). */
async function widenNodeStatus(world: SimWorld, node: string): Promise<void> {
  const { core } = apis(world);
  const n = await core.readNode({ name: node });
  const status = n.status ?? {};
  const addresses = [...(status.addresses ?? []), { type: 'ExternalIP', address: FOREIGN_IP }];
  await core.replaceNodeStatus({ name: node, body: { ...n, status: { ...status, addresses } } });
}

/** Which API a client CSR of this attack goes through: the host's bootstrap credentials or another's. */
function clientApi(world: SimWorld, attack: CsrAttack): CertificatesV1Api {
  const token =
    attack === 'wrongRequester' ? world.cluster.bootstrapToken : world.cluster.nodeBootstrapperToken;
  return csrApiWithToken(world, token);
}

/**
 * Performs one attack for the host at `address` whose Node is `node` and returns what the operator did.
 * secondClient / afterRemoval: a client CSR for the node with the node-bootstrapper token the host holds;
 * wrongRequester: the same with a kubeadm bootstrap token (another requester); servingExtraSans: as the
 * node, a serving CSR that also names an address the node first wrote into its own status.
 */
export async function performCsrAttack(
  world: SimWorld,
  attack: CsrAttack,
  node: string,
  address: string,
): Promise<CsrVerdict> {
  const csr = `world-${attack.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${node}`;
  if (attack === 'servingExtraSans') {
    await widenNodeStatus(world, node);
    const asNode = await csrApiAsNode(world, node);
    const sans = { dnsNames: [node], ipAddresses: [address, FOREIGN_IP] };
    await submitCsr(asNode, csr, subject(node, sans), SERVING);
  } else {
    await submitCsr(clientApi(world, attack), csr, subject(node), CLIENT);
  }
  return verdict(world, csr);
}

/** How the demo prints an attack and its outcome. */
export function describeAttack(attack: CsrAttack, v: CsrVerdict): string {
  const what: Record<CsrAttack, string> = {
    secondClient: 'second client CSR (node-bootstrapper token)',
    wrongRequester: 'client CSR from another requester (a kubeadm bootstrap token)',
    servingExtraSans: `serving CSR with a SAN the node added to its own status (${FOREIGN_IP})`,
    afterRemoval: 'client CSR after its entry was removed (node-bootstrapper token)',
  };
  const outcome = v.approved
    ? 'APPROVED'
    : `not approved${v.refusal !== undefined ? ` (${v.refusal})` : ` (no event within ${VERDICT_WAIT_MS / 1000} s)`}`;
  return `${what[attack]} ${v.csr}: ${outcome}`;
}
