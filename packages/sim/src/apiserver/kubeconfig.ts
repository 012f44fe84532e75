import { stringify } from 'yaml';

export interface KubeconfigInput {
  readonly server: string;
  readonly caPem: string;
  readonly user: string;
  readonly token?: string;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  readonly namespace?: string;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** A kubeconfig (YAML) for one user of the simulated cluster: token or client-certificate credentials. */
export function renderKubeconfig(i: KubeconfigInput): string {
  const user: Record<string, string> = {};
  if (i.token !== undefined) user['token'] = i.token;
  if (i.clientCertPem !== undefined) user['client-certificate-data'] = b64(i.clientCertPem);
  if (i.clientKeyPem !== undefined) user['client-key-data'] = b64(i.clientKeyPem);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'wmco-sim', cluster: { server: i.server, 'certificate-authority-data': b64(i.caPem) } },
    ],
    users: [{ name: i.user, user }],
    contexts: [
      {
        name: `${i.user}@wmco-sim`,
        context: { cluster: 'wmco-sim', user: i.user, ...(i.namespace ? { namespace: i.namespace } : {}) },
      },
    ],
    'current-context': `${i.user}@wmco-sim`,
    preferences: {},
  });
}
