import test from 'ava';
import { meta, str, type JsonObject } from '../apiserver/json.js';
import { SimArm } from '../cloud/arm/sim-arm.js';
import { armMint, ec2Mint, gceMint } from '../cloud/credentials-mints.js';
import { SimEc2 } from '../cloud/ec2/sim-ec2.js';
import { SimGce } from '../cloud/gce/sim-gce.js';
import { CREDENTIALS_REQUEST_LABEL, CredentialsMinter, type CloudMint } from './credentials-minter.js';
import { startSimCluster, type SimCluster } from './sim-cluster.js';

const CCO_NS = 'openshift-cloud-credential-operator';
const TARGET = { namespace: 'openshift-windows-machine-config-operator', name: 'wmco-cloud-credentials' };

async function cluster(t: { teardown(fn: () => Promise<void>): void }, mint: CloudMint): Promise<SimCluster> {
  const c = await startSimCluster();
  t.teardown(() => c.stop());
  c.addController(new CredentialsMinter(c.server.writer, c.onControllerError, mint));
  return c;
}

function request(c: SimCluster, name: string, providerSpec: JsonObject): void {
  const t = c.server.registry.mustFind('cloudcredential.openshift.io', 'v1', 'credentialsrequests');
  c.server.writer.create(t, CCO_NS, {
    apiVersion: 'cloudcredential.openshift.io/v1',
    kind: 'CredentialsRequest',
    metadata: { name, namespace: CCO_NS },
    spec: {
      secretRef: TARGET,
      providerSpec: { apiVersion: 'cloudcredential.openshift.io/v1', ...providerSpec },
    },
  });
}

/** Resolves with the object once `get` returns one (store events, no clock). */
function when(c: SimCluster, get: () => JsonObject | undefined): Promise<JsonObject> {
  return new Promise((resolve) => {
    const now = get();
    if (now) return resolve(now);
    const off = c.server.writer.store.subscribe(() => {
      const o = get();
      if (!o) return;
      off();
      resolve(o);
    });
  });
}

const secret = (c: SimCluster): JsonObject | undefined =>
  c.server.writer.store.get(c.server.registry.mustFind('', 'v1', 'secrets'), TARGET.namespace, TARGET.name);
const decoded = (s: JsonObject): Record<string, string> =>
  Object.fromEntries(
    Object.entries(s['data'] as Record<string, string>).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString(),
    ]),
  );

test('AWS: the minted Secret carries a key that EC2 knows, allowed exactly the listed actions', async (t) => {
  const ec2 = await SimEc2.start();
  t.teardown(() => ec2.close());
  const c = await cluster(t, ec2Mint(ec2));
  request(c, 'wmco-aws', {
    kind: 'AWSProviderSpec',
    statementEntries: [{ effect: 'Allow', action: ['ec2:DescribeInstances'], resource: '*' }],
  });
  const s = await when(c, () => secret(c));
  const data = decoded(s);
  t.deepEqual(Object.keys(data).sort(), ['aws_access_key_id', 'aws_secret_access_key', 'credentials']);
  t.not(data['aws_access_key_id'], ec2.credentials.accessKeyId, 'not the installer key');
  t.is(ec2.iam.secretOf(data['aws_access_key_id'] ?? ''), data['aws_secret_access_key']);
  t.is(meta(s)['labels'] && (meta(s)['labels'] as Record<string, string>)[CREDENTIALS_REQUEST_LABEL], 'true');
  t.is((meta(s)['annotations'] as Record<string, string>)[CREDENTIALS_REQUEST_LABEL], `${CCO_NS}/wmco-aws`);
  t.notThrows(() => ec2.iam.authorize(data['aws_access_key_id'] ?? '', 'DescribeInstances', undefined));
  const refused = t.throws(() => ec2.iam.authorize(data['aws_access_key_id'] ?? '', 'DeleteTags', 'i-0abc'));
  t.like(refused, { status: 403, code: 'UnauthorizedOperation' });
  t.regex(
    refused.message,
    /^You are not authorized to perform this operation\. User: arn:aws:iam::123456789012:user\/wmco-aws-[0-9a-f]{5} is not authorized to perform: ec2:DeleteTags on resource: arn:aws:ec2:us-east-2:123456789012:instance\/i-0abc because no identity-based policy allows the ec2:DeleteTags action$/,
  );
  const cr = await when(c, () => {
    const t2 = c.server.registry.mustFind('cloudcredential.openshift.io', 'v1', 'credentialsrequests');
    const o = c.server.writer.store.get(t2, CCO_NS, 'wmco-aws');
    return (o?.['status'] as { provisioned?: boolean } | undefined)?.provisioned ? o : undefined;
  });
  t.like(cr['status'], { provisioned: true, lastSyncGeneration: 1 });
});

test('a deleted minted Secret is written again with the same credentials; another cloud is Ignored', async (t) => {
  const gce = await SimGce.start();
  t.teardown(() => gce.close());
  const c = await cluster(t, gceMint(gce));
  request(c, 'wmco-gcp', { kind: 'GCPProviderSpec', permissions: ['compute.instances.get'] });
  request(c, 'wmco-aws', { kind: 'AWSProviderSpec', statementEntries: [] });
  const first = decoded(await when(c, () => secret(c)));
  const key = JSON.parse(first['service_account.json'] ?? '{}') as { client_email?: string };
  t.regex(key.client_email ?? '', /^wmco-gcp-[0-9a-f]{5}@wmco-sim-project\.iam\.gserviceaccount\.com$/);
  const secrets = c.server.registry.mustFind('', 'v1', 'secrets');
  const uid = str(meta(secret(c) ?? {})['uid']);
  c.server.writer.delete(secrets, TARGET.namespace, TARGET.name);
  const again = await when(c, () => {
    const s = secret(c);
    return s && str(meta(s)['uid']) !== uid ? s : undefined;
  });
  t.deepEqual(decoded(again), first);
  const crs = c.server.registry.mustFind('cloudcredential.openshift.io', 'v1', 'credentialsrequests');
  const ignored = await when(c, () => {
    const o = c.server.writer.store.get(crs, CCO_NS, 'wmco-aws');
    return (o?.['status'] as { conditions?: unknown[] } | undefined)?.conditions ? o : undefined;
  });
  t.like(ignored['status'], { provisioned: false, conditions: [{ type: 'Ignored', status: 'True' }] });
});

test('Azure: the minted Secret has the seven keys of the real operator, for a principal of its own', async (t) => {
  const arm = await SimArm.start();
  t.teardown(() => arm.close());
  const c = await cluster(t, armMint(arm));
  request(c, 'wmco-azure', { kind: 'AzureProviderSpec', roleBindings: [], permissions: ['a/read'] });
  const data = decoded(await when(c, () => secret(c)));
  t.deepEqual(Object.keys(data).sort(), [
    'azure_client_id',
    'azure_client_secret',
    'azure_region',
    'azure_resource_prefix',
    'azure_resourcegroup',
    'azure_subscription_id',
    'azure_tenant_id',
  ]);
  t.not(data['azure_client_id'], arm.tenant.clientId);
});
