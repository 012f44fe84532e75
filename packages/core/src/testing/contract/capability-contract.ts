import type { ExecutionContext } from 'ava';
import type { Token } from '../../provider/token.js';

/** One check of one capability; `run` gets a capability resolved from a fresh container. */
export interface ContractCheck<T> {
  readonly name: string;
  run(t: ExecutionContext, capability: T): void | Promise<void>;
}

/** What the contract suite knows about one capability of the contract. */
export interface CapabilityContract<T> {
  readonly capability: Token<T>;
  /** The interface name, used in test titles: `<provider>: <name>: <check>`. */
  readonly name: string;
  /**
   * A plain, serialisable picture of everything the capability outputs for fixed inputs, compared across
   * containers for determinism; absent when the outputs come from the outside world (cloud SDKs).
   */
  snapshot?(capability: T): unknown;
  readonly checks: readonly ContractCheck<T>[];
}

/** Helper that keeps `T` when a contract is written as an object literal. */
export function capabilityContract<T>(contract: CapabilityContract<T>): CapabilityContract<T> {
  return contract;
}
