import test from 'ava';
import { providerCapabilities } from '@wmco/core/provider';
import { MachineNameError, nutanixHostRename } from './nutanix-host-rename.js';
import { nutanixProvider } from './nutanix-provider.js';

const hostnameFor = (name: string): string => nutanixHostRename.hostnameFor(name);
const matches = (current: string, target: string): boolean => nutanixHostRename.matches(current, target);

test('matches the exact first label, ignoring case', (t) => {
  t.true(matches('nutanix-win-x1', 'nutanix-win-x1'));
  t.true(matches('NUTANIX-WIN-X1.cluster.local', 'nutanix-win-x1'));
});

test('does not match on a substring, as upstream would', (t) => {
  t.false(matches('nutanix-win-x1', 'win-x1'));
  t.false(matches('nutanix-win-x10', 'nutanix-win-x1'));
  t.false(matches('a.nutanix-win-x1', 'nutanix-win-x1'));
});

test('accepts Machine names up to one DNS label and refuses the rest', (t) => {
  t.is(hostnameFor('a'.repeat(63)), 'a'.repeat(63));
  for (const bad of ['', 'a'.repeat(64), 'win.x', 'win_x', '-x']) {
    t.throws(() => hostnameFor(bad), { instanceOf: MachineNameError, message: /provider 'nutanix'/ });
  }
});

test('registers no hostname override and no cloud services', (t) => {
  t.deepEqual(providerCapabilities(nutanixProvider), [
    'platform.machine-access',
    'platform.user-data-format',
    'platform.host-rename',
    'platform.platform-prerequisites',
  ]);
});
