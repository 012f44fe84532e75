// Scoped cloud credentials (issue 27 item 3): with no root Secret in kube-system, the operator joins BYOH
// hosts on AWS, Azure and GCP with the Secret the cloud credential operator minted from deploy/'s
// CredentialsRequests, and the simulated cloud refuses what a CredentialsRequest does not list.
import test from 'ava';
import { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { MINTED_CREDENTIALS_SECRET as MINTED } from '@wmco/core/provider';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { deployCredentialsRequests } from '../clouds/sim-credential-operator.js';
import { deleteCredentialsRequest, readCredentialsRequest } from './cloud-credentials.test-helper.js';
import { applyAsAdmin, deployRbac, recordAllowed, recordRefusals } from './rbac-world.js';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import type { SimWorld } from './sim-world.js';

const ROOT_SECRETS: Readonly<Record<string, string>> = {
  AWS: 'aws-creds',
  Azure: 'azure-credentials',
  GCP: 'gcp-credentials',
};
const APPLIED_TAGS = 'windowsmachineconfig.openshift.io/cloud-applied-tags';

async function joinOne(world: SimWorld): Promise<string> {
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  const address = world.hosts.hosts[0]!.address;
  await until(`${address} Ready`, phaseIs(world, address, 'Ready'), 90_000);
  return address;
}

for (const platform of ['AWS', 'Azure', 'GCP']) {
  test.serial(
    `${platform}: no root Secret; the join identifies and tags the instance with the minted credentials`,
    async (t) => {
      const { world } = await testWorld([{ hostname: 'WIN-M1' }], {
        platform,
        cloud: true,
        cloudTagging: 'apply',
      });
      t.teardown(() => world.stop());
      const cr = await readCredentialsRequest(
        world,
        `windows-machine-config-operator-${platform.toLowerCase()}`,
      );
      t.like(cr['status'], { provisioned: true });
      await world
        .admin()
        .deleteNamespacedSecret({ name: ROOT_SECRETS[platform] ?? '', namespace: 'kube-system' });
      const minted = await world
        .admin()
        .readNamespacedSecret({ name: MINTED, namespace: OPERATOR_NAMESPACE });
      t.truthy(minted.metadata?.annotations?.['cloudcredential.openshift.io/credentials-request']);
      await joinOne(world);
      const node = (await windowsNodes(world))[0];
      t.regex(node?.metadata?.annotations?.[APPLIED_TAGS] ?? '', /cluster/, 'the ownership tag was applied');
      t.deepEqual(world.cloud?.refused, [], 'every call the join made is in the CredentialsRequest');
      t.true((world.cloud?.faults.calls.length ?? 0) > 0, 'the cloud was called');
      t.deepEqual(
        (await eventsAbout(world)).filter((e) => e.type === 'Warning'),
        [],
      );
    },
  );
}

/** Replaces the AWS CredentialsRequest by one without `action`, as an admin narrowing it would. */
async function narrowAwsRequest(world: SimWorld, action: string): Promise<void> {
  await deleteCredentialsRequest(world, 'windows-machine-config-operator-aws');
  await world.admin().deleteNamespacedSecret({ name: MINTED, namespace: OPERATOR_NAMESPACE });
  const aws = (await deployCredentialsRequests(OPERATOR_NAMESPACE)).find(
    (o) => o.metadata?.name === 'windows-machine-config-operator-aws',
  ) as { spec: { providerSpec: { statementEntries: { action: string[] }[] } } } & Parameters<
    KubernetesObjectApi['create']
  >[0];
  for (const e of aws.spec.providerSpec.statementEntries) e.action = e.action.filter((a) => a !== action);
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  await KubernetesObjectApi.makeApiClient(kc).create(aws);
  await until('the new minted Secret', () =>
    world
      .admin()
      .readNamespacedSecret({ name: MINTED, namespace: OPERATOR_NAMESPACE })
      .catch(() => undefined),
  );
}

test.serial(
  'AWS: a call outside the CredentialsRequest is refused by EC2 and reported by the operator',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-M1' }], {
      platform: 'AWS',
      cloud: true,
      cloudTagging: 'apply',
    });
    t.teardown(() => world.stop());
    await world.admin().deleteNamespacedSecret({ name: 'aws-creds', namespace: 'kube-system' });
    await narrowAwsRequest(world, 'ec2:CreateTags');
    const address = await joinOne(world);
    const refused = world.cloud?.refused ?? [];
    t.true(refused.length > 0);
    t.true(
      refused.every((r) => r.permission === 'ec2:CreateTags'),
      JSON.stringify(refused),
    );
    const warning = (await eventsAbout(world)).find((e) => e.type === 'Warning');
    t.is(warning?.reason, 'CloudUnavailable');
    t.regex(warning?.message ?? '', new RegExp(`instance ${address.replace(/\./g, '\\.')}: cannot`));
    t.regex(
      warning?.message ?? '',
      /UnauthorizedOperation \(unauthorized\): You are not authorized to perform this operation\. User: arn:aws:iam::\d+:user\/windows-machine-config-operator-aws-[0-9a-f]{5} is not authorized to perform: ec2:CreateTags on resource: arn:aws:ec2:us-east-2:\d+:instance\/i-[0-9a-f]+/,
    );
    const node = (await windowsNodes(world))[0];
    t.is(node?.metadata?.annotations?.[APPLIED_TAGS] ?? '[]', '[]', 'no tag recorded as applied');
  },
);

test.serial(
  'AWS under deploy/ RBAC: the minted Secret is read, kube-system is never asked for',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-M1' }], {
      platform: 'AWS',
      cloud: true,
      cloudTagging: 'apply',
      rbac: true,
    });
    t.teardown(() => world.stop());
    const refused = recordRefusals(world);
    const used = recordAllowed(world);
    await applyAsAdmin(world, await deployRbac());
    await joinOne(world);
    t.deepEqual([...refused], [], 'no request of the operator was refused');
    t.true(used.has(`${OPERATOR_NAMESPACE}||secrets|get|${MINTED}`), 'the minted Secret was read');
    t.deepEqual(
      [...used].filter((g) => g.startsWith('kube-system|')),
      [],
    );
    const node = (await windowsNodes(world))[0];
    t.regex(node?.metadata?.annotations?.[APPLIED_TAGS] ?? '', /cluster/);
  },
);
