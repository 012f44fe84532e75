import { Command } from 'commander';
import { buildUserData } from '@wmco/core';
import { parseAuthorizedKey } from '@wmco/core';
import { UserDataFormat } from '@wmco/core/provider';
import type { CliContext } from '../cli-context.js';
import { platformCore } from './platform-core.js';
import { readInputFile } from './read-input.js';

export function userDataCommand(ctx: CliContext): Command {
  return new Command('user-data')
    .description("Print the windows-user-data script for a public key, wrapped the platform's way")
    .requiredOption('--platform <platform>', 'cluster platform, e.g. AWS, Azure, None')
    .requiredOption('--public-key <file>', 'OpenSSH public key file (e.g. id_ed25519.pub)')
    .action(async (opts: { platform: string; publicKey: string }) => {
      const core = platformCore(ctx, opts.platform);
      try {
        const format = core.tryResolve(UserDataFormat);
        if (!format) {
          throw new Error(
            `platform ${opts.platform} creates no Machines, so it has no user data (no ${core.provider.id} UserDataFormat)`,
          );
        }
        const text = await readInputFile(opts.publicKey, 'public key');
        let key;
        try {
          key = parseAuthorizedKey(text);
        } catch (err) {
          throw new Error(`public key ${opts.publicKey}: ${(err as Error).message}`, { cause: err });
        }
        ctx.stdout(buildUserData(key, format).replace(/\n$/, ''));
      } finally {
        await core.dispose();
      }
    });
}
