import type { ExecutionContext, TestFn } from 'ava';
import { newRootContainer } from '../di.js';
import { PlatformPrerequisites } from '../provider/capabilities/platform-prerequisites.js';
import type { WmcoProvider } from '../provider/define-provider.js';
import { registerProvider } from '../provider/register-provider.js';
import { RecordingRegistrar } from '../provider/registrar.js';
import { tokenId, type Token } from '../provider/token.js';
import { CAPABILITY_CONTRACTS } from './contract/all-contracts.js';
import type { CapabilityContract } from './contract/capability-contract.js';

/** Registers the provider into a fresh container (as the operator does) and resolves one capability. */
function resolveFresh<T>(provider: WmcoProvider, capability: Token<T>): T {
  const container = newRootContainer();
  registerProvider(container, provider);
  return container.resolve<T>(capability);
}

function recordedTokens(provider: WmcoProvider): { tokens: symbol[]; returned: unknown } {
  const recorder = new RecordingRegistrar();
  const returned: unknown = provider.register(recorder);
  return { tokens: recorder.registrations.map((r) => r.token), returned };
}

function describeProviderChecks(
  test: TestFn,
  provider: WmcoProvider,
  title: (c: string, n: string) => string,
): void {
  test(title('provider', 'registers into a fresh container'), (t) => {
    const registered = registerProvider(newRootContainer(), provider);
    t.true(registered.capabilities.length > 0, 'a provider registers at least one capability');
  });
  test(title('provider', 'register is synchronous and repeatable'), (t) => {
    const first = recordedTokens(provider);
    t.is(first.returned, undefined, 'register must return nothing (no promise: registration is synchronous)');
    t.deepEqual(recordedTokens(provider).tokens, first.tokens, 'a second register call registers the same');
  });
  test(title('provider', 'registers PlatformPrerequisites'), (t) => {
    t.true(
      recordedTokens(provider).tokens.includes(PlatformPrerequisites),
      "pre-flight needs every platform's prerequisites",
    );
  });
}

function describeCapability(
  test: TestFn,
  provider: WmcoProvider,
  contract: CapabilityContract<unknown>,
  title: (c: string, n: string) => string,
): void {
  for (const check of contract.checks) {
    test(title(contract.name, check.name), (t) => check.run(t, resolveFresh(provider, contract.capability)));
  }
  const snapshot = contract.snapshot?.bind(contract);
  if (!snapshot) return;
  test(title(contract.name, 'deterministic across containers and calls'), (t: ExecutionContext) => {
    const a = resolveFresh(provider, contract.capability);
    const b = resolveFresh(provider, contract.capability);
    const first = snapshot(a);
    t.deepEqual(snapshot(a), first, 'a second call on the same instance differs');
    t.deepEqual(snapshot(b), first, 'an instance from another container differs');
  });
}

/**
 * Registers the provider contract suite as ava tests named `<provider id>: <capability>: <check>`: checks
 * on the provider itself, then, for every capability the provider registers (and only those), its shape,
 * the rules of that capability (valid service specs, absolute Windows payload paths, user data carrying
 * the public key exactly once, PowerShell that parses, consistent prerequisites) and determinism.
 * Call it at the top level of `src/<id>-provider.contract.test.ts`.
 */
export function describeProviderContract(test: TestFn, provider: WmcoProvider): void {
  const title = (capability: string, check: string): string => `${provider.id}: ${capability}: ${check}`;
  describeProviderChecks(test, provider, title);
  let tokens: symbol[];
  try {
    tokens = recordedTokens(provider).tokens;
  } catch (err) {
    test(title('provider', 'register runs'), (t) => t.fail(`register threw: ${String(err)}`));
    return;
  }
  for (const capability of tokens) {
    const contract = CAPABILITY_CONTRACTS.get(capability);
    if (contract) {
      describeCapability(test, provider, contract, title);
      continue;
    }
    // A capability this core version does not know (a third party's own token): it must at least resolve.
    test(title(tokenId(capability), 'resolves'), (t) => t.not(resolveFresh(provider, capability), undefined));
  }
}
