import { CLIENT_CERTIFICATE_NAME, HostPaths } from '@wmco/core/internal';
import { type ObserveRequest } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

/**
 * `clientCertificates` of observe, as Get-WmcoClientCertificates reports them: the `ovnkube-client-*.pem`
 * files (links as themselves) in hybrid-overlay's certificate folder; none when the folder is missing.
 */
export function clientCertificates(m: WindowsModel, req: ObserveRequest): string[] | undefined {
  if (req.clientCertificates !== true) return undefined;
  const dir = HostPaths.clientCertificates;
  if (!m.files.isDirectory(dir)) return [];
  return m.files
    .list(dir)
    .filter((e) => CLIENT_CERTIFICATE_NAME.test(e.name) && isFileEntry(m, e))
    .map((e) => e.name);
}

/** A file, or a symbolic link to one (DirectoryInfo.EnumerateFiles lists such a link, not a junction). */
function isFileEntry(m: WindowsModel, e: { readonly path: string; readonly directory: boolean }): boolean {
  const link = m.files.linkAt(e.path);
  if (link === undefined) return !e.directory;
  return link.kind === 'symlink' && !m.files.isDirectory(link.target);
}

/**
 * Remove-WmcoClientCertificate: one `ovnkube-client-*.pem` of that folder, a link removed as a link (its
 * target stays); a missing file is fine, a folder of that name is refused.
 */
export function removeClientCertificate(m: WindowsModel, name: string): void {
  if (!CLIENT_CERTIFICATE_NAME.test(name))
    throw new Error(`'${name}' is not a hybrid-overlay client certificate name`);
  const path = `${HostPaths.clientCertificates}\\${name}`;
  if (m.files.linkAt(path) === undefined && m.files.isDirectory(path))
    throw new Error(`Access to the path '${path}' is denied.`);
  m.files.remove(path);
}
