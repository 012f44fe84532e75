import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newRootContainer, type FirewallRuleSpec } from '@wmco/core';
import {
  FREE_HOST_COSTS,
  SimulatedWindowsHost,
  generateEd25519KeyPair,
  type WindowsModelOptions,
} from '@wmco/sim';
import { loadBuiltinProviders } from '@wmco/operator';
import type { CliContext } from '@wmco/operator';
import { buildProgram } from '@wmco/operator';

/** The firewall rules of a Windows node: kubelet's and the exporter's TCP ports, the VXLAN UDP port. */
export const NODE_FIREWALL_RULES: readonly FirewallRuleSpec[] = [
  { name: 'ContainerLogsPort', protocol: 'TCP', localPort: 10250, direction: 'Inbound' },
  { name: 'WindowsExporter', protocol: 'TCP', localPort: 9182, direction: 'Inbound' },
  { name: 'HybridOverlayVXLAN', protocol: 'UDP', localPort: 4789, direction: 'Inbound' },
];

/** A CLI context with the built-in providers and no environment; stdout and stderr both land in `out`. */
export async function capturingContext(out: string[]): Promise<CliContext> {
  return {
    container: newRootContainer(),
    builtinProviders: await loadBuiltinProviders(),
    stdout: (s) => out.push(s),
    stderr: (s) => out.push(s),
    env: {},
  };
}

export interface InProcessRun {
  /** stdout and stderr, joined by newlines. */
  readonly out: string;
  /** The message of the error the command threw, if it did. */
  readonly error?: string;
}

/** `wmco <args>` in-process: what it printed and, instead of exiting, the error it threw. */
export async function runWmco(args: readonly string[]): Promise<InProcessRun> {
  const out: string[] = [];
  const program = (await buildProgram(await capturingContext(out))).exitOverride();
  for (const c of program.commands) c.exitOverride();
  try {
    await program.parseAsync([...args], { from: 'user' });
    return { out: out.join('\n') };
  } catch (err) {
    return { out: out.join('\n'), error: err instanceof Error ? err.message : String(err) };
  }
}

export interface CheckedHostOptions {
  readonly address: string;
  readonly hostname: string;
  readonly rules: readonly FirewallRuleSpec[];
  /** Applied over the defaults (the Containers feature installed). */
  readonly model?: WindowsModelOptions;
}

/** A simulated host to check over SSH: it accepts the returned key and has `rules` (copies). */
export async function startCheckedHost(
  o: CheckedHostOptions,
): Promise<{ sim: SimulatedWindowsHost; key: { private: string; public: string } }> {
  const key = generateEd25519KeyPair();
  const sim = await SimulatedWindowsHost.start({
    address: o.address,
    authorizedKey: key.public,
    costs: FREE_HOST_COSTS,
    hostname: o.hostname,
    containersFeature: true,
    ...o.model,
  });
  sim.model.firewallRules.push(...o.rules.map((r) => ({ ...r })));
  return { sim, key };
}

/** Writes a private key as `<dir>/id` (mode 0600, as ssh wants it) and returns its path. */
export async function writeKeyFile(dir: string, privateKey: string): Promise<string> {
  const keyFile = join(dir, 'id');
  await writeFile(keyFile, privateKey, { mode: 0o600 });
  return keyFile;
}

/** The flags that reach a checked host: `--user Administrator --key <keyFile> --port <its SSH port>`. */
export function sshFlags(sim: SimulatedWindowsHost, keyFile: string): string[] {
  return ['--user', 'Administrator', '--key', keyFile, '--port', String(sim.port)];
}
