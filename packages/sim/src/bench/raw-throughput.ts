import ssh2 from 'ssh2';
import { FREE_HOST_COSTS } from '../windows/host-costs.js';
import { SimulatedWindowsHost } from '../windows/simulated-windows-host.js';
import { knowFile } from '../windows/known-payload.js';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import type { BenchFile } from './payload-files.js';

/**
 * This machine's own SSH throughput: plain ssh2 `fastPut` (64 requests of `chunkSize` in flight; ssh2's
 * default is 32 KiB) of the largest file to each of `hosts` free-cost hosts at once, with no wmco code on
 * the client side. The file is known content to the hosts beforehand, as a world's payload is (SimWorld):
 * they hold what they receive as views of it, as in a join.
 */
export async function rawThroughput(file: BenchFile, hosts: number, chunkSize = 32768): Promise<number> {
  const known = await knowFile(file.localPath);
  try {
    return await uploadToHosts(file, hosts, chunkSize);
  } finally {
    known.forget();
  }
}

async function uploadToHosts(file: BenchFile, hosts: number, chunkSize: number): Promise<number> {
  const key = generateEd25519KeyPair();
  const sims: SimulatedWindowsHost[] = [];
  for (let i = 0; i < hosts; i++) {
    sims.push(
      await SimulatedWindowsHost.start({
        address: `127.0.201.${i + 2}`,
        authorizedKey: key.public,
        costs: FREE_HOST_COSTS,
      }),
    );
  }
  const put = (sim: SimulatedWindowsHost): Promise<void> =>
    new Promise((resolve, reject) => {
      const client = new ssh2.Client();
      client.on('error', reject);
      client.on('ready', () => {
        client.sftp((err, sftp) => {
          if (err) return reject(err);
          sftp.fastPut(file.localPath, 'C:\\ProgramData\\raw.bin', { concurrency: 64, chunkSize }, (e) => {
            client.end();
            if (e) reject(e);
            else resolve();
          });
        });
      });
      client.connect({ host: sim.host, port: sim.port, username: 'Administrator', privateKey: key.private });
      client.setNoDelay(true);
    });
  const start = performance.now();
  await Promise.all(sims.map(put));
  const seconds = (performance.now() - start) / 1000;
  for (const s of sims) await s.stop();
  return (file.size * hosts) / seconds;
}
