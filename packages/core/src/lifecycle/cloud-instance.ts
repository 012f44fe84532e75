import type { CloudInstance, InstanceIdentity } from '../provider/capabilities/instance-identity.js';
import type { CloudTag, InstanceTagging, TagMode } from '../provider/capabilities/instance-tagging.js';
import { CloudApiError, CloudNotConfiguredError } from '../provider/errors.js';
import { InstanceOutsideClusterNetworkError } from '../provider/cloud-network-error.js';
import { kubeletNodeName } from '../identity/node-name.js';
import { NodeNameError } from '../identity/name-decision.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { Logger } from '../kube/logger.js';
import { errorMessage } from '../kube/logger.js';
import { instancesConfigMapRef } from './join-deps.js';

/** Node annotations of the cloud step (wmco-ts; upstream does nothing cloud-side for BYOH). */
export const CloudAnnotations = {
  /** The cloud's instance ID of the host. */
  instanceId: 'windowsmachineconfig.openshift.io/cloud-instance-id',
  /** JSON `[{key, value}]`: the tags the operator applied, and so takes back on removal. */
  appliedTags: 'windowsmachineconfig.openshift.io/cloud-applied-tags',
} as const;

export interface CloudJoinOptions {
  readonly identity?: InstanceIdentity | undefined;
  readonly tagging?: InstanceTagging | undefined;
  /**
   * `check` (default), `apply` (the tag is added as `shared`: `openshift-install destroy` leaves the host)
   * or `apply-owned` (added as `owned`: destroy deletes the host with the cluster).
   */
  readonly mode: TagMode;
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly namespace: string;
  /** Attempts of one cloud step when the cloud throttles or fails after the SDK's own retries (default 3). */
  readonly attempts?: number;
  /** Pause before the second attempt, doubled each time (default 1 s). */
  readonly backoffMs?: number;
}

/** What the join learned from the cloud about one host. */
export interface CloudFacts {
  readonly instance: CloudInstance;
}

const TRANSIENT: ReadonlySet<CloudApiError['kind']> = new Set(['throttled', 'other', 'conflict']);

/** Parses the applied-tags annotation; anything malformed counts as nothing applied. */
export function appliedTagsOf(annotation: string | undefined): CloudTag[] {
  if (!annotation) return [];
  try {
    const raw: unknown = JSON.parse(annotation);
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (t): t is CloudTag =>
        typeof t === 'object' &&
        t !== null &&
        typeof (t as CloudTag).key === 'string' &&
        typeof (t as CloudTag).value === 'string',
    );
  } catch {
    return [];
  }
}

/**
 * The cloud's part of a BYOH join and removal, on platforms whose provider registers `InstanceIdentity`:
 * the cloud's own name for the instance must be the node name the host reports (an identity source the
 * host cannot forge), the ownership tag is checked or applied and what was applied is remembered, and a
 * removal takes back exactly that. Without credentials it warns once (one event per operator run) and
 * the join goes on; throttling or a cloud outage is retried a few times and then only warned about.
 */
export class CloudJoin {
  private warnedUnconfigured = false;

  constructor(private readonly o: CloudJoinOptions) {}

  /**
   * Finds the instance behind `address` in the cluster's network and checks that the cloud names it
   * `nodeName`. Resolves undefined when the platform has no cloud identity, it is not configured, or the
   * cloud cannot say; rejects with `NodeNameError` when the cloud's name differs, or when the address
   * belongs only to an instance outside the cluster's network (then with a `CloudInstanceOutsideNetwork`
   * event naming both networks).
   */
  async verify(address: string, nodeName: string): Promise<CloudFacts | undefined> {
    const identity = this.o.identity;
    if (!identity) return undefined;
    const instance = await this.guarded(address, 'find the cloud instance', () =>
      identity.identify(address),
    ).catch((err: unknown) => this.refuseOutside(address, err));
    if (instance === undefined) return undefined;
    if (instance === null) {
      await this.warn('CloudInstanceNotFound', `instance ${address}: no cloud instance has this private IP`);
      return undefined;
    }
    // AWS: the private DNS name (the kubelet's IMDS hostname override); GCP: the zonal DNS name (the
    // metadata hostname) or, when that is longer than 63, the instance name; Azure: the VM's computer name.
    const names = [instance.privateDnsName, instance.name].map((n) => kubeletNodeName(n));
    if (!names.some((n) => n.ok && n.name === nodeName))
      throw new NodeNameError(
        address,
        `the host reports node name ${nodeName}, but the cloud names instance ${instance.instanceId} ` +
          `${instance.privateDnsName || instance.name}`,
      );
    return { instance };
  }

  /**
   * Checks or applies the ownership tag; returns the Node annotations to record (the instance ID, and the
   * tags applied now together with those applied before).
   */
  async tag(facts: CloudFacts, recorded: string | undefined): Promise<Record<string, string>> {
    const tagging = this.o.tagging;
    const out: Record<string, string> = { [CloudAnnotations.instanceId]: facts.instance.instanceId };
    if (!tagging) return out;
    const address = facts.instance.privateIp;
    const result = await this.guarded(address, 'tag the cloud instance', () =>
      tagging.ensureTag(facts.instance, this.o.mode),
    );
    if (!result) return out;
    if (result.state === 'missing')
      await this.warn(
        'CloudTagMissing',
        `instance ${address} (${facts.instance.instanceId}) lacks ${result.tag.key}=${result.tag.value} ` +
          '(tagging mode check: the operator adds it only when run with --cloud-tagging=apply, as shared, ' +
          'or --cloud-tagging=apply-owned, as owned)',
      );
    if (result.state !== 'applied') return out; // what an earlier join applied stays recorded
    const before = appliedTagsOf(recorded);
    const merged = [...before.filter((t) => t.key !== result.tag.key), result.tag];
    return { ...out, [CloudAnnotations.appliedTags]: JSON.stringify(merged) };
  }

  /**
   * Takes back the tags the operator's record says it applied (JSON as `appliedTagsOf` reads), only from
   * the cloud instance it recorded when one is given; never throws (removal goes on, warned).
   */
  async untag(
    address: string,
    recorded: string | undefined,
    instanceId?: string,
  ): Promise<readonly string[]> {
    const tags = appliedTagsOf(recorded);
    const { identity, tagging } = this.o;
    if (tags.length === 0 || !identity || !tagging) return [];
    const removed = await this.guarded(address, 'remove the operator’s cloud tags', async () => {
      const instance = await identity.identify(address);
      if (!instance) return [];
      if (instanceId !== undefined && instance.instanceId !== instanceId) {
        await this.warn(
          'CloudInstanceChanged',
          `instance ${address}: the cloud instance there is ${instance.instanceId}, not ${instanceId} the operator tagged; its tags are left alone`,
        );
        return [];
      }
      return tagging.removeTags(instance, tags);
    }).catch(async (err: unknown) => {
      // Only an instance in the cluster's network ever has its tags touched.
      if (!(err instanceof InstanceOutsideClusterNetworkError)) throw err;
      await this.warn('CloudInstanceOutsideNetwork', `${err.message}; its tags are left alone`);
      return [];
    });
    return removed ?? [];
  }

  /** An address matched only outside the cluster's network: one event, and the join is refused. */
  private async refuseOutside(address: string, err: unknown): Promise<never> {
    if (!(err instanceof InstanceOutsideClusterNetworkError)) throw err;
    const { instanceId, network, clusterNetwork } = err.match;
    await this.warn(
      'CloudInstanceOutsideNetwork',
      `instance ${address}: refused: the cloud instance with this private IP, ${instanceId}, is in network ` +
        `${network}, not the cluster's network ${clusterNetwork}; it is not tagged and no node joins as it`,
    );
    throw new NodeNameError(
      address,
      `the cloud instance with this private IP (${instanceId}) is in network ${network}, not the ` +
        `cluster's network ${clusterNetwork}`,
    );
  }

  /**
   * Runs one cloud step: retried while the cloud throttles or fails; "not configured" is warned about
   * once and yields undefined, as does a cloud still failing after the last attempt. A found-nothing
   * identity comes back as null, so the caller can tell it from "could not ask".
   */
  private async guarded<T>(
    address: string,
    what: string,
    step: () => Promise<T>,
  ): Promise<T | null | undefined> {
    const attempts = this.o.attempts ?? 3;
    for (let i = 1; ; i++) {
      try {
        const v = await step();
        return v === undefined ? null : v;
      } catch (err) {
        if (err instanceof InstanceOutsideClusterNetworkError) throw err;
        if (err instanceof CloudNotConfiguredError) return this.unconfigured(err);
        const transient = err instanceof CloudApiError && TRANSIENT.has(err.kind);
        if (!transient || i >= attempts) {
          // Refused, still throttled, or the cluster could not be read (e.g. RBAC): warn, never fail.
          await this.warn('CloudUnavailable', `instance ${address}: cannot ${what}: ${errorMessage(err)}`);
          return undefined;
        }
        await new Promise((r) => setTimeout(r, (this.o.backoffMs ?? 1000) * 2 ** (i - 1)));
      }
    }
  }

  private async unconfigured(err: CloudNotConfiguredError): Promise<undefined> {
    if (this.warnedUnconfigured) return undefined;
    this.warnedUnconfigured = true;
    await this.warn(
      'CloudNotConfigured',
      `${err.message}; BYOH instances join without the cloud's identity check and ownership tags`,
    );
    return undefined;
  }

  private async warn(reason: string, message: string): Promise<void> {
    this.o.logger.warn({ reason }, message);
    await this.o.events.record(instancesConfigMapRef(this.o.namespace), 'Warning', reason, message);
  }
}
