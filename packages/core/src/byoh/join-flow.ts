import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../desired/windows-instances.js';
import type { HostKeyStore } from '../host/host-key-store.js';
import type { HostState } from '../host/protocol/index.js';
import type { UploadFile, WindowsHost } from '../host/windows-host.js';
import { instanceRef } from '../identity/instance-ref.js';
import { decideNodeName } from '../identity/name-decision.js';
import { claimNode } from '../identity/node-claim.js';
import { errorMessage } from '../kube/logger.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import { Annotations, Labels } from '../join/node-metadata.js';
import { scriptsFor } from '../join/service-scripts.js';
import { encryptUsername } from '../join/username-crypto.js';
import { convergeRound, type RoundResult } from './converge-round.js';
import { enterPhase, type InstancePhase, type InstanceStatus } from './instance-status.js';
import { instancesConfigMapRef, nodeEventRef, type JoinDeps } from './join-deps.js';
import { isNodeReady, patchNodeMetadata, readNode, setUnschedulable } from './node-ops.js';
import { designContent, designNode, hostSpecWith, type NodeDesign } from './node-spec.js';
import { publishServicesConfigMap } from './services-configmap-publisher.js';
import { waitFor } from './wait-for.js';

export interface JoinRequest {
  readonly instance: WindowsInstance;
  readonly privateKeyPem: string;
  readonly publicKeyHash: string;
  readonly signal: AbortSignal;
}

interface JoinState {
  readonly host: WindowsHost;
  readonly signal: AbortSignal;
  readonly design: NodeDesign;
  readonly services: readonly WindowsServiceSpec[];
  readonly content: (sha256: string) => UploadFile['source'];
  psStarts: number;
  bytes: number;
  servicesStarted: boolean;
}

/**
 * The BYOH join of one host (reference §1.6, agentless): files first; then the bootstrap services with
 * their pre-scripts evaluated on the host; the kubelet's CSR is approved by the CSR controller; the Node
 * is cordoned, labelled and annotated; then the node services level by level (hybrid-overlay before
 * kube-proxy, whose pre-script needs its HNS network); Ready; uncordon. Every step converges, so running
 * it again after an interruption resumes where the host and the Node are.
 */
export class JoinFlow {
  constructor(
    private readonly deps: JoinDeps,
    private readonly hostKeys: HostKeyStore,
  ) {}

  async join(req: JoinRequest): Promise<void> {
    const { instance } = req;
    const started = this.now();
    await this.phase(instance.ipv4Address, 'Connecting');
    const host = this.deps.openHost({
      address: instance.address, // a DNS name here pins the host key by name too
      ipv4: instance.ipv4Address,
      username: instance.username,
      privateKeyPem: req.privateKeyPem,
    });
    const design = designNode(this.deps, await this.deps.facts());
    const state: JoinState = {
      host,
      signal: req.signal,
      design,
      services: design.services,
      content: designContent(design, this.deps.payloadDir),
      psStarts: 0,
      bytes: 0,
      servicesStarted: false,
    };
    try {
      const node = await this.configure(req, state);
      await this.finish(req, state, node, started);
    } catch (err) {
      this.deps.names.end(instance.address);
      await this.fail(instance.ipv4Address, state, err);
      throw err;
    } finally {
      await host.close();
    }
  }

  private async configure(req: JoinRequest, s: JoinState): Promise<V1Node> {
    const address = req.instance.ipv4Address;
    await this.phase(address, 'Configuring');
    await this.round(s, [], undefined);
    const bootstrap = s.services.filter((svc) => svc.bootstrap);
    const nodeName = await this.bootstrapRound(req, s, bootstrap);
    await this.phase(address, 'WaitingForNode', { node: nodeName });
    const node = await this.claim(req, nodeName);
    await setUnschedulable(this.deps.core, nodeName, true);
    await this.annotate(req, nodeName, s.host.address);
    const withSubnet = await this.awaitNodeWhere(nodeName, req.signal, (n) =>
      Boolean(n.metadata?.annotations?.[Annotations.hybridOverlaySubnet]),
    );
    await this.phase(address, 'Configuring', { node: nodeName });
    const levels = [...new Set(s.services.filter((svc) => !svc.bootstrap).map((svc) => svc.priority))].sort(
      (a, b) => a - b,
    );
    for (const level of levels) {
      await this.round(
        s,
        s.services.filter((svc) => svc.priority <= level),
        withSubnet ?? node,
      );
    }
    return withSubnet ?? node;
  }

  private async bootstrapRound(
    req: JoinRequest,
    s: JoinState,
    bootstrap: readonly WindowsServiceSpec[],
  ): Promise<string> {
    let nodeName = '';
    await this.round(s, bootstrap, undefined, async (values, host) => {
      // The operator decides the name before the kubelet starts (ADR 0008): the one the kubelet will
      // register, free, or already this instance's. A refusal fails the join before anything starts.
      const registration = await decideNodeName(
        instanceRef(req.instance),
        {
          hostnameOverride: values['HOSTNAME_OVERRIDE'],
          hostname: host.hostname,
          kubeletPresent: host.services.some((svc) => svc.name.toLowerCase() === 'kubelet'),
        },
        {
          registrations: this.deps.names,
          node: (name) => readNode(this.deps.core, name),
          approvedClientCsr: (name, address) => this.deps.names.approvedClientCsr(name, address),
        },
      );
      nodeName = registration.nodeName;
    });
    s.servicesStarted = true;
    return nodeName;
  }

  private async round(
    s: JoinState,
    services: readonly WindowsServiceSpec[],
    node: V1Node | undefined,
    beforeApply?: (values: Record<string, string>, host: HostState) => Promise<void>,
  ): Promise<RoundResult> {
    if (s.signal.aborted) throw new Error('the operator is stopping');
    const result = await convergeRound(s.host, {
      specFor: (values) => hostSpecWith(s.design, services, values, node),
      scripts: scriptsFor(services, node),
      content: s.content,
      beforeApply,
    });
    s.psStarts += result.plan.steps.length > 0 ? 2 : 1;
    s.bytes += result.bytesSent;
    if (services.length > 0 && result.plan.steps.length > 0) s.servicesStarted = true;
    return result;
  }

  /** Waits for the Node, then claims it for the instance (identity/node-claim.ts) before touching it. */
  private async claim(req: JoinRequest, nodeName: string): Promise<V1Node> {
    const node = await this.awaitNode(nodeName, req.signal);
    await claimNode(this.deps.core, this.deps.names, instanceRef(req.instance), node);
    return node;
  }

  /** `pinnedAs`: the host's address as its key is pinned (`ip`, or `ip:port` off port 22). */
  private async annotate(req: JoinRequest, nodeName: string, pinnedAs: string): Promise<void> {
    const pin = await this.hostKeys.get(pinnedAs);
    await patchNodeMetadata(this.deps.core, nodeName, {
      labels: { [Labels.byoh]: 'true', [Labels.workerRole]: '' },
      annotations: {
        [Annotations.pubKeyHash]: req.publicKeyHash,
        [Annotations.username]: encryptUsername(req.instance.username, req.privateKeyPem),
        [Annotations.instanceAddress]: req.instance.address,
        ...(pin ? { [Annotations.sshHostKey]: pin.base64, [Annotations.sshHostKeyType]: pin.type } : {}),
      },
    });
  }

  private async finish(req: JoinRequest, s: JoinState, node: V1Node, started: Date): Promise<void> {
    const name = node.metadata?.name ?? '';
    await this.awaitNodeWhere(name, req.signal, isNodeReady);
    // Joined: nothing more is approved for this registration; serving CSRs go by ownership.
    this.deps.names.end(req.instance.address);
    await setUnschedulable(this.deps.core, name, false);
    await patchNodeMetadata(this.deps.core, name, {
      annotations: {
        [Annotations.version]: this.deps.version,
        [Annotations.desiredVersion]: this.deps.version,
      },
    });
    await publishServicesConfigMap(this.deps.core, this.deps.namespace, this.deps.version, {
      services: s.services,
      environmentVars: this.deps.proxyEnv,
    });
    const joinSeconds = Math.round((this.now().getTime() - started.getTime()) / 10) / 100;
    await this.phase(req.instance.ipv4Address, 'Ready', {
      node: name,
      joinSeconds,
      powershellStarts: s.psStarts,
      bytesSent: s.bytes,
    });
    await this.deps.events.record(
      instancesConfigMapRef(this.deps.namespace),
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
    await this.phase(address, 'Failed', { lastError: errorMessage(err) });
    await this.deps.events.record(
      instancesConfigMapRef(this.deps.namespace),
      'Warning',
      'InstanceSetupFailure',
      `instance ${address}: ${errorMessage(err)}`,
    );
  }

  private awaitNode(name: string, signal: AbortSignal): Promise<V1Node> {
    return this.awaitNodeWhere(name, signal, () => true, this.deps.timings.nodeRegistrationMs);
  }

  private async awaitNodeWhere(
    name: string,
    signal: AbortSignal,
    ok: (n: V1Node) => boolean,
    timeoutMs = this.deps.timings.nodeReadyMs,
  ): Promise<V1Node> {
    return waitFor(
      async () => {
        const n = await readNode(this.deps.core, name);
        return n && ok(n) ? n : undefined;
      },
      { timeoutMs, pollMs: this.deps.timings.pollMs, signal, what: `node ${name}` },
    );
  }

  private async phase(
    address: string,
    phase: InstancePhase,
    extra: Partial<InstanceStatus> = {},
  ): Promise<void> {
    const next = enterPhase(this.deps.status.get(address), { address, phase, now: this.now(), extra });
    await this.deps.status.set(next);
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }
}
