import test from 'ava';
import type { HostState } from '../host/protocol/index.js';
import { cniResetSteps } from './cni-reset-step.js';

const withKubelet = (state: HostState['services'][number]['state'] | undefined): HostState =>
  ({
    services:
      state === undefined
        ? []
        : [
            {
              name: 'kubelet',
              state,
              startType: 'auto',
              commandLine: 'C:\\k\\kubelet.exe',
              dependencies: [],
              description: 'OpenShift managed kubelet',
            },
          ],
  }) as unknown as HostState;

test('the CNI state is cleared before a configuration while no kubelet runs (OCPBUGS-65625)', (t) => {
  t.deepEqual(cniResetSteps(withKubelet(undefined)), [{ kind: 'resetCniState' }]);
  t.deepEqual(cniResetSteps(withKubelet('stopped')), [{ kind: 'resetCniState' }]);
});

test("a running kubelet keeps its pods' IP allocations: no reset", (t) => {
  t.deepEqual(cniResetSteps(withKubelet('running')), []);
  t.deepEqual(cniResetSteps(withKubelet('start-pending')), []);
});
