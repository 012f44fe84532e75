import { randomBytes } from 'node:crypto';
import { allows, type CloudGrants, type CloudRefusal } from '../cloud-grants.js';
import { Ec2Error } from './ec2-xml.js';

export interface AwsAccessKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

interface IamUser {
  readonly name: string;
  readonly key: AwsAccessKey;
  readonly grants: CloudGrants;
}

export function newAccessKey(): AwsAccessKey {
  return {
    accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64'),
  };
}

/** Actions EC2 authorizes per instance (the refusal names the resource); Describe* are account-wide. */
const INSTANCE_ACTIONS = new Set(['CreateTags', 'DeleteTags']);

/**
 * The IAM users of the simulated account and their access keys: the installer's (every action) and the
 * ones a cloud credential operator mints with the actions of a CredentialsRequest's `statementEntries`.
 */
export class Ec2Iam {
  private readonly users = new Map<string, IamUser>();
  readonly refused: CloudRefusal[] = [];

  constructor(
    private readonly accountId: string,
    private readonly region: string,
  ) {}

  add(name: string, grants: CloudGrants, key: AwsAccessKey = newAccessKey()): AwsAccessKey {
    this.users.set(key.accessKeyId, { name, key, grants });
    return key;
  }

  /** The secret of an access key id, for the SigV4 check. */
  secretOf(accessKeyId: string): string | undefined {
    return this.users.get(accessKeyId)?.key.secretAccessKey;
  }

  /**
   * Refuses an action the key's user holds no grant for, as EC2 does: HTTP 403 `UnauthorizedOperation`,
   * "You are not authorized to perform this operation. User: <arn> is not authorized to perform:
   * ec2:<Action> [on resource: <arn>] because no identity-based policy allows the ec2:<Action> action".
   */
  authorize(accessKeyId: string, action: string, firstResource: string | undefined): void {
    const user = this.users.get(accessKeyId);
    if (!user) return;
    const permission = `ec2:${action}`;
    if (allows(user.grants, permission)) return;
    this.refused.push({ principal: user.name, permission });
    const arn = `arn:aws:iam::${this.accountId}:user/${user.name}`;
    const on =
      INSTANCE_ACTIONS.has(action) && firstResource
        ? ` on resource: arn:aws:ec2:${this.region}:${this.accountId}:instance/${firstResource}`
        : '';
    throw new Ec2Error(
      403,
      'UnauthorizedOperation',
      `You are not authorized to perform this operation. User: ${arn} is not authorized to perform: ${permission}${on} because no identity-based policy allows the ${permission} action`,
    );
  }
}
