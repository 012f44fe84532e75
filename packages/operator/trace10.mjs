import { SimWorld } from './dist/world/sim-world.js';
import { until } from './dist/world/world-fixture.js';
import { loadBuiltinProviders } from './dist/providers/baked-providers.js';
import { DEFAULT_HOST_COSTS } from '@wmco/sim';
const payloadDir = process.argv[2]; const N = Number(process.argv[3] ?? 10); const uploads = Number(process.argv[4] ?? 3);
const world = await SimWorld.start({
  hosts: Array.from({ length: N }, (_, i) => ({ hostname: `WIN-T-${i + 1}` })), costs: DEFAULT_HOST_COSTS, providers: await loadBuiltinProviders(), payloadDir,
  parallelJoins: 50, parallelUploads: uploads, driftRepairIntervalMs: 120000,
});
await world.createPrivateKeySecret();
const op = await world.startOperator();
await until('lead', () => Promise.resolve(op.leading && op.synced ? true : undefined));
const t0 = Date.now(); const ts = () => ((Date.now() - t0) / 1000).toFixed(2);
const marks = world.hosts.hosts.map(() => ({}));
const iv = setInterval(() => world.hosts.hosts.forEach((h, i) => {
  const m = marks[i]; const b = h.sim.stats.bytesReceived;
  if (b > 1000 && !m.up0) m.up0 = ts(); if (b >= 139276741 && !m.up1) m.up1 = ts();
}), 20);
await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
await Promise.all(world.hosts.hosts.map((h, i) => until('ready', async () => { const s = await world.status(h.address); if (s?.phase === 'Ready') { marks[i].ready ??= ts(); return s; } return undefined; }, 600000)));
clearInterval(iv);
console.log('total', ts()); marks.forEach((m, i) => console.log(i, JSON.stringify(m)));
await world.stop(); process.exit(0);
