import { setImmediate as tick } from 'node:timers/promises';
import test from 'ava';
import { apply } from './host-operations.js';
import { ServiceBehaviourRegistry } from './service-behaviour.js';
import { WindowsModel } from './windows-model.js';

const START_MS = 300;

/** A host with services `a`, `b` (needs `a`), `c` and `d`; `failing` stop right after starting. */
function host(failing: string[] = []): WindowsModel {
  const behaviours = new ServiceBehaviourRegistry();
  for (const name of failing)
    behaviours.register(name, { start: () => ({ state: 'failed', reason: 'exit 2' }) });
  const m = new WindowsModel({ behaviours });
  m.files.mkdirp('C:\\k');
  const deps: Record<string, string[]> = { a: [], b: ['a'], c: [], d: [] };
  for (const [name, dependencies] of Object.entries(deps)) {
    m.files.write(`C:\\k\\${name}.exe`, Buffer.from(name));
    m.scm.create({
      name,
      commandLine: `C:\\k\\${name}.exe`,
      startType: 'auto',
      dependencies,
      description: '',
    });
  }
  m.scm.serviceStartMs = START_MS;
  return m;
}

const states = (m: WindowsModel, names: string[]): string[] => names.map((n) => m.scm.get(n)!.state);

test('services started together are start-pending at the same time: the start cost is paid once', async (t) => {
  const m = host();
  const started = m.scm.startTogether(['a', 'c', 'd']);
  await tick();
  t.deepEqual(states(m, ['a', 'c', 'd']), ['start-pending', 'start-pending', 'start-pending']);
  await started;
  t.deepEqual(states(m, ['a', 'c', 'd']), ['running', 'running', 'running']);
});

test('a service whose dependency is starting waits for it to run before its own start, and starts it once', async (t) => {
  const m = host();
  const started = m.scm.startTogether(['b', 'a']);
  await tick();
  t.deepEqual(states(m, ['a', 'b']), ['start-pending', 'stopped'], 'b pays nothing while a is not running');
  await started;
  t.deepEqual(
    m.scm.events.filter((e) => e.action === 'start').map((e) => e.name),
    ['a', 'b'],
  );
});

test('a failing service fails the lot with its error; the others still start, its dependent never does', async (t) => {
  const m = host(['a']);
  await t.throwsAsync(m.scm.startTogether(['c', 'b', 'd']), {
    message: "service 'a' stopped right after starting (exit code 1067): exit 2",
  });
  t.deepEqual(states(m, ['a', 'b', 'c', 'd']), ['stopped', 'stopped', 'running', 'running']);
  t.false(
    m.scm.events.some((e) => e.name === 'b' && e.action !== 'create'),
    'b was never started',
  );
});

test('a dependency cycle is an error, not a hang', async (t) => {
  const m = host();
  m.scm.configure('a', {
    commandLine: 'C:\\k\\a.exe',
    startType: 'auto',
    dependencies: ['b'],
    description: '',
  });
  await t.throwsAsync(m.scm.start('b'), { message: /circular dependency \(error 1059\)/ });
});

test('apply: a startServices step starts its level together and reports it done by its names', async (t) => {
  const m = host();
  const applied = apply(m, [
    { kind: 'startServices', names: ['a', 'c', 'd'] },
    { kind: 'startService', name: 'b' },
  ]);
  await tick();
  t.deepEqual(states(m, ['a', 'c', 'd', 'b']), [
    'start-pending',
    'start-pending',
    'start-pending',
    'stopped',
  ]);
  const result = await applied;
  t.true(result.ok);
  t.deepEqual(result.done, [
    { kind: 'startServices', target: 'a, c, d' },
    { kind: 'startService', target: 'b' },
  ]);
  const failed = await apply(host(['d']), [{ kind: 'startServices', names: ['c', 'd'] }]);
  t.false(failed.ok);
  t.is(
    failed.error?.message,
    "step 0 (startServices c, d): service 'd' stopped right after starting (exit code 1067): exit 2",
  );
});
