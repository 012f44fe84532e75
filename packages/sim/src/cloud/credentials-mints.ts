import { randomBytes } from 'node:crypto';
import { isObject, type JsonObject } from '../apiserver/json.js';
import type { CloudMint } from '../cluster/credentials-minter.js';
import type { SimArm } from './arm/sim-arm.js';
import type { SimEc2 } from './ec2/sim-ec2.js';
import type { SimGce } from './gce/sim-gce.js';

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A short unique suffix, as the real operator adds to the users and accounts it creates. */
const suffix = (): string => randomBytes(3).toString('hex').slice(0, 5);

/**
 * AWSProviderSpec: an IAM user allowed the actions of the `Allow` statementEntries; the Secret holds
 * `aws_access_key_id`, `aws_secret_access_key` and `credentials` (an INI `[default]` profile), the keys
 * the real operator writes (pkg/aws/actuator: secretDataAccessKey, generateAWSCredentialsConfig).
 */
export function ec2Mint(ec2: SimEc2): CloudMint {
  return {
    kind: 'AWSProviderSpec',
    mint: (name, spec) => {
      const entries = Array.isArray(spec['statementEntries'])
        ? spec['statementEntries'].filter(isObject)
        : [];
      const actions = entries.filter((e) => e['effect'] === 'Allow').flatMap((e) => strings(e['action']));
      const key = ec2.iam.add(`${name.slice(0, 40)}-${suffix()}`, actions);
      return {
        aws_access_key_id: key.accessKeyId,
        aws_secret_access_key: key.secretAccessKey,
        credentials: `[default]\naws_access_key_id = ${key.accessKeyId}\naws_secret_access_key = ${key.secretAccessKey}`,
      };
    },
  };
}

/**
 * AzureProviderSpec: a service principal whose role holds `permissions` (roleBindings of built-in roles
 * are not modelled: only listed permissions are granted). The Secret has the seven keys the real
 * operator writes (pkg/azure/const.go): client id/secret, tenant, subscription, resource group, region,
 * resource prefix.
 */
export function armMint(arm: SimArm): CloudMint {
  return {
    kind: 'AzureProviderSpec',
    mint: (_name, spec: JsonObject) => {
      const sp = arm.tenant.addPrincipal(strings(spec['permissions']));
      return {
        azure_client_id: sp.clientId,
        azure_client_secret: sp.clientSecret,
        azure_tenant_id: arm.tenant.tenantId,
        azure_subscription_id: arm.state.subscriptionId,
        azure_resourcegroup: arm.state.resourceGroup,
        azure_region: arm.state.location,
        azure_resource_prefix: arm.state.resourceGroup.replace(/-rg$/, ''),
      };
    },
  };
}

/**
 * GCPProviderSpec: a service account whose custom role holds `permissions` (predefinedRoles are not
 * modelled); the Secret's one key is `service_account.json` (pkg/gcp/actuator: gcpSecretJSONKey).
 */
export function gceMint(gce: SimGce): CloudMint {
  return {
    kind: 'GCPProviderSpec',
    mint: (name, spec) => {
      const key = gce.addServiceAccount(`${name.slice(0, 23)}-${suffix()}`, strings(spec['permissions']));
      return { 'service_account.json': JSON.stringify(key) };
    },
  };
}
