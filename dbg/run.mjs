
import { SimWorld } from '/work/main/packages/operator/dist/world/sim-world.js';
import { loadBuiltinProviders } from '/work/main/packages/operator/dist/providers/baked-providers.js';
import { kubeletStatus } from '/work/main/packages/sim/dist/index.js';
const logs = [];
const world = await SimWorld.start({ hosts: [{ hostname: 'WIN-A' }], providers: await loadBuiltinProviders(), logSink: (l) => logs.push(l) });
await world.createPrivateKeySecret();
await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
await world.startOperator();
const a = world.hosts.hosts[0].address;
let last = '';
for (let i = 0; i < 100; i++) {
  const s = await world.status(a);
  const line = JSON.stringify(s);
  if (line !== last) { console.log(new Date().toISOString(), line); last = line; }
  if (s?.phase === 'Ready' || s?.phase === 'Failed') break;
  await new Promise((r) => setTimeout(r, 300));
}
const sim = world.hosts.hosts[0].sim;
console.log('services', sim.model.scm.all().map((s) => `${s.name}:${s.state}`));
try { console.log('kubelet', JSON.stringify(kubeletStatus(sim.model))); } catch (e) { console.log('kubelet status err', e.message); }
console.log(logs.slice(-30).join(''));
await world.stop();
