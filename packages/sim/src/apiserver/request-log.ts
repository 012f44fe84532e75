/** One request the API server received, after authentication. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  /** The query string without its `?` (`limit=500&continue=...`); absent in entries recorded without it. */
  readonly query?: string;
  /** A watch (`?watch=true`): one long request, not one per event. */
  readonly watch: boolean;
  readonly user: string;
  /** The HTTP status sent, once the response finished (a watch's when it ends). */
  status?: number;
}

/**
 * Every authenticated request, in order (at least the last `limit` kept), for tests and benchmarks that
 * count what a client costs the API server, like the apiserver's request metrics (`apiserver_request_total`).
 * The oldest are dropped a tenth of `limit` at a time: dropping one per request copied 100,000 entries per
 * request, a third of the API server's time at 2,000 kubelets (400 requests a second).
 */
export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  /** Requests seen since the server started (also those no longer kept). */
  total = 0;

  constructor(private readonly limit = 100_000) {}

  record(r: LoggedRequest): LoggedRequest {
    this.total++;
    this.entries.push(r);
    if (this.entries.length > this.limit + Math.ceil(this.limit / 10))
      this.entries.splice(0, this.entries.length - this.limit);
    return r;
  }

  /** Requests kept now. */
  get size(): number {
    return this.entries.length;
  }

  /** The requests after the first `since` of all time (`total` read earlier), still kept. */
  since(since: number): LoggedRequest[] {
    const kept = this.total - this.entries.length;
    return this.entries.slice(Math.max(0, since - kept));
  }
}
