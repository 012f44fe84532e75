/**
 * One Windows service as the services ConfigMap records it (reference §1.4). The TypeScript names are ours;
 * `desired/` maps them to upstream's JSON keys (`path`, `nodeVariablesInCommand`, `powershellPreScripts`).
 */
export interface WindowsServiceSpec {
  /** Service name in the service control manager, e.g. `kubelet`. */
  readonly name: string;
  /** The full command line (binary path and arguments), before node variables are substituted. */
  readonly command: string;
  /** Bootstrap services start before the Node exists; they may not use node variables. */
  readonly bootstrap: boolean;
  /** Creation order, ascending; every bootstrap service sorts before every other service. */
  readonly priority: number;
  /** Services that must be running first (names in the service control manager). */
  readonly dependencies?: readonly string[];
  /** Tokens in `command` replaced by a JSONPath evaluated on the Node, e.g. NODE_NAME = `{.metadata.name}`. */
  readonly nodeVariables?: readonly NodeVariable[];
  /** PowerShell run on the host before (re)configuring the service; its trimmed output may fill a token. */
  readonly preScripts?: readonly PowerShellPreScript[];
}

export interface NodeVariable {
  readonly name: string;
  readonly jsonPath: string;
}

export interface PowerShellPreScript {
  /** Token in the command replaced by the script's trimmed output; absent when only run for effect. */
  readonly variableName?: string;
  /** A PowerShell command line. */
  readonly script: string;
  /** Tokens in `script` replaced the same way node variables are. */
  readonly nodeArgs?: readonly NodeVariable[];
}

/** What a service contributor may depend on when it renders a command line. */
export interface ServiceContext {
  /** Verbose service logging (upstream `--debugLogging`). */
  readonly debug: boolean;
}
