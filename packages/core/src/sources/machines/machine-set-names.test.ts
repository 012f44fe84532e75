import test from 'ava';
import { MemoryEventRecorder } from '../../kube/event-recorder.js';
import { silentLogger } from '../../kube/logger.js';
import type { HostRename } from '../../provider/capabilities/host-rename.js';
import { MachineSetNameCheck, machineSetNameProblem, type MachineSetResource } from './machine-set-names.js';

// A HostRename with vSphere's rule: computer names of at most 15 characters.
const rename: HostRename = {
  hostnameFor(name) {
    if (name.length > 15) throw new Error(`'${name}' is longer than 15 characters`);
    return name;
  },
  matches: (a, b) => a.toLowerCase() === b.toLowerCase(),
};

function machineSet(name: string, os = 'Windows'): MachineSetResource {
  return {
    metadata: { name, namespace: 'openshift-machine-api', uid: `uid-${name}` },
    spec: { template: { metadata: { labels: { 'machine.openshift.io/os-id': os } } } },
  };
}

test('a Windows MachineSet name longer than 9 characters gets one event on the MachineSet', async (t) => {
  const events = new MemoryEventRecorder();
  const check = new MachineSetNameCheck(rename, events, silentLogger);
  await check.check(machineSet('winworker1'));
  await check.check(machineSet('winworker1'));
  t.is(events.events.length, 1);
  const [e] = events.events;
  t.like(e?.object, { kind: 'MachineSet', name: 'winworker1', uid: 'uid-winworker1' });
  t.is(e?.reason, 'InvalidMachineName');
  t.regex(
    e?.message ?? '',
    /winworker1-<5 characters>.*longer than 15 characters; use a MachineSet name of at most 9 characters/,
  );
});

test('a 9-character name, a Linux MachineSet and a MachineSet without labels get no event', async (t) => {
  const events = new MemoryEventRecorder();
  const check = new MachineSetNameCheck(rename, events, silentLogger);
  await check.check(machineSet('winworker'));
  await check.check(machineSet('linuxworker1', ''));
  await check.check({ metadata: { name: 'bare-machineset-x' } });
  t.deepEqual(events.events, []);
  t.is(machineSetNameProblem(rename, 'winworker'), undefined);
  t.regex(machineSetNameProblem(rename, 'winworker1') ?? '', /longer than 15/);
});
