// A plain ssh2 client in a process of its own (`pnpm bench join` starts it beside each join): it ships the
// same payload files the operator shipped to the same simulated hosts, every host at once, one file after
// another per host, with ssh2's fastPut and no wmco code, and prints the CPU seconds of this process and
// the bytes it sent. One argument: the JSON of `PlainShipTask`. Not a bench by itself.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import ssh2 from 'ssh2';

export interface PlainShipTask {
  readonly hosts: readonly { readonly host: string; readonly port: number }[];
  readonly username: string;
  /** A file holding the private key the hosts accept. */
  readonly keyFile: string;
  /** Local paths of the files to ship (the payload's archives). */
  readonly files: readonly string[];
}

export interface PlainShipResult {
  readonly cpuSeconds: number;
  readonly bytes: number;
  readonly seconds: number;
}

function ship(
  task: PlainShipTask,
  privateKey: Buffer,
  target: PlainShipTask['hosts'][number],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on('error', reject);
    client.on('ready', () => {
      client.sftp((err, sftp) => {
        if (err) return reject(err);
        const next = (i: number): void => {
          const file = task.files[i];
          if (file === undefined) {
            client.end();
            return resolve();
          }
          // 254 KiB writes, 64 in flight: what Windows OpenSSH takes, as the bench's SSH throughput uses.
          const remote = `C:\\ProgramData\\plain-${basename(file)}`;
          sftp.fastPut(file, remote, { concurrency: 64, chunkSize: 254 * 1024 }, (e) =>
            e ? reject(e) : next(i + 1),
          );
        };
        next(0);
      });
    });
    client.connect({ host: target.host, port: target.port, username: task.username, privateKey });
    client.setNoDelay(true);
  });
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? '') as PlainShipTask;
  const privateKey = await readFile(task.keyFile);
  const sizes = await Promise.all(task.files.map(async (f) => (await stat(f)).size));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(task.hosts.map((h) => ship(task, privateKey, h)));
  const cpu = process.cpuUsage(cpu0);
  const result: PlainShipResult = {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    bytes: sizes.reduce((a, b) => a + b, 0) * task.hosts.length,
    seconds: (performance.now() - t0) / 1000,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`plain ship: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
