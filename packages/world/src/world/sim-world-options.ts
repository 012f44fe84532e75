import type { HostCosts } from '@wmco/sim';
import type { WmcoProvider } from '@wmco/core/provider';
import type { PayloadLayout } from './sim-payload.js';
import type { SimHostSpec } from './world-hosts.js';
import type { HostLimits } from '@wmco/operator';

/** The engines of a simulated host (`wmco sim --host-engine`). */
export type HostEngine = 'model' | 'powershell';

/** What a simulated world is made of, and how its operators are set up. */
export interface SimWorldOptions {
  readonly hosts: readonly SimHostSpec[];
  readonly platform?: string;
  /** The cluster's hybrid overlay VXLAN port, opened on every host (default 9898, a custom port). */
  readonly vxlanPort?: number;
  readonly costs?: Partial<HostCosts>;
  readonly parallelJoins?: number;
  /** Hosts uploading at once (`wmco run --parallel-uploads`; unset: no limit). */
  readonly parallelUploads?: number;
  readonly providers: readonly WmcoProvider[];
  /** Where operator log lines go (JSON); default: dropped. */
  readonly logSink?: (line: string) => void;
  readonly rbac?: boolean;
  readonly payloadBytesPerFile?: number;
  /** Layout of the generated payload (default `upstream`: every file a `.tar.gz`). */
  readonly payloadLayout?: PayloadLayout;
  /** Use this payload directory instead of generating one (e.g. the benchmarks' realistic payload). */
  readonly payloadDir?: string;
  /** Drift repair period of the operators (default 1 s here; 2 min in `wmco run`); 0 turns it off. */
  readonly driftRepairIntervalMs?: number;
  /** The operator keeps `C:\var\log` when it removes a host (default true, as `wmco run` by default). */
  readonly keepLogsOnRemoval?: boolean;
  /** The operators' own HTTP_PROXY/HTTPS_PROXY/NO_PROXY (what OLM injects on a proxied cluster); default none. */
  readonly operatorProxyEnv?: Readonly<Record<string, string>>;
  /** How often a Node waited for is read when no watch event came first (100 ms here; 1 s in `wmco run`). */
  readonly nodePollMs?: number;
  /** The operators accept loopback instances (the world's hosts are on 127.0.0.0/8); default true here. */
  readonly allowLoopbackInstances?: boolean;
  /** Start the platform's simulated cloud (AWS, Azure, GCP) with the hosts as its instances. */
  readonly cloud?: boolean;
  /** `--cloud-provider` of the Linux workers' kubelet in the rendered worker MachineConfig (default none). */
  readonly cloudProvider?: string;
  /**
   * The operators' `--cloud-credentials` (default `minted`: deploy/'s CredentialsRequests are applied and
   * the cloud credential operator stand-in mints the Secret; `root`: the operators read kube-system's).
   */
  readonly cloudCredentials?: 'minted' | 'root';
  /** The operators' `--cloud-tagging` (default check). */
  readonly cloudTagging?: 'check' | 'apply' | 'apply-owned';
  /** network.operator `cluster`'s hybrid cluster network (hostPrefix 23; default `10.132.0.0/14`: 512 nodes). */
  readonly hybridClusterNetwork?: string;
  /**
   * What answers the host module on the simulated hosts: `model` (default, the TypeScript model, for scale)
   * or `powershell` (each module session runs the delivered WmcoHost.psm1 in a real pwsh, with the host's
   * files on disk and shims backed by the model; needs PowerShell 7, `findPwsh`).
   */
  readonly hostEngine?: HostEngine;
  /** The operators' host deadlines and output bounds (`wmco run --host-*`); unset: the adapter's defaults. */
  readonly hostLimits?: HostLimits;
  /** Failed joins before the operator deletes a Machine (default 2 here), and the delay between them. */
  readonly machineRetry?: { readonly budget: number; readonly retryMs: number };
}

/** The operators' `--cloud-tagging` and `--cloud-credentials`, where the world's options set them. */
export function cloudSettings(
  o: SimWorldOptions,
): Pick<SimWorldOptions, 'cloudTagging' | 'cloudCredentials'> {
  return {
    ...(o.cloudTagging ? { cloudTagging: o.cloudTagging } : {}),
    ...(o.cloudCredentials ? { cloudCredentials: o.cloudCredentials } : {}),
  };
}
