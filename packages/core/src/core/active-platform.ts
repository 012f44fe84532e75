import type { PlatformType } from '../provider/platform.js';
import { token } from '../provider/token.js';

/** The platform a core instance serves and the provider chosen for it. */
export interface ActivePlatform {
  readonly platform: PlatformType;
  readonly providerId: string;
}
export const ActivePlatform = token<ActivePlatform>('core.active-platform');
