import test from 'ava';
import { parse } from 'smol-toml';
import { cniConfiguration } from './cni-config.js';
import { containerdConfig } from './containerd-config.js';
import { kubeProxyConfiguration } from './kube-proxy-config.js';
import { networkConfigScript } from './network-script.js';
import { powershellSyntaxErrors } from '../testing/powershell-syntax.js';

test('network script: parses as PowerShell and carries the operator-side inputs', (t) => {
  const script = networkConfigScript({
    serviceCidr: '10.0.0.1/16',
    hnsNetwork: 'OVNKubernetesHNSNetwork',
    hnsModulePath: 'c:\\k\\hns.psm1',
    cniConfigPath: 'c:\\k\\cni.conf',
  });
  t.deepEqual(powershellSyntaxErrors(script), []);
  t.true(script.includes("Import-Module -DisableNameChecking 'c:\\k\\hns.psm1'"));
  t.true(script.includes("$_.Name -eq 'OVNKubernetesHNSNetwork'"));
  t.true(script.includes("Write-IfChanged 'c:\\k\\cni.conf'"));
  t.true(script.includes('"exceptionList": [\n'));
  t.true(script.includes('"destinationPrefix": "10.0.0.1/16"'));
  t.true(script.includes('"verbosity": @@VERBOSITY@@'));
  t.false(/HNS_NETWORK|SERVICE_NETWORK_CIDR|HNS_MODULE_PATH|CNI_CONFIG_PATH/.test(script));
});

test('network script: defaults and input checks', (t) => {
  const script = networkConfigScript({ serviceCidr: '172.30.0.0/16' });
  t.true(script.includes("'OVNKubernetesHybridOverlayNetwork'"));
  t.true(script.includes("'C:\\Temp\\hns.psm1'"));
  t.throws(() => networkConfigScript({ serviceCidr: '172.30.0.0' }), { message: /not a CIDR/ });
  t.throws(() => networkConfigScript({ serviceCidr: '172.30.0.0/16', hnsNetwork: "x'; rm" }), {
    message: /unsafe/,
  });
  t.throws(() => networkConfigScript({ serviceCidr: '172.30.0.0/16', cniConfigPath: "C:\\a'b" }), {
    message: /unsafe/,
  });
});

test('kube-proxy config: DSR on, kernelspace, hybrid-overlay network', (t) => {
  const c = JSON.parse(
    kubeProxyConfiguration({
      hostnameOverride: 'node1',
      clusterCIDR: '10.132.0.0/24',
      sourceVip: '10.132.0.2',
      kubeconfig: 'C:\\k\\kubeconfig',
      verbosity: 0,
    }),
  ) as Record<string, unknown>;
  t.like(c, {
    kind: 'KubeProxyConfiguration',
    mode: 'kernelspace',
    featureGates: { WinDSR: true, WinOverlay: true },
    hostnameOverride: 'node1',
    clusterCIDR: '10.132.0.0/24',
    clientConnection: { kubeconfig: 'C:\\k\\kubeconfig' },
    winkernel: { enableDSR: true, networkName: 'OVNKubernetesHybridOverlayNetwork', sourceVip: '10.132.0.2' },
  });
});

test('CNI config: win-overlay with the service network excluded from NAT and routed', (t) => {
  const c = JSON.parse(
    cniConfiguration({
      networkName: 'N',
      subnet: '10.132.1.0/24',
      serviceCidr: '172.30.0.0/16',
      providerAddress: '10.132.1.2',
    }),
  ) as {
    policies: { value: { type: string; settings: object } }[];
  };
  t.like(c, {
    cniVersion: '0.2.0',
    name: 'N',
    type: 'win-overlay',
    apiVersion: 2,
    ipam: { subnet: '10.132.1.0/24' },
  });
  t.deepEqual(
    c.policies.map((p) => [p.value.type, p.value.settings]),
    [
      ['OutBoundNAT', { exceptionList: ['172.30.0.0/16'] }],
      ['SDNRoute', { destinationPrefix: '172.30.0.0/16', needEncap: true }],
      ['ProviderAddress', { providerAddress: '10.132.1.2' }],
    ],
  );
});

test('containerd config: valid TOML with the §1.14 settings', (t) => {
  t.deepEqual(parse(containerdConfig()), {
    version: 2,
    root: 'C:\\ProgramData\\containerd\\root',
    state: 'C:\\ProgramData\\containerd\\state',
    disabled_plugins: ['io.containerd.nri.v1.nri'],
    grpc: { address: '\\\\.\\pipe\\containerd-containerd' },
    plugins: {
      'io.containerd.grpc.v1.cri': {
        sandbox_image: 'mcr.microsoft.com/oss/kubernetes/pause:3.9',
        stream_server_address: '127.0.0.1',
        containerd: {
          snapshotter: 'windows',
          default_runtime_name: 'runhcs-wcow-process',
          runtimes: { 'runhcs-wcow-process': { runtime_type: 'io.containerd.runhcs.v1' } },
        },
        cni: { bin_dir: 'C:\\k\\cni', conf_dir: 'C:\\k\\cni\\config', max_conf_num: 1 },
        registry: { config_path: 'C:\\k\\containerd\\registries' },
      },
      'io.containerd.transfer.v1.local': {
        unpack_config: [
          { platform: 'windows/amd64', snapshotter: 'windows' },
          { platform: 'linux/amd64', snapshotter: 'windows-lcow' },
        ],
      },
    },
  });
});
