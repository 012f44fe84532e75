import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPayloadManifest } from '@wmco/core';
import { reapOnExit } from './child-reaper.js';
import type { PlainShipResult, PlainShipTask } from './plain-ship.js';

/** Where the plain client ships to: the hosts, and the world's folder and private key they accept. */
export interface PlainShipTargets {
  readonly hosts: readonly { readonly address: string; readonly port: number }[];
  readonly dir: string;
  readonly privateKey: string;
}

/**
 * Ships the payload files a node receives to every host of `to` with a plain ssh2 client in a process
 * of its own (plain-ship.ts): what SSH alone costs a client, beside what the operator spent.
 */
export async function plainShip(to: PlainShipTargets, payloadDir: string): Promise<PlainShipResult> {
  const keyFile = join(to.dir, 'plain-ship.key');
  await writeFile(keyFile, to.privateKey, { mode: 0o600 });
  const entries = await readPayloadManifest(payloadDir);
  const task: PlainShipTask = {
    hosts: to.hosts.map((h) => ({ host: h.address, port: h.port })),
    username: 'Administrator',
    keyFile,
    files: entries.map((e) => join(payloadDir, e.source)),
  };
  const entry = fileURLToPath(new URL('./plain-ship.js', import.meta.url));
  const child = spawn(process.execPath, [entry, JSON.stringify(task)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  reapOnExit(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the plain ssh2 client failed (exit ${String(code)})`);
  return JSON.parse(out.trim().split('\n').pop() ?? '') as PlainShipResult;
}
