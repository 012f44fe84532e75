import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../desired/windows-instances.js';
import type { HostKeyStore } from '../host/host-key-store.js';
import { errorMessage } from '../kube/logger.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import { Annotations } from '../identity/node-metadata.js';
import { encryptUsername } from '../identity/username-crypto.js';
import { CloudAnnotations, appliedTagsOf, type CloudFacts } from './cloud-instance.js';
import type { NodeRecord } from '../identity/node-record.js';
import { bootstrapRound, nodeRound, type JoinRoundState } from './join-rounds.js';
import { enterPhase, type InstancePhase, type InstanceStatus } from './instance-status.js';
import { nodeEventRef } from './join-deps.js';
import type { JoinFlowDeps } from './flow-deps.js';
import type { JoiningInstance } from './node-source.js';
import { hasHybridOverlaySubnet, isNodeReady, patchNode, patchNodeMetadata } from './node-ops.js';
import { designContent, designNode } from '../desired/node-spec.js';
import { publishServicesConfigMap } from './services-configmap-publisher.js';
import { waitForNode } from './node-changes.js';
import { refuseUnsupportedBuild, UnsupportedWindowsBuildError } from './windows-build-gate.js';

export interface JoinRequest {
  readonly instance: WindowsInstance;
  readonly privateKeyPem: string;
  readonly publicKeyHash: string;
  readonly signal: AbortSignal;
  /** The source's instance (node-source.ts): its name decision, claim, labels, status and events. */
  readonly identity: JoiningInstance;
}

interface JoinState extends JoinRoundState {
  readonly identity: JoiningInstance;
  readonly signal: AbortSignal;
  readonly services: readonly WindowsServiceSpec[];
  cloud?: CloudFacts | undefined; // the cloud instance behind the host, where the cloud could say
}

/**
 * The BYOH join of one host (reference §1.6, agentless): files and the bootstrap services in one apply,
 * their value pre-scripts evaluated on the host by the observe before it; the kubelet's CSR is approved by
 * the CSR controller; the Node is cordoned, labelled and annotated; then every node service in one apply
 * (hybrid-overlay before kube-proxy, whose pre-script needs its HNS network); Ready; uncordon. Every step converges, so running
 * it again after an interruption resumes where the host and the Node are.
 */
export class JoinFlow {
  constructor(
    private readonly deps: JoinFlowDeps,
    private readonly hostKeys: HostKeyStore,
  ) {}

  async join(req: JoinRequest): Promise<void> {
    const { instance } = req;
    const started = this.now();
    const { identity } = req;
    await this.phase(identity, 'Connecting');
    const host = this.deps.openHost({
      address: instance.address, // a DNS name here pins the host key by name too
      ipv4: instance.ipv4Address,
      username: instance.username,
      privateKeyPem: req.privateKeyPem,
      signal: req.signal,
    });
    const design = designNode(this.deps, await this.deps.facts());
    const state: JoinState = {
      identity,
      host,
      signal: req.signal,
      design,
      services: design.services,
      content: designContent(design, this.deps.payloadDir),
      hostname: identity.hostname,
      hostCalls: 0,
      bytes: 0,
      servicesStarted: false,
    };
    try {
      const node = await this.configure(req, state);
      await this.finish(req, state, node, started);
    } catch (err) {
      state.identity.end();
      await this.fail(instance.ipv4Address, state, err);
      throw err;
    } finally {
      await host.close();
    }
  }

  /**
   * Four PowerShell starts on a host that holds the Containers feature (ADR 0022): observe and apply before
   * the Node exists, observe and apply after it, whatever the number of service levels and pre-scripts.
   */
  private async configure(req: JoinRequest, s: JoinState): Promise<V1Node> {
    await this.phase(s.identity, 'Configuring');
    if (s.signal.aborted) throw new Error('the operator is stopping');
    let nodeName = '';
    await bootstrapRound(
      s,
      s.services.filter((svc) => svc.bootstrap),
      async (values, host) => {
        // A Windows build the platform does not support (as preflight) and a name refused (the operator
        // decides it before the kubelet starts, ADR 0008) fail the join before anything starts.
        refuseUnsupportedBuild(host.os, this.deps.windowsBuilds);
        nodeName = await s.identity.decideName(values, host);
        // ... and the cloud's name for the instance must agree with it (AWS, Azure, GCP).
        s.cloud = await this.deps.cloud?.verify(req.instance.ipv4Address, nodeName);
      },
    );
    await this.phase(s.identity, 'WaitingForNode', { node: nodeName });
    await this.claim(req, s, nodeName);
    req.signal.throwIfAborted(); // abandoned meanwhile (a Machine deleted): no record, no tags
    const record = await this.writeRecord(req, s, nodeName);
    req.signal.throwIfAborted();
    const annotated = await this.recordCloud(req, s, record, await this.annotate(req, s, nodeName));
    const withSubnet = await this.awaitNodeWhere(nodeName, req.signal, hasHybridOverlaySubnet, annotated);
    await this.phase(s.identity, 'Configuring', { node: nodeName });
    if (s.signal.aborted) throw new Error('the operator is stopping');
    await nodeRound(s, withSubnet);
    return withSubnet;
  }

  /** Waits for the Node, then claims it for the instance (identity/node-claim.ts) before touching it. */
  private async claim(req: JoinRequest, s: JoinState, nodeName: string): Promise<V1Node> {
    const node = await this.awaitNode(nodeName, req.signal);
    await s.identity.claim(node);
    return node;
  }

  /**
   * One patch: cordoned, labelled and annotated (the host key read as pinned under the host's address,
   * `ip`, or `ip:port` off port 22). Returns the Node as patched (it may already carry its subnet).
   */
  private async annotate(req: JoinRequest, s: JoinState, nodeName: string): Promise<V1Node> {
    const pin = await this.hostKeys.get(s.host.address);
    return patchNode(this.deps.core, nodeName, {
      unschedulable: true,
      labels: { ...s.identity.labels },
      annotations: {
        ...s.identity.annotations,
        [Annotations.pubKeyHash]: req.publicKeyHash,
        [Annotations.username]: encryptUsername(req.instance.username, req.privateKeyPem),
        ...(pin ? { [Annotations.sshHostKey]: pin.base64, [Annotations.sshHostKeyType]: pin.type } : {}),
      },
    });
  }

  /**
   * The operator's record of the instance (ADR 0035), written once the Node is claimed and before anything
   * else touches it: where the operator connected, the node name it decided, the username, the host key
   * pinned. Tags an earlier join applied to the same address stay recorded.
   */
  private async writeRecord(req: JoinRequest, s: JoinState, nodeName: string): Promise<NodeRecord> {
    const { source, instance, dnsName } = s.identity.record;
    const address = req.instance.ipv4Address;
    const before = this.deps.records.get(source, instance);
    const pin = await this.hostKeys.get(s.host.address);
    const record: NodeRecord = {
      source,
      instance,
      address,
      nodeName,
      username: req.instance.username,
      appliedTags: before?.address === address ? before.appliedTags : [],
      recordedAt: this.now().toISOString(),
      ...(dnsName === undefined ? {} : { dnsName }),
      ...(pin ? { hostKey: pin } : {}),
      ...(s.cloud ? { cloudInstanceId: s.cloud.instance.instanceId } : {}),
    };
    await this.deps.records.put(record);
    return record;
  }

  /**
   * On a cloud: the ownership tag checked or applied (AWS, Azure, GCP). A tag applied is written to the
   * operator's record first (what a removal takes back), then shown on the Node.
   */
  private async recordCloud(
    req: JoinRequest,
    s: JoinState,
    record: NodeRecord,
    node: V1Node,
  ): Promise<V1Node> {
    const cloud = this.deps.cloud;
    if (!s.cloud || !cloud) return node;
    const notes = await cloud.tag(s.cloud, JSON.stringify(record.appliedTags));
    const applied = notes[CloudAnnotations.appliedTags];
    const name = node.metadata?.name ?? '';
    // A tag applied now but not recorded would never be taken back: undo it when the record fails.
    const undo = async (err: unknown): Promise<never> => {
      await cloud.untag(req.instance.ipv4Address, applied, s.cloud?.instance.instanceId);
      throw err;
    };
    if (applied !== undefined)
      await this.deps.records.put({ ...record, appliedTags: appliedTagsOf(applied) }).catch(undo);
    return patchNodeMetadata(this.deps.core, name, { annotations: notes }).catch(undo);
  }

  private async finish(req: JoinRequest, s: JoinState, node: V1Node, started: Date): Promise<void> {
    const name = node.metadata?.name ?? '';
    // Read anew: the Node as it was before the node round says nothing about Ready now.
    await waitForNode(this.deps, name, isNodeReady, { signal: req.signal });
    // Joined: nothing more is approved for this registration; serving CSRs go by ownership.
    s.identity.end();
    // Uncordoned, with the version it was joined by, in one patch.
    await patchNode(this.deps.core, name, {
      unschedulable: false,
      annotations: {
        [Annotations.version]: this.deps.version,
        [Annotations.desiredVersion]: this.deps.version,
      },
    });
    await publishServicesConfigMap(this.deps.core, this.deps.namespace, this.deps.version, s.design);
    const joinSeconds = Math.round((this.now().getTime() - started.getTime()) / 10) / 100;
    await this.phase(s.identity, 'Ready', {
      node: name,
      joinSeconds,
      // What the adapter counted (one powershell.exe serves every call of a connection), else the calls.
      powershellStarts: s.host.stats?.powershellStarts ?? s.hostCalls,
      bytesSent: s.bytes,
    });
    await this.deps.events.record(
      s.identity.eventTarget,
      'Normal',
      'InstanceSetup',
      `Configured instance with address ${req.instance.address} as a worker node (${name}) in ${joinSeconds}s`,
    );
    await this.deps.events.record(
      nodeEventRef(node),
      'Normal',
      'NodeSetup',
      `Configured by the operator from instance ${req.instance.address} in ${joinSeconds}s; Ready`,
    );
  }

  /** A node must never be Ready half-configured: stop what was started, then report. */
  private async fail(address: string, s: JoinState, err: unknown): Promise<void> {
    if (s.signal.aborted) {
      // Shutting down (or leadership lost): leave the host as it is; the next leader resumes the join.
      this.deps.logger.info({ address }, 'join interrupted; it resumes when an operator leads again');
      return;
    }
    if (s.servicesStarted) {
      await s.host
        .deconfigure({
          services: [...s.services].reverse().map((svc) => svc.name),
          removeTaggedServices: false,
          envVars: [],
          hnsNetworks: [],
          directories: [],
          keep: [],
        })
        .catch((e: unknown) =>
          this.deps.logger.warn(
            { address, err: errorMessage(e) },
            'cannot stop services after a failed join',
          ),
        );
    }
    await this.phase(s.identity, 'Failed', { lastError: errorMessage(err) });
    await this.deps.events.record(
      s.identity.eventTarget,
      'Warning',
      err instanceof UnsupportedWindowsBuildError ? 'UnsupportedWindowsBuild' : 'InstanceSetupFailure',
      `instance ${address}: ${errorMessage(err)}`,
    );
  }

  private awaitNode(name: string, signal: AbortSignal): Promise<V1Node> {
    const timeoutMs = this.deps.timings.nodeRegistrationMs;
    return waitForNode(this.deps, name, () => true, { signal, timeoutMs });
  }

  /** `seen`: the Node as a write of this join returned it; when it already satisfies `ok`, nothing is read. */
  private awaitNodeWhere(
    name: string,
    signal: AbortSignal,
    ok: (n: V1Node) => boolean,
    seen: V1Node,
  ): Promise<V1Node> {
    return ok(seen) ? Promise.resolve(seen) : waitForNode(this.deps, name, ok, { signal });
  }

  private async phase(
    identity: JoiningInstance,
    phase: InstancePhase,
    extra: Partial<InstanceStatus> = {},
  ): Promise<void> {
    const address = identity.status.key;
    const next = enterPhase(this.deps.status.get(address), {
      address,
      phase,
      now: this.now(),
      extra: { ...identity.status.extra, ...extra },
    });
    await this.deps.status.set(next);
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }
}
