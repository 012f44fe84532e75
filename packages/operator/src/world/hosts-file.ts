import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import type { SimHostSpec } from './world-hosts.js';

// A DNS name the world's resolver can answer (RFC 1123 labels, last label not numeric).
const DNS_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

const hostSchema = z
  .object({
    // Any computer name, hostile ones included: the scenario decides what the host reports. Control
    // characters are refused so the file cannot smuggle terminal escapes into the progress output.
    hostname: z
      .string()
      .min(1)
      .max(253)
      // eslint-disable-next-line no-control-regex
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters'),
    listAs: z.enum(['ipv4', 'dns']).default('ipv4'),
    dnsName: z.string().regex(DNS_NAME, 'must be a DNS name such as win-a.example').optional(),
    shell: z.enum(['cmd', 'powershell']).default('cmd'),
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

function toSpec(h: z.infer<typeof hostSchema>, i: number, file: string): SimHostSpec {
  if (h.listAs === 'dns' && h.dnsName === undefined)
    throw new HostsFileError(`${file}: hosts[${i}]: listAs: dns needs a dnsName`);
  return {
    hostname: h.hostname,
    ...(h.dnsName !== undefined ? { dnsName: h.dnsName, listAs: h.listAs } : {}),
    ...(h.shell === 'powershell' ? { defaultShell: 'powershell' as const } : {}),
  };
}

/**
 * The hosts of `wmco sim --hosts-file FILE` (YAML):
 * `hosts: [{ hostname, listAs: ipv4|dns, dnsName?, shell: cmd|powershell }]`.
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
  return r.data.hosts.map((h, i) => toSpec(h, i, file));
}

export async function readHostsFile(file: string): Promise<SimHostSpec[]> {
  const text = await readFile(file, 'utf8').catch((err: unknown) => {
    throw new HostsFileError(`${file}: cannot read: ${err instanceof Error ? err.message : String(err)}`);
  });
  return parseHostsFile(text, file);
}
