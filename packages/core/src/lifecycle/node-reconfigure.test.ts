import test from 'ava';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import type { Plan } from '../converge/plan.js';
import {
  FACTS,
  StateHost,
  fakeConfigMaps,
  recordingSignals,
  stateMatching,
  testDeps,
  testNode,
} from './lifecycle.test-helper.js';
import { designNode, nodeHostSpec } from '../desired/node-spec.js';
import { LIFECYCLE_BOOT_ANNOTATION, LIFECYCLE_PHASE_ANNOTATION } from './lifecycle-annotations.js';
import { NodeReconfigure } from './node-reconfigure.js';

const OUTPUTS = { 'kubelet.0': '10.0.0.5\r\n' };
const BOOT = '3f2c1e0a-0000-4000-8000-000000000001';
const live = new AbortController().signal;
const target = { address: '10.0.0.5', ipv4: '10.0.0.5', username: 'Administrator', privateKeyPem: 'k' };

/**
 * A host that matches its spec, counts reboots (each a new boot id and boot time) and may ask for one after an
 * apply. Like Windows, its boot time moves by a fraction of a millisecond at every read, without a reboot.
 */
class RebootingHost extends StateHost {
  reboots = 0;
  applyNeedsReboot = false;
  private reads = 0;

  override reboot(): Promise<void> {
    this.reboots++;
    this.state = {
      ...this.state,
      lastBootTime: `2026-02-0${this.reboots}T00:00:00.0000000Z`,
      bootId: `3f2c1e0a-0000-4000-8000-00000000010${this.reboots}`,
    };
    return Promise.resolve();
  }

  override async observe(query: Parameters<StateHost['observe']>[0]): ReturnType<StateHost['observe']> {
    const state = await super.observe(query);
    this.reads++;
    const drifted = state.lastBootTime.replace(/(\.\d*)?Z$/, `.000${String(this.reads).padStart(4, '0')}Z`);
    return { ...state, lastBootTime: drifted };
  }

  override async apply(plan: Plan): Promise<{ done: []; rebootRequired: boolean }> {
    const out = await super.apply(plan);
    return { ...out, rebootRequired: this.applyNeedsReboot };
  }
}

function matchingHost(): RebootingHost {
  const blank = {
    directories: [],
    files: [],
    services: [],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  };
  const design = designNode(testDeps(new StateHost(stateMatching(blank))), FACTS);
  return new RebootingHost(stateMatching(nodeHostSpec(design, { NODE_IP: '10.0.0.5' }, testNode())), OUTPUTS);
}

type AnnotationPatch = { body: { metadata?: { annotations?: Record<string, string | null> } } };

/** A CoreV1Api holding one Node that merge patches change, and a log of the phases entered. */
function nodeCore(annotations: Record<string, string> = {}): {
  core: CoreV1Api;
  node: V1Node;
  phases: string[];
} {
  const base = testNode();
  const node: V1Node = {
    ...base,
    metadata: { ...base.metadata, annotations: { ...base.metadata?.annotations, ...annotations } },
  };
  const phases: string[] = [];
  const core = Object.assign(fakeConfigMaps().api, {
    readNode: () => Promise.resolve(structuredClone(node)),
    patchNode: (r: { body: { metadata?: { annotations?: Record<string, string | null> } } }) => {
      const a = { ...node.metadata?.annotations };
      for (const [k, v] of Object.entries(r.body.metadata?.annotations ?? {})) {
        if (v === null) delete a[k];
        else a[k] = v;
        if (k === LIFECYCLE_PHASE_ANNOTATION && v !== null) phases.push(v);
      }
      node.metadata = { ...node.metadata, annotations: a };
      return Promise.resolve(node);
    },
  });
  return { core, node, phases };
}

test('a requested reboot: the boot time is recorded first, one reboot, then a round that restores what a boot loses', async (t) => {
  const host = matchingHost();
  const { core, node, phases } = nodeCore();
  const out = await new NodeReconfigure(testDeps(host, { core })).run(node, target, true, live);
  t.deepEqual(out, { bytesSent: 0, rebooted: true });
  t.is(host.reboots, 1);
  t.deepEqual(phases, ['Configuring', 'Rebooting', 'Configuring']);
  t.is(node.metadata?.annotations?.[LIFECYCLE_BOOT_ANNOTATION], BOOT, 'the boot id before the reboot');
  t.is(host.queries.length, 2, 'one observe per round');
});

test('a successor resuming a reboot that already happened does not reboot the node again', async (t) => {
  const host = matchingHost();
  host.state = { ...host.state, lastBootTime: '2026-01-02T00:00:00Z', bootId: 'another-boot' };
  const { core, node, phases } = nodeCore({
    [LIFECYCLE_BOOT_ANNOTATION]: BOOT,
    [LIFECYCLE_PHASE_ANNOTATION]: 'Rebooting',
  });
  const out = await new NodeReconfigure(testDeps(host, { core })).run(node, target, true, live);
  t.true(out.rebooted);
  t.is(host.reboots, 0, 'the host booted since the pass began: no second reboot');
  t.deepEqual(phases, ['Configuring', 'Configuring']);
});

test('a successor resuming a reboot that never happened reboots the node', async (t) => {
  const host = matchingHost();
  const { core, node } = nodeCore({
    [LIFECYCLE_BOOT_ANNOTATION]: BOOT,
    [LIFECYCLE_PHASE_ANNOTATION]: 'Rebooting',
  });
  await new NodeReconfigure(testDeps(host, { core })).run(node, target, true, live);
  t.is(host.reboots, 1);
});

test('an apply that needs a reboot (drift of a machine variable) reboots once, even when a reboot was asked', async (t) => {
  const host = matchingHost();
  host.state = {
    ...host.state,
    services: host.state.services.map((s) =>
      s.name === 'csi-proxy' ? { ...s, commandLine: `${s.commandLine} --v=9` } : s,
    ),
  };
  host.applyNeedsReboot = true;
  const { core, node, phases } = nodeCore();
  const out = await new NodeReconfigure(testDeps(host, { core })).run(node, target, true, live);
  t.true(out.rebooted);
  t.is(host.reboots, 1, 'the round rebooted the host; the request is served by that reboot');
  t.is(host.applied.length, 1, 'the second round found nothing to change');
  t.deepEqual(phases, ['Configuring', 'Configuring']);
});

test('an upgrade without a reboot: one round, no reboot, no second round', async (t) => {
  const host = matchingHost();
  const { core, node, phases } = nodeCore();
  const out = await new NodeReconfigure(testDeps(host, { core })).run(node, target, false, live);
  t.deepEqual(out, { bytesSent: 0, rebooted: false });
  t.is(host.reboots, 0);
  t.deepEqual(phases, ['Configuring']);
  t.is(host.queries.length, 1);
});

test("the pass's connection is abandoned with the pass: openHost gets its signal", async (t) => {
  const host = matchingHost();
  const { core, node } = nodeCore();
  const { deps: opening, signals } = recordingSignals(testDeps(host, { core }), host);
  await new NodeReconfigure(opening).run(node, target, false, live);
  t.deepEqual(signals, [live]);
});

test('a boot time that moved between two reads is not a reboot: a successor still reboots the node once', async (t) => {
  const host = matchingHost();
  const { core, node } = nodeCore();
  // The first leader stops right after recording the boot (before it could reboot).
  const first = new AbortController();
  const patch = core.patchNode.bind(core) as (r: AnnotationPatch) => Promise<V1Node>;
  const patchThenStop = (r: AnnotationPatch): Promise<V1Node> => {
    const out = patch(r);
    if (r.body.metadata?.annotations?.[LIFECYCLE_BOOT_ANNOTATION]) first.abort();
    return out;
  };
  core.patchNode = patchThenStop;
  await t.throwsAsync(new NodeReconfigure(testDeps(host, { core })).run(node, target, true, first.signal));
  t.is(host.reboots, 0);
  const out = await new NodeReconfigure(testDeps(host, { core })).run(node, target, true, live);
  t.true(out.rebooted);
  t.is(host.reboots, 1, 'the boot time read differently, but the host never restarted');
});
