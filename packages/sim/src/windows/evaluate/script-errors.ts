/** An error PowerShell itself would raise; its message is what `evaluated[name].error` reports. */
export class PowerShellError extends Error {}

/** A command the simulator does not model; the registry also logs it as unsupported. */
export class UnsupportedScriptError extends PowerShellError {}

/** PowerShell's own wording for a command it cannot find. */
export function notRecognized(name: string): string {
  return (
    `The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. ` +
    'Check the spelling of the name, or if a path was included, verify that the path is correct and try again.'
  );
}
