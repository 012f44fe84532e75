import test from 'ava';
import { needsReboot } from './reboot-steps.js';
import type { Plan } from './plan.js';

const plan = (...steps: Plan['steps']): Plan => ({ steps });

test('machine variables, the Containers feature and the hostname need a reboot', (t) => {
  t.true(needsReboot(plan({ kind: 'setEnvVar', name: 'HTTP_PROXY', value: 'http://p:3128' })));
  t.true(needsReboot(plan({ kind: 'removeEnvVar', name: 'HTTP_PROXY' })));
  t.true(needsReboot(plan({ kind: 'installFeature', name: 'Containers' })));
  t.true(needsReboot(plan({ kind: 'setHostname', name: 'win-a' })));
});

test('files, directories and services do not; nor does an empty plan', (t) => {
  t.false(needsReboot(plan()));
  t.false(
    needsReboot(plan({ kind: 'createDirectory', path: 'C:\\k' }, { kind: 'startService', name: 'kubelet' })),
  );
});
