import { EVALUATE_OUTPUT_MAX, type Evaluated } from '@wmco/core/internal';
import type { WindowsModel } from '../windows-model.js';
import { baseName } from '../windows-path.js';
import { bindParameters, type BoundArgs, type ParamSpec } from './parameter-binding.js';
import { statements, tokenizePowerShell, type PsToken } from './powershell-tokens.js';
import { notRecognized, PowerShellError, UnsupportedScriptError } from './script-errors.js';

/** A whole command line the simulator recognises by its exact text (pipelines it cannot tokenize away). */
export interface ExactScript {
  readonly text: string;
  run(m: WindowsModel): string;
}

/** A `.ps1` file run by path; it must exist in the model, and `run` gets its content. */
export interface ScriptFile {
  /** The file name (any folder), matched case-insensitively. */
  readonly fileName: string;
  readonly params: readonly ParamSpec[];
  run(m: WindowsModel, args: BoundArgs, file: { readonly path: string; readonly content: string }): string;
}

/** A cmdlet the simulator models (`Invoke-RestMethod`). */
export interface Cmdlet {
  readonly name: string;
  readonly params: readonly ParamSpec[];
  run(m: WindowsModel, args: BoundArgs): string;
}

const tokenText = (t: PsToken | undefined): string =>
  t === undefined ? '' : t.kind === 'parameter' ? `-${t.name}` : t.text;

/** Statements of plain words and parameters; pipelines, sub-expressions and variables are not modelled. */
const modelledTokens = (tokens: readonly PsToken[]): boolean =>
  tokens.every((t) => t.kind === 'parameter' || (t.kind === 'word' ? !t.expandable : t.text === ';'));

const ARG_VARIABLE = /^\$WmcoArg_([A-Za-z][A-Za-z0-9_]*)$/i;

/**
 * A word that is exactly `$WmcoArg_<name>` becomes the argument's value as one literal word, as PowerShell
 * binds a variable in argument position (no re-parsing). Any other variable stays expandable (unmodelled).
 */
function bindArgumentVariables(tokens: PsToken[], args: Readonly<Record<string, string>>): PsToken[] {
  const byName = new Map(Object.entries(args).map(([k, v]) => [k.toLowerCase(), v]));
  return tokens.map((t) => {
    if (t.kind !== 'word' || !t.expandable) return t;
    const value = byName.get(ARG_VARIABLE.exec(t.text)?.[1]?.toLowerCase() ?? '');
    return value === undefined ? t : { kind: 'word', text: value, expandable: false };
  });
}

const looksLikePath = (name: string): boolean => /[\\/]/.test(name) || /\.ps1$/i.test(name);

/**
 * Answers `observe`'s `evaluate` scripts the way the real host would for the scripts the operator sends
 * (service pre-scripts), from the model. Command lines are tokenized, never evaluated; anything the
 * registry does not model fails with PowerShell's "not recognized" error and is reported as unsupported.
 */
export class EvaluatorRegistry {
  private readonly exact = new Map<string, ExactScript>();
  private readonly files = new Map<string, ScriptFile>();
  private readonly cmdlets = new Map<string, Cmdlet>();

  addExact(script: ExactScript): this {
    this.exact.set(script.text.trim(), script);
    return this;
  }

  addScriptFile(script: ScriptFile): this {
    this.files.set(script.fileName.toLowerCase(), script);
    return this;
  }

  addCmdlet(cmdlet: Cmdlet): this {
    this.cmdlets.set(cmdlet.name.toLowerCase(), cmdlet);
    return this;
  }

  /**
   * Runs one script against the model; `unsupported` hears about every line it could not model. `args` are
   * the request's script arguments, bound as `$WmcoArg_<name>` (a variable is one value, never parsed).
   */
  evaluate(
    m: WindowsModel,
    script: string,
    unsupported: (script: string) => void,
    args: Readonly<Record<string, string>> = {},
  ): Evaluated {
    try {
      const output = this.run(m, script, args);
      // Invoke-WmcoScript's cap: a pre-script returns at most EVALUATE_OUTPUT_MAX characters.
      if (output.length > EVALUATE_OUTPUT_MAX) {
        throw new PowerShellError(
          `the script printed ${output.length} characters, more than the ${EVALUATE_OUTPUT_MAX} a pre-script may return`,
        );
      }
      return { ok: true, output };
    } catch (err) {
      if (err instanceof UnsupportedScriptError) unsupported(script);
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  private run(m: WindowsModel, script: string, args: Readonly<Record<string, string>>): string {
    const known = this.exact.get(script.trim());
    if (known) return known.run(m).trim();
    let tokens: PsToken[];
    try {
      tokens = bindArgumentVariables(tokenizePowerShell(script), args);
    } catch (err) {
      throw new PowerShellError((err as Error).message);
    }
    const first = tokens[0];
    if (!modelledTokens(tokens) || first?.kind !== 'word')
      throw new UnsupportedScriptError(notRecognized(tokenText(first)));
    const output: string[] = [];
    for (const statement of statements(tokens)) output.push(this.runStatement(m, statement));
    return output
      .filter((o) => o !== '')
      .join('\n')
      .trim();
  }

  private runStatement(m: WindowsModel, statement: readonly PsToken[]): string {
    const [head, ...args] = statement;
    if (head?.kind !== 'word') throw new UnsupportedScriptError(notRecognized(''));
    const name = head.text;
    if (looksLikePath(name)) {
      let content: Buffer | undefined;
      try {
        content = m.files.read(name);
      } catch {
        content = undefined;
      }
      // A script path that is not there is a command PowerShell cannot find: modelled, not unsupported.
      if (content === undefined) throw new PowerShellError(notRecognized(name));
      const handler = this.files.get(baseName(m.files.resolve(name)).toLowerCase());
      if (!handler) throw new UnsupportedScriptError(notRecognized(name));
      const bound = bindParameters(handler.params, args);
      return handler.run(m, bound, { path: m.files.resolve(name), content: content.toString('utf8') }).trim();
    }
    const cmdlet = this.cmdlets.get(name.toLowerCase());
    if (!cmdlet) throw new UnsupportedScriptError(notRecognized(name));
    return cmdlet.run(m, bindParameters(cmdlet.params, args)).trim();
  }
}
