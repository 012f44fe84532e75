import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CloudFaults, NoAnswer, type CloudErrorFault } from '../cloud-faults.js';
import type { SimCloudInstance } from '../cloud-instance.js';
import { HttpsEndpoint } from '../https-endpoint.js';
import { EC2_ACTIONS } from './ec2-actions.js';
import { listParam } from './ec2-params.js';
import { Ec2Iam, type AwsAccessKey } from './ec2-iam.js';
import { Ec2State, type Ec2InstanceSpec, type SimSecurityGroup } from './ec2-state.js';
import { Ec2Error, ec2Error, ec2Response } from './ec2-xml.js';
import { verifySigV4 } from './sigv4-verifier.js';

export interface SimEc2Options {
  readonly region?: string;
  readonly accountId?: string;
}

const FAULTS: Readonly<Record<CloudErrorFault, (action: string) => Ec2Error>> = {
  throttle: () => new Ec2Error(503, 'RequestLimitExceeded', 'Request limit exceeded.'),
  unauthorized: (a) =>
    new Ec2Error(
      403,
      'UnauthorizedOperation',
      `You are not authorized to perform this operation (ec2:${a}).`,
    ),
  'not-found': () => new Ec2Error(400, 'InvalidInstanceID.NotFound', 'The instance ID does not exist'),
  'server-error': () => new Ec2Error(500, 'InternalError', 'An internal error has occurred.'),
};

/**
 * A simulated EC2 region on loopback HTTPS: the Query API (form-encoded `Action=...`, API version
 * 2016-11-15), XML responses and error documents, SigV4 signatures verified against the one access key
 * it issued. Only DescribeInstances, CreateTags, DeleteTags and DescribeSecurityGroups are served.
 * `credentials` is the installer's key (every action); `iam.add` mints keys limited to listed actions.
 */
export class SimEc2 {
  readonly faults = new CloudFaults();
  readonly iam: Ec2Iam;
  readonly credentials: AwsAccessKey;
  private endpoint: HttpsEndpoint | undefined;

  private constructor(readonly state: Ec2State) {
    this.iam = new Ec2Iam(state.accountId, state.region);
    this.credentials = this.iam.add('openshift-installer', 'all');
  }

  static async start(options: SimEc2Options = {}): Promise<SimEc2> {
    const ec2 = new SimEc2(new Ec2State(options.region ?? 'us-east-2', options.accountId ?? '123456789012'));
    ec2.endpoint = await HttpsEndpoint.start('ec2', (req, body, res) => ec2.handle(req, body, res));
    return ec2;
  }

  get url(): string {
    return this.started().url;
  }

  get caPem(): string {
    return this.started().caPem;
  }

  get region(): string {
    return this.state.region;
  }

  addInstance(spec: Ec2InstanceSpec): SimCloudInstance {
    return this.state.addInstance(spec);
  }

  addSecurityGroup(group: SimSecurityGroup): void {
    this.state.addSecurityGroup(group);
  }

  /** `infrastructure/cluster .status.platformStatus.aws` pointing the EC2 client at this region. */
  platformStatus(): Record<string, unknown> {
    return { region: this.region, serviceEndpoints: [{ name: 'ec2', url: this.url }] };
  }

  /** The kube-system/aws-creds Secret data, as the OpenShift installer writes it. */
  credentialsSecret(): { namespace: string; name: string; data: Record<string, string> } {
    return {
      namespace: 'kube-system',
      name: 'aws-creds',
      data: {
        aws_access_key_id: this.credentials.accessKeyId,
        aws_secret_access_key: this.credentials.secretAccessKey,
      },
    };
  }

  privateDnsName(instanceId: string): string | undefined {
    return this.state.dnsNames.get(instanceId);
  }

  async close(): Promise<void> {
    await this.endpoint?.close();
  }

  private started(): HttpsEndpoint {
    if (!this.endpoint) throw new Error('simulated EC2 is not started');
    return this.endpoint;
  }

  private handle(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    try {
      const xml = this.dispatch(req, body, requestId);
      res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId });
      res.end(xml);
    } catch (error) {
      if (error instanceof NoAnswer) return Promise.resolve();
      const e = error instanceof Ec2Error ? error : new Ec2Error(500, 'InternalError', String(error));
      res.writeHead(e.status, { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId });
      res.end(ec2Error(e.code, e.message, requestId));
    }
    return Promise.resolve();
  }

  /** Verifies the signature; returns the access key id it was made with. */
  private authenticate(req: IncomingMessage, body: Buffer): string {
    const refusal = verifySigV4(
      { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body },
      'ec2',
      (id) => this.iam.secretOf(id),
    );
    if (refusal)
      throw new Ec2Error(refusal.code === 'AuthFailure' ? 401 : 400, refusal.code, refusal.message);
    return /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
  }

  private dispatch(req: IncomingMessage, body: Buffer, requestId: string): string {
    const query = (req.url ?? '/').split('?')[1] ?? '';
    const params = new URLSearchParams(req.method === 'POST' ? body.toString('utf8') : query);
    const accessKeyId = this.authenticate(req, body);
    const action = params.get('Action') ?? '';
    const run = EC2_ACTIONS.get(action);
    if (!run)
      throw new Ec2Error(400, 'InvalidAction', `The action ${action} is not valid for this web service.`);
    const version = params.get('Version');
    if (version !== '2016-11-15')
      throw new Ec2Error(400, 'InvalidParameterValue', `Unsupported API version ${String(version)}`);
    this.iam.authorize(accessKeyId, action, listParam(params, 'ResourceId')[0]);
    this.faults.raise(action, FAULTS);
    return ec2Response(action, requestId, run(this.state, params));
  }
}
