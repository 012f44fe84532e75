import { Agent } from 'node:https';
import type { FirewallsClient, InstancesClient, ZoneOperationsClient } from '@google-cloud/compute';
import {
  CloudNotConfiguredError,
  cloudRequestTimeoutMs,
  readCredentialsSecret,
  type CloudContext,
} from '@wmco/core/provider';
import type { JWT } from 'google-auth-library';
import { gcpRetry, type GcpCallOptions } from './gcp-errors.js';
import { gcpSdk, type GcpSdk } from './gcp-sdk.js';
import { parseServiceAccount, type ServiceAccount } from './gcp-service-account.js';

/**
 * The root credentials Secret the OpenShift installer writes and the cloud credential operator reads
 * (installer `cloud-creds-secret.yaml.template`): kube-system/gcp-credentials, key `service_account.json`.
 * Read only with `--cloud-credentials=root`; by default the Secret minted from the operator's
 * CredentialsRequest is read, which has the same key.
 */
export const GCP_CREDENTIALS_SECRET = { namespace: 'kube-system', name: 'gcp-credentials' } as const;
const KEY = 'service_account.json';
const SCOPES = ['https://www.googleapis.com/auth/compute'];

export interface GcpClients {
  readonly project: string;
  readonly region: string;
  readonly instances: InstancesClient;
  readonly operations: ZoneOperationsClient;
  readonly firewalls: FirewallsClient;
  /** Options for every call (retries), built from the lazily loaded google-gax. */
  readonly call: GcpCallOptions;
  close(): Promise<void>;
}

interface ServiceEndpoint {
  readonly name?: unknown;
  readonly url?: unknown;
}

/** The Compute endpoint override OpenShift lets a GCP cluster set (`platformStatus.gcp.serviceEndpoints`). */
function computeEndpoint(status: Readonly<Record<string, unknown>>): URL | undefined {
  const list = Array.isArray(status['serviceEndpoints'])
    ? (status['serviceEndpoints'] as ServiceEndpoint[])
    : [];
  const url = list.find((e) => e.name === 'Compute')?.url;
  return typeof url === 'string' ? new URL(url) : undefined;
}

/**
 * A service-account JWT client. google-auth-library posts to Google's fixed token URL; like gcloud, this
 * sends the token request to the key's own `token_uri` (the same URL for a real Google key), and trusts
 * the cluster's extra CAs, through a request interceptor on the client's transport.
 */
function jwtClient(sdk: GcpSdk, sa: ServiceAccount, caBundle: string | undefined): JWT {
  const jwt = new sdk.auth.JWT({
    email: sa.client_email,
    key: sa.private_key,
    scopes: SCOPES,
    ...(sa.private_key_id ? { keyId: sa.private_key_id } : {}),
  });
  const agent = caBundle ? new Agent({ ca: caBundle, keepAlive: true }) : undefined;
  jwt.transporter.interceptors.request.add({
    resolved: (config) => {
      if (String(config.url) === 'https://oauth2.googleapis.com/token') config.url = new URL(sa.token_uri);
      if (agent) config.agent = agent;
      return Promise.resolve(config);
    },
  });
  return jwt;
}

async function serviceAccount(ctx: CloudContext): Promise<ServiceAccount> {
  const { data: secret, secret: from } = await readCredentialsSecret(ctx, 'gcp', GCP_CREDENTIALS_SECRET);
  const raw = secret[KEY];
  if (!raw) throw new CloudNotConfiguredError('gcp', `${from.describe} has no ${KEY}`);
  return parseServiceAccount(raw, `${from.namespace}/${from.name}`);
}

/** Compute clients (REST transport) for the cluster's project; the key is never logged. */
export async function gcpClientsFor(ctx: CloudContext | undefined): Promise<GcpClients> {
  if (!ctx) throw new CloudNotConfiguredError('gcp', 'no cloud context (cluster facts) was given');
  const sa = await serviceAccount(ctx);
  const project =
    typeof ctx.platformStatus['projectID'] === 'string' ? ctx.platformStatus['projectID'] : sa.project_id;
  const region = typeof ctx.platformStatus['region'] === 'string' ? ctx.platformStatus['region'] : '';
  if (!project || !region)
    throw new CloudNotConfiguredError(
      'gcp',
      'infrastructure/cluster has no platformStatus.gcp projectID/region',
    );
  const endpoint = computeEndpoint(ctx.platformStatus);
  const sdk = await gcpSdk();
  const opts = {
    authClient: jwtClient(sdk, sa, ctx.caBundle),
    fallback: true,
    ...(endpoint ? { apiEndpoint: endpoint.hostname, port: Number(endpoint.port || 443) } : {}),
  };
  const instances = new sdk.compute.InstancesClient(opts);
  const operations = new sdk.compute.ZoneOperationsClient(opts);
  const firewalls = new sdk.compute.FirewallsClient(opts);
  return {
    project,
    region,
    instances,
    operations,
    firewalls,
    call: gcpRetry(sdk.gax, cloudRequestTimeoutMs(ctx)),
    close: async () => {
      await Promise.all([instances.close(), operations.close(), firewalls.close()]);
    },
  };
}
