import { createWmcoCore, type WmcoCore } from '@wmco/core';
import { isPlatformName } from '@wmco/core/provider';
import type { CliContext } from '../cli-context.js';

/**
 * A core for `platform` built from the CLI's providers, in a child of the CLI's container. Platforms differ
 * only through the capabilities their provider registers; nothing here looks at the platform's name.
 */
export function platformCore(ctx: CliContext, platform: string): WmcoCore {
  if (!isPlatformName(platform))
    throw new Error(`"${platform}" is not a platform name (e.g. AWS, Azure, None)`);
  return createWmcoCore({
    parent: ctx.container.createChildContainer(),
    providers: ctx.builtinProviders,
    platform,
  });
}
