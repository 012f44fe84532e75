import test from 'ava';
import { sshLimits } from '../runtime/host-limits-config.js';
import { operatorConfig } from './run-command.js';

const flags = {
  payload: '/payload',
  parallelJoins: '5',
  probeAddress: '0.0.0.0:9182',
  leaderElection: true,
  driftRepairInterval: '120',
};
const env = { WATCH_NAMESPACE: 'openshift-windows-machine-config-operator' };

test('no host flag: no host limit set, the SSH adapter keeps its defaults', (t) => {
  const c = operatorConfig(flags, env);
  t.deepEqual(c.hostLimits, {});
  t.deepEqual(sshLimits(c.hostLimits), {});
});

test('host deadlines in seconds and bounds in bytes reach the SSH adapter options', (t) => {
  const c = operatorConfig(
    {
      ...flags,
      hostHandshakeTimeout: '10',
      hostRequestTimeout: '30',
      hostApplyTimeout: '600',
      hostApplyStepTimeout: '20',
      hostServiceStepTimeout: '120',
      hostUploadMinRate: '524288',
      hostOutputLimit: '4194304',
      hostSessionOutputLimit: '33554432',
    },
    env,
  );
  t.deepEqual(sshLimits(c.hostLimits), {
    readyTimeoutMs: 10_000,
    quickCommandTimeoutMs: 30_000,
    sessionStartTimeoutMs: 30_000,
    sftpRequestTimeoutMs: 30_000,
    commandTimeoutMs: 600_000,
    applyStepTimeoutMs: 20_000,
    serviceStepTimeoutMs: 120_000,
    uploadMinBytesPerSecond: 524_288,
    maxOutputBytes: 4_194_304,
    maxSessionOutputBytes: 33_554_432,
  });
});

test('a host limit that is not a positive number is refused by name', (t) => {
  for (const [flag, name] of [
    ['hostRequestTimeout', 'requestTimeoutMs'],
    ['hostOutputLimit', 'maxOutputBytes'],
  ] as const) {
    const err = t.throws(() => operatorConfig({ ...flags, [flag]: 'soon' }, env));
    t.regex(err.message, new RegExp(`hostLimits\\.${name}`), flag);
    t.throws(() => operatorConfig({ ...flags, [flag]: '0' }, env), undefined, `${flag} 0`);
  }
});
