import { token } from '../token.js';

/** How the platform delivers the user-data PowerShell script to a new Windows VM. */
export interface UserDataFormat {
  /**
   * PowerShell statements appended to the common script, in order (for example AWS's EC2Launch v2
   * install and `add-routes --persistent`). Empty when the platform needs nothing extra.
   */
  readonly extraSteps: readonly string[];
  /** Wraps the finished script the way the platform's agent expects it (GCP: raw; others: tags). */
  wrap(script: string): string;
}
export const UserDataFormat = token<UserDataFormat>('platform.user-data-format');
