// The only file of @wmco/core that imports tsyringe (STYLE §3). Everything else takes DI helpers from here.
// tsyringe needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { container, type DependencyContainer } from 'tsyringe';

export { injectable, inject, injectAll, delay, instanceCachingFactory, Lifecycle } from 'tsyringe';
export type { DependencyContainer, InjectionToken } from 'tsyringe';

/**
 * A new, empty container for tests and for the CLI's one-shot commands. tsyringe can only make containers
 * as children of its global one; nothing is ever registered into the global container itself, so children
 * share nothing. Long-running hosts (the operator's main, embedding controllers) pass their own parent.
 */
export function newRootContainer(): DependencyContainer {
  return container.createChildContainer();
}
