import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import {
  hostsTomlFiles,
  mergedMirrorSets,
  parsePullSecret,
  type RegistryCredentials,
} from '@wmco/core/internal';
import type { CliContext } from '../cli-context.js';
import { collectMirrorEntries, type MirrorEntries } from './mirror-set-objects.js';
import { isRecord, readInputFile, readYamlDocuments } from './read-input.js';

/** A pull secret file: the `.dockerconfigjson` document itself, or a Secret (YAML/JSON) holding it. */
async function readPullSecret(path: string): Promise<RegistryCredentials> {
  const text = await readInputFile(path, 'pull secret');
  const [doc] = await readYamlDocuments(path, 'pull secret');
  const data = isRecord(doc) && isRecord(doc.data) ? doc.data['.dockerconfigjson'] : undefined;
  const json = typeof data === 'string' ? Buffer.from(data, 'base64').toString('utf8') : text;
  try {
    return parsePullSecret(json);
  } catch (err) {
    throw new Error(`pull secret ${path}: ${(err as Error).message}`, { cause: err });
  }
}

export function hostsTomlCommand(ctx: CliContext): Command {
  return new Command('hosts-toml')
    .description('Write containerd hosts.toml files (C:\\k\\containerd\\registries) for IDMS/ITMS objects')
    .requiredOption(
      '--mirror-sets <files...>',
      'YAML files with ImageDigestMirrorSet / ImageTagMirrorSet objects',
    )
    .option('--pull-secret <file>', 'the cluster pull secret (.dockerconfigjson, or a Secret holding it)')
    .requiredOption('--out <dir>', 'directory to write <registry>/hosts.toml into')
    .action(async (opts: { mirrorSets: string[]; pullSecret?: string; out: string }) => {
      const entries: MirrorEntries = { digest: [], tag: [] };
      for (const file of opts.mirrorSets) {
        collectMirrorEntries(await readYamlDocuments(file, 'mirror sets file'), file, entries);
      }
      const creds = opts.pullSecret ? await readPullSecret(opts.pullSecret) : undefined;
      const files = hostsTomlFiles(mergedMirrorSets(entries.digest, entries.tag), creds);
      for (const f of files) {
        await mkdir(join(opts.out, f.directory), { recursive: true });
        await writeFile(join(opts.out, f.directory, 'hosts.toml'), f.content);
        ctx.stdout(join(opts.out, f.directory, 'hosts.toml'));
      }
      if (files.length === 0) ctx.stderr('no mirror sets: nothing written');
    });
}
