import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { CSR_ATTACKS, type HostScenario } from './host-scenario.js';
import type { SimHostSpec } from './world-hosts.js';

// A DNS name the world's resolver can answer (RFC 1123 labels, last label not numeric).
const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

// Any text, hostile values included; control characters are refused so the file cannot smuggle terminal
// escapes into the progress output.
const printable = (max: number): z.ZodString =>
  z
    .string()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters');

/** A list without repeats (each fault or attack is staged once). */
const uniqueList = <T extends string>(values: readonly [T, ...T[]]): z.ZodArray<z.ZodEnum<{ [K in T]: K }>> =>
  z
    .array(z.enum(values))
    .min(1)
    .refine((l) => new Set(l).size === l.length, 'lists a value twice');

const listAs = z.enum(['ipv4', 'dns']);

const hostSchema = z
  .object({
    // The computer name the host reports: the scenario decides, a Linux node's name included.
    hostname: printable(253),
    // One way, or both (two windows-instances entries for one host).
    listAs: z.union([listAs, uniqueList(['ipv4', 'dns']).max(2)]).optional(),
    dnsName: z.string().regex(DNS_NAME, 'must be a DNS name such as win-a.example').optional(),
    shell: z.enum(['cmd', 'powershell']).default('cmd'),
    // A literal windows-instances key (e.g. 127.1): the operator must refuse what cannot be a host's key.
    key: printable(253)
      .refine((s) => !/\s/.test(s), 'must not contain white space')
      .optional(),
    faults: uniqueList(['endlessOutput']).optional(),
    nodeSubnet: printable(256).optional(),
    hostileCsrs: uniqueList(CSR_ATTACKS).optional(),
  })
  .strict();

const fileSchema = z.object({ hosts: z.array(hostSchema).min(1).max(50) }).strict();

/** Thrown for a hosts file that cannot be used; the message names the file and every problem in it. */
export class HostsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostsFileError';
  }
}

type HostEntry = z.infer<typeof hostSchema>;

/** The scenario fields of one host, or undefined for a plain host. */
function scenarioOf(h: HostEntry, listed: readonly ('ipv4' | 'dns')[]): HostScenario | undefined {
  const sc: HostScenario = {
    ...(h.key !== undefined ? { keys: [h.key] } : {}),
    ...(listed.length > 1 ? { listAs: listed } : {}),
    ...(h.faults ? { faults: h.faults } : {}),
    ...(h.nodeSubnet !== undefined ? { nodeSubnet: h.nodeSubnet } : {}),
    ...(h.hostileCsrs ? { hostileCsrs: h.hostileCsrs } : {}),
  };
  return Object.keys(sc).length > 0 ? sc : undefined;
}

function toSpec(h: HostEntry, i: number, file: string): SimHostSpec {
  const at = `${file}: hosts[${i}]`;
  const listed = typeof h.listAs === 'string' ? [h.listAs] : (h.listAs ?? ['ipv4']);
  if (listed.includes('dns') && h.dnsName === undefined)
    throw new HostsFileError(`${at}: listAs: dns needs a dnsName`);
  if (h.key !== undefined && h.listAs !== undefined)
    throw new HostsFileError(`${at}: key and listAs cannot be used together (key is how the host is listed)`);
  return {
    hostname: h.hostname,
    ...(h.dnsName !== undefined ? { dnsName: h.dnsName, listAs: listed[0] ?? 'ipv4' } : {}),
    ...(h.shell === 'powershell' ? { defaultShell: 'powershell' as const } : {}),
    ...scenarioFields(h, listed),
  };
}

/** The scenario of a host and what its simulated kubelet needs for it. */
function scenarioFields(h: HostEntry, listed: readonly ('ipv4' | 'dns')[]): Partial<SimHostSpec> {
  const scenario = scenarioOf(h, listed);
  if (!scenario) return {};
  // The client-CSR attacks need the registration live (WaitingForNode) for a moment: the kubelet waits 3 s
  // after its certificate before it registers its Node.
  const early = h.hostileCsrs?.some((a) => a === 'secondClient' || a === 'wrongRequester') === true;
  return { scenario, ...(early ? { kubelet: { registerDelayMs: 3000 } } : {}) };
}

/** Two hosts listed under one literal key would be one windows-instances entry. */
function checkKeys(hosts: readonly HostEntry[], file: string): void {
  const seen = new Map<string, number>();
  hosts.forEach((h, i) => {
    if (h.key === undefined) return;
    const first = seen.get(h.key);
    if (first !== undefined)
      throw new HostsFileError(`${file}: hosts[${i}]: key ${h.key} is already the key of hosts[${first}]`);
    seen.set(h.key, i);
  });
}

/**
 * The hosts of `wmco sim --hosts-file FILE` (YAML):
 * `hosts: [{ hostname, listAs: ipv4|dns|[ipv4, dns], dnsName?, shell: cmd|powershell, key?, faults?,
 * nodeSubnet?, hostileCsrs? }]` (docs/sim-hosts-file.md).
 */
export function parseHostsFile(text: string, file: string): SimHostSpec[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new HostsFileError(`${file}: not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const r = fileSchema.safeParse(doc);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new HostsFileError(`${file}: ${problems.join('; ')}`);
  }
  checkKeys(r.data.hosts, file);
  return r.data.hosts.map((h, i) => toSpec(h, i, file));
}

export async function readHostsFile(file: string): Promise<SimHostSpec[]> {
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw new HostsFileError(`${file}: cannot read: ${err instanceof Error ? err.message : String(err)}`);
  });
  return parseHostsFile(text, file);
}
