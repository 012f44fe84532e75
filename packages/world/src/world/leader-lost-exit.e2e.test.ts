import test from 'ava';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { leaseHolder, usurpLease } from './lease-usurp.js';
import { NS, testWorld, until } from './world-fixture.js';
import { OPERATOR_MAIN } from '../operator-main.js';

// Issue 28: a `wmco run` that lost its Lease only set its exit code and kept running (informers, timers,
// retries) until a liveness probe ended it, so stalled work could resume beside the new leader. Now it
// stops its work and the process exits.

const main = OPERATOR_MAIN;

test('wmco run that loses its Lease to another holder stops and the process exits 1', async (t) => {
  const { world } = await testWorld([]);
  t.teardown(() => world.stop());
  const child = spawn(
    process.execPath,
    [
      main,
      'run',
      '--kubeconfig',
      join(world.dir, 'operator.kubeconfig'),
      '--namespace',
      NS,
      '--payload',
      world.payloadDir,
      '--probe-address',
      '127.0.0.1:0',
      '--metrics-address',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, POD_NAME: 'wmco-child' } },
  );
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => child.kill('SIGKILL'));
  await until(
    'the child leads',
    async () => ((await leaseHolder(world).catch(() => undefined)) ? true : undefined),
    60_000,
  );
  // Another replica takes the Lease (as after a network partition healed in its favour).
  await usurpLease(world, 'another-replica', 60);
  const code = await exited;
  t.is(code, 1, `stdout: ${out.slice(-2000)}\nstderr: ${err.slice(-2000)}`);
  t.regex(err, /lost the leader lease/);
});
