// `pnpm bench ciphers [--mib N]`: this machine's SFTP throughput over ssh2 (client and simulated host in
// this process, native crypto binding when built) for each cipher the operator could prefer. The result
// chose the operator's cipher preference (packages/core/src/host/ssh/ssh-options.ts, SSH_CIPHERS).
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import ssh2 from 'ssh2';
import { FREE_HOST_COSTS } from '../windows/host-costs.js';
import { SimulatedWindowsHost } from '../windows/simulated-windows-host.js';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import { makePayload, type BenchFile } from './payload-files.js';

const CIPHERS = [
  'aes128-gcm@openssh.com',
  'aes256-gcm@openssh.com',
  'chacha20-poly1305@openssh.com',
  'aes128-ctr',
  'aes256-ctr',
];

function put(sim: SimulatedWindowsHost, key: string, cipher: string, file: BenchFile): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on('error', reject);
    client.on('ready', () => {
      client.sftp((err, sftp) => {
        if (err) return reject(err);
        sftp.fastPut(file.localPath, 'C:\\ProgramData\\c.bin', { concurrency: 64, chunkSize: 32768 }, (e) => {
          client.end();
          if (e) reject(e);
          else resolve();
        });
      });
    });
    client.connect({
      host: sim.host,
      port: sim.port,
      username: 'Administrator',
      privateKey: key,
      algorithms: { cipher: [cipher] as ssh2.CipherAlgorithm[] },
    });
    client.setNoDelay(true);
  });
}

function nativeBinding(): boolean {
  try {
    createRequire(import.meta.url).resolve('ssh2/lib/protocol/crypto/build/Release/sshcrypto.node');
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { mib: { type: 'string' } } });
  const mib = Number(values.mib ?? 128);
  const key = generateEd25519KeyPair();
  const sim = await SimulatedWindowsHost.start({
    address: '127.0.202.2',
    authorizedKey: key.public,
    costs: FREE_HOST_COSTS,
  });
  const { files, cleanup } = await makePayload({ 'cipher.bin': mib * 2 ** 20 });
  const file = files[0]!;
  const results: Record<string, number> = {};
  try {
    console.log(
      `ssh2 native crypto binding: ${nativeBinding() ? 'built' : 'missing'}; ${mib} MiB per run, best of 3, CPU time of both ends`,
    );
    // CPU time, not wall time: the machine is shared, and encryption is what the operator pays for.
    // Client and simulated host are both in this process, so this is MB per CPU second of both ends.
    for (const cipher of CIPHERS) {
      let best = Infinity;
      let wall = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        await put(sim, key.private, cipher, file);
        const c = process.cpuUsage(c0);
        best = Math.min(best, (c.user + c.system) / 1e6);
        wall = Math.min(wall, (performance.now() - t0) / 1000);
      }
      results[cipher] = Math.round(file.size / best / 1e5) / 10;
      const mbs = Math.round(file.size / wall / 1e5) / 10;
      console.log(`${cipher.padEnd(32)} ${results[cipher]} MB per CPU second (wall ${mbs} MB/s)`);
    }
  } finally {
    await sim.stop();
    await cleanup();
  }
  console.log(JSON.stringify({ mbPerCpuSecond: results }));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench ciphers: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
