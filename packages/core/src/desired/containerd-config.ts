import { stringify } from 'smol-toml';

export const CONTAINERD_REGISTRIES_DIR = 'C:\\k\\containerd\\registries';

/**
 * `C:\k\containerd\containerd_conf.toml` (reference §1.14): containerd v2 config for Windows process
 * isolation with the CRI plugin pointing at the CNI directories and at the per-registry `hosts.toml`
 * directory. Written with smol-toml, so it is always valid TOML.
 */
export function containerdConfig(): string {
  const cri = {
    sandbox_image: 'mcr.microsoft.com/oss/kubernetes/pause:3.9',
    stream_server_address: '127.0.0.1',
    containerd: {
      snapshotter: 'windows',
      default_runtime_name: 'runhcs-wcow-process',
      runtimes: { 'runhcs-wcow-process': { runtime_type: 'io.containerd.runhcs.v1' } },
    },
    cni: { bin_dir: 'C:\\k\\cni', conf_dir: 'C:\\k\\cni\\config', max_conf_num: 1 },
    registry: { config_path: CONTAINERD_REGISTRIES_DIR },
  };
  return stringify({
    version: 2,
    root: 'C:\\ProgramData\\containerd\\root',
    state: 'C:\\ProgramData\\containerd\\state',
    disabled_plugins: ['io.containerd.nri.v1.nri'],
    grpc: { address: '\\\\.\\pipe\\containerd-containerd' },
    plugins: {
      'io.containerd.grpc.v1.cri': cri,
      'io.containerd.transfer.v1.local': {
        unpack_config: [
          { platform: 'windows/amd64', snapshotter: 'windows' },
          { platform: 'linux/amd64', snapshotter: 'windows-lcow' },
        ],
      },
    },
  });
}
