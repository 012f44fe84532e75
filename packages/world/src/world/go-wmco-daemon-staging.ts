import type { WindowsModel } from '@wmco/sim';

/** The Go WMCO's node daemon, as `ConfigureWICD` installs it (reference §1.6 step 11). */
export const GO_WMCO_DAEMON = 'windows-instance-config-daemon';

/** WICD's command line on a node of the Go WMCO watching `namespace` (reference §1.6 step 11). */
export function goWmcoDaemonCommand(namespace: string): string {
  return [
    'C:\\k\\windows-instance-config-daemon.exe controller --windows-service --log-dir C:\\var\\log\\wicd',
    `--namespace ${namespace} --kubeconfig C:\\k\\wicd-kubeconfig --cert-dir C:\\k\\wicd-certs`,
    '--cert-duration 1h --ca-bundle C:\\k\\ca-bundle.crt',
  ].join(' ');
}

/**
 * Leaves a host as the Go WMCO's `ConfigureWICD` does: its binary and kubeconfig in `C:\k`, its client
 * certificate in `C:\k\wicd-certs`, its log folder, and the `windows-instance-config-daemon` service (start
 * type auto, description `OpenShift managed windows-instance-config-daemon`, no dependencies) running.
 */
export async function stageGoWmcoDaemon(model: WindowsModel, namespace: string): Promise<void> {
  const files = model.files;
  files.write('C:\\k\\windows-instance-config-daemon.exe', Buffer.from('wicd.exe of the Go WMCO'));
  files.write('C:\\k\\wicd-kubeconfig', Buffer.from('apiVersion: v1\nkind: Config\nusers:\n- name: wicd\n'));
  files.mkdirp('C:\\k\\wicd-certs');
  files.write('C:\\k\\wicd-certs\\wicd-client-current.pem', Buffer.from('a WICD client certificate'));
  files.mkdirp('C:\\var\\log\\wicd');
  model.scm.create({
    name: GO_WMCO_DAEMON,
    commandLine: goWmcoDaemonCommand(namespace),
    startType: 'auto',
    dependencies: [],
    description: `OpenShift managed ${GO_WMCO_DAEMON}`,
  });
  await model.scm.start(GO_WMCO_DAEMON);
}
