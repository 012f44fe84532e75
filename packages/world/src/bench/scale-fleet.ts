import { availableParallelism } from 'node:os';
import { FREE_HOST_COSTS } from '@wmco/sim';
import { loadBuiltinProviders } from '@wmco/operator';
import { DEFAULT_VXLAN_PORT, SimWorld } from '../world/sim-world.js';
import { defaultHostsPerProcess, HostProcesses } from './host-processes.js';
import { BENCH_MIRROR } from './scale-mirror.js';
import { scaleHybridNetwork } from './scale-network.js';
import { scaleAddress, scaleCluster, type ScaleCluster } from './scale-world.js';

/**
 * The simulated API server in this process and `nodes` Windows hosts spread over processes of their own
 * (host-processes.ts, one per core by default), with a tiny payload. With 2,000 hosts in the API server's
 * process (scale-world.ts) that process carried every host's SSH server, model and kubelet: at about
 * 1,000 joined it was at a full core with 3 GB resident and stopped answering within 10 s.
 */
export interface ScaleFleet extends ScaleCluster {
  /** The hosts' addresses, in listing order. */
  readonly addresses: readonly string[];
  /** How many hosts' containerd has the bench's registry mirror (scale-mirror.ts). */
  mirrored(): Promise<number>;
}

/** `FREE_HOST_COSTS` as JSON can carry them (a host process's task): no bandwidth limit is a huge one. */
const FREE_COSTS = { ...FREE_HOST_COSTS, bandwidthBytesPerSec: 1e15 };

export async function startScaleFleet(
  nodes: number,
  log: (line: string) => void,
  perProcess = defaultHostsPerProcess(nodes, availableParallelism()),
): Promise<ScaleFleet> {
  const world = await SimWorld.start({
    hosts: [],
    providers: await loadBuiltinProviders(),
    hybridClusterNetwork: scaleHybridNetwork(nodes),
  });
  let hosts: HostProcesses | undefined;
  try {
    const addresses = Array.from({ length: nodes }, (_, i) => scaleAddress(i));
    hosts = await HostProcesses.start(
      addresses.map((_, i) => `WIN-SCALE-${i + 1}`),
      perProcess,
      {
        authorizedKey: world.publicKey,
        costs: FREE_COSTS,
        payloadDir: world.payloadDir,
        vxlanPort: DEFAULT_VXLAN_PORT,
        engine: 'model',
        dir: world.dir,
        addresses,
      },
    );
    log(`${nodes} simulated hosts started in ${hosts.processes.length} processes`);
    await world.createPrivateKeySecret();
    const fleet = hosts;
    return {
      ...scaleCluster(world, addresses),
      addresses,
      mirrored: async () => (await fleet.containing(BENCH_MIRROR.path, BENCH_MIRROR.text)).length,
      stop: async () => {
        await fleet.stop();
        await world.stop();
      },
    };
  } catch (err) {
    await hosts?.stop();
    await world.stop();
    throw err;
  }
}
