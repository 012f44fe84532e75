import type { DependencyContainer } from '../di.js';
import type { WmcoProvider } from '../provider/define-provider.js';
import type { PlatformType } from '../provider/platform.js';
import { registerProvider } from '../provider/register-provider.js';
import type { Token } from '../provider/token.js';
import { ActivePlatform } from './active-platform.js';
import { selectProvider } from './select-provider.js';

export interface WmcoCoreOptions {
  /** The embedding host's container; core works in a child of it and never touches the global one. */
  readonly parent: DependencyContainer;
  /** Every provider available to this process; the one serving `platform` is selected. */
  readonly providers: readonly WmcoProvider[];
  /** The cluster platform (`infrastructure/cluster .status.platformStatus.type`). */
  readonly platform: PlatformType;
}

/** A configured core: one child container holding the selected provider's capabilities. */
export interface WmcoCore {
  readonly platform: PlatformType;
  readonly provider: WmcoProvider;
  /** Token ids the selected provider registered. */
  readonly capabilities: readonly string[];
  readonly container: DependencyContainer;
  resolve<T>(capability: Token<T>): T;
  /** The capability, or undefined when the platform does not have it. */
  tryResolve<T>(capability: Token<T>): T | undefined;
  /** Disposes the child container (and every disposable instance in it). */
  dispose(): Promise<void>;
}

/** Selects the provider for `platform` and wires it, with core's defaults, into a fresh child container. */
export function createWmcoCore(options: WmcoCoreOptions): WmcoCore {
  const provider = selectProvider(options.providers, options.platform);
  const container = options.parent.createChildContainer();
  const registered = registerProvider(container, provider);
  container.register(ActivePlatform, { useValue: { platform: options.platform, providerId: provider.id } });
  return {
    platform: options.platform,
    provider,
    capabilities: registered.capabilities,
    container,
    resolve: (capability) => container.resolve(capability),
    tryResolve: (capability) =>
      container.isRegistered(capability, true) ? container.resolve(capability) : undefined,
    dispose: async () => {
      await container.dispose();
    },
  };
}
