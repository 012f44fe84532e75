import type { FirewallFacts } from '../provider/capabilities/firewall-facts.js';
import type { CloudInstance, InstanceIdentity } from '../provider/capabilities/instance-identity.js';
import type { InstanceTagging } from '../provider/capabilities/instance-tagging.js';
import { CloudApiError, CloudNotConfiguredError } from '../provider/errors.js';
import { InstanceOutsideClusterNetworkError } from '../provider/cloud-network-error.js';
import { CLOUD_PREFLIGHT_CHECKS, fail, pass, skip, warn, type Finding } from './finding.js';

/** The cloud capabilities the platform's provider registered (any may be absent). */
export interface CloudCheckInput {
  readonly address: string;
  readonly vxlanPort: number;
  readonly infrastructureName: string;
  readonly identity?: InstanceIdentity | undefined;
  readonly tagging?: InstanceTagging | undefined;
  readonly firewall?: FirewallFacts | undefined;
}

const CLOUD_CHECKS = CLOUD_PREFLIGHT_CHECKS;

function unavailable(error: unknown): Finding[] | undefined {
  if (error instanceof InstanceOutsideClusterNetworkError)
    return [
      fail(
        'cloud-instance',
        error.message,
        "use the address of an instance in the cluster's network; the join refuses this one",
      ),
      ...CLOUD_CHECKS.slice(1).map((c) => skip(c, "the instance is outside the cluster's network")),
    ];
  if (error instanceof CloudNotConfiguredError)
    return CLOUD_CHECKS.map((c) => skip(c, `cloud access not configured (${error.message})`));
  if (error instanceof CloudApiError)
    return [
      warn('cloud-instance', error.message, 'check the cloud credentials Secret and the API permissions'),
      ...CLOUD_CHECKS.slice(1).map((c) => skip(c, 'the cloud instance could not be read')),
    ];
  return undefined;
}

async function tagFinding(instance: CloudInstance, input: CloudCheckInput): Promise<Finding> {
  if (!input.tagging) return skip('cloud-tag', 'the platform has no ownership tag');
  const tag = input.tagging.ownershipTag(input.infrastructureName, 'apply');
  const state = await input.tagging.ensureTag(instance, 'check');
  if (state.state === 'present') return pass('cloud-tag', `${state.tag.key}=${state.tag.value}`);
  return warn(
    'cloud-tag',
    `${tag.key}=${tag.value} is missing`,
    `tag the instance with ${tag.key}=${tag.value}, or let the join apply it (tagging mode apply; ` +
      'apply-owned tags it owned, and openshift-install destroy then deletes it)',
  );
}

async function firewallFindings(instance: CloudInstance, input: CloudCheckInput): Promise<Finding[]> {
  if (!input.firewall) return [skip('cloud-firewall', 'the platform SDK cannot read its firewall')];
  const reach = await input.firewall.inspect(instance, input.vxlanPort);
  const closed = reach.filter((r) => !r.allowed);
  const open = reach.map((r) => `${r.protocol}/${r.port} ${r.purpose}: ${r.allowed ? r.detail : 'closed'}`);
  if (closed.length === 0) return [pass('cloud-firewall', open.join('; '))];
  return [
    warn(
      'cloud-firewall',
      open.join('; '),
      `allow the cluster's nodes in to ${closed.map((r) => `${r.protocol}/${r.port} (${r.purpose})`).join(', ')}`,
    ),
  ];
}

/**
 * The cloud's view of a BYOH host: the instance behind the address (its ID and provider ID), the cluster
 * ownership tag, and the firewall. Cloud findings warn (the join works without them), except an address
 * that only an instance outside the cluster's network has: the join refuses that, so the preflight fails. Returns nothing on a platform without `InstanceIdentity`.
 */
export async function checkCloud(input: CloudCheckInput): Promise<readonly Finding[]> {
  if (!input.identity) return [];
  try {
    const instance = await input.identity.identify(input.address);
    if (!instance)
      return [
        warn(
          'cloud-instance',
          `no instance in the cluster's cloud account has private IP ${input.address}`,
          "use the instance's private IP address, in the cluster's region/project/resource group",
        ),
        ...CLOUD_CHECKS.slice(1).map((c) => skip(c, 'no cloud instance')),
      ];
    const head = pass(
      'cloud-instance',
      `${instance.instanceId} (${instance.providerId}), private DNS ${instance.privateDnsName}`,
    );
    return [head, await tagFinding(instance, input), ...(await firewallFindings(instance, input))];
  } catch (error) {
    const findings = unavailable(error);
    if (findings) return findings;
    throw error;
  }
}
