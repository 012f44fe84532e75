import { Agent } from 'node:https';
import type { EC2Client } from '@aws-sdk/client-ec2';
import {
  CloudNotConfiguredError,
  cloudRequestTimeoutMs,
  readCredentialsSecret,
  type CloudContext,
} from '@wmco/core/provider';
import { ec2Sdk } from './aws-sdk.js';

/**
 * The root credentials Secret the OpenShift installer writes and the cloud credential operator reads
 * (installer `data/data/manifests/openshift/cloud-creds-secret.yaml.template`): kube-system/aws-creds
 * with `aws_access_key_id` and `aws_secret_access_key`. Read only with `--cloud-credentials=root`; by
 * default the Secret minted from the operator's CredentialsRequest is read, which has the same keys.
 */
export const AWS_CREDENTIALS_SECRET = { namespace: 'kube-system', name: 'aws-creds' } as const;

/** The SDK's standard retry strategy, with more attempts than its default 3 so a join rides out a throttle. */
export const AWS_MAX_ATTEMPTS = 5;

interface ServiceEndpoint {
  readonly name?: unknown;
  readonly url?: unknown;
}

/**
 * The EC2 endpoint override OpenShift lets a cluster set (`platformStatus.aws.serviceEndpoints`, name
 * `ec2`), used for private/partition endpoints, and by the simulated cloud.
 */
function ec2Endpoint(status: Readonly<Record<string, unknown>>): string | undefined {
  const endpoints = Array.isArray(status['serviceEndpoints'])
    ? (status['serviceEndpoints'] as ServiceEndpoint[])
    : [];
  const ec2 = endpoints.find((e) => e.name === 'ec2');
  return typeof ec2?.url === 'string' ? ec2.url : undefined;
}

/** Builds an EC2 client from the cluster's facts and credentials Secret; the credentials are never logged. */
export async function ec2ClientFor(ctx: CloudContext | undefined): Promise<EC2Client> {
  if (!ctx) throw new CloudNotConfiguredError('aws', 'no cloud context (cluster facts) was given');
  const region = ctx.platformStatus['region'];
  if (typeof region !== 'string' || region === '')
    throw new CloudNotConfiguredError('aws', 'infrastructure/cluster has no platformStatus.aws.region');
  const { data: secret, secret: from } = await readCredentialsSecret(ctx, 'aws', AWS_CREDENTIALS_SECRET);
  const accessKeyId = secret['aws_access_key_id'];
  const secretAccessKey = secret['aws_secret_access_key'];
  if (!accessKeyId || !secretAccessKey)
    throw new CloudNotConfiguredError(
      'aws',
      `${from.describe} lacks aws_access_key_id or aws_secret_access_key`,
    );
  const endpoint = ec2Endpoint(ctx.platformStatus);
  const sdk = await ec2Sdk();
  return new sdk.EC2Client({
    region,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: AWS_MAX_ATTEMPTS,
    retryMode: 'standard',
    ...(endpoint ? { endpoint } : {}),
    // Each attempt is abandoned after the context's request timeout with a TimeoutError, which the
    // standard retry strategy retries (by default the handler only warns, and a silent socket is given
    // EC2's 15 minutes). The request timer ends with the response headers; the socket timeout covers a
    // body that stalls after them.
    requestHandler: {
      requestTimeout: cloudRequestTimeoutMs(ctx),
      throwOnRequestTimeout: true,
      socketTimeout: cloudRequestTimeoutMs(ctx),
      ...(ctx.caBundle ? { httpsAgent: new Agent({ ca: ctx.caBundle }) } : {}),
    },
  });
}
