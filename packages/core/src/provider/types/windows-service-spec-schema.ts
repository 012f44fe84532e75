import { z } from 'zod';
import type { WindowsServiceSpec } from './windows-service-spec.js';

const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,255}$/;
const VARIABLE = /^[A-Z][A-Z0-9_]*$/;

const nodeVariable = z.object({
  name: z.string().regex(VARIABLE, 'variable names are UPPER_SNAKE_CASE'),
  jsonPath: z.string().min(1),
});

const preScript = z.object({
  variableName: z.string().regex(VARIABLE, 'variable names are UPPER_SNAKE_CASE').optional(),
  script: z
    .string()
    .min(1)
    .regex(/^[^\r\n]*$/, 'a pre-script is one command line'),
  nodeArgs: z.array(nodeVariable).optional(),
});

const baseSchema = z
  .object({
    name: z.string().regex(SERVICE_NAME, 'service names are letters, digits, "_", "." and "-"'),
    command: z
      .string()
      .min(1)
      .regex(/^[^\r\n]*$/, 'a command is one line'),
    bootstrap: z.boolean(),
    priority: z.number().int().min(0).max(1000),
    dependencies: z.array(z.string().regex(SERVICE_NAME)).optional(),
    nodeVariables: z.array(nodeVariable).optional(),
    preScripts: z.array(preScript).optional(),
  })
  .strict();

type ParsedSpec = z.infer<typeof baseSchema>;

function unusedVariableProblems(s: ParsedSpec): string[] {
  const tokens = [
    ...(s.nodeVariables ?? []).map((v) => v.name),
    ...(s.preScripts ?? []).flatMap((p) => p.variableName ?? []),
  ];
  return tokens
    .filter((tok) => !s.command.includes(tok))
    .map((t) => `service ${s.name} defines variable ${t} but its command never uses it`);
}

function crossFieldProblems(s: ParsedSpec): string[] {
  const problems: string[] = [];
  const deps = s.dependencies ?? [];
  if (s.bootstrap && (s.nodeVariables?.length ?? 0) > 0) {
    problems.push(`bootstrap service ${s.name} cannot require node variables`);
  }
  if (deps.includes(s.name)) problems.push(`service ${s.name} depends on itself`);
  if (new Set(deps).size !== deps.length) problems.push(`service ${s.name} lists a dependency twice`);
  problems.push(...unusedVariableProblems(s));
  return problems;
}

/**
 * The shape of one service and the rules that hold for it alone. Rules across services (dependency
 * cycles, bootstrap dependencies, priority ordering) live with the services list in `desired/`.
 */
export const windowsServiceSpecSchema = baseSchema.superRefine((s, ctx) => {
  for (const message of crossFieldProblems(s)) ctx.addIssue({ code: 'custom', message });
});

/** Validates one service spec; returns the problems as readable strings (empty when valid). */
export function serviceSpecProblems(spec: WindowsServiceSpec): readonly string[] {
  const result = windowsServiceSpecSchema.safeParse(spec);
  if (result.success) return [];
  return result.error.issues.map((i) =>
    i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message,
  );
}
