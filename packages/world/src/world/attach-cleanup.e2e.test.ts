import test from 'ava';
import { CoreV1Api } from '@kubernetes/client-node';
import { createNamespacedConfigMap, createPullSecret } from './existing-objects.test-helper.js';
import { outsideForTest, snapshot, startWmcoSim, wmcoSim } from './outside-cluster.test-helper.js';

// `wmco sim --cluster --cleanup` against a plain cluster in its own process: what the run created goes,
// what the cluster had stays.

const OPERATOR_NS = 'openshift-windows-machine-config-operator';
const PIN = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx';

test.serial(
  '--cleanup deletes what the run created and nothing the cluster had; a second run works',
  async (t) => {
    const o = await outsideForTest(t);
    const core = o.kc.makeApiClient(CoreV1Api);
    // What the cluster already has, in namespaces and kinds the run writes to.
    const pull = { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') };
    await createPullSecret(core, pull);
    const pins = { '10.0.0.5': PIN };
    await createNamespacedConfigMap(core, OPERATOR_NS, 'windows-ssh-host-keys-pending', pins);
    await core.createNamespacedConfigMap({
      namespace: OPERATOR_NS,
      body: { metadata: { name: 'mine' }, data: { a: 'b' } },
    });
    await core.createNode({ body: { metadata: { name: 'worker-0' } } });
    const before = await snapshot(o);

    const r = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '2', '--seed', '--cleanup']);
    t.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
    t.regex(r.stdout, /Ready \(win-byoh-02\)/);
    t.regex(
      r.stdout,
      /cleanup: removed 3 host-key pins of the run.s hosts from windows-ssh-host-keys-pending/,
    );
    t.regex(r.stdout, /cleanup: deleted \d+ objects the run created \(.*2 Node, .*CertificateSigningRequest/);
    t.deepEqual(await snapshot(o), before);
    const kept = await core.readNamespacedConfigMap({
      name: 'windows-ssh-host-keys-pending',
      namespace: OPERATOR_NS,
    });
    t.deepEqual(kept.data, pins);
    t.deepEqual(
      (await core.readNamespacedSecret({ name: 'pull-secret', namespace: 'openshift-config' })).data,
      pull,
    );

    // Nothing left to trip over: a second run, for another bootstrap identity, seeds and joins afresh.
    const again = await wmcoSim([
      '--cluster',
      o.kubeconfig,
      '--hosts',
      '2',
      '--seed',
      '--bootstrap-group',
      'system:bootstrappers:windows',
      '--cleanup',
    ]);
    t.is(again.code, 0, `${again.stdout}\n${again.stderr}`);
    t.notRegex(again.stdout, /host-key pins: cleared|Nodes: deleted/);
    t.regex(again.stdout, /Ready \(win-byoh-02\)/);
    t.deepEqual(await snapshot(o), before);
  },
);

test.serial(
  'a failed run prints the end of the operator log, and --cleanup still deletes what it created',
  async (t) => {
    const o = await outsideForTest(t);
    const before = await snapshot(o);
    // Two hosts reporting the same computer name: the operator refuses one of them.
    const r = await wmcoSim([
      '--cluster',
      o.kubeconfig,
      '--hosts-file',
      new URL('../../../../examples/hosts-files/duplicate-names.yaml', import.meta.url).pathname,
      '--seed',
      '--cleanup',
      '--timeout',
      '120',
    ]);
    t.not(r.code, 0);
    const path = /^operator log: (\S+)$/m.exec(r.stdout)?.[1] ?? '';
    t.regex(r.stderr, new RegExp(`last \\d+ lines of the operator's log \\(${path}\\):`));
    t.regex(r.stderr, /"msg":".*"/);
    t.regex(r.stderr, /not every host became Ready/);
    t.regex(r.stdout, /cleanup: deleted \d+ objects/);
    t.deepEqual(await snapshot(o), before);
  },
);

test.serial('a run interrupted by SIGINT stops and, with --cleanup, deletes what it created', async (t) => {
  const o = await outsideForTest(t);
  const before = await snapshot(o);
  const run = startWmcoSim([
    '--cluster',
    o.kubeconfig,
    '--hosts',
    '2',
    '--seed',
    '--cleanup',
    '--timeout',
    '300',
  ]);
  t.teardown(() => {
    if (run.proc.exitCode === null) run.proc.kill('SIGKILL');
  });
  // The operator runs once windows-instances is printed: interrupt it there.
  await run.printed('windows-instances: ');
  run.proc.kill('SIGINT');
  const r = await run.done;
  t.not(r.code, 0);
  t.regex(r.stderr, /received SIGINT: stopping the hosts and the operator/);
  t.regex(r.stderr, /interrupted by SIGINT/);
  t.regex(r.stdout, /cleanup: deleted \d+ objects the run created/);
  t.deepEqual(await snapshot(o), before);
});
