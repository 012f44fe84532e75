import type { UserDataFormat } from '@wmco/core/provider';

/** The Nutanix machine-api passes user data to the guest's agent between `<powershell>` tags. */
export const nutanixUserDataFormat: UserDataFormat = {
  extraSteps: [],
  wrap: (script) => `<powershell>${script}</powershell>\n<persist>true</persist>\n`,
};
