import type { WmcoProvider } from '@wmco/core/provider';
import { noneProvider } from '@wmco/provider-none';

/** The first-party providers baked into this build, in listing order. */
export const BUILTIN_PROVIDERS: readonly WmcoProvider[] = [noneProvider];
