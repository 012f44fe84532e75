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

/** The longest value one script argument may carry, and the most arguments per script. */
export const EVALUATE_ARG_MAX = 1024;
export const EVALUATE_ARGS_MAX = 16;
/** The longest output one script may return (pre-script results fill a command line or nothing). */
export const EVALUATE_OUTPUT_MAX = 4096;

/**
 * Values a script receives as data: the host module binds each one to `$WmcoArg_<NAME>` before the script
 * runs, so a value is never parsed as PowerShell (node values such as the hybrid-overlay subnet).
 */
export const evaluateArgsSchema = z
  .record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'an argument name is 1-64 letters, digits or "_"'),
    z
      .string()
      .max(EVALUATE_ARG_MAX, `an argument value is at most ${EVALUATE_ARG_MAX} characters`)
      .refine((s) => !/[\0\r\n]/.test(s), 'an argument value has no NUL, CR or LF'),
  )
  .refine((args) => Object.keys(args).length <= EVALUATE_ARGS_MAX, `at most ${EVALUATE_ARGS_MAX} arguments`);

export const evaluateEntrySchema = z.object({
  name: evaluateNameSchema,
  script: evaluateScriptSchema,
  args: evaluateArgsSchema.optional(),
});
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
  z.object({
    ok: z.literal(true),
    output: z
      .string()
      .max(EVALUATE_OUTPUT_MAX, `a script's output is at most ${EVALUATE_OUTPUT_MAX} characters`),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type Evaluated = z.infer<typeof evaluatedSchema>;
