import type { KnownInstance } from '../admit/csr-policy.js';

/**
 * The exact node name each BYOH instance registers under, learnt on the host during its join (the
 * platform's hostname override evaluated there, else its computer name). The CSR approver approves
 * only names found here.
 */
export class NodeNameRegistry {
  private readonly byAddress = new Map<string, KnownInstance>();
  private readonly listeners: (() => void)[] = [];

  set(instance: KnownInstance): void {
    const previous = this.byAddress.get(instance.address);
    this.byAddress.set(instance.address, instance);
    if (previous?.nodeName !== instance.nodeName) this.listeners.forEach((l) => l());
  }

  delete(address: string): void {
    this.byAddress.delete(address);
  }

  get(address: string): KnownInstance | undefined {
    return this.byAddress.get(address);
  }

  all(): KnownInstance[] {
    return [...this.byAddress.values()];
  }

  /** Called when a name is learnt, so pending CSRs are looked at again. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}
