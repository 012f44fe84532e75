import { x509 } from '../../apiserver/x509.js';
import type { FileSystem } from '../file-system.js';
import { clientCertKubeconfig, readKubeconfig, type KubeconfigCredentials } from './kubeconfig-file.js';

const DEFAULT_CERT_DIR = 'C:\\var\\lib\\kubelet\\pki';

function pemPath(certDir: string | undefined, name: string): string {
  const dir = (certDir ?? DEFAULT_CERT_DIR).replace(/[\\/]+$/, '');
  return `${dir}\\${name}`;
}

/** True when `certPem` parses and is valid now. */
export function certValidNow(certPem: string, now = new Date()): boolean {
  try {
    const cert = new x509.X509Certificate(certPem);
    return cert.notBefore <= now && now < cert.notAfter;
  } catch {
    return false;
  }
}

/**
 * The client credentials of an earlier bootstrap, when `--kubeconfig` exists and holds a client
 * certificate that is still valid (the restart case: no new CSR). Anything else: undefined.
 */
export function reusableClientCredentials(
  files: FileSystem,
  kubeconfig: string | undefined,
): KubeconfigCredentials | undefined {
  if (kubeconfig === undefined || !files.isFile(kubeconfig)) return undefined;
  try {
    const creds = readKubeconfig(files, kubeconfig);
    if (creds.certPem === undefined || creds.keyPem === undefined) return undefined;
    return certValidNow(creds.certPem) ? creds : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the client certificate into `--cert-dir` and the kubeconfig that uses it into `--kubeconfig`. */
export function saveClientCredentials(
  files: FileSystem,
  paths: { readonly certDir?: string | undefined; readonly kubeconfig?: string | undefined },
  creds: {
    readonly server: string;
    readonly caPem: string;
    readonly certPem: string;
    readonly keyPem: string;
  },
): void {
  const pem = pemPath(paths.certDir, 'kubelet-client-current.pem');
  files.mkdirp(pem.slice(0, pem.lastIndexOf('\\')));
  files.write(pem, Buffer.from(`${creds.certPem.trimEnd()}\n${creds.keyPem.trimEnd()}\n`));
  if (paths.kubeconfig !== undefined) {
    const kc = paths.kubeconfig;
    const slash = kc.lastIndexOf('\\');
    if (slash > 2) files.mkdirp(kc.slice(0, slash));
    files.write(
      kc,
      Buffer.from(clientCertKubeconfig(creds.server, creds.caPem, creds.certPem, creds.keyPem)),
    );
  }
}

/** Writes the serving certificate and key into `--cert-dir`. */
export function saveServingCert(
  files: FileSystem,
  certDir: string | undefined,
  certPem: string,
  keyPem: string,
): void {
  const pem = pemPath(certDir, 'kubelet-server-current.pem');
  files.mkdirp(pem.slice(0, pem.lastIndexOf('\\')));
  files.write(pem, Buffer.from(`${certPem.trimEnd()}\n${keyPem.trimEnd()}\n`));
}
