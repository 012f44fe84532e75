// The messages between `pnpm bench join`'s world process (the simulated API server) and a process of
// simulated Windows hosts (host-process.ts), over Node's IPC channel. Every message is checked on arrival:
// a malformed one is an error that names it, never a guess.
import { z } from 'zod';

const finite = z.number().finite();

/** What a host process is started with: its one argument, this JSON. */
export const HostProcessTask = z.object({
  /** The hosts' computer names, one host each (their kubelets register them lower-cased). */
  hostnames: z.array(z.string().min(1)).min(1),
  /** Each host's loopback address, in the order of `hostnames` (default: one no other world uses). */
  addresses: z.array(z.string().min(1)).optional(),
  /** OpenSSH public key line the hosts accept (the world's key). */
  authorizedKey: z.string().min(1),
  costs: z.object({
    latencyMs: finite,
    bandwidthBytesPerSec: z.number().positive(),
    powershellStartMs: finite,
    serviceStartMs: finite,
    serviceStopMs: finite.exactOptional(),
    serviceDeleteMs: finite.exactOptional(),
    serviceStartTimeoutMs: finite.exactOptional(),
    rebootMs: finite,
    rebootGraceMs: finite.exactOptional(),
  }),
  /** The payload folder whose large files the hosts know beforehand (knowPayloadFiles), as a world's do. */
  payloadDir: z.string().min(1),
  /** The cluster's hybrid overlay VXLAN port, opened on every host as the admin does before listing it. */
  vxlanPort: z.number().int().min(1).max(65535),
  engine: z.enum(['model', 'powershell']),
  /** A folder of this process's own (the PowerShell engine keeps the hosts' drives under it). */
  dir: z.string().min(1),
});
export type HostProcessTask = z.infer<typeof HostProcessTask>;

/** Questions the world process asks; `id` pairs each with its answer. */
export const HostRequest = z.discriminatedUnion('op', [
  /** Each named host's counters and running services now. */
  z.object({ id: z.number().int(), op: z.literal('hosts'), addresses: z.array(z.string()) }),
  /** This process's CPU, memory and event loop so far. */
  z.object({ id: z.number().int(), op: z.literal('usage') }),
  /** The addresses of this process's hosts whose file at `path` holds `text`. */
  z.object({ id: z.number().int(), op: z.literal('containing'), path: z.string(), text: z.string() }),
]);
export type HostRequest = z.infer<typeof HostRequest>;
/** A request before its id is given. */
export type HostQuestion =
  { op: 'hosts'; addresses: string[] } | { op: 'usage' } | { op: 'containing'; path: string; text: string };

const ServiceSnapshot = z.object({
  name: z.string(),
  dependencies: z.array(z.string()),
  commandLine: z.string(),
});

/** One host as the bench reads it: what its join made it do and the services running on it. */
export const HostSnapshot = z.object({
  address: z.string(),
  work: z.object({ powershellStarts: finite, execs: finite, serviceStarts: finite, bytes: finite }),
  services: z.array(ServiceSnapshot),
});
export type HostSnapshot = z.infer<typeof HostSnapshot>;

/** Cumulative figures of one process since it started. */
export const ProcessUsage = z.object({
  cpuSeconds: finite,
  /** CPU seconds of its descendants, ended or running (the hosts' PowerShell processes, with that engine). */
  childrenCpuSeconds: finite,
  peakRssMiB: finite,
  /** Event loop time busy and idle (performance.eventLoopUtilization), ms. */
  eventLoopActiveMs: finite,
  eventLoopIdleMs: finite,
});
export type ProcessUsage = z.infer<typeof ProcessUsage>;

/** Every message a host process sends. */
export const HostMessage = z.union([
  z.object({
    event: z.literal('ready'),
    hosts: z.array(z.object({ address: z.string(), port: z.number().int(), hostname: z.string() })),
  }),
  z.object({ event: z.literal('failed'), error: z.string() }),
  z.object({ id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: z.string() }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** A message checked against `schema`, or an Error naming what was wrong with it. */
export function parseMessage<T>(schema: z.ZodType<T>, m: unknown): T | Error {
  const r = schema.safeParse(m);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return new Error(`malformed message${where}: ${issue?.message ?? 'invalid'}`);
}
