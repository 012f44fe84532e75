// `pnpm bench upgrade [--nodes 10] [--changed kube-proxy.exe] [--max-unavailable 1] [--scale S]`: nodes
// joined with the realistic payload (upstream's layout, ~550 MB, cached), then an operator version whose
// payload differs in one binary: the bytes each node received for the upgrade and the time per node.
import { parseArgs } from 'node:util';
import { payloadVariant, realisticPayload } from '@wmco/sim';
import { defaultParallelJoins, machineResources } from '@wmco/operator';
import { cacheDir } from './cache-dir.js';
import { ms } from './join-limit.js';
import { upgradeFigures } from './upgrade-figures.js';
import { runUpgrade } from './upgrade-run.js';

function options(argv: readonly string[]): {
  nodes: number;
  changed: string;
  maxUnavailable: string;
  scale: number;
} {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      nodes: { type: 'string' },
      changed: { type: 'string' },
      'max-unavailable': { type: 'string' },
      scale: { type: 'string' },
    },
    strict: true,
  });
  const nodes = Number(values.nodes ?? 10);
  const scale = Number(values.scale ?? 1);
  if (!Number.isInteger(nodes) || nodes < 1 || !(scale > 0))
    throw new Error('--nodes takes a positive integer, --scale a positive number');
  const maxUnavailable = values['max-unavailable'] ?? '1';
  return { nodes, changed: values.changed ?? 'kube-proxy.exe', maxUnavailable, scale };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const base = await realisticPayload(cacheDir(), o.scale);
  const variant = await payloadVariant(base, `${base.dir}-variant-${o.changed}`, o.changed);
  const changed = variant.files.find((f) => f.name === o.changed)!;
  console.log(
    `payload ${base.dir}: ${ms(base.bytes / 1e6)} MB, ${ms(base.compressedBytes / 1e6)} MB compressed; ` +
      `the next version changes ${o.changed} (${ms(changed.compressedBytes / 1e6)} MB compressed); ` +
      `--max-unavailable ${o.maxUnavailable}`,
  );
  const parallelJoins = defaultParallelJoins(machineResources()).parallelJoins;
  const m = await runUpgrade({ ...o, base, variant, parallelJoins, log: (l) => console.log(l) });
  const f = upgradeFigures(m);
  console.log(
    `upgrade of ${o.nodes} nodes: ${ms(m.seconds)} s, ${f.secondsPerNode} s per node; ` +
      `${ms(f.bytesPerNode / 1e6)} MB sent per node (${ms(f.bytesPerNode / f.changedBinaryCompressedBytes)} × the changed binary's compressed size)`,
  );
  console.log(JSON.stringify(f));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench upgrade: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
