import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPayloadManifest } from '@wmco/core';
import type { SimWorld } from '../world/sim-world.js';
import type { PlainShipResult, PlainShipTask } from './plain-ship.js';

/**
 * Ships the payload files a node receives to every host of `world` with a plain ssh2 client in a process
 * of its own (plain-ship.ts): what SSH alone costs a client, beside what the operator spent.
 */
export async function plainShip(world: SimWorld, payloadDir: string): Promise<PlainShipResult> {
  const keyFile = join(world.dir, 'plain-ship.key');
  await writeFile(keyFile, world.privateKey, { mode: 0o600 });
  const entries = await readPayloadManifest(payloadDir);
  const task: PlainShipTask = {
    hosts: world.hosts.hosts.map((h) => ({ host: h.sim.host, port: h.sim.port })),
    username: 'Administrator',
    keyFile,
    files: entries.map((e) => join(payloadDir, e.source)),
  };
  const entry = fileURLToPath(new URL('./plain-ship.js', import.meta.url));
  const child = spawn(process.execPath, [entry, JSON.stringify(task)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the plain ssh2 client failed (exit ${String(code)})`);
  return JSON.parse(out.trim().split('\n').pop() ?? '') as PlainShipResult;
}
