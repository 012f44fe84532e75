import test from 'ava';
import { EventsV1Api, KubeConfig } from '@kubernetes/client-node';
import { buildUserData, parseAuthorizedKey } from '@wmco/core';
import { MINTED_CREDENTIALS_SECRET as MINTED, type UserDataFormat } from '@wmco/core/provider';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';
import { apis, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

/** Every string that must never appear in a log line or an event, each with a name for the failure. */
function secrets(world: SimWorld): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const add = (name: string, value: string): void => {
    out.push({ name, value });
  };
  // The private key: every line of its body (the short last line only if it is long enough to mean
  // anything), the whole PEM, and the base64 the Secret stores it as (whole and its first 60 characters).
  const body = world.privateKey.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
  body.forEach((line, i) => {
    if (line.length >= 16) add(`private key line ${i + 1}`, line);
  });
  add('private key (PEM)', world.privateKey.trim());
  const stored = Buffer.from(world.privateKey).toString('base64');
  add('private key (Secret data)', stored);
  add('private key (Secret data, start)', stored.slice(0, 60));
  // The bootstrap token, whole and its secret half, also as the bootstrap Secret stores it; the
  // operator's own bearer token.
  const token = world.cluster.bootstrapToken;
  const secretPart = token.split('.')[1] ?? '';
  add('bootstrap token', token);
  add('bootstrap token secret', secretPart);
  add('bootstrap token secret (base64)', Buffer.from(secretPart).toString('base64'));
  add('operator ServiceAccount token', world.cluster.operator.token);
  // What node-bootstrapper-token holds on OpenShift (and in the sim): a service-account token.
  add('node-bootstrapper token', world.cluster.nodeBootstrapperToken);
  add(
    'node-bootstrapper token (base64)',
    Buffer.from(world.cluster.nodeBootstrapperToken).toString('base64'),
  );
  // The user-data a Windows VM would run with this key, as the plain script and as the tagged form
  // (and each as the base64 a Secret stores it as); its key-installing line is checked on its own.
  const key = parseAuthorizedKey(world.publicKey);
  const formats: UserDataFormat[] = [
    { extraSteps: [], wrap: (s) => s },
    { extraSteps: [], wrap: (s) => `<powershell>${s}</powershell>\n<persist>true</persist>\n` },
  ];
  for (const [i, f] of formats.entries()) {
    const userData = buildUserData(key, f);
    add(`user-data ${i}`, userData);
    add(`user-data ${i} (base64)`, Buffer.from(userData).toString('base64'));
  }
  add('user-data key line', `-Value '${key.line}'`);
  return out;
}

async function allEvents(world: SimWorld): Promise<string[]> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const core = await apis(world).core.listEventForAllNamespaces();
  const v1 = await kc.makeApiClient(EventsV1Api).listEventForAllNamespaces();
  // Whole objects: message, reason, note, involved object, annotations, everything.
  return [...core.items, ...v1.items].map((e) => JSON.stringify(e));
}

test.serial('no log line and no event of a full join and removal holds a secret', async (t) => {
  const { world, logs } = await testWorld([
    { hostname: 'WIN-S1' },
    { hostname: 'WIN-S2', dnsName: 'win-s2.sim' },
  ]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const all = Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]);
  await world.setInstances(all);
  // Error paths are where secrets leak (a client error that quotes a request, a host error that quotes a
  // command): make some requests fail and one host refuse the key for a moment, so they are exercised.
  const faults = world.cluster.server.faults;
  faults.failNext(500, { times: 2, match: (m, p) => m === 'PATCH' && p.includes('/nodes/') });
  faults.failNext(503, { times: 2, match: (m, p) => m !== 'GET' && p.includes('windows-instances-status') });
  faults.failNext(500, { times: 1, match: (m, p) => m === 'DELETE' && p.includes('/nodes/') });
  const s1 = world.hosts.hosts[0]!.sim;
  s1.faults.refuseAuthentication = true;
  setTimeout(() => delete s1.faults.refuseAuthentication, 400);
  await world.startOperator();
  for (const h of world.hosts.hosts) await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'));
  // Removal: one entry, then the whole ConfigMap.
  const one = { ...all };
  delete one[world.hosts.key(0)];
  await world.setInstances(one);
  await until('win-s1 gone', async () =>
    (await windowsNodes(world)).some((n) => n.metadata?.name === 'win-s1') ? undefined : true,
  );
  await world.setInstances(undefined);
  await until('every Windows node gone', async () =>
    (await windowsNodes(world)).length === 0 ? true : undefined,
  );

  const events = await allEvents(world);
  t.log(`${logs.length} log lines, ${events.length} events scanned`);
  t.true(
    logs.some((l) => l.includes('"level":"warn"') || l.includes('"level":"error"')),
    'errors were logged',
  );
  t.true(events.length > 5, `${events.length} events`);
  const leaks: string[] = [];
  for (const s of secrets(world)) {
    logs.forEach((line, i) => {
      if (line.includes(s.value)) leaks.push(`${s.name} in log line ${i}: ${line.slice(0, 200)}`);
    });
    events.forEach((e, i) => {
      if (e.includes(s.value)) leaks.push(`${s.name} in event ${i}: ${e.slice(0, 200)}`);
    });
  }
  t.deepEqual(leaks, []);
  // Nor the raw client errors that quote whole response bodies and headers.
  t.false(
    [...logs, ...events].some((l) => l.includes('Headers:')),
    'API errors are logged as status + message',
  );
  t.true(secrets(world).filter((s) => s.name.startsWith('private key line')).length >= 3);
});

/**
 * The cloud credentials of a world: every value of the installer's root Secret and of the Secret minted
 * for the operator (the one it uses), and each key line of a JSON key file.
 */
async function cloudSecrets(world: SimWorld): Promise<{ name: string; value: string }[]> {
  const cloud = world.cloud;
  if (!cloud) throw new Error('a world with a cloud');
  const minted = await world.admin().readNamespacedSecret({ name: MINTED, namespace: OPERATOR_NAMESPACE });
  const mintedData = Object.fromEntries(
    Object.entries(minted.data ?? {}).map(([k, v]) => [`minted ${k}`, Buffer.from(v, 'base64').toString()]),
  );
  const out: { name: string; value: string }[] = [];
  for (const [key, value] of Object.entries({ ...cloud.credentialsSecret().data, ...mintedData })) {
    // Not secret: which subscription, tenant, resource group or region (they name, they do not unlock).
    if (/subscription|tenant|resourcegroup|region|client_id/.test(key)) continue;
    out.push(
      { name: `cloud Secret ${key}`, value },
      { name: `cloud Secret ${key} (base64)`, value: Buffer.from(value).toString('base64') },
    );
    // A service-account JSON: its private key, line by line.
    const pem =
      (JSON.parse(value.startsWith('{') ? value : '{}') as { private_key?: string }).private_key ?? '';
    pem
      .split('\n')
      .filter((l) => l.length >= 16 && !l.startsWith('-----'))
      .forEach((line, i) => out.push({ name: `cloud key line ${i + 1}`, value: line }));
  }
  return out;
}

for (const platform of ['AWS', 'Azure', 'GCP']) {
  test.serial(`${platform}: no log line and no event holds the cloud credentials`, async (t) => {
    const { world, logs } = await testWorld([{ hostname: 'WIN-S1' }], {
      platform,
      cloud: true,
      cloudTagging: 'apply',
    });
    t.teardown(() => world.stop());
    // Error paths again: the cloud refuses and throttles once each, so its errors are logged too.
    world.cloud?.faults.inject('unauthorized', { times: 1 });
    world.cloud?.faults.inject('throttle', { times: 1 });
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const address = world.hosts.hosts[0]!.address;
    await until('Ready', phaseIs(world, address, 'Ready'), 90_000);
    await world.setInstances({});
    await until('node gone', async () => ((await windowsNodes(world)).length === 0 ? true : undefined));
    const events = await allEvents(world);
    const secretsOfCloud = await cloudSecrets(world);
    t.true(secretsOfCloud.length >= 1);
    t.true(
      events.some((e) => e.includes('CloudUnavailable')),
      'the refused call was reported (an error path was exercised)',
    );
    const leaks = secretsOfCloud.flatMap((s) =>
      [...logs, ...events].filter((l) => l.includes(s.value)).map((l) => `${s.name}: ${l.slice(0, 200)}`),
    );
    t.deepEqual(leaks, []);
  });
}
