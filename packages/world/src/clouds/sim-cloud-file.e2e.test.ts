import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { WmcoProvider } from '@wmco/core/provider';
import { awsProvider } from '@wmco/provider-aws';
import { gcpProvider } from '@wmco/provider-gcp';
import { cloudCapabilities } from './cloud-capabilities.test-helper.js';
import { findCli, runCli } from './cli-runner.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';
import { OPERATOR_MAIN } from '../operator-main.js';

// `wmco sim --platform AWS|GCP --keep --kubeconfig-out F` as a user runs it: F.cloud.json must be
// enough for another client to reach the simulated cloud.

const main = OPERATOR_MAIN;

interface CloudFile {
  platform: string;
  endpoint: string;
  caFile: string;
  region?: string;
  zone?: string;
  infraID: string;
  credentials: Record<string, string>;
}

async function withSim(
  platform: string,
  use: (cloud: CloudFile, out: () => string) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-sim-cloud-'));
  const file = join(dir, 'admin.kubeconfig');
  const child = spawn(
    process.execPath,
    [main, 'sim', '--keep', '--kubeconfig-out', file, '--platform', platform],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!(existsSync(`${file}.cloud.json`) && out.includes('running;'))) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`no cloud file after 30 s: ${out}`);
      await sleep(50);
    }
    await use(JSON.parse(readFileSync(`${file}.cloud.json`, 'utf8')) as CloudFile, () => out);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function context(
  cloud: CloudFile,
  platformStatus: Record<string, unknown>,
  secret: { namespace: string; name: string; data: Record<string, string> },
): ReturnType<typeof staticCloudContext> {
  return staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: cloud.infraID,
    platformStatus,
    caBundle: readFileSync(cloud.caFile, 'utf8'),
    secrets: [secret],
  });
}

async function reachable(
  provider: WmcoProvider,
  ctx: ReturnType<typeof staticCloudContext>,
): Promise<unknown> {
  return cloudCapabilities(provider, ctx).identity.identify('127.0.0.250');
}

test('wmco sim --platform AWS writes F.cloud.json that the SDK and the AWS CLI can use', async (t) => {
  await withSim('AWS', async (cloud, out) => {
    t.like(cloud, { platform: 'AWS', region: 'us-east-2' });
    t.regex(cloud.endpoint, /^https:\/\/127\.0\.0\.1:\d+$/);
    t.regex(out(), /simulated AWS cloud: https:\/\/127\.0\.0\.1/);
    const ctx = context(
      cloud,
      { region: cloud.region, serviceEndpoints: [{ name: 'ec2', url: cloud.endpoint }] },
      {
        namespace: 'kube-system',
        name: 'aws-creds',
        data: {
          aws_access_key_id: cloud.credentials['accessKeyId'] ?? '',
          aws_secret_access_key: cloud.credentials['secretAccessKey'] ?? '',
        },
      },
    );
    t.is(await reachable(awsProvider, ctx), undefined, 'reached, and no instance has that address');
    const aws = findCli('aws', ['/root/.pyenv/shims']);
    if (!aws) return t.log('aws CLI not installed: only the SDK was checked');
    const r = await runCli(
      aws,
      [
        'ec2',
        'describe-instances',
        '--endpoint-url',
        cloud.endpoint,
        '--ca-bundle',
        cloud.caFile,
        '--region',
        cloud.region ?? '',
      ],
      {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: tmpdir(),
        AWS_ACCESS_KEY_ID: cloud.credentials['accessKeyId'] ?? '',
        AWS_SECRET_ACCESS_KEY: cloud.credentials['secretAccessKey'] ?? '',
        AWS_CONFIG_FILE: '/dev/null',
        AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
      },
    );
    t.is(r.code, 0, r.stderr);
    // Only the control plane, tagged as the installer tags it (the cluster's VPC is read from it).
    const { Reservations } = JSON.parse(r.stdout) as {
      Reservations: { Instances: { Tags: { Key: string; Value: string }[] }[] }[];
    };
    t.is(Reservations.length, 3);
    const owner = `kubernetes.io/cluster/${cloud.infraID}`;
    t.true(
      Reservations.every((x) => x.Instances[0]?.Tags.some((g) => g.Key === owner && g.Value === 'owned')),
    );
  });
});

test('wmco sim --platform GCP writes F.cloud.json with a service-account file the SDK can use', async (t) => {
  await withSim('GCP', async (cloud) => {
    t.like(cloud, { platform: 'GCP', zone: 'us-central1-a' });
    const key = readFileSync(cloud.credentials['serviceAccountFile'] ?? '', 'utf8');
    t.is((JSON.parse(key) as { token_uri: string }).token_uri, `${cloud.endpoint}/token`);
    t.truthy(cloud.credentials['accessToken']);
    const ctx = context(
      cloud,
      {
        projectID: cloud.credentials['project'],
        region: 'us-central1',
        serviceEndpoints: [{ name: 'Compute', url: cloud.endpoint }],
      },
      { namespace: 'kube-system', name: 'gcp-credentials', data: { 'service_account.json': key } },
    );
    t.is(await reachable(gcpProvider, ctx), undefined, 'reached, and no instance has that address');
  });
});
