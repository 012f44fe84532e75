import type { ComputeManagementClient } from '@azure/arm-compute';
import { azureSdk } from './azure-sdk.js';
import {
  CloudNotConfiguredError,
  cloudRequestTimeoutMs,
  readCredentialsSecret,
  type CloudContext,
} from '@wmco/core/provider';
import { azureCloudEndpoints } from './azure-cloud-endpoints.js';
import { requestTimeoutPolicy } from './azure-request-timeout.js';

/**
 * The root credentials Secret the OpenShift installer writes and the cloud credential operator reads
 * (installer `cloud-creds-secret.yaml.template`): kube-system/azure-credentials with `azure_subscription_id`,
 * `azure_client_id`, `azure_client_secret`, `azure_tenant_id`, `azure_resourcegroup`, `azure_region`.
 * Read only with `--cloud-credentials=root`; by default the Secret the cloud credential operator writes
 * for the operator's CredentialsRequest is read, which has the same keys.
 */
export const AZURE_CREDENTIALS_SECRET = { namespace: 'kube-system', name: 'azure-credentials' } as const;
const KEYS = ['azure_subscription_id', 'azure_client_id', 'azure_client_secret', 'azure_tenant_id'] as const;

/** Retries of the Azure pipeline's exponential and throttling (429 + Retry-After) policies. */
export const AZURE_MAX_RETRIES = 4;

export interface AzureClients {
  readonly compute: ComputeManagementClient;
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  /** The Resource Manager endpoint (no trailing slash). */
  readonly endpoint: string;
}

async function credentials(
  ctx: CloudContext,
): Promise<Record<(typeof KEYS)[number], string> & { rg: string }> {
  const { data: secret, secret: from } = await readCredentialsSecret(ctx, 'azure', AZURE_CREDENTIALS_SECRET);
  const missing = KEYS.filter((k) => !secret[k]);
  if (missing.length > 0)
    throw new CloudNotConfiguredError('azure', `${from.describe} lacks ${missing.join(', ')}`);
  const [azure_subscription_id = '', azure_client_id = '', azure_client_secret = '', azure_tenant_id = ''] =
    KEYS.map((k) => secret[k] ?? '');
  return {
    azure_subscription_id,
    azure_client_id,
    azure_client_secret,
    azure_tenant_id,
    rg: secret['azure_resourcegroup'] ?? '',
  };
}

/** A compute client for the cluster's subscription, signed in as its service principal; secrets never logged. */
export async function azureClientsFor(ctx: CloudContext | undefined): Promise<AzureClients> {
  if (!ctx) throw new CloudNotConfiguredError('azure', 'no cloud context (cluster facts) was given');
  const c = await credentials(ctx);
  const rgStatus = ctx.platformStatus['resourceGroupName'];
  const resourceGroup = typeof rgStatus === 'string' && rgStatus !== '' ? rgStatus : c.rg;
  if (!resourceGroup)
    throw new CloudNotConfiguredError('azure', 'no resource group (platformStatus.azure.resourceGroupName)');
  const tls = ctx.caBundle ? { tlsOptions: { ca: ctx.caBundle } } : {};
  const endpoints = await azureCloudEndpoints(ctx.platformStatus, ctx.caBundle);
  const sdk = await azureSdk();
  // Token and Resource Manager requests alike: each attempt is abandoned after the request timeout.
  const additionalPolicies = [
    { policy: requestTimeoutPolicy(sdk, cloudRequestTimeoutMs(ctx)), position: 'perRetry' as const },
  ];
  const credential = new sdk.identity.ClientSecretCredential(
    c.azure_tenant_id,
    c.azure_client_id,
    c.azure_client_secret,
    {
      authorityHost: endpoints.authorityHost,
      // A custom cloud's authority is not in Entra ID's instance-discovery list; trust the configured one.
      disableInstanceDiscovery: endpoints.custom,
      retryOptions: { maxRetries: AZURE_MAX_RETRIES },
      additionalPolicies,
      ...tls,
    },
  );
  const compute = new sdk.compute.ComputeManagementClient(credential, c.azure_subscription_id, {
    endpoint: endpoints.resourceManager,
    credentials: { scopes: [`${endpoints.audience.replace(/\/$/, '')}/.default`] },
    retryOptions: { maxRetries: AZURE_MAX_RETRIES },
    additionalPolicies,
    ...tls,
  });
  return {
    compute,
    subscriptionId: c.azure_subscription_id,
    resourceGroup,
    endpoint: endpoints.resourceManager,
  };
}
