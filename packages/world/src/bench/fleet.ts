// `pnpm bench fleet [--nodes 200] [--max-unavailable 10%] [--changed kube-proxy.exe] [--scale 0.05]
// [--operator-node-options="--flag ..."]`: a fleet
// joined on version 1.0.0, then upgraded by version 1.1.0 (one binary differs) under the disruption budget:
// the time against (nodes ÷ budget) × one node's upgrade time (measured alone, in a world of one node, just
// before), and the most nodes cordoned or not Ready at once, which must not exceed the budget. The payload
// is the realistic one at --scale (default 5 %, so 200 hosts fit this machine's memory in one process).
import { parseArgs } from 'node:util';
import { parseMaxUnavailable, resolveMaxUnavailable } from '@wmco/core/internal';
import { payloadVariant, realisticPayload } from '@wmco/sim';
import { defaultParallelJoins, machineResources } from '@wmco/operator';
import { cacheDir } from './cache-dir.js';
import { operatorNodeOptions } from './node-options.js';
import { fleetFigures } from './fleet-figures.js';
import { watchUnavailability } from '../world/unavailability-watch.js';
import { ms } from './join-limit.js';
import { UnavailabilityTracker } from '../world/node-unavailability.js';
import { runUpgrade } from './upgrade-run.js';

function options(argv: readonly string[]): {
  nodes: number;
  maxUnavailable: string;
  changed: string;
  scale: number;
  operatorNodeOptions: string[];
} {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      nodes: { type: 'string' },
      'max-unavailable': { type: 'string' },
      changed: { type: 'string' },
      scale: { type: 'string' },
      'operator-node-options': { type: 'string' },
    },
    strict: true,
  });
  const nodes = Number(values.nodes ?? 200);
  const scale = Number(values.scale ?? 0.05);
  if (!Number.isInteger(nodes) || nodes < 1 || !(scale > 0))
    throw new Error('--nodes takes a positive integer, --scale a positive number');
  const maxUnavailable = values['max-unavailable'] ?? '10%';
  parseMaxUnavailable(maxUnavailable);
  const changed = values.changed ?? 'kube-proxy.exe';
  return {
    nodes,
    maxUnavailable,
    changed,
    scale,
    operatorNodeOptions: operatorNodeOptions(values['operator-node-options']),
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const base = await realisticPayload(cacheDir(), o.scale);
  const variant = await payloadVariant(base, `${base.dir}-variant-${o.changed}`, o.changed);
  const budget = resolveMaxUnavailable(parseMaxUnavailable(o.maxUnavailable), o.nodes);
  const parallelJoins = defaultParallelJoins(machineResources()).parallelJoins;
  const log = (l: string): void => console.log(l);
  console.log(
    `payload ${base.dir} (${ms(base.compressedBytes / 1e6)} MB compressed); ${o.nodes} nodes, budget ${budget}`,
  );
  const one = await runUpgrade({
    nodes: 1,
    base,
    variant,
    changed: o.changed,
    parallelJoins,
    maxUnavailable: '1',
    log,
    operatorNodeOptions: o.operatorNodeOptions,
  });
  console.log(`one node alone upgraded in ${ms(one.seconds)} s`);
  const tracker = new UnavailabilityTracker();
  const fleet = await runUpgrade({
    ...{ nodes: o.nodes, base, variant, changed: o.changed, parallelJoins },
    maxUnavailable: o.maxUnavailable,
    log,
    operatorNodeOptions: o.operatorNodeOptions,
    watchUpgrade: (world) => watchUnavailability(world, tracker).then((stop) => (tracker.resetPeak(), stop)),
  });
  const f = fleetFigures({
    nodes: o.nodes,
    maxUnavailable: budget,
    seconds: fleet.seconds,
    oneNodeSeconds: one.seconds,
    maxUnavailableSeen: tracker.maxSeen,
  });
  console.log(
    `fleet of ${f.nodes}: ${f.seconds} s against ${f.boundSeconds} s (${Math.ceil(f.nodes / budget)} waves × ` +
      `${ms(one.seconds)} s): ratio ${ms(f.seconds / f.boundSeconds)}; at most ${f.maxUnavailableSeen} nodes ` +
      `unavailable at once, budget ${budget}`,
  );
  const spells = [...tracker.finishedSpells()].sort((a, b) => a - b);
  const used = tracker.unavailableNodeSeconds();
  console.log(
    `budget use: ${ms(used / fleet.seconds)} nodes unavailable on average of ${budget} ` +
      `(${Math.round((100 * used) / (budget * fleet.seconds))} %); each node unavailable for ` +
      `median ${ms(spells[Math.floor(spells.length / 2)] ?? 0)} s, slowest ${ms(spells.at(-1) ?? 0)} s ` +
      `(alone: ${ms(one.seconds)} s from the operator's start)`,
  );
  // The operator's node flags: the image's unless --operator-node-options replaced them.
  console.log(JSON.stringify({ ...f, operatorNodeFlags: o.operatorNodeOptions }));
  if (f.maxUnavailableSeen > budget)
    throw new Error(`${f.maxUnavailableSeen} nodes were unavailable at once, over the budget of ${budget}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench fleet: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
