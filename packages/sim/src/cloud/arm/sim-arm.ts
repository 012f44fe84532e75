import type { IncomingMessage, ServerResponse } from 'node:http';
import { CloudFaults, NoAnswer, type CloudErrorFault } from '../cloud-faults.js';
import type { CloudInstanceSpec, SimCloudInstance } from '../cloud-instance.js';
import { HttpsEndpoint } from '../https-endpoint.js';
import { AadError, ArmError } from './arm-errors.js';
import { matchArmRoute, type ArmAnswer } from './arm-routes.js';
import { ArmState } from './arm-state.js';
import { AadTenant, ARM_AUDIENCE, type AadServicePrincipal } from './arm-token.js';
import { allows, type CloudRefusal } from '../cloud-grants.js';

export interface SimArmOptions {
  readonly resourceGroup?: string;
  readonly location?: string;
}

const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

const FAULTS: Readonly<Record<CloudErrorFault, (op: string) => ArmError>> = {
  throttle: () =>
    new ArmError(
      429,
      'TooManyRequests',
      'The request is being throttled as the limit has been reached for operation type.',
      {
        'retry-after': '1',
      },
    ),
  unauthorized: (op) =>
    new ArmError(
      403,
      'AuthorizationFailed',
      `The client does not have authorization to perform action '${op}' over scope.`,
    ),
  'not-found': () => new ArmError(404, 'ResourceNotFound', 'The Resource was not found.'),
  'server-error': () => new ArmError(500, 'InternalServerError', 'Encountered internal server error.'),
};

function checkApiVersion(version: string | null): void {
  if (!version)
    throw new ArmError(
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required for all requests.',
    );
  if (!API_VERSION.test(version))
    throw new ArmError(400, 'InvalidApiVersionParameter', `The api-version '${version}' is invalid.`);
}

function send(res: ServerResponse, a: ArmAnswer): void {
  res.writeHead(a.status, {
    'content-type': 'application/json; charset=utf-8',
    'x-ms-request-id': 'sim',
    ...a.headers,
  });
  res.end(JSON.stringify(a.body));
}

/**
 * A simulated Azure Resource Manager (compute and network reads) and Entra ID tenant on loopback HTTPS:
 * `api-version` required, ARM error bodies, `Azure-AsyncOperation` long-running operations, and the
 * OAuth2 client-credentials token endpoint with its openid-configuration (an authority host for
 * `@azure/identity` with instance discovery off). `/metadata/endpoints` describes it as a custom cloud.
 */
export class SimArm {
  readonly faults = new CloudFaults();
  readonly tenant: AadTenant;
  /** Calls refused for want of a role permission. */
  readonly refused: CloudRefusal[] = [];
  private endpoint: HttpsEndpoint | undefined;

  private constructor(readonly state: ArmState) {
    this.tenant = new AadTenant(() => this.url);
  }

  static async start(options: SimArmOptions = {}): Promise<SimArm> {
    const arm = new SimArm(new ArmState(options.resourceGroup ?? 'sim-rg', options.location ?? 'eastus'));
    arm.endpoint = await HttpsEndpoint.start('arm', (req, body, res) => arm.handle(req, body, res));
    return arm;
  }

  get url(): string {
    if (!this.endpoint) throw new Error('simulated ARM is not started');
    return this.endpoint.url;
  }

  get caPem(): string {
    if (!this.endpoint) throw new Error('simulated ARM is not started');
    return this.endpoint.caPem;
  }

  addInstance(spec: CloudInstanceSpec): SimCloudInstance {
    return this.state.addVm(spec);
  }

  /** `infrastructure/cluster .status.platformStatus.azure` for a custom cloud whose ARM is this endpoint. */
  platformStatus(): Record<string, unknown> {
    return {
      resourceGroupName: this.state.resourceGroup,
      cloudName: 'AzureStackCloud',
      armEndpoint: this.url,
    };
  }

  /** kube-system/azure-credentials, with the keys the OpenShift installer writes. */
  credentialsSecret(): { namespace: string; name: string; data: Record<string, string> } {
    return {
      namespace: 'kube-system',
      name: 'azure-credentials',
      data: {
        azure_subscription_id: this.state.subscriptionId,
        azure_client_id: this.tenant.clientId,
        azure_client_secret: this.tenant.clientSecret,
        azure_tenant_id: this.tenant.tenantId,
        azure_resourcegroup: this.state.resourceGroup,
        azure_region: this.state.location,
        azure_resource_prefix: this.state.resourceGroup.replace(/-rg$/, ''),
      },
    };
  }

  async close(): Promise<void> {
    await this.endpoint?.close();
  }

  private handle(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    try {
      send(res, this.answer(req, body));
    } catch (error) {
      if (error instanceof NoAnswer) return Promise.resolve();
      if (error instanceof AadError) send(res, { status: error.status, body: error.body() });
      else if (error instanceof ArmError)
        send(res, { status: error.status, body: error.body(), headers: error.headers });
      else send(res, { status: 500, body: new ArmError(500, 'InternalServerError', String(error)).body() });
    }
    return Promise.resolve();
  }

  private answer(req: IncomingMessage, body: Buffer): ArmAnswer {
    const url = new URL(req.url ?? '/', 'https://sim.invalid');
    const method = req.method ?? 'GET';
    const aad = /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/token)$/.exec(
      url.pathname,
    );
    if (aad) return this.answerAad(aad[1] ?? '', aad[2] ?? '', body);
    if (url.pathname === '/metadata/endpoints') return { status: 200, body: this.metadata() };
    const principal = this.authenticate(req.headers.authorization);
    checkApiVersion(url.searchParams.get('api-version'));
    const hit = matchArmRoute(method, url.pathname);
    if (!hit)
      throw new ArmError(
        404,
        'InvalidResourceType',
        `The resource type could not be found: ${method} ${url.pathname}`,
      );
    this.checkScope(hit.params);
    this.authorize(principal, hit.route.name, url.pathname);
    this.faults.raise(hit.route.name, FAULTS);
    const parsed: unknown = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
    return hit.route.run(this.state, {
      params: hit.params,
      query: url.searchParams,
      body: parsed,
      base: this.url,
    });
  }

  private answerAad(tenant: string, what: string, body: Buffer): ArmAnswer {
    if (what.startsWith('v2.0')) return { status: 200, body: this.tenant.openIdConfiguration(tenant) };
    return { status: 200, body: this.tenant.grant(tenant, body.toString('utf8')) };
  }

  private metadata(): Record<string, unknown> {
    return {
      galleryEndpoint: this.url,
      graphEndpoint: this.url,
      portalEndpoint: this.url,
      authentication: { loginEndpoint: `${this.url}/`, audiences: [ARM_AUDIENCE] },
    };
  }

  private authenticate(authorization: string | undefined): AadServicePrincipal {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const principal = bearer ? this.tenant.principalOf(bearer) : undefined;
    if (!principal) throw new ArmError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
    return principal;
  }

  /** Azure RBAC's refusal: HTTP 403 `AuthorizationFailed` naming the client, object id, action and scope. */
  private authorize(p: AadServicePrincipal, action: string, scope: string): void {
    if (allows(p.grants, action)) return;
    this.refused.push({ principal: p.clientId, permission: action });
    throw new ArmError(
      403,
      'AuthorizationFailed',
      `The client '${p.clientId}' with object id '${p.objectId}' does not have authorization to perform action '${action}' over scope '${scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
    );
  }

  private checkScope(params: readonly string[]): void {
    if (params[0] !== this.state.subscriptionId)
      throw new ArmError(
        404,
        'SubscriptionNotFound',
        `The subscription '${params[0] ?? ''}' could not be found.`,
      );
  }
}
