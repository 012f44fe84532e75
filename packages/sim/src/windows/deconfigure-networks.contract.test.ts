// Deconfigure removes HNS networks one per call and the SSH adapter reconnects after each (upstream's
// RemoveFilesAndNetworks: removing a network re-plumbs the NIC and can drop the session).
import test from 'ava';
import { startHostWorld } from './windows-host-fixture.js';

const BASE = 'BaseOVNKubernetesHybridOverlayNetwork';
const OVERLAY = 'OVNKubernetesHybridOverlayNetwork';

test('deconfigure removes the Base network first, one network per connection, then the folders', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  // The host lists the overlay first; the request's order (upstream's: Base first) decides.
  w.sim.model.hnsNetworks.push({ name: OVERLAY, type: 'Overlay', id: 'id-overlay' });
  w.sim.model.hnsNetworks.push({ name: BASE, type: 'Overlay', id: 'id-base' });
  w.sim.model.files.mkdirp('C:\\var\\lib\\cni');
  const out = await w.host.deconfigure({
    services: [],
    removeTaggedServices: false,
    envVars: [],
    hnsNetworks: [BASE, OVERLAY],
    directories: ['C:\\var\\lib\\cni'],
    keep: [],
  });
  t.deepEqual(
    out.done.map((a) => `${a.kind} ${a.target}`),
    [`removeHnsNetwork ${BASE}`, `removeHnsNetwork ${OVERLAY}`, 'removeDirectory C:\\var\\lib\\cni'],
  );
  t.deepEqual(w.sim.model.hnsNetworks, []);
  t.is(w.host.stats.connects, 3, 'a new connection after each network removal');
});

test('without networks to remove, deconfigure is one call on one connection', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const out = await w.host.deconfigure({
    services: [],
    removeTaggedServices: false,
    envVars: [],
    hnsNetworks: [BASE, OVERLAY],
    directories: [],
    keep: [],
  });
  t.deepEqual(out.done, []);
  t.is(w.host.stats.connects, 1);
});
