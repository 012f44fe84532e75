import test from 'ava';
import { MachineNameError, vsphereHostRename } from './vsphere-host-rename.js';

const hostnameFor = (name: string): string => vsphereHostRename.hostnameFor(name);
const matches = (current: string, target: string): boolean => vsphereHostRename.matches(current, target);

test('the computer name is the Machine name', (t) => {
  t.is(hostnameFor('winworker-a1b2c'), 'winworker-a1b2c');
});

test('matches the exact first label, ignoring case', (t) => {
  t.true(matches('worker-a1', 'worker-a1'));
  t.true(matches('WORKER-A1', 'worker-a1'));
  t.true(matches('worker-a1.example.com', 'worker-a1'));
  t.true(matches('Worker-A1.Example.Com.', 'worker-a1'));
  t.true(matches(' worker-a1\r\n', 'worker-a1'));
});

test('does not match on a substring, as upstream would', (t) => {
  t.false(matches('winworker-a1', 'worker-a1'));
  t.false(matches('worker-a12', 'worker-a1'));
  t.false(matches('worker-a', 'worker-a1'));
  t.false(matches('host.worker-a1.example.com', 'worker-a1'));
  t.false(matches('', 'worker-a1'));
});

test('refuses Machine names Windows cannot take, naming the name', (t) => {
  for (const bad of ['', 'win_worker', 'win.worker', '-win', 'win-', 'a'.repeat(16)]) {
    const err = t.throws(() => hostnameFor(bad), { instanceOf: MachineNameError });
    t.true(err.message.includes(`'${bad}'`));
  }
  t.is(hostnameFor('a'.repeat(15)), 'a'.repeat(15));
});
