import type { WindowsModel } from '../windows-model.js';

/** Where a simulated kubelet is in its life. */
export type KubeletPhase =
  | 'starting'
  /** No --kubeconfig and no --bootstrap-kubeconfig: runs without an API server. */
  | 'standalone'
  | 'bootstrapping'
  | 'waiting-for-approval'
  | 'registering'
  | 'running'
  | 'stopped';

/** What a test (or the operator's e2e) can read of a host's kubelet. */
export interface KubeletStatus {
  phase: KubeletPhase;
  nodeName: string | undefined;
  /** The last error the kubelet hit (it keeps retrying, as a real one does); cleared on success. */
  lastError: string | undefined;
  /** Names of the client CSRs this kubelet created (one per TLS bootstrap). */
  readonly clientCsrs: string[];
  /** Name of the serving CSR, once created; `servingCertIssued` when its certificate arrived. */
  servingCsr: string | undefined;
  servingCertIssued: boolean;
  /** True when the start reused a still-valid client certificate from --kubeconfig. */
  reusedClientCert: boolean;
  /** Successful heartbeats (Lease renewals) since the last start. */
  heartbeats: number;
  /** Every phase change and error, in order, for diagnosis. */
  readonly log: string[];
}

const statuses = new WeakMap<WindowsModel, KubeletStatus>();

/** The kubelet status of a host, created on the first kubelet start; undefined before that. */
export function kubeletStatus(host: WindowsModel): KubeletStatus | undefined {
  return statuses.get(host);
}

/** The status a (re)started kubelet reports into: history (CSRs) survives restarts, the rest resets. */
export function resetKubeletStatus(host: WindowsModel): KubeletStatus {
  const previous = statuses.get(host);
  const status: KubeletStatus = {
    phase: 'starting',
    nodeName: undefined,
    lastError: undefined,
    clientCsrs: previous?.clientCsrs ?? [],
    servingCsr: undefined,
    servingCertIssued: false,
    reusedClientCert: false,
    heartbeats: 0,
    log: previous?.log ?? [],
  };
  statuses.set(host, status);
  return status;
}

const LOG_LIMIT = 200;

function append(s: KubeletStatus, line: string): void {
  s.log.push(line);
  if (s.log.length > LOG_LIMIT) s.log.splice(0, s.log.length - LOG_LIMIT);
}

export function setPhase(s: KubeletStatus, phase: KubeletPhase): void {
  if (s.phase !== phase || s.log.length === 0) append(s, `phase ${phase}`);
  s.phase = phase;
}

/** Records an error; repeats of the same error (a retry loop) are logged once. */
export function recordError(s: KubeletStatus, message: string): void {
  if (s.lastError !== message) append(s, `error ${message}`);
  s.lastError = message;
}
