import type { Token } from './token.js';

/** A class that implements a capability. Give it `@injectable()` and `@inject(Token)` on every parameter. */
export type Constructor<T> = new (...args: never[]) => T;

/** Lets a factory reach other capabilities registered in the same container. */
export interface CapabilityResolver {
  resolve<T>(capability: Token<T>): T;
  has(capability: Token<unknown>): boolean;
}

/**
 * What a provider's `register` receives. Registrations are recorded first and applied to the container
 * only when the whole provider is valid, so a refused provider leaves the container untouched. Every
 * capability resolves to one instance per container.
 */
export interface ProviderRegistrar {
  useValue<T>(capability: Token<T>, value: T): void;
  useClass<T>(capability: Token<T>, implementation: Constructor<T>): void;
  useFactory<T>(capability: Token<T>, factory: (resolver: CapabilityResolver) => T): void;
}

export type Registration =
  | { readonly kind: 'value'; readonly token: Token<unknown>; readonly value: unknown }
  | { readonly kind: 'class'; readonly token: Token<unknown>; readonly implementation: Constructor<unknown> }
  | {
      readonly kind: 'factory';
      readonly token: Token<unknown>;
      readonly factory: (resolver: CapabilityResolver) => unknown;
    };

/** A registrar that only records, used to validate a provider and to list its capabilities. */
export class RecordingRegistrar implements ProviderRegistrar {
  readonly registrations: Registration[] = [];

  useValue<T>(capability: Token<T>, value: T): void {
    this.registrations.push({ kind: 'value', token: capability, value });
  }

  useClass<T>(capability: Token<T>, implementation: Constructor<T>): void {
    this.registrations.push({ kind: 'class', token: capability, implementation });
  }

  useFactory<T>(capability: Token<T>, factory: (resolver: CapabilityResolver) => T): void {
    this.registrations.push({ kind: 'factory', token: capability, factory });
  }
}
