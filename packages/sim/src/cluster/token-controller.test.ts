import test from 'ava';
import { rawCall, type RawRequest, type RawResponse } from '../testing/raw-client.js';
import { waitFor } from '../scenario/scenario-env.js';
import { startSimCluster, type SimCluster } from './sim-cluster.js';

// The token controller (kube-controller-manager tokens_controller.go) and the legacy token authenticator.

let c: SimCluster;
test.before(async () => {
  c = await startSimCluster({ platform: 'None' });
});
test.after.always(async () => {
  await c.stop();
});

const call = (path: string, r: RawRequest = {}, token = c.admin.token): Promise<RawResponse> =>
  rawCall(c.server.url, c.server.caPem, path, { token, ...r });
const NS = '/api/v1/namespaces/default';
const unb64 = (s: string | undefined): string => Buffer.from(s ?? '', 'base64').toString('utf8');

interface SecretView {
  metadata: { annotations?: Record<string, string> };
  data?: Record<string, string>;
}

async function tokenSecret(
  name: string,
  sa: string,
  extra: Record<string, string> = {},
): Promise<RawResponse> {
  return call(`${NS}/secrets`, {
    method: 'POST',
    body: {
      metadata: { name, annotations: { 'kubernetes.io/service-account.name': sa, ...extra } },
      type: 'kubernetes.io/service-account-token',
    },
  });
}

const populated = (name: string): Promise<SecretView> =>
  waitFor(`${name} populated`, async () => {
    const s = (await call(`${NS}/secrets/${name}`)).json<SecretView>();
    return s.data?.['token'] ? s : undefined;
  });

const gone = (path: string): Promise<boolean> =>
  waitFor(`${path} deleted`, async () => ((await call(path)).code === 404 ? true : undefined));

async function whoami(token: string): Promise<RawResponse> {
  return call(
    '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    token,
  );
}

test.serial(
  'a token Secret for an existing ServiceAccount gets token, ca.crt, namespace and the uid',
  async (t) => {
    const sa = (
      await call(`${NS}/serviceaccounts`, { method: 'POST', body: { metadata: { name: 'robot' } } })
    ).json<{
      metadata: { uid: string };
    }>();
    t.is((await tokenSecret('robot-token', 'robot')).code, 201);
    const s = await populated('robot-token');
    t.is(unb64(s.data?.['ca.crt']), c.server.caPem);
    t.is(unb64(s.data?.['namespace']), 'default');
    t.is(s.metadata.annotations?.['kubernetes.io/service-account.uid'], sa.metadata.uid);
    const token = unb64(s.data?.['token']);
    t.regex(token, /^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      string
    >;
    t.is(claims['sub'], 'system:serviceaccount:default:robot');
    t.is(claims['iss'], 'kubernetes/serviceaccount');
    const me = await whoami(token);
    t.is(me.code, 201, me.text);
    t.like(me.json<{ status: { userInfo: Record<string, unknown> } }>().status.userInfo, {
      username: 'system:serviceaccount:default:robot',
      uid: sa.metadata.uid,
    });
    t.deepEqual(me.json<{ status: { userInfo: { groups: string[] } } }>().status.userInfo.groups, [
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);
    // Deleting the Secret revokes the token.
    await call(`${NS}/secrets/robot-token`, { method: 'DELETE' });
    t.is((await whoami(token)).code, 401);
  },
);

test.serial(
  'deleting the ServiceAccount deletes its token Secrets, and the token stops working',
  async (t) => {
    await call(`${NS}/serviceaccounts`, { method: 'POST', body: { metadata: { name: 'temp' } } });
    await tokenSecret('temp-token', 'temp');
    const token = unb64((await populated('temp-token')).data?.['token']);
    t.is((await whoami(token)).code, 201);
    await call(`${NS}/serviceaccounts/temp`, { method: 'DELETE' });
    t.true(await gone(`${NS}/secrets/temp-token`));
    t.is((await whoami(token)).code, 401);
  },
);

test.serial('a token Secret naming a missing ServiceAccount, or another uid, is deleted', async (t) => {
  t.is((await tokenSecret('orphan-token', 'nobody')).code, 201);
  t.true(await gone(`${NS}/secrets/orphan-token`));
  await call(`${NS}/serviceaccounts`, { method: 'POST', body: { metadata: { name: 'other' } } });
  await tokenSecret('stale-token', 'other', { 'kubernetes.io/service-account.uid': 'not-the-uid' });
  t.true(await gone(`${NS}/secrets/stale-token`));
});

test.serial(
  'a token Secret without the ServiceAccount annotation is invalid (422), as ValidateSecret says',
  async (t) => {
    const r = await call(`${NS}/secrets`, {
      method: 'POST',
      body: { metadata: { name: 'bare' }, type: 'kubernetes.io/service-account-token' },
    });
    t.is(r.code, 422);
    t.is(
      r.json<{ message: string }>().message,
      'Secret "bare" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value',
    );
    t.deepEqual(c.errors, []);
  },
);

test.serial('a forged token (same claims, another key) is refused', async (t) => {
  await call(`${NS}/serviceaccounts`, { method: 'POST', body: { metadata: { name: 'victim' } } });
  await tokenSecret('victim-token', 'victim');
  const token = unb64((await populated('victim-token')).data?.['token']);
  const [h, p] = token.split('.');
  t.is((await whoami(`${h}.${p}.${Buffer.alloc(64).toString('base64url')}`)).code, 401);
});
