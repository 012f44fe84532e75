import test from 'ava';
import { plan } from '../converge/plan.js';
import { observedHost } from '../converge/plan.test-helper.js';
import { FACTS, shippedCorePayload, StateHost, stateMatching, testDeps } from './lifecycle.test-helper.js';
import type { ObservedPlan } from '../converge/converge-round.js';
import { deferrableFiles } from './deferred-files.js';
import { designNode, hostSpecWith, type NodeDesign } from '../desired/node-spec.js';

const design = designNode(
  { ...testDeps(new StateHost(observedHost())), payload: shippedCorePayload() },
  FACTS,
);
const payload = new Set(design.payload.map((p) => p.sha256));

/** A fresh host's bootstrap plan (containerd, kubelet): what the first apply of a join would do. */
function bootstrapPlan(d: NodeDesign = design): ObservedPlan {
  const services = d.services.filter((s) => s.bootstrap);
  const spec = hostSpecWith(d, services, { NODE_IP: '10.0.0.5' }, undefined);
  const state = observedHost();
  return { values: {}, state, spec, plan: plan(state, spec) };
}

const names = (observed: ObservedPlan, shas: ReadonlySet<string>): string[] =>
  observed.plan.steps
    .flatMap((s) => (s.kind === 'placeFile' && shas.has(s.sha256) ? [s.path.split('\\').pop()!] : []))
    .sort();

test('the bootstrap apply keeps the files its services name and defers the rest of the payload', (t) => {
  const observed = bootstrapPlan();
  const deferred = deferrableFiles(observed, payload);
  const late = names(observed, deferred);
  t.log(late.join(', '));
  for (const kept of ['kubelet.exe', 'containerd.exe', 'kube-log-runner.exe'])
    t.false(late.includes(kept), `${kept} is named by a bootstrap service`);
  for (const node of ['hybrid-overlay-node.exe', 'kube-proxy.exe', 'csi-proxy.exe', 'windows_exporter.exe'])
    t.true(late.includes(node), `${node} waits for the node round`);
  // Only payload files: the generated ones (kubeconfigs, configs, scripts) all stay.
  const generated = new Set(design.generated.map((g) => g.sha256));
  t.false([...deferred].some((sha) => generated.has(sha)));
});

test('a payload file a script of the apply names stays in it', (t) => {
  const observed = bootstrapPlan();
  const target = observed.plan.steps.find(
    (s) => s.kind === 'placeFile' && s.path.endsWith('\\csi-proxy.exe'),
  );
  if (target?.kind !== 'placeFile') return t.fail('no csi-proxy.exe in the plan');
  const withScript: ObservedPlan = {
    ...observed,
    plan: {
      steps: [
        ...observed.plan.steps,
        // Forward slashes and another case, as a script may write a path.
        { kind: 'runScript', name: 'x.0', script: `& 'c:/K/CSI-PROXY.exe' -version` },
      ],
    },
  };
  t.false(deferrableFiles(withScript, payload).has(target.sha256));
  t.true(deferrableFiles(observed, payload).has(target.sha256));
});

test('a binary the apply replaces under a service it only restarts is not deferred (no step names it)', (t) => {
  const services = design.services.filter((s) => s.bootstrap);
  const spec = hostSpecWith(design, services, { NODE_IP: '10.0.0.5' }, undefined);
  // Everything in place and running, but kubelet.exe is an older build.
  const matching = stateMatching(spec);
  const state = {
    ...matching,
    files: matching.files.map((f) =>
      f.path.endsWith('\\kubelet.exe') ? { ...f, sha256: 'f'.repeat(64) } : f,
    ),
  };
  const observed: ObservedPlan = { values: {}, state, spec, plan: plan(state, spec) };
  const kinds = observed.plan.steps.map((p) => p.kind);
  t.true(kinds.includes('placeFile') && kinds.includes('stopService'), kinds.join(', '));
  t.false(
    kinds.includes('createService') || kinds.includes('configureService'),
    'the service itself is unchanged',
  );
  t.deepEqual(names(observed, deferrableFiles(observed, payload)), []);
});

test('nothing is deferred when the payload set is empty or every file is already in place', (t) => {
  t.is(deferrableFiles(bootstrapPlan(), new Set()).size, 0);
  const observed = bootstrapPlan();
  const noFiles: ObservedPlan = {
    ...observed,
    plan: { steps: observed.plan.steps.filter((s) => s.kind !== 'placeFile') },
  };
  t.is(deferrableFiles(noFiles, payload).size, 0);
});
