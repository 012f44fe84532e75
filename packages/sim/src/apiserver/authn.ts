import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestUser } from './request-user.js';

/** Looks a bearer token up somewhere else (bootstrap-token Secrets); undefined when unknown. */
export type TokenLookup = (token: string) => RequestUser | undefined;

function withAuthenticated(u: RequestUser): RequestUser {
  return u.groups.includes('system:authenticated')
    ? u
    : { ...u, groups: [...u.groups, 'system:authenticated'] };
}

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * Authentication as kube-apiserver does it: a bearer token (static users and service accounts, then
 * bootstrap tokens), else a client certificate verified against the cluster CA (CN = user, O = groups).
 * Everyone authenticated also gets `system:authenticated`.
 */
export class Authenticator {
  private readonly tokens = new Map<string, RequestUser>();
  private readonly lookups: TokenLookup[] = [];
  /**
   * The user each TLS connection's client certificate names, read on its first request: the certificate
   * is fixed for the connection (verified in the handshake, and TLS 1.3 has no renegotiation), so a
   * keep-alive connection is not parsed again per request.
   */
  private readonly byConnection = new WeakMap<TLSSocket, RequestUser | undefined>();

  addToken(token: string, user: RequestUser): void {
    this.tokens.set(token, user);
  }

  addLookup(l: TokenLookup): void {
    this.lookups.push(l);
  }

  /** The user a bearer token stands for (what a TokenReview answers), or undefined when it is unknown. */
  lookupToken(token: string): RequestUser | undefined {
    const user = this.tokens.get(token) ?? this.lookups.map((l) => l(token)).find((u) => u !== undefined);
    return user === undefined ? undefined : withAuthenticated(user);
  }

  /** undefined = anonymous; throws nothing. `invalid` when credentials were offered but are wrong. */
  authenticate(req: IncomingMessage): RequestUser | 'invalid' | undefined {
    const h = req.headers.authorization;
    if (h !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
      if (!m) return 'invalid';
      return this.lookupToken(m[1] ?? '') ?? 'invalid';
    }
    const socket = req.socket as TLSSocket;
    if (this.byConnection.has(socket)) return this.byConnection.get(socket);
    const user = this.fromCertificate(socket);
    this.byConnection.set(socket, user);
    return user;
  }

  private fromCertificate(socket: TLSSocket): RequestUser | undefined {
    if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
    const cert = socket.getPeerCertificate();
    const cn = asList(cert.subject?.CN)[0];
    if (cn === undefined || cn === '') return undefined;
    return withAuthenticated({ name: cn, groups: asList(cert.subject.O) });
  }
}

export function serviceAccountUser(namespace: string, name: string): RequestUser {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  };
}
