import { Worker } from 'node:worker_threads';
import { rememberSha256 } from './content-hash.js';

/** Main thread → extraction thread: hash an archive, then extract it or drop it. */
export type WorkerRequest =
  { op: 'hash'; id: number; data: Uint8Array } | { op: 'extract' | 'drop'; id: number };
/** Extraction thread → main thread. */
export type WorkerReply =
  | { id: number; archiveSha256: string }
  | { id: number; files: { name: string; body: Uint8Array; sha256: string }[] }
  | { id: number; error: string };

/** An archive's regular files by entry name, in archive order. */
export type Extracted = ReadonlyMap<string, Buffer>;

type Pending = { resolve: (reply: WorkerReply) => void; reject: (err: Error) => void };

/** One worker thread for the process, started on first use and held only while it has work. */
class ExtractionThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** Sends the archive (shared, not copied, when it is in shared memory) and gets its SHA-256. */
  async hash(archive: Buffer): Promise<{ id: number; sha256: string }> {
    const id = this.nextId++;
    const reply = await this.call(id, { op: 'hash', id, data: shared(archive) });
    if (!('archiveSha256' in reply)) throw new Error('the extraction thread answered out of turn');
    return { id, sha256: reply.archiveSha256 };
  }

  async extract(id: number): Promise<{ name: string; body: Buffer; sha256: string }[]> {
    const reply = await this.call(id, { op: 'extract', id });
    if ('error' in reply) throw new Error(reply.error);
    if (!('files' in reply)) throw new Error('the extraction thread answered out of turn');
    return reply.files.map((f) => ({
      ...f,
      body: Buffer.from(f.body.buffer, f.body.byteOffset, f.body.length),
    }));
  }

  drop(id: number): void {
    this.worker?.postMessage({ op: 'drop', id } satisfies WorkerRequest);
  }

  private call(id: number, request: WorkerRequest): Promise<WorkerReply> {
    const worker = this.started();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage(request);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./archive-worker.js', import.meta.url));
    worker.on('message', (reply: WorkerReply) => {
      const p = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      p?.resolve(reply);
    });
    const fail = (err: Error): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the archive extraction thread exited (code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** The archive as a view of shared memory, so posting it to the thread copies nothing. */
function shared(archive: Buffer): Uint8Array {
  if (archive.buffer instanceof SharedArrayBuffer) return archive;
  const copy = new Uint8Array(new SharedArrayBuffer(archive.length));
  copy.set(archive);
  return copy;
}

const thread = new ExtractionThread();
// Extraction is a pure function of the archive's bytes, so its result is shared between simulated hosts
// (many hosts receive the same archive; holding each host's copy would cost gigabytes), by the archive's
// SHA-256, computed on the extraction thread. Weak: files no host holds any more are freed.
const results = new Map<string, { names: string[]; files: WeakRef<Buffer>[] }>();
// Extractions under way, so that hosts receiving the same archive at the same time share one.
const running = new Map<string, Promise<Extracted>>();
// Per archive Buffer: the extraction started when it arrived (SFTP rename) is the one apply awaits.
const byArchive = new WeakMap<Buffer, Promise<Extracted>>();

function known(archiveSha256: string): Extracted | undefined {
  const r = results.get(archiveSha256);
  const files = r?.files.map((f) => f.deref());
  if (!r || !files || files.some((f) => f === undefined)) return undefined;
  return new Map(r.names.map((name, i) => [name, files[i]!]));
}

async function extractByContent(archive: Buffer): Promise<Extracted> {
  const { id, sha256 } = await thread.hash(archive);
  const ready = known(sha256) ?? running.get(sha256);
  if (ready) {
    thread.drop(id);
    return ready;
  }
  const run = thread
    .extract(id)
    .then((files) => {
      for (const f of files) rememberSha256(f.body, f.sha256);
      results.set(sha256, { names: files.map((f) => f.name), files: files.map((f) => new WeakRef(f.body)) });
      return new Map(files.map((f) => [f.name, f.body]));
    })
    .finally(() => running.delete(sha256));
  running.set(sha256, run);
  return run;
}

/**
 * The files of a `.tar.gz` (gunzipped and read on the extraction thread; the SHA-256 of each file is
 * remembered, so the hash check that follows costs nothing). The same archive bytes are extracted once
 * for every host of the process; the same Buffer asked twice gets the same answer, failures included.
 */
export function extractArchive(archive: Buffer): Promise<Extracted> {
  let p = byArchive.get(archive);
  if (!p) {
    p = extractByContent(archive);
    byArchive.set(archive, p);
  }
  return p;
}

/** Whether the extraction of this archive Buffer has started (when it arrived, or by an apply). */
export function extractionStarted(archive: Buffer): boolean {
  return byArchive.has(archive);
}
