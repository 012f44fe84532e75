/** The side of a child process (or a stand-in) that a requester talks through. */
export interface IpcChannel {
  send(message: unknown): boolean;
  on(event: 'message', listener: (m: unknown) => void): unknown;
  on(event: 'exit', listener: () => void): unknown;
}

/** An answer as it arrives: `ok` with a value, or the error the other side reported. */
export type IpcAnswer =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

/**
 * Requests over an IPC channel, each paired with its answer by id (answers may come in any order). When the
 * other side exits, every request still waiting fails naming `label`, as does any later one.
 */
export class IpcRequester {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private gone: Error | undefined;

  constructor(
    private readonly channel: IpcChannel,
    private readonly label: string,
  ) {
    channel.on('exit', () => this.fail(new Error(`${label} exited`)));
  }

  /** Feeds one checked answer (the owner parses messages; answers to no pending request are dropped). */
  answer(a: IpcAnswer): void {
    const p = this.pending.get(a.id);
    if (!p) return;
    this.pending.delete(a.id);
    if (a.ok) p.resolve(a.value);
    else p.reject(new Error(`${this.label}: ${a.error}`));
  }

  request(question: object): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.channel.send({ ...question, id });
      } catch (err) {
        this.pending.delete(id);
        reject(new Error(`${this.label}: ${err instanceof Error ? err.message : String(err)}`));
      }
    });
  }

  private fail(err: Error): void {
    this.gone = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
