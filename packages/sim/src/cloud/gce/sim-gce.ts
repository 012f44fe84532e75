import type { IncomingMessage, ServerResponse } from 'node:http';
import { CloudFaults, NoAnswer, type CloudErrorFault } from '../cloud-faults.js';
import type { CloudInstanceSpec, SimCloudInstance } from '../cloud-instance.js';
import { HttpsEndpoint } from '../https-endpoint.js';
import { GceError, notFound } from './gce-errors.js';
import { GceJson } from './gce-json.js';
import { matchRoute } from './gce-routes.js';
import { GceState, type SimFirewall } from './gce-state.js';
import { GceTokenIssuer, TokenError, type GceServiceAccount, type ServiceAccountKey } from './gce-token.js';
import { allows, type CloudRefusal } from '../cloud-grants.js';

export interface SimGceOptions {
  readonly project?: string;
  readonly region?: string;
}

const FAULTS: Readonly<Record<CloudErrorFault, (method: string) => GceError>> = {
  throttle: () =>
    new GceError(
      429,
      'rateLimitExceeded',
      "Quota exceeded for quota metric 'Queries' of service 'compute.googleapis.com'",
    ),
  unauthorized: (m) => new GceError(403, 'forbidden', `Required 'compute.${m}' permission`),
  'not-found': (m) => notFound(`simulated fault for ${m}`),
  'server-error': () => new GceError(503, 'backendError', 'Backend Error'),
};

/** The IAM permission each compute v1 method checks (compute API reference, "IAM Permissions"). */
const PERMISSIONS: Readonly<Record<string, string>> = {
  'instances.aggregatedList': 'compute.instances.list',
  'instances.list': 'compute.instances.list',
  'instances.get': 'compute.instances.get',
  'instances.setLabels': 'compute.instances.setLabels',
  'zoneOperations.get': 'compute.zoneOperations.get',
  'zoneOperations.wait': 'compute.zoneOperations.get',
  'firewalls.list': 'compute.firewalls.list',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/**
 * A simulated GCE project on loopback HTTPS: compute v1 REST JSON for instances (aggregated list, get,
 * setLabels with label fingerprints), zonal operations and firewalls, plus Google's OAuth2 token endpoint
 * (`/token`, named in the service-account key's `token_uri`).
 */
export class SimGce {
  readonly faults = new CloudFaults();
  /** Calls refused for want of an IAM permission. */
  readonly refused: CloudRefusal[] = [];
  private endpoint: HttpsEndpoint | undefined;
  private issuer: GceTokenIssuer | undefined;
  private json: GceJson | undefined;

  private constructor(readonly state: GceState) {}

  static async start(options: SimGceOptions = {}): Promise<SimGce> {
    const gce = new SimGce(
      new GceState(options.project ?? 'wmco-sim-project', options.region ?? 'us-central1'),
    );
    const endpoint = await HttpsEndpoint.start('gce', (req, body, res) => gce.handle(req, body, res));
    gce.endpoint = endpoint;
    gce.issuer = new GceTokenIssuer(gce.state.project, `${endpoint.url}/token`);
    gce.json = new GceJson(endpoint.url, gce.state);
    return gce;
  }

  get url(): string {
    return this.started().endpoint.url;
  }

  get caPem(): string {
    return this.started().endpoint.caPem;
  }

  /** The service-account key JSON, as kube-system/gcp-credentials `service_account.json` holds it. */
  get serviceAccountKey(): ServiceAccountKey {
    return this.started().issuer.key;
  }

  /** Adds a service account whose roles hold only `permissions`; returns its key JSON. */
  addServiceAccount(name: string, permissions: readonly string[]): ServiceAccountKey {
    return this.started().issuer.addServiceAccount(name, permissions);
  }

  /** An access token for clients given one directly (gcloud `--access-token-file`). */
  accessToken(): string {
    return this.started().issuer.issueDirect();
  }

  addInstance(spec: CloudInstanceSpec): SimCloudInstance {
    return this.state.addInstance(spec);
  }

  addFirewall(rule: SimFirewall): void {
    this.state.firewalls.push(rule);
  }

  labelFingerprint(instance: SimCloudInstance): string {
    return GceState.fingerprint(instance);
  }

  /** `infrastructure/cluster .status.platformStatus.gcp`, with the Compute endpoint override. */
  platformStatus(): Record<string, unknown> {
    return {
      projectID: this.state.project,
      region: this.state.region,
      serviceEndpoints: [{ name: 'Compute', url: this.url }],
    };
  }

  credentialsSecret(): { namespace: string; name: string; data: Record<string, string> } {
    return {
      namespace: 'kube-system',
      name: 'gcp-credentials',
      data: { 'service_account.json': JSON.stringify(this.serviceAccountKey) },
    };
  }

  async close(): Promise<void> {
    await this.endpoint?.close();
  }

  private started(): { endpoint: HttpsEndpoint; issuer: GceTokenIssuer; json: GceJson } {
    if (!this.endpoint || !this.issuer || !this.json) throw new Error('simulated GCE is not started');
    return { endpoint: this.endpoint, issuer: this.issuer, json: this.json };
  }

  private handle(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    try {
      const [status, out] = this.answer(req, body);
      send(res, status, out);
    } catch (error) {
      if (error instanceof NoAnswer) return Promise.resolve();
      if (error instanceof TokenError)
        send(res, 400, { error: error.error, error_description: error.description });
      else if (error instanceof GceError) send(res, error.status, error.body());
      else send(res, 500, new GceError(500, 'backendError', String(error)).body());
    }
    return Promise.resolve();
  }

  private authenticate(authorization: string | undefined): GceServiceAccount {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const account = bearer ? this.started().issuer.accountOf(bearer) : undefined;
    if (!account) throw new GceError(401, 'authError', 'Invalid Credentials');
    return account;
  }

  /** Compute's refusal: HTTP 403, reason `forbidden`, "Required '<permission>' permission for '<resource>'". */
  private authorize(account: GceServiceAccount, method: string, path: string): void {
    const permission = PERMISSIONS[method] ?? `compute.${method}`;
    if (allows(account.grants, permission)) return;
    this.refused.push({ principal: account.key.client_email, permission });
    const resource = path
      .replace(/^\/compute\/v1\//, '')
      .replace(/\/(setLabels|wait|aggregated\/instances|global\/firewalls)$/, '')
      .replace(/\/zones\/[^/]+\/instances$/, '');
    throw new GceError(403, 'forbidden', `Required '${permission}' permission for '${resource}'`);
  }

  private answer(req: IncomingMessage, body: Buffer): [number, unknown] {
    const { issuer, json } = this.started();
    const url = new URL(req.url ?? '/', 'https://sim.invalid');
    const method = req.method ?? 'GET';
    if (url.pathname === '/token' && method === 'POST') return [200, issuer.grant(body.toString('utf8'))];
    const account = this.authenticate(req.headers.authorization);
    const hit = matchRoute(method, url.pathname);
    if (!hit) throw new GceError(404, 'notFound', `Not Found: ${method} ${url.pathname}`);
    const project = hit.params[0] ?? '';
    if (project !== this.state.project) throw notFound(`projects/${project}`);
    this.authorize(account, hit.route.name, url.pathname);
    this.faults.raise(hit.route.name, FAULTS);
    const parsed: unknown = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
    return [
      200,
      hit.route.run(this.state, json, { method, params: hit.params, query: url.searchParams, body: parsed }),
    ];
  }
}
