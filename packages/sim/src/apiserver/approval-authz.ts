import { isObject, str } from './json.js';
import type { RequestUser } from './request-user.js';
import type { ServerContext } from './server-context.js';
import { errors } from './status.js';

/**
 * Approving a CSR needs, besides `update` on certificatesigningrequests/approval, the `approve` verb on
 * `signers` (group certificates.k8s.io) named after the signerName or its `<domain>/*` wildcard.
 */
export function authorizeApproval(ctx: ServerContext, user: RequestUser, csrName: string): void {
  const t = ctx.registry.mustFind('certificates.k8s.io', 'v1', 'certificatesigningrequests');
  const csr = ctx.store.get(t, undefined, csrName);
  if (!csr) return;
  const signer = isObject(csr['spec']) ? (str(csr['spec']['signerName']) ?? '') : '';
  const domain = signer.split('/')[0] ?? '';
  const ask = (name: string): boolean =>
    ctx.authorizer.allowed({
      user,
      verb: 'approve',
      path: '',
      resource: { group: 'certificates.k8s.io', resource: 'signers', subresource: '', namespace: '', name },
    });
  if (!ask(signer) && !ask(`${domain}/*`)) {
    throw errors.forbidden(
      `certificatesigningrequests.certificates.k8s.io "${csrName}" is forbidden: user not permitted to approve requests with signerName "${signer}"`,
    );
  }
}
