import test from 'ava';
import { providerCapabilities } from '@wmco/core/provider';
import { gcpOwnershipLabel } from './gcp-instance-tagging.js';
import { gcpProvider } from './gcp-provider.js';
import { parseServiceAccount } from './gcp-service-account.js';

test('registers the cloud capabilities next to the platform ones', (t) => {
  t.deepEqual(providerCapabilities(gcpProvider), [
    'platform.machine-access',
    'platform.user-data-format',
    'platform.hostname-override',
    'platform.platform-prerequisites',
    'platform.instance-identity',
    'platform.instance-tagging',
    'platform.firewall-facts',
  ]);
});

test('the ownership label is the installer form, valid as a GCE label key', (t) => {
  const { key, value } = gcpOwnershipLabel('mycluster-x7k2p');
  t.is(key, 'kubernetes-io-cluster-mycluster-x7k2p');
  t.is(value, 'shared', 'a BYOH instance is labelled shared unless owned is asked for');
  t.is(gcpOwnershipLabel('mycluster-x7k2p', 'apply-owned').value, 'owned');
  t.regex(key, /^[a-z][a-z0-9_-]{0,62}$/);
});

test('a service-account key that is not one is refused naming the Secret and field, not the key', (t) => {
  const err = t.throws(() =>
    parseServiceAccount(
      JSON.stringify({
        type: 'service_account',
        project_id: 'p',
        private_key: 'SECRETBYTES',
        client_email: 'x',
      }),
      'kube-system/gcp-credentials',
    ),
  );
  t.regex(
    err?.message ?? '',
    /kube-system\/gcp-credentials: service_account.json is not a service-account key/,
  );
  t.regex(err?.message ?? '', /private_key/);
  t.false(err?.message.includes('SECRETBYTES'));
  t.throws(() => parseServiceAccount('{not json', 'kube-system/gcp-credentials'), { message: /is not JSON/ });
});
