import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** One script for the gate: a name findings point at (a file name or a builder's name) and its text. */
export interface GateScript {
  readonly name: string;
  readonly text: string;
}

const findingSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  rule: z.string(),
  message: z.string(),
});
export type GateFinding = z.infer<typeof findingSchema>;

const reportSchema = z.object({
  findings: z.array(findingSchema),
  /** Per script: each 5.1 cmdlet it calls with the parameters it names, and every .NET type it names. */
  inventory: z.record(
    z.string(),
    z.object({ commands: z.record(z.string(), z.array(z.string())), types: z.array(z.string()) }),
  ),
});
export type GateReport = z.infer<typeof reportSchema>;

/** The gate script and the 5.1 profile it reads (commands.json, types.json), shipped with core. */
export const PS51_GATE_DIR = fileURLToPath(new URL('../../../assets/ps51/', import.meta.url));

/**
 * Runs the Windows PowerShell 5.1 gate (`assets/ps51/gate.ps1`) over `scripts` in one `pwsh` process:
 * PowerShell's own parser, then the rules of docs/ps51-gate.md. Rejects when pwsh fails or prints
 * something that is not the gate's report.
 */
export function runPs51Gate(
  pwsh: string,
  scripts: readonly GateScript[],
  profileDir: string = PS51_GATE_DIR,
): Promise<GateReport> {
  const args = [
    '-NoProfile',
    '-NonInteractive',
    '-File',
    `${PS51_GATE_DIR}gate.ps1`,
    '-ProfileDir',
    profileDir,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(pwsh, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code !== 0) return reject(new Error(`the 5.1 gate exited with ${code}: ${stderr || stdout}`));
      try {
        resolve(reportSchema.parse(JSON.parse(stdout)));
      } catch (e) {
        reject(new Error(`the 5.1 gate printed no report (${String(e)}): ${stdout.slice(0, 500)} ${stderr}`));
      }
    });
    child.stdin.end(JSON.stringify({ scripts }));
  });
}

/** `file:line:column rule: message`, one line per finding. */
export function formatFindings(findings: readonly GateFinding[]): string {
  return findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}: ${f.message}`).join('\n');
}
