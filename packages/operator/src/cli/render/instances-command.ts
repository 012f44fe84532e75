import { Command } from 'commander';
import { STRICT_ADDRESS_POLICY, systemIpv4Resolver } from '@wmco/core/internal';
import { parseWindowsInstances } from '@wmco/core';
import type { CliContext } from '../cli-context.js';
import { renderTable } from '../table.js';
import { isRecord, readYamlDocuments } from './read-input.js';

/** The `data` of a windows-instances ConfigMap file, every value a string. */
async function readInstancesData(path: string): Promise<Record<string, string>> {
  const [doc, ...more] = await readYamlDocuments(path, 'ConfigMap file');
  if (more.length > 0 || !isRecord(doc))
    throw new Error(`ConfigMap file ${path} must hold one ConfigMap object`);
  if (doc.kind !== 'ConfigMap')
    throw new Error(`ConfigMap file ${path} has kind ${JSON.stringify(doc.kind)}, not ConfigMap`);
  const data = doc.data ?? {};
  if (!isRecord(data)) throw new Error(`ConfigMap file ${path}: data must be a map`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) {
    if (typeof v !== 'string') throw new Error(`ConfigMap file ${path}: data["${k}"] must be a string`);
    out[k] = v;
  }
  return out;
}

export function instancesCommand(ctx: CliContext): Command {
  return new Command('instances')
    .description('Parse a windows-instances ConfigMap and print each entry or its error')
    .requiredOption('--configmap <file>', 'the windows-instances ConfigMap (YAML)')
    .action(async (opts: { configmap: string }) => {
      // The operator's address rules, except the cluster's own addresses (not known here).
      const results = await parseWindowsInstances(
        await readInstancesData(opts.configmap),
        [],
        systemIpv4Resolver,
        STRICT_ADDRESS_POLICY,
      );
      const rows = results.map((r) =>
        r.ok ? [r.key, r.instance.ipv4Address, r.instance.username, ''] : [r.key, '-', '-', r.error],
      );
      ctx.stdout(renderTable(['address', 'ipv4', 'username', 'error'], rows));
      const bad = results.filter((r) => !r.ok).length;
      if (bad > 0) throw new Error(`${bad} of ${results.length} windows-instances entries are invalid`);
    });
}
