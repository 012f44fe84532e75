import { randomBytes, randomUUID } from 'node:crypto';
import type { CloudGrants } from '../cloud-grants.js';
import { AadError } from './arm-errors.js';

export const ARM_AUDIENCE = 'https://management.azure.com/';

/** A service principal: its application (client) id and secret, object id, and role permissions. */
export interface AadServicePrincipal {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly objectId: string;
  readonly grants: CloudGrants;
}

function newPrincipal(grants: CloudGrants): AadServicePrincipal {
  return {
    clientId: randomUUID(),
    clientSecret: `sim~${randomBytes(24).toString('base64url')}`,
    objectId: randomUUID(),
    grants,
  };
}

/**
 * Service principals with client secrets, and the Entra ID endpoints MSAL reads for the tenant. The
 * first (`clientId`, `clientSecret`) is the installer's, allowed every operation; `addPrincipal` adds
 * ones whose role assignments allow only the listed operations.
 */
export class AadTenant {
  readonly tenantId = randomUUID();
  private readonly root = newPrincipal('all');
  readonly clientId = this.root.clientId;
  readonly clientSecret = this.root.clientSecret;
  private readonly principals = new Map<string, AadServicePrincipal>([[this.root.clientId, this.root]]);
  private readonly tokens = new Map<string, { until: number; principal: AadServicePrincipal }>();

  constructor(private readonly baseUrl: () => string) {}

  addPrincipal(grants: CloudGrants): AadServicePrincipal {
    const p = newPrincipal(grants);
    this.principals.set(p.clientId, p);
    return p;
  }

  /** `GET /{tenant}/v2.0/.well-known/openid-configuration` (authority metadata MSAL fetches first). */
  openIdConfiguration(tenant: string): Record<string, unknown> {
    if (tenant !== this.tenantId)
      throw new AadError(400, 'invalid_tenant', 90002, `Tenant '${tenant}' not found.`);
    const base = `${this.baseUrl()}/${tenant}`;
    return {
      token_endpoint: `${base}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${this.baseUrl()}/${tenant}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: `${base}/v2.0`,
      request_uri_parameter_supported: false,
      userinfo_endpoint: `${this.baseUrl()}/oidc/userinfo`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'tid'],
      tenant_region_scope: 'NA',
      cloud_instance_name: 'sim.invalid',
    };
  }

  /** `POST /{tenant}/oauth2/v2.0/token` with the client-credentials grant. */
  grant(tenant: string, body: string): Record<string, unknown> {
    const form = new URLSearchParams(body);
    if (tenant !== this.tenantId)
      throw new AadError(400, 'invalid_tenant', 90002, `Tenant '${tenant}' not found.`);
    if (form.get('grant_type') !== 'client_credentials')
      throw new AadError(
        400,
        'unsupported_grant_type',
        70003,
        'The app requested an unsupported grant type.',
      );
    const principal = this.principals.get(form.get('client_id') ?? '');
    if (!principal)
      throw new AadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${form.get('client_id') ?? ''}' was not found in the directory.`,
      );
    if (form.get('client_secret') !== principal.clientSecret)
      throw new AadError(
        401,
        'invalid_client',
        7000215,
        'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
      );
    if (form.get('scope') !== `${ARM_AUDIENCE}.default`)
      throw new AadError(
        400,
        'invalid_scope',
        70011,
        `The provided value for scope ${form.get('scope') ?? ''} is not valid.`,
      );
    const token = `eyJ0eXAiOiJKV1QiLCJzaW0iOnRydWV9.${randomBytes(32).toString('base64url')}`;
    this.tokens.set(token, { until: Date.now() + 3600_000, principal });
    return { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token };
  }

  /** The service principal a bearer token was issued to, while it has not expired. */
  principalOf(token: string): AadServicePrincipal | undefined {
    const t = this.tokens.get(token);
    return t !== undefined && t.until > Date.now() ? t.principal : undefined;
  }
}
