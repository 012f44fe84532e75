import { fileURLToPath } from 'node:url';

/** The WindowsHost CustomResourceDefinition (YAML) to apply before the controller starts. */
export const WINDOWS_HOST_CRD_FILE = fileURLToPath(
  new URL('../deploy/windowshost-crd.yaml', import.meta.url),
);
