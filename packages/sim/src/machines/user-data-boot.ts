/**
 * What a new Windows VM does with its user data at first boot: the platform's agent (EC2Launch v2,
 * cloudbase-init, GCE's `windows-startup-script-ps1`) hands the script to PowerShell, and the
 * statements below are the ones the host model understands. Everything else in the script is run
 * without effect here; a statement that does not appear was not run.
 */
export interface BootOutcome {
  /** OpenSSH server installed, set to start automatically, started, and its firewall rule enabled. */
  readonly sshd: boolean;
  /** The line written to administrators_authorized_keys, when the script wrote one. */
  readonly authorizedKey: string | undefined;
  /** EC2Launch v2 made the instance metadata routes persistent (AWS only). */
  readonly metadataRoutesPersistent: boolean;
  /** Why nothing (or not everything) ran, for logs and tests. */
  readonly problems: readonly string[];
}

/** How each platform's first-boot agent treats user data (platforms not listed: tags, no EC2Launch). */
interface BootAgent {
  /** Runs only the text between `<powershell>` tags (EC2Launch v2, cloudbase-init); else raw PowerShell. */
  readonly tags: boolean;
  /** EC2Launch v2 is installed, so its `add-routes --persistent` task exists. */
  readonly ec2Launch: boolean;
  /** cloudbase-init also runs a script whose first line names PowerShell (`#ps1_sysnative`, `#ps1`). */
  readonly interpreterLine?: boolean;
}
const AGENTS: Readonly<Record<string, BootAgent>> = {
  AWS: { tags: true, ec2Launch: true },
  GCP: { tags: false, ec2Launch: false },
  // The VM image's cloudbase-init reads the user data from the VM's config drive.
  KubeVirt: { tags: true, ec2Launch: false, interpreterLine: true },
};
const DEFAULT_AGENT: BootAgent = { tags: true, ec2Launch: false };

/** The text between the tags (for agents that want them). */
const TAGGED = /^<powershell>([\s\S]*)<\/powershell>\s*(?:<persist>true<\/persist>\s*)?$/;

/** cloudbase-init's PowerShell headers: the rest of the user data is the script. */
const INTERPRETER_LINE = /^#ps1(?:_sysnative|_x86)?\r?\n/;

const SSHD_STEPS: readonly (readonly [RegExp, string])[] = [
  [
    /^\s*Add-WindowsCapability -Online -Name 'OpenSSH\.Server~~~~0\.0\.1\.0'/m,
    'OpenSSH server not installed',
  ],
  [/^Set-NetFirewallRule -Name 'OpenSSH-Server-In-TCP' -Enabled True/m, 'sshd firewall rule not enabled'],
  [/^Set-Service -Name sshd -StartupType 'Automatic'$/m, 'sshd not set to start automatically'],
  [/^Start-Service sshd$/m, 'sshd not started'],
];

const KEY_FILE = /^\$authorizedKeys = "\$env:ProgramData\\ssh\\administrators_authorized_keys"$/m;
const KEY_WRITE = /^Set-Content -Path \$authorizedKeys -Value '([^'\r\n]*)' -Encoding ascii$/m;
const ROUTES =
  /^& "\$env:ProgramFiles\\Amazon\\EC2Launch\\EC2Launch\.exe" run-task add-routes --persistent$/m;

const NOTHING: BootOutcome = {
  sshd: false,
  authorizedKey: undefined,
  metadataRoutesPersistent: false,
  problems: [],
};

/** The script PowerShell receives, or why the agent or the parser refused it. */
function unwrap(agent: BootAgent, userData: string): { script: string } | { problem: string } {
  if (!agent.tags) {
    // PowerShell refuses to parse a script that starts with `<` ("The '<' operator is reserved for future use").
    return userData.trimStart().startsWith('<')
      ? { problem: "ParserError: The '<' operator is reserved for future use." }
      : { script: userData };
  }
  const line = INTERPRETER_LINE.exec(userData);
  if (agent.interpreterLine === true && line) return { script: userData.slice(line[0].length) };
  const m = TAGGED.exec(userData);
  return m?.[1] !== undefined
    ? { script: m[1] }
    : { problem: 'no <powershell> block: the agent ran nothing' };
}

function authorizedKeyOf(script: string): string | undefined {
  if (!KEY_FILE.test(script)) return undefined;
  const line = KEY_WRITE.exec(script)?.[1]?.trim();
  return line === undefined || line === '' ? undefined : line;
}

/** Runs user data on a first boot; `undefined` user data (no Secret, no key) runs nothing. */
export function bootFromUserData(platform: string, userData: string | undefined): BootOutcome {
  if (userData === undefined) return { ...NOTHING, problems: ['no user data'] };
  const agent = AGENTS[platform] ?? DEFAULT_AGENT;
  const unwrapped = unwrap(agent, userData);
  if ('problem' in unwrapped) return { ...NOTHING, problems: [unwrapped.problem] };
  const script = unwrapped.script;
  const sshdProblems = SSHD_STEPS.filter(([re]) => !re.test(script)).map(([, why]) => why);
  const authorizedKey = authorizedKeyOf(script);
  const keyProblems = authorizedKey === undefined ? ['no administrators_authorized_keys written'] : [];
  return {
    sshd: sshdProblems.length === 0,
    authorizedKey,
    metadataRoutesPersistent: agent.ec2Launch && ROUTES.test(script),
    problems: [...sshdProblems, ...keyProblems],
  };
}
