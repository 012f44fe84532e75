import type { InstancePhase, InstanceStatus } from './instance-status.js';

/** One condition of the operator itself, as OpenShift's ClusterOperator conditions are written. */
export interface OperatorCondition {
  readonly type: OperatorConditionType;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
  /** When `status` last changed (ISO time). */
  readonly lastTransitionTime: string;
}

export type OperatorConditionType =
  'Available' | 'Progressing' | 'Degraded' | 'PrivateKeyReady' | 'ClusterSupported';

/** The `operator` section of `windows-instances-status`. */
export interface OperatorStatus {
  /** The operator version that wrote it. */
  readonly version: string;
  readonly conditions: readonly OperatorCondition[];
}

/** The private key Secret as the operator finds it. */
export type PrivateKeyState =
  | { readonly state: 'missing'; readonly secret: string }
  | { readonly state: 'unusable'; readonly secret: string; readonly problem: string }
  | { readonly state: 'usable' };

/** What the operator's health is decided from. */
export interface OperatorFacts {
  readonly privateKey: PrivateKeyState;
  /** Why the cluster is not supported (Kubernetes version, network); empty when it is. */
  readonly clusterProblems: readonly string[];
  readonly instances: readonly InstanceStatus[];
}

type Stated = Omit<OperatorCondition, 'lastTransitionTime'>;

/** Phases of an instance the operator is working on. */
const IN_PROGRESS: ReadonlySet<InstancePhase> = new Set<InstancePhase>([
  'Pending',
  'Connecting',
  'Configuring',
  'WaitingForNode',
  'Removing',
  'Upgrading',
  'Rebooting',
]);

/** An instance as a message names it: its Machine or its address. */
const named = (s: InstanceStatus): string => (s.machine === undefined ? s.address : `Machine ${s.machine}`);

/** At most `n` names, then how many more. */
function list(names: readonly string[], n = 5): string {
  const shown = names.slice(0, n).join(', ');
  return names.length > n ? `${shown} and ${names.length - n} more` : shown;
}

function keyCondition(k: PrivateKeyState): Stated {
  if (k.state === 'usable')
    return {
      type: 'PrivateKeyReady',
      status: 'True',
      reason: 'AsExpected',
      message: 'the private key is usable',
    };
  if (k.state === 'missing')
    return {
      type: 'PrivateKeyReady',
      status: 'False',
      reason: 'PrivateKeyMissing',
      message: `Secret ${k.secret} (key private-key.pem) does not exist: no instance is configured or removed until it does`,
    };
  return {
    type: 'PrivateKeyReady',
    status: 'False',
    reason: 'PrivateKeyInvalid',
    message: `Secret ${k.secret} cannot be used: ${k.problem}. Put an unencrypted private key in its private-key.pem`,
  };
}

function clusterCondition(problems: readonly string[]): Stated {
  if (problems.length === 0)
    return {
      type: 'ClusterSupported',
      status: 'True',
      reason: 'AsExpected',
      message: 'the cluster is supported',
    };
  return {
    type: 'ClusterSupported',
    status: 'False',
    reason: 'ClusterNotSupported',
    message: `the cluster is not supported: ${problems.join('; ')}`,
  };
}

/** The first of the conditions that stop every instance, if any. */
function blocker(conditions: readonly Stated[]): Stated | undefined {
  return conditions.find((c) => c.status === 'False');
}

function degraded(block: Stated | undefined, failed: readonly InstanceStatus[]): Stated {
  if (block) return { ...block, type: 'Degraded', status: 'True' };
  if (failed.length > 0)
    return {
      type: 'Degraded',
      status: 'True',
      reason: 'InstancesFailed',
      message: `${failed.length} instance(s) failed: ${list(failed.map(named))}; wmco status shows why`,
    };
  return { type: 'Degraded', status: 'False', reason: 'AsExpected', message: 'no instance failed' };
}

function progressing(working: readonly InstanceStatus[]): Stated {
  if (working.length === 0)
    return {
      type: 'Progressing',
      status: 'False',
      reason: 'AsExpected',
      message: 'no instance is being changed',
    };
  return {
    type: 'Progressing',
    status: 'True',
    reason: 'InstancesChanging',
    message: `${working.length} instance(s) being changed: ${list(working.map((s) => `${named(s)} (${s.phase})`))}`,
  };
}

/**
 * The operator's conditions, from its facts: `PrivateKeyReady` and `ClusterSupported` say what stops every
 * instance; `Available` is False while one of them does; `Degraded` is True then, or while any instance is
 * Failed; `Progressing` is True while any instance is joining, upgrading, rebooting or being removed.
 */
export function operatorConditions(f: OperatorFacts): Stated[] {
  const causes = [clusterCondition(f.clusterProblems), keyCondition(f.privateKey)];
  const block = blocker(causes);
  const available: Stated = block
    ? { ...block, type: 'Available', status: 'False' }
    : {
        type: 'Available',
        status: 'True',
        reason: 'AsExpected',
        message: 'the operator configures Windows instances',
      };
  const failed = f.instances.filter((s) => s.phase === 'Failed');
  const working = f.instances.filter((s) => IN_PROGRESS.has(s.phase));
  return [available, progressing(working), degraded(block, failed), ...causes];
}

/**
 * The conditions of an operator that refused to start on an unsupported cluster (nothing else was read):
 * not Available, Degraded, and why in `ClusterSupported`.
 */
export function refusedStartConditions(problems: readonly string[]): Stated[] {
  const cause = clusterCondition(problems);
  return [
    { ...cause, type: 'Available', status: 'False' },
    { ...cause, type: 'Degraded', status: 'True' },
    cause,
  ];
}

/** The conditions with their transition times: kept from `previous` where the status did not change. */
export function withTransitions(
  previous: readonly OperatorCondition[],
  next: readonly Stated[],
  now: Date,
): OperatorCondition[] {
  return next.map((c) => {
    const before = previous.find((p) => p.type === c.type);
    const since = before?.status === c.status ? before.lastTransitionTime : now.toISOString();
    return { ...c, lastTransitionTime: since };
  });
}
