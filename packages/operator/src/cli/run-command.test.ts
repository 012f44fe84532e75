import test from 'ava';
import { operatorConfig } from './run-command.js';

const flags = {
  payload: '/payload',
  parallelJoins: '5',
  probeAddress: '0.0.0.0:9182',
  leaderElection: true,
  driftRepairInterval: '120',
};
const env = { WATCH_NAMESPACE: 'openshift-windows-machine-config-operator' };

test('the drift repair interval is given in seconds; 0 turns drift repair off', (t) => {
  t.is(operatorConfig(flags, env).driftRepairIntervalMs, 120_000);
  t.is(operatorConfig({ ...flags, driftRepairInterval: '0' }, env).driftRepairIntervalMs, 0);
});

test('a drift repair interval that is not a whole number of seconds is refused by name', (t) => {
  for (const bad of ['soon', '-5', '0.0001']) {
    const err = t.throws(() => operatorConfig({ ...flags, driftRepairInterval: bad }, env));
    t.regex(err.message, /driftRepairIntervalMs/, bad);
  }
});

test('kubelet client CSRs come from the node-bootstrapper account unless a bootstrap group is given', (t) => {
  t.is(operatorConfig({ ...flags, registrationTimeout: '900' }, env).bootstrapGroup, undefined);
  const c = operatorConfig(
    { ...flags, registrationTimeout: '60', bootstrapGroup: 'system:bootstrappers:worker' },
    env,
  );
  t.is(c.bootstrapGroup, 'system:bootstrappers:worker');
  t.is(c.registrationTimeoutMs, 60_000);
  const err = t.throws(() =>
    operatorConfig({ ...flags, registrationTimeout: '900', bootstrapGroup: 'system:masters' }, env),
  );
  t.regex(err.message, /bootstrapGroup: must be system:bootstrappers/);
});

test('--max-unavailable takes a number or a percentage (default 1); anything else is refused by name', (t) => {
  t.is(operatorConfig(flags, env).maxUnavailable, '1');
  t.is(operatorConfig({ ...flags, maxUnavailable: '25%' }, env).maxUnavailable, '25%');
  for (const bad of ['0', 'two', '150%', '-1']) {
    const err = t.throws(() => operatorConfig({ ...flags, maxUnavailable: bad }, env));
    t.regex(err.message, /maxUnavailable: must be a whole number ≥ 1 or a percentage/, bad);
  }
});

test('OPERATOR_CONDITION_NAME (set by OLM) turns on Upgradeable reporting; unset, none', (t) => {
  t.is(operatorConfig(flags, env).operatorConditionName, undefined);
  const c = operatorConfig(flags, {
    ...env,
    OPERATOR_CONDITION_NAME: 'windows-machine-config-operator.v1.1.0',
  });
  t.is(c.operatorConditionName, 'windows-machine-config-operator.v1.1.0');
});

test('cloud tagging defaults to check; apply and apply-owned are accepted; anything else is refused by name', (t) => {
  t.is(operatorConfig(flags, env).cloudTagging, 'check');
  t.is(operatorConfig({ ...flags, cloudTagging: 'apply' }, env).cloudTagging, 'apply');
  t.is(operatorConfig({ ...flags, cloudTagging: 'apply-owned' }, env).cloudTagging, 'apply-owned');
  const err = t.throws(() => operatorConfig({ ...flags, cloudTagging: 'owned' }, env));
  t.regex(err.message, /cloudTagging: must be 'check', 'apply' or 'apply-owned'/);
});

test('cloud credentials default to the minted Secret; root only when asked; anything else is refused', (t) => {
  t.is(operatorConfig(flags, env).cloudCredentials, 'minted');
  t.is(operatorConfig({ ...flags, cloudCredentials: 'root' }, env).cloudCredentials, 'root');
  const err = t.throws(() => operatorConfig({ ...flags, cloudCredentials: 'admin' }, env));
  t.regex(err.message, /cloudCredentials: must be 'minted' or 'root'/);
});

test('--parallel-joins overrides the default that follows the memory; --parallel-uploads caps uploads', (t) => {
  const { parallelJoins: _, ...noFlag } = flags;
  const auto = () => ({
    parallelJoins: 9,
    byMemory: 9,
    resources: { cpus: 8, memoryBytes: 2 ** 29, source: 'test' },
  });
  t.is(operatorConfig(noFlag, env, auto).parallelJoins, 9);
  t.is(operatorConfig(noFlag, env, auto).parallelUploads, undefined, 'uploads are not capped apart');
  t.is(operatorConfig({ ...noFlag, parallelUploads: '2' }, env, auto).parallelUploads, 2);
  t.is(operatorConfig(flags, env, auto).parallelJoins, 5);
  t.true(operatorConfig(noFlag, env).parallelJoins >= 1, 'the real machine gives at least one');
  const err = t.throws(() => operatorConfig({ ...flags, parallelJoins: '0' }, env, auto));
  t.regex(err.message, /parallelJoins/);
});

test('--log-level sets the operator log level; without it --debug-logging means debug', (t) => {
  t.is(operatorConfig(flags, env).logLevel, 'info');
  t.is(operatorConfig({ ...flags, debugLogging: true }, env).logLevel, 'debug');
  t.is(operatorConfig({ ...flags, debugLogging: true, logLevel: 'warn' }, env).logLevel, 'warn');
});

test('--drain-timeout is given in seconds; without it drains wait (ADR 0037); a bad value is refused by name', (t) => {
  t.is(operatorConfig(flags, env).drainForceAfterMs, undefined);
  t.is(operatorConfig({ ...flags, drainTimeout: '90' }, env).drainForceAfterMs, 90_000);
  for (const bad of ['later', '-1', '0.0001']) {
    const err = t.throws(() => operatorConfig({ ...flags, drainTimeout: bad }, env));
    t.regex(err.message, /drainForceAfterMs/, bad);
  }
});
