import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, errors } from './status.js';

/** Which requests a fault applies to; all when omitted. */
export type RequestMatcher = (method: string, path: string) => boolean;

interface ErrorRule {
  readonly code: number;
  readonly retryAfterSeconds: number | undefined;
  remaining: number;
  readonly match: RequestMatcher | undefined;
}

interface ServerControls {
  dropWatches(): number;
  restart(refuseMs: number): Promise<void>;
  compact(): void;
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  409: 'AlreadyExists', // a create's 409; an update's is conflictNext (reason Conflict)
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/**
 * Fault hooks for tests: answer with 5xx, 429 (+Retry-After) or a refusal (400, 422), slow every response, force 409s on writes,
 * drop every watch, restart (close all watches and connections, refuse new ones for N ms), compact.
 */
export class Faults {
  private rules: ErrorRule[] = [];
  private conflicts: ErrorRule[] = [];
  /** Added before every non-watch response. */
  latencyMs = 0;
  private controls: ServerControls | undefined;

  attach(c: ServerControls): void {
    this.controls = c;
  }

  /** The next `times` matching requests fail with `code` (500, 503, 429, ...). */
  failNext(
    code: number,
    opts: { times?: number; retryAfterSeconds?: number; match?: RequestMatcher } = {},
  ): void {
    this.rules.push({
      code,
      retryAfterSeconds: opts.retryAfterSeconds,
      remaining: opts.times ?? 1,
      match: opts.match,
    });
  }

  /** The next `times` matching writes (PUT, PATCH) get 409 Conflict. */
  conflictNext(opts: { times?: number; match?: RequestMatcher } = {}): void {
    this.conflicts.push({
      code: 409,
      retryAfterSeconds: undefined,
      remaining: opts.times ?? 1,
      match: opts.match,
    });
  }

  /** Injected errors and conflicts not yet answered (0: every one was taken by a request). */
  pending(): number {
    return [...this.rules, ...this.conflicts].reduce((n, r) => n + Math.max(r.remaining, 0), 0);
  }

  clear(): void {
    this.rules = [];
    this.conflicts = [];
    this.latencyMs = 0;
  }

  dropWatches(): number {
    return this.controls?.dropWatches() ?? 0;
  }

  async restart(refuseMs: number): Promise<void> {
    await this.controls?.restart(refuseMs);
  }

  compact(): void {
    this.controls?.compact();
  }

  private take(list: ErrorRule[], method: string, path: string): ErrorRule | undefined {
    const r = list.find((x) => x.remaining > 0 && (x.match === undefined || x.match(method, path)));
    if (r) r.remaining -= 1;
    return r;
  }

  /** Called before a request is handled: waits the latency, then throws the injected error if any. */
  async before(method: string, path: string, isWatch: boolean): Promise<void> {
    if (this.latencyMs > 0 && !isWatch) await sleep(this.latencyMs);
    const rule = this.take(this.rules, method, path);
    if (rule) {
      const retry = rule.retryAfterSeconds;
      throw new ApiError(
        rule.code,
        REASONS[rule.code] ?? 'InternalError',
        `injected fault: ${rule.code}`,
        retry === undefined ? undefined : { retryAfterSeconds: retry },
      );
    }
    if ((method === 'PUT' || method === 'PATCH') && this.take(this.conflicts, method, path)) {
      const name =
        path
          .split('/')
          .filter((p) => p !== '')
          .pop() ?? '';
      throw errors.conflict(
        'injected',
        '',
        name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
  }
}
