/** One event as the feed reads it (`eventsAbout` in world-fixture.ts lists them). */
export interface FeedEvent {
  readonly reason: string;
  readonly message: string;
  readonly type: string;
}

/** An entry the feed attributes events to. */
export interface FeedRow {
  readonly key: string;
  readonly address: string;
  readonly label: string;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `message` names `address` as a whole (127.0.0.1 is not inside 127.0.0.11). */
const names = (message: string, address: string): boolean =>
  new RegExp(`(^|[^\\d.])${escape(address)}($|[^\\d])`).test(message);

/**
 * The operator's Warning events, each new one once, attributed to the entry it is about: the entry whose
 * key it quotes first, else the first entry of the host whose address it names. A join that fails and is retried
 * at once may leave Failed before a poll of the status sees it; its event stays.
 */
export class EventFeed {
  private readonly seen = new Set<string>();

  constructor(
    private readonly list: () => Promise<readonly FeedEvent[]>,
    private readonly rows: readonly FeedRow[],
  ) {}

  /** The Warning events not reported yet, as [row label, line]. */
  async next(): Promise<[string, string][]> {
    const events = await this.list().catch((): FeedEvent[] => []);
    const out: [string, string][] = [];
    for (const e of events) {
      const id = `${e.reason}\u0000${e.message}`;
      if (e.type !== 'Warning' || this.seen.has(id)) continue;
      const row = this.quoted(e.message) ?? this.rows.find((r) => names(e.message, r.address));
      if (!row) continue;
      this.seen.add(id);
      out.push([row.label, `event ${e.reason}: ${e.message}`]);
    }
    return out;
  }

  /** The entry whose quoted key comes first in `message` (the one it is about; later ones are context). */
  private quoted(message: string): FeedRow | undefined {
    let best: [number, FeedRow] | undefined;
    for (const r of this.rows) {
      const at = message.indexOf(`"${r.key}"`);
      if (at >= 0 && (best === undefined || at < best[0])) best = [at, r];
    }
    return best?.[1];
  }
}
