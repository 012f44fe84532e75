import type { UserDataFormat } from '@wmco/core/provider';

/** The vSphere machine-api hands user data to cloudbase-init-style agents between `<powershell>` tags. */
export const vsphereUserDataFormat: UserDataFormat = {
  extraSteps: [],
  wrap: (script) => `<powershell>${script}</powershell>\n<persist>true</persist>\n`,
};
