// The thread that extracts staged archives for every simulated host of this process (archive-extraction.ts):
// hashing and gunzipping hundreds of megabytes on the main thread would stall the operator, which runs in
// the same process in tests and benchmarks. A real host spends its own CPU on this.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { readTarGz } from '../payload/tar-gz.js';
import type { WorkerReply, WorkerRequest } from './archive-extraction.js';
import { fileBuffer } from './shared-memory.js';

const port = parentPort!;
/** Archives hashed and waiting for the main thread to say whether to extract them. */
const waiting = new Map<number, Uint8Array>();

const transferable = (b: Uint8Array): ArrayBuffer[] => (b.buffer instanceof ArrayBuffer ? [b.buffer] : []);
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

// Archives hashed lately, by length, held weakly: hosts receiving the same archive send equal bytes, and
// comparing them (memcmp) costs a tenth of hashing them again.
const recent = new Map<number, { data: WeakRef<Uint8Array>; sha256: string }[]>();

/** The archive's SHA-256: that of an equal archive seen lately, or computed. */
function archiveSha256(data: Uint8Array): string {
  const seen = (recent.get(data.length) ?? []).filter((r) => r.data.deref() !== undefined);
  const equal = seen.find((r) => Buffer.compare(r.data.deref()!, data) === 0);
  if (equal) return equal.sha256;
  const hash = sha256(data);
  recent.set(data.length, [...seen, { data: new WeakRef(data), sha256: hash }]);
  return hash;
}

async function extract(id: number, data: Uint8Array): Promise<WorkerReply> {
  try {
    const files = [...(await readTarGz(data, fileBuffer))].map(([name, body]) => ({
      name,
      body,
      sha256: sha256(body),
    }));
    return { id, files };
  } catch (err) {
    return { id, error: err instanceof Error ? err.message : String(err) };
  }
}

port.on('message', (m: WorkerRequest) => {
  if (m.op === 'hash') {
    waiting.set(m.id, m.data);
    port.postMessage({ id: m.id, archiveSha256: archiveSha256(m.data) } satisfies WorkerReply);
    return;
  }
  const data = waiting.get(m.id);
  waiting.delete(m.id);
  if (m.op === 'drop') return;
  if (data === undefined) {
    // Hashed by a thread that has since been replaced: the main thread must not wait for ever.
    port.postMessage({
      id: m.id,
      error: 'the extraction thread restarted; apply again',
    } satisfies WorkerReply);
    return;
  }
  void extract(m.id, data).then((reply) =>
    // Large files are shared; a small one's own memory (fileBuffer: not from the pool) moves to the main thread.
    port.postMessage(reply, 'files' in reply ? reply.files.flatMap((f) => transferable(f.body)) : []),
  );
});
