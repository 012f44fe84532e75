import type { ServiceRecord } from './service-control-manager.js';

interface Marked {
  readonly gone: Promise<void>;
  readonly remove: () => void;
}

/**
 * `DeleteService` marks a service for deletion; the SCM removes it only once no handle to it is open
 * (sc.exe's own closes as it exits) and it has finished with it, a moment later. Until then the service
 * is still listed, and creating or starting one of that name fails with 1072 (Microsoft: DeleteService,
 * "The service is marked for deletion ... until all open handles are closed"; upstream WMCO waits for 1060
 * before it goes on).
 */
export class ServiceDeletion {
  /** From the last handle closing to the service being gone (the SCM's own cleanup). */
  deleteMs = 0;
  private readonly marked = new Map<string, Marked>();
  /** Handles opened on services by other programs (an MMC, a monitoring agent), by lower-cased name. */
  private readonly handles = new Map<string, number>();

  constructor(private readonly services: Map<string, ServiceRecord>) {}

  isMarked(name: string): boolean {
    return this.marked.has(name.toLowerCase());
  }

  /** 1072 for a call on a name that is marked for deletion. */
  refuseMarked(name: string, call: 'CreateService' | 'StartService'): void {
    if (this.isMarked(name))
      throw new Error(`[SC] ${call} FAILED 1072: The specified service has been marked for deletion.`);
  }

  /**
   * Another program opens the service (`OpenService`); the returned function closes the handle. A service
   * marked for deletion goes only after its last handle closes.
   */
  openHandle(name: string): () => void {
    const key = name.toLowerCase();
    if (!this.services.has(key))
      throw new Error(
        '[SC] OpenService FAILED 1060: The specified service does not exist as an installed service.',
      );
    if (this.marked.has(key))
      throw new Error('[SC] OpenService FAILED 1072: The specified service has been marked for deletion.');
    this.handles.set(key, (this.handles.get(key) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      const left = (this.handles.get(key) ?? 1) - 1;
      if (left > 0) this.handles.set(key, left);
      else this.handles.delete(key);
      this.settle(key);
    };
  }

  /** Marks the service; false when it already was. It goes once no handle is open, `deleteMs` later. */
  mark(name: string): boolean {
    const key = name.toLowerCase();
    if (this.marked.has(key)) return false;
    let remove: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => {
      remove = () => {
        this.services.delete(key);
        this.marked.delete(key);
        resolve();
      };
    });
    this.marked.set(key, { gone, remove });
    this.settle(key);
    return true;
  }

  /** Resolves once the service of that name is gone (at once when there is none marked). */
  async gone(name: string, timeoutMs: number): Promise<boolean> {
    const m = this.marked.get(name.toLowerCase());
    if (!m) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    const result = await Promise.race([m.gone.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  private settle(key: string): void {
    const m = this.marked.get(key);
    if (!m || (this.handles.get(key) ?? 0) > 0) return;
    // Never at once: DeleteService returns before the SCM has removed the service.
    setTimeout(m.remove, this.deleteMs);
  }
}
