import type { JsonObject } from '../apiserver/json.js';
import { arr, bool, conditions, crd, int, obj, open, str } from './schema-kit.js';

/**
 * cloudcredential.openshift.io/v1 CredentialsRequest, as the cloud credential operator's CRD
 * (openshift/cloud-credential-operator manifests/0000_03_cloud-credential-operator_01_crd.yaml and
 * pkg/apis/cloudcredential/v1/types_credentialsrequest.go): spec.secretRef (an ObjectReference),
 * spec.providerSpec (a raw extension: AWSProviderSpec, AzureProviderSpec, GCPProviderSpec...), status
 * with `provisioned`, `lastSyncGeneration`, `providerStatus` and conditions.
 */
export const CREDENTIALS_REQUEST_CRD: JsonObject = crd({
  group: 'cloudcredential.openshift.io',
  version: 'v1',
  kind: 'CredentialsRequest',
  plural: 'credentialsrequests',
  namespaced: true,
  spec: obj(
    {
      secretRef: obj({ name: str, namespace: str, kind: str, apiVersion: str, uid: str }),
      providerSpec: open,
      serviceAccountNames: arr(str),
      cloudTokenPath: str,
    },
    { required: ['secretRef'] },
  ),
  status: obj({
    provisioned: bool,
    lastSyncGeneration: int,
    lastSyncTimestamp: str,
    lastSyncCloudCredsSecretResourceVersion: str,
    providerStatus: open,
    conditions,
  }),
});
