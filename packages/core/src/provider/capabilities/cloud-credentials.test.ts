import test from 'ava';
import { CloudNotConfiguredError } from '../errors.js';
import type { CloudContext } from './cloud-context.js';
import { credentialsSecret, readCredentialsSecret } from './cloud-credentials.js';

const ROOT = { namespace: 'kube-system', name: 'aws-creds' } as const;
const MINTED = { namespace: 'wmco', name: 'windows-machine-config-operator-cloud-credentials' } as const;

function context(
  secrets: Record<string, Record<string, string>>,
  c?: CloudContext['credentials'],
): CloudContext {
  return {
    infrastructureName: 'infra',
    platformStatus: {},
    ...(c ? { credentials: c } : {}),
    readSecret: (namespace, name) => Promise.resolve(secrets[`${namespace}/${name}`]),
  };
}

test('minted by default: the Secret in the operator namespace, never the root one', async (t) => {
  const ctx = context(
    { 'kube-system/aws-creds': { k: 'root' }, [`${MINTED.namespace}/${MINTED.name}`]: { k: 'minted' } },
    { mode: 'minted', namespace: 'wmco' },
  );
  const { data, secret } = await readCredentialsSecret(ctx, 'aws', ROOT);
  t.deepEqual(data, { k: 'minted' });
  t.like(secret, { ...MINTED, mode: 'minted' });
});

test('without a credentials setting the minted Secret of the default namespace is read', (t) => {
  const s = credentialsSecret({}, 'gcp', ROOT);
  t.like(s, { namespace: 'openshift-windows-machine-config-operator', mode: 'minted' });
});

test('root only when asked: the kube-system Secret', async (t) => {
  const ctx = context({ 'kube-system/aws-creds': { k: 'root' } }, { mode: 'root', namespace: 'wmco' });
  const { data, secret } = await readCredentialsSecret(ctx, 'aws', ROOT);
  t.deepEqual(data, { k: 'root' });
  t.regex(secret.origin, /root credentials, read because of --cloud-credentials=root/);
});

test('a missing minted Secret names the Secret and the CredentialsRequest, and does not fall back to root', async (t) => {
  const ctx = context({ 'kube-system/aws-creds': { k: 'root' } }, { mode: 'minted', namespace: 'wmco' });
  const err = await t.throwsAsync(readCredentialsSecret(ctx, 'azure', ROOT), {
    instanceOf: CloudNotConfiguredError,
  });
  t.regex(err.message, /Secret wmco\/windows-machine-config-operator-cloud-credentials/);
  t.regex(
    err.message,
    /CredentialsRequest openshift-cloud-credential-operator\/windows-machine-config-operator-azure/,
  );
  t.regex(err.message, /not found/);
});

test('a missing root Secret names it', async (t) => {
  const ctx = context({}, { mode: 'root', namespace: 'wmco' });
  const err = await t.throwsAsync(readCredentialsSecret(ctx, 'aws', ROOT));
  t.regex(err.message, /Secret kube-system\/aws-creds not found \(the installer's root credentials/);
});
