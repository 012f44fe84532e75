// windows_exporter's serving certificate on the host: where its files go and which service reads them.

/** Where windows_exporter's web config (`C:\k\tls\windows-exporter-webconfig.yaml`) points (§1.6 step 3). */
export const EXPORTER_TLS_FILES = {
  cert: 'C:\\k\\tls\\certs\\tls.crt',
  key: 'C:\\k\\tls\\certs\\tls.key',
} as const;

/** The service that reads those files when it starts. */
export const EXPORTER_SERVICE = 'windows_exporter';
