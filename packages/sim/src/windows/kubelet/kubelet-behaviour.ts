import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceBehaviour, ServiceRun, ServiceStartContext } from '../service-behaviour.js';
import { KubeClient } from './kube-client.js';
import type { KubeconfigCredentials } from './kubeconfig-file.js';
import { saveClientCredentials, saveServingCert } from './kubelet-credentials.js';
import { planKubelet, type KubeletPlan } from './kubelet-plan.js';
import { recordError, resetKubeletStatus, setPhase, type KubeletStatus } from './kubelet-status.js';
import { registerNode } from './node-agent.js';
import { heartbeat } from './node-heartbeat.js';
import { serveNodeLogs } from './kubelet-serving.js';
import { submitCsr, waitForCertificate } from './tls-bootstrap.js';

export interface KubeletBehaviourOptions {
  /** Lease renewal and node status update period (kubelet default 10 s). */
  readonly heartbeatIntervalMs?: number;
  /** Wait between retries of a failed bootstrap or registration, and before re-opening a broken CSR watch. */
  readonly retryIntervalMs?: number;
  readonly kubeletVersion?: string;
  readonly osImage?: string;
  /** Test staging: wait this long before sending the client CSR (a slow host). Default 0. */
  readonly bootstrapDelayMs?: number;
  /** Test staging: wait this long between getting the client certificate and registering the Node. */
  readonly registerDelayMs?: number;
}

const DEFAULTS = {
  heartbeatIntervalMs: 10_000,
  retryIntervalMs: 2_000,
  kubeletVersion: 'v1.36.0',
  osImage: 'Windows Server 2022 Datacenter',
  bootstrapDelayMs: 0,
  registerDelayMs: 0,
};

const CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
const SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms > 0) await sleep(ms, undefined, { signal, ref: false }).catch(() => undefined);
}

/** Runs `step` until it succeeds or `signal` aborts, recording each failure; undefined when aborted. */
async function retrying<T>(
  status: KubeletStatus,
  retryMs: number,
  signal: AbortSignal,
  step: () => Promise<T>,
): Promise<T | undefined> {
  while (!signal.aborted) {
    try {
      return await step();
    } catch (e) {
      if (signal.aborted) return undefined;
      recordError(status, message(e));
      await sleep(retryMs, undefined, { signal, ref: false }).catch(() => undefined);
    }
  }
  return undefined;
}

class KubeletProcess {
  private pendingCsr: { name: string; keyPem: string } | undefined;

  constructor(
    private readonly ctx: ServiceStartContext,
    private readonly plan: KubeletPlan,
    private readonly status: KubeletStatus,
    private readonly o: typeof DEFAULTS,
  ) {}

  private get signal(): AbortSignal {
    return this.ctx.signal;
  }
  /** TLS bootstrap: a client CSR with the bootstrap credentials, then the issued certificate saved. */
  private async bootstrap(boot: KubeconfigCredentials): Promise<KubeconfigCredentials> {
    const client = new KubeClient(boot, this.signal);
    setPhase(this.status, 'bootstrapping');
    if (this.pendingCsr === undefined) {
      await pause(this.o.bootstrapDelayMs, this.signal);
      this.pendingCsr = await submitCsr(client, {
        signerName: CLIENT_SIGNER,
        usages: ['digital signature', 'client auth'],
        commonName: `system:node:${this.plan.identity.name}`,
        generateName: 'csr-',
      });
      this.status.clientCsrs.push(this.pendingCsr.name);
    }
    setPhase(this.status, 'waiting-for-approval');
    const pending = this.pendingCsr;
    let certPem: string;
    try {
      certPem = await waitForCertificate(client, pending.name, this.o.retryIntervalMs, this.signal);
    } catch (e) {
      // Denied or Failed: the next attempt asks again with a new key, as the kubelet does.
      if (message(e).startsWith('certificate request')) this.pendingCsr = undefined;
      throw e;
    }
    const creds = { server: boot.server, caPem: boot.caPem, certPem, keyPem: pending.keyPem };
    saveClientCredentials(this.ctx.files, this.plan.flags, creds);
    return creds;
  }

  /** The serving certificate, requested once registered; waits for it without blocking Ready. */
  private async servingCert(client: KubeClient, caPem: string): Promise<void> {
    const id = this.plan.identity;
    const csr = await submitCsr(client, {
      signerName: SERVING_SIGNER,
      usages: ['digital signature', 'server auth'],
      commonName: `system:node:${id.name}`,
      dnsNames: [id.name],
      ipAddresses: [id.internalIp],
      generateName: 'csr-',
    });
    this.status.servingCsr = csr.name;
    const certPem = await waitForCertificate(client, csr.name, this.o.retryIntervalMs, this.signal);
    saveServingCert(this.ctx.files, this.plan.flags.certDir, certPem, csr.keyPem);
    this.status.servingCertIssued = true;
    await serveNodeLogs(this.ctx, {
      address: id.internalIp,
      certPem,
      keyPem: csr.keyPem,
      clientCaPem: caPem,
    });
  }

  async run(): Promise<void> {
    const { plan, status, signal } = this;
    const c = plan.credentials;
    if (c.kind === 'standalone') return setPhase(status, 'standalone');
    status.reusedClientCert = c.kind === 'client';
    const creds =
      c.kind === 'client'
        ? c.creds
        : await retrying(status, this.o.retryIntervalMs, signal, () => this.bootstrap(c.creds));
    if (creds === undefined) return;
    status.lastError = undefined;
    if (!plan.config.registerNode) return setPhase(status, 'running');
    const client = new KubeClient({ server: creds.server, caPem: creds.caPem, ...pickCert(creds) }, signal);
    await pause(this.o.registerDelayMs, signal);
    setPhase(status, 'registering');
    const node = await retrying(status, this.o.retryIntervalMs, signal, () =>
      registerNode(client, plan.identity),
    );
    if (node === undefined) return;
    status.lastError = undefined;
    setPhase(status, 'running');
    const serving = this.servingCert(client, creds.caPem).catch((e: unknown) => {
      if (!signal.aborted) recordError(status, `serving certificate: ${message(e)}`);
    });
    await heartbeat(client, plan.identity, {
      nodeUid: node.metadata.uid,
      intervalMs: this.o.heartbeatIntervalMs,
      signal,
      onBeat: (e) => {
        if (e === undefined) status.heartbeats++;
        else recordError(status, `heartbeat: ${message(e)}`);
      },
    });
    await serving;
  }
}

/** Client-certificate auth only: the bootstrap token is not used once the kubelet has its certificate. */
function pickCert(c: KubeconfigCredentials): { certPem?: string; keyPem?: string; token?: string } {
  if (c.certPem !== undefined && c.keyPem !== undefined) return { certPem: c.certPem, keyPem: c.keyPem };
  return c.token !== undefined ? { token: c.token } : {};
}

/**
 * The simulated kubelet (issue 5 item 6): checks its command line and files at start (a wrong path or a
 * malformed file fails the service), then runs in the background as a real kubelet service does: TLS
 * bootstrap against the API server, Node registration, Lease and status heartbeats, a serving CSR.
 * Progress and errors are on `kubeletStatus(host)`.
 */
export function kubeletBehaviour(options: KubeletBehaviourOptions = {}): ServiceBehaviour {
  const o = { ...DEFAULTS, ...options };
  return {
    start(ctx: ServiceStartContext): ServiceRun {
      const status = resetKubeletStatus(ctx.host);
      let plan: KubeletPlan;
      try {
        plan = planKubelet(ctx, o);
      } catch (e) {
        recordError(status, message(e));
        setPhase(status, 'stopped');
        return { state: 'failed', reason: message(e) };
      }
      status.nodeName = plan.identity.name;
      const done = new KubeletProcess(ctx, plan, status, o).run().catch((e: unknown) => {
        if (!ctx.signal.aborted) recordError(status, message(e));
      });
      // Stop or power loss: the background work ends with the signal, then the kubelet is down.
      ctx.signal.addEventListener('abort', () => void done.then(() => setPhase(status, 'stopped')), {
        once: true,
      });
      return { state: 'running', stop: () => done };
    },
  };
}
