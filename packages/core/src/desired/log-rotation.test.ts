import test from 'ava';
import {
  isLogRotationConfigured,
  kubeLogRunnerCommand,
  parseLogDuration,
  parseLogQuantity,
  parseLogRotation,
} from './log-rotation.js';

// Vectors: logconfig_test.go (reference §4.2 "Log config").
test('log config: durations', (t) => {
  for (const unset of [undefined, '', '   ']) t.is(parseLogDuration('X_AGE', unset), undefined);
  t.is(parseLogDuration('X_AGE', '5s'), '5s');
  t.is(parseLogDuration('X_AGE', '  30s  '), '30s');
  t.is(parseLogDuration('X_AGE', '0s'), '0s');
  t.is(parseLogDuration('X_AGE', '1h30m'), '1h30m');
  for (const bad of ['notaduration', '100', '-5s', '10x']) {
    t.throws(() => parseLogDuration('X_AGE', bad), { message: /X_AGE/ }, bad);
  }
});

test('log config: quantities', (t) => {
  for (const unset of [undefined, '', '   ']) t.is(parseLogQuantity('X_SIZE', unset), undefined);
  for (const v of ['100', '100M', '0']) t.is(parseLogQuantity('X_SIZE', v), v);
  t.is(parseLogQuantity('X_SIZE', '  100Mi  '), '100Mi');
  for (const bad of ['-1', 'notaquantity', '10 Mi', '1Q']) {
    t.throws(() => parseLogQuantity('X_SIZE', bad), { message: /X_SIZE/ }, bad);
  }
});

test('log config: the three settings together, and "configured" iff any is set', (t) => {
  const none = parseLogRotation({});
  t.deepEqual(none, {});
  t.false(isLogRotationConfigured(none));
  const all = parseLogRotation({
    SERVICES_LOG_FILE_SIZE: '50Mi',
    SERVICES_LOG_FILE_AGE: '48h',
    SERVICES_LOG_FLUSH_INTERVAL: '10s',
  });
  t.deepEqual(all, { fileSize: '50Mi', fileAge: '48h', flushInterval: '10s' });
  t.true(isLogRotationConfigured(parseLogRotation({ SERVICES_LOG_FLUSH_INTERVAL: '5s' })));
  t.throws(() => parseLogRotation({ SERVICES_LOG_FILE_AGE: '-5s' }), { message: /SERVICES_LOG_FILE_AGE/ });
});

test('log config: the kube-log-runner command', (t) => {
  const runner = 'C:\\k\\kube-log-runner.exe';
  const cmd = 'C:\\k\\kubelet.exe --v=2';
  const log = 'C:\\var\\log\\kubelet\\kubelet.log';
  const bare = kubeLogRunnerCommand({}, cmd, log);
  t.is(bare, `${runner} -log-file=${log} ${cmd}`);
  t.false(/-log-file-size=|-log-file-age=|-flush-interval=/.test(bare));
  const full = kubeLogRunnerCommand({ fileSize: '50Mi', fileAge: '48h', flushInterval: '10s' }, cmd, log);
  t.true(full.startsWith(runner));
  t.true(full.endsWith(` ${cmd}`));
  for (const part of [
    `-log-file=${log}`,
    '-log-file-size=50Mi',
    '-log-file-age=48h',
    '-flush-interval=10s',
  ]) {
    t.true(full.includes(part), part);
  }
});
