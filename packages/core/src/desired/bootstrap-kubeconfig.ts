/** The `node-bootstrapper-token` Secret data the bootstrap kubeconfig is made from. */
export interface BootstrapSecretData {
  readonly 'ca.crt'?: Uint8Array | undefined;
  readonly token?: Uint8Array | undefined;
}

/**
 * `C:\k\bootstrap-kubeconfig` (upstream newKubeconfigFromSecret): one cluster `local` at `server` with the
 * CA inlined, one user with the token. Key order and omitted empty fields match client-go's JSON, so
 * the bytes equal upstream's. A Secret without `ca.crt` or `token` is an error.
 */
export function bootstrapKubeconfig(secret: BootstrapSecretData, server: string, user = 'kubelet'): string {
  const ca = secret['ca.crt'];
  const token = secret.token;
  if (ca === undefined) throw new Error('bootstrap secret has no ca.crt');
  if (token === undefined) throw new Error('bootstrap secret has no token');
  const tokenText = Buffer.from(token).toString('utf8');
  return JSON.stringify({
    clusters: [
      {
        name: 'local',
        cluster: {
          server,
          ...(ca.length > 0 ? { 'certificate-authority-data': Buffer.from(ca).toString('base64') } : {}),
        },
      },
    ],
    users: [{ name: user, user: tokenText !== '' ? { token: tokenText } : {} }],
    contexts: [{ name: user, context: { cluster: 'local', user } }],
    'current-context': user,
  });
}
