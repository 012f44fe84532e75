import { instanceCachingFactory, Lifecycle, type DependencyContainer } from '../di.js';
import { CONTRACT_VERSION, contractRange, supportsContract } from './contract-version.js';
import type { WmcoProvider } from './define-provider.js';
import { ContractVersionError, DuplicateCapabilityError, DuplicateProviderError } from './errors.js';
import { RecordingRegistrar, type CapabilityResolver, type Registration } from './registrar.js';
import { tokenId } from './token.js';

/** What registerProvider did. */
export interface RegisteredProvider {
  readonly id: string;
  readonly capabilities: readonly string[];
}

interface ContainerState {
  readonly providers: Map<string, string>;
  readonly owners: Map<symbol, string>;
}

// Per-container bookkeeping: tsyringe silently keeps the last of two registrations, so duplicates must be
// caught here. A WeakMap keeps no container alive.
const states = new WeakMap<DependencyContainer, ContainerState>();

function stateOf(container: DependencyContainer): ContainerState {
  let state = states.get(container);
  if (!state) {
    state = { providers: new Map(), owners: new Map() };
    states.set(container, state);
  }
  return state;
}

function describe(provider: WmcoProvider): string {
  return provider.packageName
    ? `provider '${provider.id}' (${provider.packageName})`
    : `provider '${provider.id}'`;
}

function checkVersion(provider: WmcoProvider): void {
  if (supportsContract(provider.contractVersion, CONTRACT_VERSION)) return;
  const range = contractRange(provider.contractVersion);
  throw new ContractVersionError(describe(provider), provider.contractVersion, CONTRACT_VERSION, range);
}

function checkDuplicates(
  container: DependencyContainer,
  provider: WmcoProvider,
  regs: readonly Registration[],
): void {
  const state = stateOf(container);
  const me = describe(provider);
  const existing = state.providers.get(provider.id);
  if (existing !== undefined) throw new DuplicateProviderError(provider.id, existing, me);
  const seen = new Set<symbol>();
  for (const { token } of regs) {
    const owner = state.owners.get(token);
    if (owner !== undefined) throw new DuplicateCapabilityError(tokenId(token), owner, me);
    if (seen.has(token)) throw new DuplicateCapabilityError(tokenId(token), me, `the same provider`);
    if (container.isRegistered(token, true)) {
      throw new DuplicateCapabilityError(tokenId(token), 'a registration made outside registerProvider', me);
    }
    seen.add(token);
  }
}

function apply(container: DependencyContainer, reg: Registration): void {
  switch (reg.kind) {
    case 'value':
      container.register(reg.token, { useValue: reg.value });
      return;
    case 'class':
      container.register(
        reg.token,
        { useClass: reg.implementation },
        { lifecycle: Lifecycle.ContainerScoped },
      );
      return;
    case 'factory': {
      const factory = reg.factory;
      container.register(reg.token, {
        useFactory: instanceCachingFactory((c) => {
          const resolver: CapabilityResolver = {
            resolve: (t) => c.resolve(t),
            has: (t) => c.isRegistered(t, true),
          };
          return factory(resolver);
        }),
      });
      return;
    }
  }
}

/**
 * Registers a provider's capabilities into a container the caller owns. Checks the contract version and
 * refuses a second provider with the same id or a second registration of any capability, naming both
 * parties. All checks happen before the first registration, so a refused provider changes nothing.
 */
export function registerProvider(container: DependencyContainer, provider: WmcoProvider): RegisteredProvider {
  checkVersion(provider);
  const recorder = new RecordingRegistrar();
  provider.register(recorder);
  checkDuplicates(container, provider, recorder.registrations);
  const state = stateOf(container);
  const me = describe(provider);
  state.providers.set(provider.id, me);
  for (const reg of recorder.registrations) {
    apply(container, reg);
    state.owners.set(reg.token, me);
  }
  return { id: provider.id, capabilities: recorder.registrations.map((r) => tokenId(r.token)) };
}
