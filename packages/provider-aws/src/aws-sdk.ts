import type * as Ec2Module from '@aws-sdk/client-ec2';

/** `@aws-sdk/client-ec2`, as loaded on first use. */
export type Ec2Sdk = typeof Ec2Module;

let loading: Promise<Ec2Sdk> | undefined;

/**
 * The EC2 SDK, loaded on first use: an operator on another platform, and every `wmco` command that never
 * calls EC2, does not pay for loading it (about a second of CPU at start-up).
 */
export function ec2Sdk(): Promise<Ec2Sdk> {
  loading ??= import('@aws-sdk/client-ec2');
  return loading;
}
