import test from 'ava';
import { observedHost } from '../converge/plan.test-helper.js';
import type { Plan } from '../converge/plan.js';
import type { UploadFile } from '../host/windows-host.js';
import { scriptsFor } from '../desired/service-scripts.js';
import { FACTS, shippedCorePayload, StateHost, testDeps, testNode } from './lifecycle.test-helper.js';
import { bootstrapRound, nodeRound, type JoinRoundState } from './join-rounds.js';
import { designNode, variableScripts } from '../desired/node-spec.js';

const shipped = shippedCorePayload();
const nameOf = new Map(shipped.map((p) => [p.sha256, p.name]));

/** A fresh host whose uploads finish when the test says so; it records every call in order. */
class PacedHost extends StateHost {
  readonly calls: string[] = [];
  private readonly pending: { names: string[]; done: (err?: Error) => void }[] = [];

  override upload(
    files: readonly UploadFile[],
  ): Promise<{ uploaded: string[]; skipped: string[]; bytesSent: number }> {
    const names = files.map((f) => nameOf.get(f.sha256) ?? 'generated');
    this.calls.push(`upload ${names.filter((n) => n !== 'generated').join(',')}`);
    return new Promise((resolve, reject) =>
      this.pending.push({
        names,
        done: (err) => {
          if (err) return reject(err);
          // Staged, as a real host lists them to the next observe.
          this.state = { ...this.state, staged: [...this.state.staged, ...files.map((f) => f.sha256)] };
          resolve({ uploaded: [], skipped: [], bytesSent: names.length });
        },
      }),
    );
  }

  override apply(plan: Plan): Promise<{ done: []; rebootRequired: boolean }> {
    const placed = plan.steps.flatMap((p) => (p.kind === 'placeFile' ? [nameOf.get(p.sha256) ?? ''] : []));
    const started = plan.steps.flatMap((p) =>
      p.kind === 'startService' ? [p.name] : p.kind === 'startServices' ? p.names : [],
    );
    this.calls.push(`apply ${placed.filter(Boolean).join(',')} | ${started.join(',')}`);
    const moved = plan.steps.flatMap((p) => (p.kind === 'placeFile' ? [p] : []));
    this.state = {
      ...this.state,
      files: [...this.state.files, ...moved.map((p) => ({ path: p.path, sha256: p.sha256 }))],
      staged: this.state.staged.filter((sha) => !moved.some((p) => p.sha256 === sha)),
    };
    return super.apply(plan);
  }

  /** Lets the oldest upload still waiting finish (or fail). */
  async finishNext(err?: Error): Promise<void> {
    for (let i = 0; i < 20 && this.pending.length === 0; i++) await new Promise((r) => setImmediate(r));
    this.pending.shift()?.done(err);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  }
}

function joinState(): { s: JoinRoundState; host: PacedHost } {
  const design = designNode({ ...testDeps(new StateHost(observedHost())), payload: shipped }, FACTS);
  const outputs = Object.fromEntries(
    variableScripts(scriptsFor(design.services, testNode())).map((v) => [
      v.name,
      v.variable === 'NODE_IP' ? '10.0.0.5' : 'win-a',
    ]),
  );
  const host = new PacedHost(observedHost(), outputs);
  const s: JoinRoundState = {
    host,
    design,
    content: () => Buffer.from('x'),
    hostCalls: 0,
    bytes: 0,
    servicesStarted: false,
  };
  return { s, host };
}

test('the node round starts the first node services while the rest of the files upload, then the rest', async (t) => {
  const { s, host } = joinState();
  const bootstrap = bootstrapRound(
    s,
    s.design.services.filter((svc) => svc.bootstrap),
    () => Promise.resolve(),
  );
  await host.finishNext(); // the bootstrap services' files
  await bootstrap;
  const node = nodeRound(s, testNode());
  await host.finishNext(); // the first node services' files
  const beforeRest = host.calls.length;
  await host.finishNext(); // the rest
  await host.finishNext(); // the node round's own generated files (its kube-proxy and CNI configs)
  await node;
  const calls = host.calls;
  const applies = calls.filter((c) => c.startsWith('apply'));
  const uploads = calls.filter((c) => c.startsWith('upload'));
  t.is(applies.length, 3, calls.join('\n'));
  const [bootstrapApply, firstApply, lastApply] = applies;
  t.regex(uploads[0]!, /kubelet\.exe/);
  t.notRegex(bootstrapApply!, /hybrid-overlay-node\.exe|kube-proxy\.exe/);
  t.regex(bootstrapApply!, /kubelet\.exe.* \| .*kubelet/);
  t.regex(uploads[1]!, /hybrid-overlay-node\.exe/);
  t.notRegex(uploads[1]!, /kube-proxy\.exe/);
  t.regex(uploads[2]!, /kube-proxy\.exe/);
  // The first node services started before the rest of the files were in, and without them.
  t.true(calls.indexOf(firstApply!) < beforeRest, 'the first node apply came before the rest had uploaded');
  t.regex(firstApply!, /hybrid-overlay-node\.exe.* \| .*hybrid-overlay-node/);
  t.notRegex(firstApply!, /kube-proxy/);
  t.regex(lastApply!, /kube-proxy\.exe.* \| .*kube-proxy/);
});

test('a deferred upload that fails fails the node round with its error, and nothing is left unhandled', async (t) => {
  const { s, host } = joinState();
  const bootstrap = bootstrapRound(
    s,
    s.design.services.filter((svc) => svc.bootstrap),
    () => Promise.resolve(),
  );
  await host.finishNext();
  await bootstrap;
  await host.finishNext(new Error('link down'));
  await t.throwsAsync(nodeRound(s, testNode()), { message: 'link down' });
  t.false(host.calls.some((c) => c.startsWith('apply') && c.includes('hybrid-overlay-node')));
});
