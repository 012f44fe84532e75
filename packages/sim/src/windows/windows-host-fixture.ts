import { createHash } from 'node:crypto';
import { HostPaths } from '@wmco/core/internal';
import {
  InMemoryHostKeyStore,
  SshWindowsHost,
  type HostSpec,
  type SshHostOptions,
  type UploadFile,
} from '@wmco/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FREE_HOST_COSTS, type HostCosts } from './host-costs.js';
import type { PowerShellEngineOptions } from './pwsh/powershell-engine.js';
import { SimulatedWindowsHost } from './simulated-windows-host.js';
import type { WindowsModelOptions } from './windows-model.js';
import { generateEd25519KeyPair } from './ssh-auth.js';
import { workerNumber } from '../testing/worker-octet.js';

let nextHost = 0;

/**
 * A loopback address no other test on this machine uses: the second and third octets come from the process
 * and the worker thread (ava runs test files in worker threads of one process, each with its own counter).
 * With the process alone, two files got the same addresses, and a host that rebooted (its port 22 free for
 * a moment) could be reached at another file's host, which presented another host key. The third octet
 * stays in 100-149 (the operator's world hosts use 200-249).
 */
export function nextLoopbackAddress(): string {
  nextHost++;
  const worker = workerNumber();
  const second = 1 + (worker % 250);
  const third = 100 + (Math.floor(worker / 250) % 50);
  return `127.${second}.${third}.${(nextHost % 250) + 2}`;
}

export interface HostWorld {
  readonly sim: SimulatedWindowsHost;
  readonly host: SshWindowsHost;
  readonly keys: InMemoryHostKeyStore;
  readonly privateKey: string;
  /** Another adapter for the same host (same pins), e.g. to reconnect after a fault. */
  connect(overrides?: Partial<SshHostOptions>): SshWindowsHost;
  stop(): Promise<void>;
}

export interface HostWorldOptions {
  readonly defaultShell?: 'cmd' | 'powershell';
  readonly costs?: Partial<HostCosts>;
  /** More of the modelled machine (DNS suffix, metadata hostname, ...). */
  readonly model?: WindowsModelOptions;
  /** Run module sessions in this PowerShell (the PowerShell engine, in a fresh folder); default: the model. */
  readonly pwsh?: string;
}

function engineOf(pwsh: string | undefined): { powershell?: PowerShellEngineOptions } {
  if (pwsh === undefined) return {};
  return { powershell: { pwsh, dir: mkdtempSync(join(tmpdir(), 'wmco-hosts-')) } };
}

/** The host's folder goes with the host (the PowerShell engine's files are on disk). */
function removeFolder(engine: { powershell?: PowerShellEngineOptions }): void {
  if (engine.powershell) rmSync(engine.powershell.dir, { recursive: true, force: true });
}

/** A simulated host with free costs and an adapter tuned for tests (short retries and timeouts). */
export async function startHostWorld(o: HostWorldOptions = {}): Promise<HostWorld> {
  const key = generateEd25519KeyPair();
  const engine = engineOf(o.pwsh);
  const sim = await SimulatedWindowsHost.start({
    ...o.model,
    address: nextLoopbackAddress(),
    authorizedKey: key.public,
    costs: { ...FREE_HOST_COSTS, ...o.costs },
    ...(o.defaultShell ? { defaultShell: o.defaultShell } : {}),
    ...engine,
  });
  const keys = new InMemoryHostKeyStore();
  const adapters: SshWindowsHost[] = [];
  const connect = (overrides: Partial<SshHostOptions> = {}): SshWindowsHost => {
    const h = new SshWindowsHost({
      host: sim.host,
      port: sim.port,
      username: 'Administrator',
      privateKey: key.private,
      hostKeys: keys,
      retryInitialMs: 20,
      retryMaxMs: 200,
      connectDeadlineMs: 5000,
      authRetryMs: 0,
      commandTimeoutMs: o.pwsh === undefined ? 5000 : 60_000,
      rebootTimeoutMs: 10_000,
      ...overrides,
    });
    adapters.push(h);
    return h;
  };
  const host = connect();
  return {
    sim,
    host,
    keys,
    privateKey: key.private,
    connect,
    stop: async () => {
      for (const a of adapters) await a.close();
      await sim.stop();
      removeFolder(engine);
    },
  };
}

/**
 * The operator's folders as an earlier join left them: each that exists is SYSTEM/Administrators only (a
 * folder a test makes with `mkdirp` inherits `C:\`'s "Users may create", which the host module refuses).
 */
export function asJoinedBefore(w: HostWorld): void {
  for (const root of HostPaths.protectedRoots) {
    if (w.sim.model.files.isDirectory(root)) w.sim.model.files.restrict(root);
  }
}

/** A small payload: content by SHA-256, for `converge`. */
export class Payload {
  private readonly bySha = new Map<string, Buffer>();

  add(content: string | Buffer): string {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const sha = createHash('sha256').update(data).digest('hex');
    this.bySha.set(sha, data);
    return sha;
  }

  content = (sha256: string): UploadFile['source'] => {
    const data = this.bySha.get(sha256);
    if (!data) throw new Error(`no payload file with sha256 ${sha256}`);
    return data;
  };
}

/** A node-like spec: containerd ← kubelet ← kube-proxy, with their binaries and config files. */
export function nodeSpec(payload: Payload, version = 'v1'): HostSpec {
  const file = (path: string, content: string): { path: string; sha256: string } => ({
    path,
    sha256: payload.add(`${path} ${content}`),
  });
  return {
    directories: ['C:\\k', 'C:\\k\\containerd', 'C:\\var\\log\\kubelet'],
    files: [
      file('C:\\k\\containerd\\containerd.exe', version),
      file('C:\\k\\containerd\\containerd_conf.toml', 'conf'),
      file('C:\\k\\kubelet.exe', version),
      // The simulated kubelet parses its --config: a minimal KubeletConfiguration (no kubeconfig flags, so
      // it runs standalone).
      {
        path: 'C:\\k\\kubelet.conf',
        sha256: payload.add(
          JSON.stringify({ kind: 'KubeletConfiguration', apiVersion: 'kubelet.config.k8s.io/v1beta1' }),
        ),
      },
      file('C:\\k\\kube-proxy.exe', version),
      file('C:\\k\\kubeconfig', 'kubeconfig'),
    ],
    services: [
      {
        name: 'containerd',
        command: 'C:\\k\\containerd\\containerd.exe --config C:\\k\\containerd\\containerd_conf.toml',
        bootstrap: true,
        priority: 0,
      },
      {
        name: 'kubelet',
        command: 'C:\\k\\kubelet.exe --config=C:\\k\\kubelet.conf',
        bootstrap: true,
        priority: 1,
        dependencies: ['containerd'],
      },
      {
        name: 'kube-proxy',
        command: 'C:\\k\\kube-proxy.exe --kubeconfig=C:\\k\\kubeconfig',
        bootstrap: false,
        priority: 2,
        dependencies: ['kubelet'],
      },
    ],
    envVars: { HTTP_PROXY: 'http://proxy:3128' },
    routes: [{ destinationPrefix: '169.254.169.254/32', description: 'metadata' }],
    firewallRules: [{ name: 'HybridOverlayVXLAN', protocol: 'UDP', localPort: 4789, direction: 'Inbound' }],
    features: [],
  };
}
