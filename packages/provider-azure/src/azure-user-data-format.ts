import type { UserDataFormat } from '@wmco/core/provider';

/** Azure's agent runs the custom data between `<powershell>` tags, as on AWS; no extra steps. */
export const azureUserDataFormat: UserDataFormat = {
  extraSteps: [],
  wrap: (script) => `<powershell>${script}</powershell>\n<persist>true</persist>\n`,
};
