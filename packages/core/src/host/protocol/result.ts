import { z } from 'zod';
import { hostStateSchema } from './host-state.js';
import { HOST_PROTOCOL_VERSION } from './version.js';

const v = z.literal(HOST_PROTOCOL_VERSION);

/** One thing the module did, in order; `target` names the path, service, variable, route or rule. */
export const actionSchema = z.object({ kind: z.string(), target: z.string() });
export type HostAction = z.infer<typeof actionSchema>;

const failure = z.object({
  /** What failed, in words; `step` is the index of the failing plan step when there is one. */
  message: z.string(),
  step: z.number().int().optional(),
});

export const observeResultSchema = z.object({
  v,
  op: z.literal('observe'),
  ok: z.literal(true),
  state: hostStateSchema,
});

export const changeResultSchema = z.object({
  v,
  op: z.enum(['apply', 'deconfigure']),
  ok: z.boolean(),
  done: z.array(actionSchema),
  rebootRequired: z.boolean(),
  /** `apply` with `rebootWhenRequired`: the restart is scheduled; the host goes down a moment later. */
  rebootScheduled: z.boolean().optional(),
  /**
   * `deconfigure` removed one HNS network and stopped there: removing it re-plumbs the NIC and may drop the
   * SSH connection, so the caller reconnects and sends the same request again for the rest.
   */
  reconnect: z.boolean().optional(),
  error: failure.optional(),
});

export const rebootResultSchema = z.object({
  v,
  op: z.literal('reboot'),
  ok: z.literal(true),
  /** Boot time before the restart (for logs). */
  lastBootTime: z.string(),
  /** Boot id before the restart; the caller waits for a different one (ADR 0032). */
  bootId: z.string().min(1),
});

/** Any operation can fail before it starts (bad request, wrong version). */
export const errorResultSchema = z.object({
  v,
  op: z.string(),
  ok: z.literal(false),
  error: failure,
});

export const hostResultSchema = z.union([
  observeResultSchema,
  changeResultSchema,
  rebootResultSchema,
  errorResultSchema,
]);

export type ObserveResult = z.infer<typeof observeResultSchema>;
export type ChangeResult = z.infer<typeof changeResultSchema>;
export type RebootResult = z.infer<typeof rebootResultSchema>;
export type ErrorResult = z.infer<typeof errorResultSchema>;
export type HostResult = z.infer<typeof hostResultSchema>;
