import { startHostWorld } from './dist/windows/windows-host-fixture.js';
const w = await startHostWorld({ costs: { powershellStartMs: 300 } });
const q = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
const host = w.connect({
  keepaliveIntervalMs: 100,
  commandTimeoutMs: 20_000,
  connectDeadlineMs: 200,
  logger: { warn: console.log, debug: console.log },
});
await host.observe(q);
console.log('first ok');
const t0 = Date.now();
const p = host.observe(q);
setTimeout(() => {
  w.sim.partition();
  console.log('partitioned');
}, 50);
try {
  await p;
  console.log('resolved?!');
} catch (e) {
  console.log('err', e.message, Date.now() - t0);
}
await w.stop();
console.log('stopped');
