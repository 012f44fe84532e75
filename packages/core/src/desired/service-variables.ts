import type {
  NodeVariable,
  PowerShellPreScript,
  WindowsServiceSpec,
} from '../provider/types/windows-service-spec.js';
import { evaluateNodeJsonPath } from './node-jsonpath.js';

/** Runs one PowerShell command line on the host and returns its standard output (injected). */
export type PowerShellRunner = (commandLine: string) => Promise<string>;

/** Each variable's value on `node` (a Node object as JSON); throws when one is missing. */
export function resolveNodeVariables(
  variables: readonly NodeVariable[],
  node: unknown,
): Record<string, string> {
  if (node === undefined || node === null) throw new Error('cannot resolve node variables: no Node');
  const values: Record<string, string> = {};
  for (const v of variables) values[v.name] = evaluateNodeJsonPath(v.jsonPath, node);
  return values;
}

/** Plain global replacement of each token, in the given order (as upstream does). */
export function substituteVariables(text: string, values: Readonly<Record<string, string>>): string {
  return Object.entries(values).reduce((acc, [name, value]) => acc.replaceAll(name, value), text);
}

/**
 * Runs each pre-script (after filling its node arguments) and returns the trimmed output of those with a
 * variable name. Scripts without a variable still run, for their effect. `node` may be undefined only
 * when no script has node arguments (bootstrap services).
 */
export async function resolvePreScriptVariables(
  scripts: readonly PowerShellPreScript[],
  node: unknown,
  run: PowerShellRunner,
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const script of scripts) {
    const args = script.nodeArgs?.length ? resolveNodeVariables(script.nodeArgs, node) : {};
    const output = await run(substituteVariables(script.script, args));
    if (script.variableName) values[script.variableName] = output.trim();
  }
  return values;
}

/** The service's command line as the host runs it: node variables first, then pre-script variables. */
export async function resolveServiceCommand(
  service: WindowsServiceSpec,
  node: unknown,
  run: PowerShellRunner,
): Promise<string> {
  const nodeValues = service.nodeVariables?.length ? resolveNodeVariables(service.nodeVariables, node) : {};
  const scriptValues = await resolvePreScriptVariables(service.preScripts ?? [], node, run);
  return substituteVariables(substituteVariables(service.command, nodeValues), scriptValues);
}
