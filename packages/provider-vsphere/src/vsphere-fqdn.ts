/**
 * The TypeScript twin of the vSphere hostname override (keep the two in step): the FQDN from
 * `ipconfig /all` output, `<Host Name>.<Primary Dns Suffix>`, or the host name alone when there is no
 * suffix. Throws when the output has no `Host Name` line.
 */
export function fqdnFromIpconfig(output: string): string {
  const lines = output.split(/\r?\n/);
  const value = (label: string): string | undefined => {
    const line = lines.find((l) => l.includes(label));
    return line === undefined ? undefined : (line.split(':', 2)[1] ?? '').trim();
  };
  const hostName = value('Host Name');
  if (!hostName) throw new Error("ipconfig /all output has no 'Host Name' line");
  const suffix = value('Primary Dns Suffix');
  return suffix ? `${hostName}.${suffix}` : hostName;
}
