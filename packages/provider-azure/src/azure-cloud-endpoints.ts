import { get } from 'node:https';
import { CloudNotConfiguredError } from '@wmco/core/provider';

export interface AzureCloudEndpoints {
  readonly resourceManager: string;
  readonly authorityHost: string;
  readonly audience: string;
  /** True for a custom cloud (Azure Stack Hub style `armEndpoint`). */
  readonly custom: boolean;
}

const PUBLIC: AzureCloudEndpoints = {
  resourceManager: 'https://management.azure.com',
  authorityHost: 'https://login.microsoftonline.com',
  audience: 'https://management.azure.com/',
  custom: false,
};

interface Metadata {
  readonly authentication?: { readonly loginEndpoint?: unknown; readonly audiences?: unknown };
}

function fetchJson(url: string, ca: string | undefined): Promise<Metadata> {
  return new Promise((resolve, reject) => {
    const req = get(url, { ...(ca ? { ca } : {}), timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          if ((res.statusCode ?? 0) !== 200) throw new Error(`HTTP ${String(res.statusCode)}`);
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Metadata);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
  });
}

/**
 * The cloud's endpoints. The public cloud by default; with `platformStatus.azure.armEndpoint` (OpenShift's
 * field for Azure Stack Hub and other custom clouds) they are read from ARM's own
 * `/metadata/endpoints?api-version=2015-01-01`, as the Azure CLI's `cloud register --endpoint-resource-manager` does.
 */
export async function azureCloudEndpoints(
  status: Readonly<Record<string, unknown>>,
  ca: string | undefined,
): Promise<AzureCloudEndpoints> {
  const arm = status['armEndpoint'];
  if (typeof arm !== 'string' || arm === '') return PUBLIC;
  const base = arm.replace(/\/$/, '');
  let meta: Metadata;
  try {
    meta = await fetchJson(`${base}/metadata/endpoints?api-version=2015-01-01`, ca);
  } catch (error) {
    throw new CloudNotConfiguredError('azure', `cannot read ${base}/metadata/endpoints: ${String(error)}`);
  }
  const login = meta.authentication?.loginEndpoint;
  const audiences = meta.authentication?.audiences;
  const audience = Array.isArray(audiences) && typeof audiences[0] === 'string' ? audiences[0] : undefined;
  if (typeof login !== 'string' || !audience)
    throw new CloudNotConfiguredError('azure', `${base}/metadata/endpoints has no authentication endpoints`);
  return { resourceManager: base, authorityHost: login.replace(/\/$/, ''), audience, custom: true };
}
