import test from 'ava';
import type { Logger } from '@wmco/core';
import { cloudCredentialsSetting } from './cloud-credentials-setting.js';

function recorder(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_o, msg) => warnings.push(msg ?? ''),
    error: () => undefined,
    child: () => logger,
  };
  return { logger, warnings };
}

test('minted by default, in the operator namespace, without a warning', (t) => {
  const { logger, warnings } = recorder();
  t.deepEqual(cloudCredentialsSetting({ namespace: 'wmco' }, logger), { mode: 'minted', namespace: 'wmco' });
  t.deepEqual(warnings, []);
});

test('root mode is taken only when set, and warned about', (t) => {
  const { logger, warnings } = recorder();
  const c = cloudCredentialsSetting({ namespace: 'wmco', cloudCredentials: 'root' }, logger);
  t.is(c.mode, 'root');
  t.is(warnings.length, 1);
  t.regex(warnings[0] ?? '', /root credentials in kube-system/);
});
