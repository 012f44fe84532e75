import { isObject, meta, str } from './json.js';
import type { ResourceCall } from './resource-handler.js';
import { errors } from './status.js';

/** What a simulated container has written: its log so far, and a way to hear what it writes next. */
export interface ContainerLog {
  text(): string;
  /** Calls `onChunk` with each later write; returns the unsubscribe. */
  subscribe(onChunk: (chunk: string) => void): () => void;
}

/** The logs of simulated containers, by namespace, pod and container (what the kubelet would serve). */
export class PodLogs {
  private readonly logs = new Map<string, ContainerLog>();

  set(namespace: string, pod: string, container: string, log: ContainerLog): void {
    this.logs.set(`${namespace}/${pod}/${container}`, log);
  }

  get(namespace: string, pod: string, container: string): ContainerLog | undefined {
    return this.logs.get(`${namespace}/${pod}/${container}`);
  }
}

function nonNegative(q: URLSearchParams, name: string): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw errors.badRequest(`${name}: Invalid value: ${raw}: must be >= 0`);
  return n;
}

/** The log's text after `tailLines` (last N lines) and `limitBytes` (first N bytes of what is left). */
export function selectLog(text: string, tailLines?: number, limitBytes?: number): string {
  let out = text;
  if (tailLines !== undefined) {
    const lines = out.split(/(?<=\n)/);
    out = tailLines === 0 ? '' : lines.slice(-tailLines).join('');
  }
  if (limitBytes !== undefined) out = Buffer.from(out).subarray(0, limitBytes).toString('utf8');
  return out;
}

function containerOf(c: ResourceCall, pod: Record<string, unknown>, name: string): string {
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const names = (Array.isArray(spec['containers']) ? spec['containers'] : [])
    .map((x) => (isObject(x) ? str(x['name']) : undefined))
    .filter((x): x is string => x !== undefined);
  const asked = c.query.get('container');
  if (asked !== null && asked !== '') {
    if (!names.includes(asked)) throw errors.badRequest(`container ${asked} is not valid for pod ${name}`);
    return asked;
  }
  if (names.length === 1 && names[0] !== undefined) return names[0];
  throw errors.badRequest(
    `a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`,
  );
}

/**
 * GET pods/<name>/log: text/plain, with `container`, `tailLines`, `limitBytes` and `follow` (the stream
 * stays open and carries later writes until the client goes). A container with no simulated log answers
 * as the kubelet does for one that has not started (400).
 */
export function servePodLog(c: ResourceCall, name: string): void {
  const ns = c.info.namespace ?? '';
  const pod = c.ctx.store.get(c.ctx.registry.mustFind('', 'v1', 'pods'), ns, name);
  if (!pod) throw errors.notFound('pods', '', name);
  const container = containerOf(c, pod, str(meta(pod)['name']) ?? name);
  const log = c.ctx.podLogs?.get(ns, name, container);
  if (!log)
    throw errors.badRequest(
      `container "${container}" in pod "${name}" is waiting to start: ContainerCreating`,
    );
  const tail = nonNegative(c.query, 'tailLines');
  const limit = nonNegative(c.query, 'limitBytes');
  c.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  c.res.write(selectLog(log.text(), tail, limit));
  if (c.query.get('follow') !== 'true') {
    c.res.end();
    return;
  }
  c.res.flushHeaders();
  const unsubscribe = log.subscribe((chunk) => c.res.write(chunk));
  c.req.on('close', unsubscribe);
}
