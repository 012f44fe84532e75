// `pnpm bench host`: 5 simulated Windows hosts converge in parallel with a 300 MiB payload at the default
// costs, over real SSH. Prints the counts, the wall time and the physical limit; the last line is JSON.
import { InMemoryHostKeyStore, SshWindowsHost, converge, type HostSpec } from '@wmco/core';
import { DEFAULT_HOST_COSTS, type HostCosts } from '../windows/host-costs.js';
import { SimulatedWindowsHost } from '../windows/simulated-windows-host.js';
import { ServiceBehaviourRegistry } from '../windows/service-behaviour.js';
import { makePayload, type BenchFile } from './payload-files.js';
import { rawThroughput } from './raw-throughput.js';
import { timed } from './timed-host.js';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';

const HOSTS = 5;
const MiB = 2 ** 20;
const SIZES = {
  'kubelet.exe': 110 * MiB,
  'containerd.exe': 60 * MiB,
  'kube-proxy.exe': 50 * MiB,
  'hybrid-overlay-node.exe': 40 * MiB,
  'csi-proxy.exe': 20 * MiB,
  'windows_exporter.exe': 19 * MiB,
  'containerd_conf.toml': 512 * 1024,
  kubeconfig: 256 * 1024,
  'web-config.yaml': 256 * 1024,
};

function specFor(files: readonly BenchFile[]): HostSpec {
  const at = (name: string): string =>
    name.startsWith('containerd') ? `C:\\k\\containerd\\${name}` : `C:\\k\\${name}`;
  const svc = (
    name: string,
    command: string,
    priority: number,
    dependencies: string[] = [],
  ): HostSpec['services'][number] => ({
    name,
    command,
    priority,
    bootstrap: priority < 2,
    dependencies,
  });
  return {
    directories: ['C:\\k', 'C:\\k\\containerd', 'C:\\var\\log\\kubelet'],
    files: files.map((f) => ({ path: at(f.name), sha256: f.sha256 })),
    services: [
      svc('containerd', `${at('containerd.exe')} --config ${at('containerd_conf.toml')}`, 0),
      svc('kubelet', 'C:\\k\\kubelet.exe --config=C:\\k\\kubeconfig', 1, ['containerd']),
      svc('kube-proxy', 'C:\\k\\kube-proxy.exe --kubeconfig=C:\\k\\kubeconfig', 2, ['kubelet']),
      svc('hybrid-overlay-node', 'C:\\k\\hybrid-overlay-node.exe --k8s-kubeconfig=C:\\k\\kubeconfig', 2),
      svc('windows_exporter', 'C:\\k\\windows_exporter.exe --web.config.file=C:\\k\\web-config.yaml', 3),
      svc('csi-proxy', 'C:\\k\\csi-proxy.exe', 3),
    ],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  };
}

interface World {
  sims: SimulatedWindowsHost[];
  hosts: SshWindowsHost[];
}

async function startWorld(n: number, costs: HostCosts, base: number): Promise<World> {
  const key = generateEd25519KeyPair();
  const sims: SimulatedWindowsHost[] = [];
  const hosts: SshWindowsHost[] = [];
  for (let i = 0; i < n; i++) {
    const sim = await SimulatedWindowsHost.start({
      address: `127.0.${base}.${i + 2}`,
      authorizedKey: key.public,
      costs,
      // The payload here is random bytes of real sizes: every service only needs its binary. The join
      // bench (packages/operator) runs the real kubelet and node services.
      behaviours: new ServiceBehaviourRegistry(),
    });
    sims.push(sim);
    hosts.push(
      new SshWindowsHost({
        host: sim.host,
        port: sim.port,
        username: 'Administrator',
        privateKey: key.private,
        hostKeys: new InMemoryHostKeyStore(),
      }),
    );
  }
  return { sims, hosts };
}

async function stopWorld(w: World): Promise<void> {
  for (const h of w.hosts) await h.close();
  for (const s of w.sims) await s.stop();
}

async function main(): Promise<void> {
  const { files, cleanup } = await makePayload(SIZES);
  const payloadBytes = files.reduce((n, f) => n + f.size, 0);
  const byHash = new Map(files.map((f) => [f.sha256, f]));
  const spec = specFor(files);
  const rateBefore = await rawThroughput(files[0]!, HOSTS);

  const costs = DEFAULT_HOST_COSTS;
  const w = await startWorld(HOSTS, costs, 200);
  const start = performance.now();
  const phases = new Map<string, number>();
  const results = await Promise.all(
    w.hosts.map((h) =>
      converge(timed(h, phases), spec, (sha) => ({ localPath: byHash.get(sha)!.localPath })),
    ),
  );
  const wallSeconds = (performance.now() - start) / 1000;
  const psStarts = w.sims.reduce((n, s) => n + s.stats.powershellStarts, 0);
  // Sequential exchanges: each exec, and each SFTP request that is not a pipelined WRITE.
  const writes = w.sims.reduce((n, s) => n + s.stats.writes, 0);
  const roundTrips = w.sims.reduce((n, s) => n + s.stats.execs + s.stats.sftpRequests, 0) - writes;
  const bytesSent = w.hosts.reduce((n, h) => n + h.stats.bytesSent, 0);
  const started = results.reduce(
    // One service start cost per level: the services of a `startServices` start together.
    (n, r) => n + r.plan.steps.filter((s) => s.kind === 'startService' || s.kind === 'startServices').length,
    0,
  );
  await stopWorld(w);
  // Measured before and after the converge; the machine is shared, so the better figure is its capacity.
  const rateAfter = await rawThroughput(files[0]!, HOSTS);
  const rate = Math.max(rateBefore, rateAfter);
  console.log(
    `raw SSH upload throughput (${HOSTS} parallel ssh2 fastPut): ${(rateBefore / MiB).toFixed(1)} MiB/s before, ` +
      `${(rateAfter / MiB).toFixed(1)} MiB/s after`,
  );
  await cleanup();

  const perHost = {
    link: payloadBytes / costs.bandwidthBytesPerSec,
    latency: ((roundTrips / HOSTS) * costs.latencyMs) / 1000,
    starts: ((psStarts / HOSTS) * costs.powershellStartMs + (started / HOSTS) * costs.serviceStartMs) / 1000,
  };
  const modelled = perHost.link + perHost.latency + perHost.starts;
  const machine = bytesSent / rate;
  const limitSeconds = Math.max(modelled, machine);
  const phase = (n: string): string => ((phases.get(n) ?? 0) / HOSTS).toFixed(2);
  console.log(
    `mean per host: observe ${phase('observe')} s, upload ${phase('upload')} s, apply ${phase('apply')} s`,
  );
  console.log(
    `payload per host: ${(payloadBytes / MiB).toFixed(0)} MiB in ${files.length} files; ${HOSTS} hosts`,
  );
  console.log(
    `PowerShell starts per converge: ${psStarts / HOSTS}; round trips: ${roundTrips} (${roundTrips / HOSTS} per host)`,
  );
  console.log(`bytes sent: ${bytesSent} (${(bytesSent / MiB).toFixed(0)} MiB)`);
  console.log(
    `modelled link time per host: ${modelled.toFixed(2)} s (transfer ${perHost.link.toFixed(2)} + latency ${perHost.latency.toFixed(3)} + starts ${perHost.starts.toFixed(2)})`,
  );
  console.log(
    `machine limit: ${machine.toFixed(2)} s at ${(rate / MiB).toFixed(1)} MiB/s; wall: ${wallSeconds.toFixed(2)} s`,
  );
  console.log(
    JSON.stringify({
      hosts: HOSTS,
      psStartsPerConverge: psStarts / HOSTS,
      roundTrips,
      bytesSent,
      wallSeconds: Number(wallSeconds.toFixed(3)),
      limitSeconds: Number(limitSeconds.toFixed(3)),
    }),
  );
}

await main();
