// The service control manager as strict as Windows: pending states take time, a start can hang or die
// with an exit code, a deleted service stays marked for deletion while it is held open.
import test from 'ava';
import { setImmediate as tick } from 'node:timers/promises';
import type { ServiceRun } from './service-behaviour.js';
import { ServiceBehaviourRegistry } from './service-behaviour.js';
import { WindowsModel } from './windows-model.js';
import { apply } from './host-operations.js';

function hostWith(run: ServiceRun = { state: 'running' }): WindowsModel {
  const behaviours = new ServiceBehaviourRegistry().register('svc', { start: () => run });
  const m = new WindowsModel({ behaviours });
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\svc.exe', Buffer.from('x'));
  m.scm.create({
    name: 'svc',
    commandLine: 'C:\\k\\svc.exe',
    startType: 'auto',
    dependencies: [],
    description: '',
  });
  return m;
}

test('a stop passes through STOP_PENDING for the stop time', async (t) => {
  const m = hostWith();
  m.scm.serviceStopMs = 50;
  await m.scm.start('svc');
  const stopping = m.scm.stop('svc');
  await tick();
  t.is(m.scm.get('svc')?.state, 'stop-pending');
  await stopping;
  t.is(m.scm.get('svc')?.state, 'stopped');
});

test('a service that dies while starting is STOPPED with its exit code, reported at once', async (t) => {
  const m = hostWith({ state: 'failed', reason: 'config not found', exitCode: 2 });
  await t.throwsAsync(m.scm.start('svc'), {
    message: "service 'svc' stopped right after starting (exit code 2): config not found",
  });
  t.is(m.scm.get('svc')?.state, 'stopped');
  t.is(m.scm.get('svc')?.exitCode, 2);
});

test('a service that never reports RUNNING stays START_PENDING and the start times out', async (t) => {
  const m = hostWith({ state: 'hung' });
  m.scm.startTimeoutMs = 30;
  await t.throwsAsync(m.scm.start('svc'), { message: /did not reach Running: Time out has expired/ });
  t.is(m.scm.get('svc')?.state, 'start-pending');
});

test('a deleted service is marked for deletion while a handle is open: create and start fail with 1072', async (t) => {
  const m = hostWith();
  const close = m.scm.deletion.openHandle('svc');
  t.true(await m.scm.delete('svc'));
  t.truthy(m.scm.get('svc'), 'still listed');
  const spec = {
    name: 'svc',
    commandLine: 'C:\\k\\svc.exe',
    startType: 'auto' as const,
    dependencies: [],
    description: '',
  };
  t.throws(() => m.scm.create(spec), {
    message: /FAILED 1072: The specified service has been marked for deletion/,
  });
  await t.throwsAsync(m.scm.start('svc'), { message: /1072/ });
  t.false(await m.scm.deletion.gone('svc', 30), 'not gone while the handle is open');
  close();
  t.true(await m.scm.deletion.gone('svc', 5000));
  t.is(m.scm.get('svc'), undefined);
  m.scm.create(spec);
  t.is(m.scm.get('svc')?.state, 'stopped');
});

test('DeleteService returns before the service is gone, even with no handle open', async (t) => {
  const m = hostWith();
  m.scm.deletion.deleteMs = 20;
  await m.scm.delete('svc');
  t.true(m.scm.deletion.isMarked('svc'));
  t.true(await m.scm.deletion.gone('svc', 5000));
  t.false(m.scm.deletion.isMarked('svc'));
});

test('a service still starting refuses a stop (1061); the module lets its start end, then stops it', async (t) => {
  const m = hostWith();
  m.scm.serviceStartMs = 50;
  const starting = m.scm.start('svc');
  await tick();
  t.is(m.scm.get('svc')?.state, 'start-pending');
  await t.throwsAsync(m.scm.stop('svc'), { message: /cannot accept control messages at this time \(1061\)/ });
  const stopped = await apply(m, [{ kind: 'stopService', name: 'svc' }]);
  t.true(stopped.ok, stopped.error?.message);
  await starting;
  t.is(m.scm.get('svc')?.state, 'stopped');
});

test('a service that hangs at boot stays START_PENDING without holding the boot up', async (t) => {
  const m = hostWith({ state: 'hung' });
  m.scm.startTimeoutMs = 60_000;
  await m.boot();
  t.is(m.scm.get('svc')?.state, 'start-pending');
});
