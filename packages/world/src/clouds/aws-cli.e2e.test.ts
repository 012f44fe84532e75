import test from 'ava';
import { awsProvider } from '@wmco/provider-aws';
import { SimEc2 } from '@wmco/sim';
import { cloudCapabilities } from './cloud-capabilities.test-helper.js';
import { findCli, runCli, tempFiles } from './cli-runner.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';

// A second real client: the AWS CLI (botocore, its own SigV4 signer and XML parser) pointed at the
// simulated EC2 with --endpoint-url and --ca-bundle reads what the operator's SDK client wrote.
const aws = findCli('aws', ['/root/.pyenv/shims']);
const INFRA = 'sim-aws-cli01';
const OWNER = `kubernetes.io/cluster/${INFRA}`;

(aws ? test : test.skip)(
  'the AWS CLI reads the instance and the tag the SDK applied, and its writes are seen',
  async (t) => {
    const ec2 = await SimEc2.start({ region: 'us-east-2' });
    t.teardown(() => ec2.close());
    const sim = ec2.addInstance({ privateIp: '127.0.0.21', name: 'win-cli', tags: { Name: 'win-cli' } });
    // The control plane the cluster's VPC is read from.
    ec2.addInstance({ privateIp: '10.0.0.10', name: 'master-0', tags: { [OWNER]: 'owned' } });
    const ctx = staticCloudContext({
      credentials: ROOT_CREDENTIALS,
      infrastructureName: INFRA,
      platformStatus: ec2.platformStatus(),
      caBundle: ec2.caPem,
      secrets: [ec2.credentialsSecret()],
    });
    const caps = cloudCapabilities(awsProvider, ctx);
    const found = await caps.identity.identify('127.0.0.21');
    if (!found) return t.fail('SDK did not find the instance');
    await caps.tagging.ensureTag(found, 'apply');

    const files = tempFiles({ 'ca.pem': ec2.caPem });
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: files['dir'] ?? '/tmp',
      AWS_ACCESS_KEY_ID: ec2.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: ec2.credentials.secretAccessKey,
      AWS_DEFAULT_REGION: 'us-east-2',
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    };
    const common = ['--endpoint-url', ec2.url, '--ca-bundle', files['ca.pem'] ?? '', '--output', 'json'];
    const described = await runCli(
      aws ?? 'aws',
      ['ec2', 'describe-instances', '--filters', 'Name=private-ip-address,Values=127.0.0.21', ...common],
      env,
    );
    t.is(described.code, 0, described.stderr);
    const parsed = JSON.parse(described.stdout) as {
      Reservations: {
        Instances: { InstanceId: string; PrivateDnsName: string; Tags: { Key: string; Value: string }[] }[];
      }[];
    };
    const instance = parsed.Reservations[0]?.Instances[0];
    t.is(instance?.InstanceId, sim.id);
    t.is(instance?.PrivateDnsName, 'ip-127-0-0-21.us-east-2.compute.internal');
    t.deepEqual(
      instance?.Tags.find((x) => x.Key === OWNER),
      { Key: OWNER, Value: 'shared' },
    );

    const created = await runCli(
      aws ?? 'aws',
      ['ec2', 'create-tags', '--resources', sim.id, '--tags', 'Key=team,Value=win', ...common],
      env,
    );
    t.is(created.code, 0, created.stderr);
    t.is((await caps.identity.identify('127.0.0.21'))?.tags['team'], 'win');

    const refused = await runCli(aws ?? 'aws', ['ec2', 'describe-instances', ...common], {
      ...env,
      AWS_SECRET_ACCESS_KEY: 'wrong',
    });
    t.not(refused.code, 0);
    t.regex(refused.stderr, /AuthFailure/);
  },
);
