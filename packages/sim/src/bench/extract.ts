// `pnpm bench extract [--hosts N] [--cold]`: what the simulated hosts' extraction of the realistic payload
// (upstream's layout, the files a node receives) costs the process that also runs the operator. Each host's
// archives arrive one after the other at its link's speed, each extracted in the background as it arrives
// (as the SFTP rename starts it); the apply that places them starts a PowerShell start after the last one.
// `--cold`: the archives are already staged and the apply extracts them (no upload to overlap with).
// Prints the apply's wall time and the main thread's busy time (event-loop utilisation), which is the time
// taken from the operator; the last line is JSON.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { HostPaths, stagedArchivePathFor } from '@wmco/core/internal';
import { readPayloadManifest, type PlanStep } from '@wmco/core';
import { realisticPayload } from '../payload/realistic-payload.js';
import { DEFAULT_HOST_COSTS } from '../windows/host-costs.js';
import { apply } from '../windows/host-operations.js';
import { prefetchStagedArchive } from '../windows/staged-archive.js';
import { WindowsModel } from '../windows/windows-model.js';

const CACHE = process.env['XDG_CACHE_HOME']
  ? join(process.env['XDG_CACHE_HOME'], 'wmco-ts')
  : fileURLToPath(new URL('../../../../node_modules/.cache/wmco-ts', import.meta.url));

interface Staged {
  readonly path: string;
  readonly data: Buffer;
}

/** One host's copy of each archive, in shared memory as the SFTP server stores large uploads. */
function hostCopies(archives: readonly { path: string; data: Buffer }[]): Staged[] {
  return archives.map(({ path, data }) => {
    const copy = Buffer.from(new SharedArrayBuffer(data.length));
    data.copy(copy);
    return { path, data: copy };
  });
}

/** Writes the archives at the times their upload would end on the host's link, each prefetched. */
async function arrive(m: WindowsModel, staged: readonly Staged[], cold: boolean): Promise<void> {
  const start = performance.now();
  let bytes = 0;
  for (const f of staged) {
    bytes += f.data.length;
    const due = (bytes / DEFAULT_HOST_COSTS.bandwidthBytesPerSec) * 1000;
    if (!cold) await sleep(Math.max(0, due - (performance.now() - start)));
    m.files.write(f.path, f.data);
    if (!cold) prefetchStagedArchive(m, f.path);
  }
  if (!cold) await sleep(DEFAULT_HOST_COSTS.powershellStartMs);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { hosts: { type: 'string' }, cold: { type: 'boolean' } } });
  const hosts = Number(values.hosts ?? 1);
  const cold = values.cold ?? false;
  const payload = await realisticPayload(CACHE);
  const entries = (await readPayloadManifest(payload.dir)).filter((e) => e.compressed);
  const archives = await Promise.all(
    entries.map(async (e) => ({
      path: stagedArchivePathFor(e.sha256),
      data: await readFile(join(payload.dir, e.source)),
    })),
  );
  const steps: PlanStep[] = entries.map((e) => ({
    kind: 'placeFile',
    path: e.destination,
    sha256: e.sha256,
  }));
  const copies = Array.from({ length: hosts }, () => hostCopies(archives));
  const models = copies.map(() => new WindowsModel());
  for (const m of models) m.files.mkdirp(HostPaths.staging);

  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const applyMs: number[] = [];
  const applyBusyMs: number[] = [];
  const results = await Promise.all(
    models.map(async (m, i) => {
      await arrive(m, copies[i]!, cold);
      const t0 = performance.now();
      const busy0 = performance.eventLoopUtilization();
      const r = await apply(m, steps);
      applyBusyMs.push(performance.eventLoopUtilization(busy0).active);
      applyMs.push(performance.now() - t0);
      return r;
    }),
  );
  const busy = performance.eventLoopUtilization(elu0).active;
  const cpu = process.cpuUsage(cpu0);
  const failed = results.find((r) => !r.ok);
  if (failed) throw new Error(`apply failed: ${failed.error?.message}`);
  const mean = (xs: number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const mb = archives.reduce((n, a) => n + a.data.length, 0) / 1e6;
  console.log(
    `${hosts} host(s), ${entries.length} archives of ${mb.toFixed(1)} MB each, ${cold ? 'staged before the apply' : 'arriving at 1 Gbit/s'}: ` +
      `apply ${mean(applyMs)} ms (mean), main thread busy ${Math.round(busy)} ms in all ` +
      `(${mean(applyBusyMs)} ms during an apply), CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms, ` +
      `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`,
  );
  console.log(
    JSON.stringify({
      hosts,
      cold,
      applyMs: mean(applyMs),
      mainThreadBusyMs: Math.round(busy),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

await main();
