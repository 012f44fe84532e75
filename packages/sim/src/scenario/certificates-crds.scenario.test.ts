import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { createCsr } from '../apiserver/x509.js';
import { expectApiError, scenarioEnv, uniqueName, waitFor, type ScenarioEnv } from './scenario-env.js';

// CSR approval and signing with client-certificate auth afterwards, and CRD structural pruning (rows 1, 2, 6, 10).

let env: ScenarioEnv;
const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';

test.before(async () => {
  env = await scenarioEnv();
});

test.after.always(async () => {
  await env.stop();
});

function csrBody(
  name: string,
  pem: string,
  usages: string[],
  signerName = KUBELET_CLIENT,
): k8s.V1CertificateSigningRequest {
  return { metadata: { name }, spec: { request: Buffer.from(pem).toString('base64'), signerName, usages } };
}

async function approve(certs: k8s.CertificatesV1Api, name: string): Promise<void> {
  const csr = await certs.readCertificateSigningRequest({ name });
  const conditions = [
    ...(csr.status?.conditions ?? []),
    {
      type: 'Approved',
      status: 'True',
      reason: 'ScenarioApprove',
      message: 'approved by the scenario suite',
    },
  ];
  await certs.replaceCertificateSigningRequestApproval({
    name,
    body: { ...csr, status: { ...csr.status, conditions } },
  });
}

test('a malformed CSR is 422 Invalid (row 10)', async (t) => {
  const certs = env.kc.makeApiClient(k8s.CertificatesV1Api);
  const e = await expectApiError(
    certs.createCertificateSigningRequest({ body: csrBody(uniqueName('bad'), 'not a pem', ['client auth']) }),
  );
  t.is(e.code, 422);
  t.is(e.body['reason'], 'Invalid');
});

test('CSR create -> approve -> signed; the issued client certificate authenticates as CN/O', async (t) => {
  const certs = env.kc.makeApiClient(k8s.CertificatesV1Api);
  const node = uniqueName('win');
  const { csrPem, keyPem } = await createCsr({
    commonName: `system:node:${node}`,
    organizations: ['system:nodes'],
  });
  const name = uniqueName('csr');
  const created = await certs.createCertificateSigningRequest({
    body: csrBody(name, csrPem, ['digital signature', 'client auth']),
  });
  t.truthy(created.spec.username, 'the server fills spec.username from the authenticated user');
  t.is(created.status?.conditions, undefined, 'never auto-approved (row 3)');
  await approve(certs, name);
  const signed = await waitFor('certificate', async () => {
    const c = await certs.readCertificateSigningRequest({ name });
    return c.status?.certificate ? c : undefined;
  });
  const certPem = Buffer.from(signed.status!.certificate!, 'base64').toString('utf8');
  t.regex(certPem, /BEGIN CERTIFICATE/);
  const cluster = env.kc.getCurrentCluster()!;
  const asNode = new k8s.KubeConfig();
  asNode.loadFromString(
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'c', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } },
      ],
      users: [
        {
          name: 'n',
          user: {
            'client-certificate-data': Buffer.from(certPem).toString('base64'),
            'client-key-data': Buffer.from(keyPem).toString('base64'),
          },
        },
      ],
      contexts: [{ name: 'n', context: { cluster: 'c', user: 'n' } }],
      'current-context': 'n',
    }),
  );
  // Who the server thinks we are: it stamps the requester into a new CSR's spec.
  const nodeCerts = asNode.makeApiClient(k8s.CertificatesV1Api);
  const serving = await createCsr({
    commonName: `system:node:${node}`,
    organizations: ['system:nodes'],
    dnsNames: [node],
  });
  const mine = await nodeCerts.createCertificateSigningRequest({
    body: csrBody(
      uniqueName('srv'),
      serving.csrPem,
      ['digital signature', 'server auth'],
      'kubernetes.io/kubelet-serving',
    ),
  });
  t.is(mine.spec.username, `system:node:${node}`);
  t.true(mine.spec.groups?.includes('system:nodes'));
  t.true(mine.spec.groups?.includes('system:authenticated'));
});

test('the kubelet-client signer fails a request with the wrong usages (row 2)', async (t) => {
  const certs = env.kc.makeApiClient(k8s.CertificatesV1Api);
  const { csrPem } = await createCsr({
    commonName: 'system:node:bad-usages',
    organizations: ['system:nodes'],
  });
  const name = uniqueName('csr');
  await certs.createCertificateSigningRequest({
    body: csrBody(name, csrPem, ['digital signature', 'client auth', 'server auth']),
  });
  await approve(certs, name);
  const failed = await waitFor('Failed', async () => {
    const c = await certs.readCertificateSigningRequest({ name });
    return c.status?.conditions?.find((x) => x.type === 'Failed');
  });
  t.is(failed.reason, 'SignerValidationFailure');
  t.is(failed.message, 'usages did not match [client auth digital signature key encipherment]');
});

test('a CRD is Established, its resources are pruned by schema, and strategic merge is 415 (rows 1, 6)', async (t) => {
  const ext = env.kc.makeApiClient(k8s.ApiextensionsV1Api);
  const group = `${uniqueName('g')}.example.com`;
  const crdName = `widgets.${group}`;
  await ext.createCustomResourceDefinition({
    body: {
      metadata: { name: crdName },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      size: { type: 'integer' },
                      free: { type: 'object', x_kubernetes_preserve_unknown_fields: true },
                    },
                  },
                  status: { type: 'object', properties: { ready: { type: 'boolean' } } },
                },
              },
            },
          },
        ],
      },
    },
  });
  await waitFor('Established', async () => {
    const c = await ext.readCustomResourceDefinition({ name: crdName });
    return c.status?.conditions?.find((x) => x.type === 'Established' && x.status === 'True');
  });
  const custom = env.kc.makeApiClient(k8s.CustomObjectsApi);
  const ns = 'default';
  const target = { group, version: 'v1', namespace: ns, plural: 'widgets' };
  const created = (await custom.createNamespacedCustomObject({
    ...target,
    body: {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3, bogus: 'x', free: { anything: 1 } },
      status: { ready: true },
    },
  })) as { spec: Record<string, unknown>; status?: unknown };
  t.deepEqual(
    created.spec,
    { size: 3, free: { anything: 1 } },
    'unknown fields pruned, preserve-unknown subtree kept',
  );
  t.is(created.status, undefined, 'status is not written on create when /status is a subresource');
  const e = await expectApiError(
    custom.patchNamespacedCustomObject(
      { ...target, name: 'w1', body: { spec: { size: 4 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    ),
  );
  t.is(e.code, 415);
  const merged = (await custom.patchNamespacedCustomObject(
    { ...target, name: 'w1', body: { spec: { size: 4 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  )) as { spec: { size: number } };
  t.is(merged.spec.size, 4);
  const current = (await custom.getNamespacedCustomObject({ ...target, name: 'w1' })) as Record<
    string,
    unknown
  >;
  const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
    ...target,
    name: 'w1',
    body: { ...current, spec: { size: 99 }, status: { ready: true, stray: 1 } },
  })) as { spec: { size: number }; status: Record<string, unknown> };
  t.deepEqual(withStatus.status, { ready: true }, '/status writes status, pruned by the schema');
  t.is(withStatus.spec.size, 4, '/status ignores spec');
  await ext.deleteCustomResourceDefinition({ name: crdName });
  await waitFor('CRD gone', async () => {
    try {
      await ext.readCustomResourceDefinition({ name: crdName });
      return undefined;
    } catch {
      return true;
    }
  });
});

test('row 1: a CRD written with the wire name through client-node loses preserve-unknown, and the server prunes', async (t) => {
  const ext = env.kc.makeApiClient(k8s.ApiextensionsV1Api);
  const group = `${uniqueName('g')}.example.com`;
  const crdName = `gadgets.${group}`;
  // The TS models know x_kubernetes_preserve_unknown_fields; the wire name is silently dropped by the serializer.
  const wireNamed = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } as k8s.V1JSONSchemaProps;
  await ext.createCustomResourceDefinition({
    body: {
      metadata: { name: crdName },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: wireNamed } } },
          },
        ],
      },
    },
  });
  const custom = env.kc.makeApiClient(k8s.CustomObjectsApi);
  const target = { group, version: 'v1', namespace: 'default', plural: 'gadgets' };
  const created = await waitFor('served', async () => {
    try {
      return (await custom.createNamespacedCustomObject({
        ...target,
        body: {
          apiVersion: `${group}/v1`,
          kind: 'Gadget',
          metadata: { name: 'g1' },
          spec: { providerSpec: { image: 'x' } },
        },
      })) as { spec: Record<string, unknown> };
    } catch {
      return undefined;
    }
  });
  t.deepEqual(created.spec, {}, 'every spec field pruned, as the real server did');
  await ext.deleteCustomResourceDefinition({ name: crdName });
});
