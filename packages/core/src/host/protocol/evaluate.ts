import { z } from 'zod';

/** The longest script command line `observe` accepts (upstream pre-scripts are one short line each). */
export const EVALUATE_SCRIPT_MAX = 4096;
/** The most scripts one `observe` evaluates. */
export const EVALUATE_MAX = 32;

/**
 * A name for an evaluated script: the variable token it fills (`NODE_IP`, `HOSTNAME_OVERRIDE`) or an id
 * for a script run only for its effect (`kube-proxy-0`).
 */
export const evaluateNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'an evaluate name is 1-64 letters, digits, "_", "." or "-"');

/** One PowerShell command line; it travels inside the JSON request, never on a command line. */
export const evaluateScriptSchema = z
  .string()
  .min(1, 'an evaluate script is not empty')
  .max(EVALUATE_SCRIPT_MAX, `an evaluate script is at most ${EVALUATE_SCRIPT_MAX} characters`)
  .refine((s) => !/[\0\r\n]/.test(s), 'an evaluate script is one line: no NUL, CR or LF');

export const evaluateEntrySchema = z.object({ name: evaluateNameSchema, script: evaluateScriptSchema });
export type EvaluateEntry = z.infer<typeof evaluateEntrySchema>;

/** Scripts run in order, each in its own scope, before the state is collected. Names are unique. */
export const evaluateListSchema = z
  .array(evaluateEntrySchema)
  .max(EVALUATE_MAX, `at most ${EVALUATE_MAX} scripts per observe`)
  .refine(
    (list) => new Set(list.map((e) => e.name.toLowerCase())).size === list.length,
    'evaluate names must be unique (case-insensitively)',
  );

/** The outcome of one script: its output (lines joined with `\n`, trimmed) or the error it raised. */
export const evaluatedSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), output: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type Evaluated = z.infer<typeof evaluatedSchema>;
