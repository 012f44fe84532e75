import type { DependencyContainer } from '../di.js';
import type { WmcoProvider } from '../provider/define-provider.js';
import type { PlatformType } from '../provider/platform.js';
import { registerProvider } from '../provider/register-provider.js';
import type { Token } from '../provider/token.js';
import { ActivePlatform } from '../core/active-platform.js';
import { selectProvider } from '../core/select-provider.js';
import { buildControllers, type WmcoControllers } from './wmco-controllers.js';
import type { WmcoControllersOptions } from './wmco-controllers-options.js';

export interface WmcoCoreOptions {
  /** The embedding host's container; core works in a child of it and never touches the global one. */
  readonly parent: DependencyContainer;
  /** Every provider available to this process; the one serving `platform` is selected. */
  readonly providers: readonly WmcoProvider[];
  /** The cluster platform (`infrastructure/cluster .status.platformStatus.type`). */
  readonly platform: PlatformType;
}

/**
 * A configured core: one child container holding the selected provider's capabilities, and the builder
 * of the controllers that join, maintain and remove Windows nodes with them.
 */
export interface WmcoCore {
  readonly platform: PlatformType;
  readonly provider: WmcoProvider;
  /** Token ids the selected provider registered. */
  readonly capabilities: readonly string[];
  readonly container: DependencyContainer;
  resolve<T>(capability: Token<T>): T;
  /** The capability, or undefined when the platform does not have it. */
  tryResolve<T>(capability: Token<T>): T | undefined;
  /**
   * Builds the controllers of one cluster with this platform's provider: the BYOH source
   * (`windows-instances`, or the embedder's own `instances` list), the Machine source (where the cluster serves Machines and the provider can
   * configure them), kubelet CSR approval, the lifecycle every source shares, the cluster configuration
   * watches and the windows-exporter ServiceMonitor. Reads the payload manifest and the operator's node
   * records before it resolves; starts nothing that joins or changes a node: the caller starts the
   * result's runnables (see {@link WmcoControllers}) while it is the one process that may act.
   */
  controllers(options: WmcoControllersOptions): Promise<WmcoControllers>;
  /** Disposes the child container (and every disposable instance in it). */
  dispose(): Promise<void>;
}

/** Selects the provider for `platform` and wires it, with core's defaults, into a fresh child container. */
export function createWmcoCore(options: WmcoCoreOptions): WmcoCore {
  const provider = selectProvider(options.providers, options.platform);
  const container = options.parent.createChildContainer();
  const registered = registerProvider(container, provider);
  container.register(ActivePlatform, { useValue: { platform: options.platform, providerId: provider.id } });
  const core: WmcoCore = {
    platform: options.platform,
    provider,
    capabilities: registered.capabilities,
    container,
    resolve: (capability) => container.resolve(capability),
    tryResolve: (capability) =>
      container.isRegistered(capability, true) ? container.resolve(capability) : undefined,
    controllers: (o) => buildControllers(core, o),
    dispose: async () => {
      await container.dispose();
    },
  };
  return core;
}
