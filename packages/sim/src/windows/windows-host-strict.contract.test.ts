// The adapter and the module model against a service control manager as strict as Windows'.
import test from 'ava';
import { converge } from '@wmco/core';
import { observeQueryFor } from '@wmco/core/internal';
import { defaultServiceBehaviours } from './service-behaviour.js';
import { Payload, nodeSpec, startHostWorld } from './windows-host-fixture.js';

test('a failed join cleaned up and retried at once: the deleted services are gone before they are re-created', async (t) => {
  // The SCM takes a while to remove a deleted service; re-creating it before then fails with 1072.
  const w = await startHostWorld({ costs: { serviceDeleteMs: 300 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  await converge(w.host, spec, payload.content);
  const out = await w.host.deconfigure({
    services: spec.services.map((s) => s.name),
    removeTaggedServices: false,
    envVars: [],
    hnsNetworks: [],
    directories: [],
    keep: [],
  });
  t.deepEqual(
    out.done.filter((d) => d.kind === 'deleteService').map((d) => d.target),
    ['containerd', 'kubelet', 'kube-proxy'],
  );
  t.deepEqual(w.sim.model.scm.all(), [], 'deconfigure answered once the services were gone');
  const again = await converge(w.host, spec, payload.content);
  t.true(again.outcome.done.some((d) => d.kind === 'createService'));
  const state = await w.host.observe(observeQueryFor(spec));
  t.true(state.services.every((s) => s.state === 'running'));
});

test('a service that dies right after starting fails the apply at once, with its exit code', async (t) => {
  const behaviours = defaultServiceBehaviours().register('kube-proxy', {
    start: () => ({ state: 'failed', reason: 'the process exited', exitCode: 255 }),
  });
  const w = await startHostWorld({ model: { behaviours } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const err = await t.throwsAsync(converge(w.host, nodeSpec(payload), payload.content));
  t.regex(err.message, /kube-proxy' stopped right after starting \(exit code 255\)/);
  t.is(w.sim.model.scm.get('kube-proxy')?.exitCode, 255);
});

test('a service that never reports RUNNING fails the apply once the wait times out; the session goes on', async (t) => {
  const behaviours = defaultServiceBehaviours().register('kube-proxy', { start: () => ({ state: 'hung' }) });
  const w = await startHostWorld({ model: { behaviours }, costs: { serviceStartTimeoutMs: 200 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  const err = await t.throwsAsync(converge(w.host, spec, payload.content));
  t.regex(err.message, /kube-proxy' did not reach Running: Time out has expired/);
  const state = await w.host.observe(observeQueryFor(spec));
  t.is(state.services.find((s) => s.name === 'kube-proxy')?.state, 'start-pending');
  t.is(state.services.find((s) => s.name === 'kubelet')?.state, 'running');
});
