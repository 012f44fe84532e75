import type { V1CertificateSigningRequest } from '@kubernetes/client-node';
import { parseCsr } from '@wmco/core';
import { allCsrs, isApproved, SERVING } from './identity-csrs.js';
import { nodeAttacker, type NodeAttacker } from './node-attacker.js';
import type { SimWorld } from './sim-world.js';
import { eventsAbout, phaseIs, until } from './world-fixture.js';

/** The victim (index 0) and the compromised host (index 1) of a hostile-node scenario, both joined. */
export interface HostileNodeScene {
  readonly world: SimWorld;
  readonly victim: SimWorld['hosts']['hosts'][number];
  readonly attackerHost: SimWorld['hosts']['hosts'][number];
  readonly attacker: NodeAttacker;
}

export async function hostileNodeScene(world: SimWorld, attackerNode: string): Promise<HostileNodeScene> {
  const [victim, attackerHost] = world.hosts.hosts;
  if (!victim || !attackerHost) throw new Error('a hostile-node scenario needs two hosts');
  return { world, victim, attackerHost, attacker: await nodeAttacker(world, attackerNode, 1) };
}

/** Waits for the Warning event that reports `node` as contradicting the operator's record. */
export async function mismatchReported(world: SimWorld, node: string, also?: RegExp): Promise<string> {
  return until(`node ${node} reported`, async () => {
    const e = (await eventsAbout(world)).find(
      (x) =>
        x.reason === 'NodeRecordMismatch' &&
        x.type === 'Warning' &&
        x.message.startsWith(`Node ${node} `) &&
        (also === undefined || also.test(x.message)),
    );
    return e?.message;
  });
}

/** Waits until a CSR is refused by the operator (one CSRNotApproved event naming it). */
export async function csrRefused(world: SimWorld, csr: string): Promise<string> {
  return until(`refusal of ${csr}`, async () => {
    const e = (await eventsAbout(world)).find(
      (x) => x.reason === 'CSRNotApproved' && x.message.includes(`CSR ${csr} `),
    );
    return e?.message;
  });
}

/** Approved serving CSRs whose SANs name `ip` or `dns`, whoever asked. */
export async function approvedServingFor(
  world: SimWorld,
  ip: string,
  dns: string,
): Promise<V1CertificateSigningRequest[]> {
  const out: V1CertificateSigningRequest[] = [];
  for (const c of await allCsrs(world)) {
    if (c.spec.signerName !== SERVING || !isApproved(c)) continue;
    const p = await parseCsr(c.spec.request);
    if (p.ipAddresses.includes(ip) || p.dnsNames.includes(dns)) out.push(c);
  }
  return out;
}

/** The victim is as it was: its Node Ready with its status, its services running. */
export async function victimIntact(scene: HostileNodeScene): Promise<string[]> {
  const services = scene.victim.sim.model.scm
    .all()
    .filter((s) => s.state === 'running')
    .map((s) => s.name)
    .sort();
  await until('victim Ready', phaseIs(scene.world, scene.victim.address, 'Ready'));
  return services;
}
