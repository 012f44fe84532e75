import { defineProvider, PlatformPrerequisites } from '@wmco/core/provider';
import { nonePlatformPrerequisites } from './none-platform-prerequisites.js';

/**
 * Platforms without a cloud: `None` and `BareMetal`. BYOH hosts only, so no Machine access or user data;
 * the kubelet registers under the computer name, so there is no hostname override either.
 */
export const noneProvider = defineProvider({
  id: 'none',
  platform: ['None', 'BareMetal'],
  contractVersion: 1,
  displayName: 'None / bare metal (BYOH)',
  packageName: '@wmco/provider-none',
  register(r) {
    r.useValue(PlatformPrerequisites, nonePlatformPrerequisites);
  },
});
