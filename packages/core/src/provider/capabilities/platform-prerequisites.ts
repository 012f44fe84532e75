import { token } from '../token.js';
import type { WindowsBuild } from '../types/windows-build.js';

/** What a platform demands of a Windows host or MachineSet, checked by pre-flight and admission. */
export interface PlatformPrerequisites {
  /** Windows Server releases supported on this platform. */
  readonly supportedBuilds: readonly WindowsBuild[];
  /** Longest computer name a VM may have (NetBIOS: 15), when the platform derives it from the Machine. */
  readonly machineNameMaxLength?: number;
  /** Longest MachineSet name, so that generated Machine names fit `machineNameMaxLength`. */
  readonly machineSetNameMaxLength?: number;
  /** True when the hybrid overlay must use a custom VXLAN port (not 4789) on this platform. */
  readonly customVxlanPortRequired: boolean;
  /** Other documented requirements, for people (shown by `wmco preflight` and `wmco providers`). */
  readonly notes: readonly string[];
}
export const PlatformPrerequisites = token<PlatformPrerequisites>('platform.platform-prerequisites');
