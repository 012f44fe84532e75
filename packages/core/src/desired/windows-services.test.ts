import test from 'ava';
import { CloudNodeManager } from '../provider/capabilities/cloud-node-manager.js';
import type { HostnameOverride } from '../provider/capabilities/hostname-override.js';
import type { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import { newRootContainer } from '../di.js';
import { powershellSyntaxErrors } from '../testing/powershell-syntax.js';
import { ServicesPlanner } from './services-planner.js';
import { buildWindowsServices, type ServicesOptions } from './windows-services.js';
import { NODE_IP_SCRIPT } from './core-services.js';

const API = 'https://api-server.endpoint.local:6443';
const base: ServicesOptions = { apiServerInternalUrl: API, debug: false };
const byName = (o: ServicesOptions) => new Map(buildWindowsServices(o).map((s) => [s.name, s]));

// Fakes shaped like the platforms' capabilities (the real ones live in provider packages).
const awsHostname: HostnameOverride = {
  command: 'Invoke-RestMethod -UseBasicParsing -Uri http://169.254.169.254/latest/meta-data/local-hostname',
  files: [],
};
const vsphereHostname: HostnameOverride = {
  command:
    "$output = Invoke-Expression 'ipconfig /all'; $hostNameLine = ($output -split '`n') | Where-Object { $_ -match 'Host Name' }; $dnsSuffixLine = ($output -split '`n') | Where-Object { $_ -match 'Primary Dns Suffix' }; $hostName = ($hostNameLine -split ':')[1].Trim(); $dnsSuffix = ($dnsSuffixLine -split ':')[1].Trim(); if (-not $dnsSuffix) { return $hostName }; $fqdn = $hostName + '.' + $dnsSuffix; return $fqdn",
  files: [],
};
const ecr: ImageCredentialProvider = {
  payload: () => [{ name: 'ecr-credential-provider.exe', directory: 'C:\\k' }],
  ignitionConfigPath: '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml',
  rewriteConfig: (c) => c,
  kubeletFlags: () => [
    '--image-credential-provider-bin-dir=C:\\k',
    '--image-credential-provider-config=C:\\k\\credential-provider-config.yaml',
  ],
};
const azureCnm: CloudNodeManager = {
  service: () => ({
    name: 'cloud-node-manager',
    command:
      'C:\\k\\azure-cloud-node-manager.exe --windows-service --node-name=NODE_NAME --wait-routes=false --kubeconfig=C:\\k\\wicd-kubeconfig',
    bootstrap: false,
    priority: 3,
    nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
  }),
  payload: () => [{ name: 'azure-cloud-node-manager.exe', directory: 'C:\\k' }],
};

test('services: the §1.4 table, no platform extras, no debug', (t) => {
  const s = byName(base);
  t.deepEqual(
    [...s.keys()],
    ['containerd', 'kubelet', 'windows_exporter', 'hybrid-overlay-node', 'csi-proxy', 'kube-proxy'],
  );
  t.deepEqual(s.get('containerd'), {
    name: 'containerd',
    command:
      'C:\\k\\containerd\\containerd.exe --config C:\\k\\containerd\\containerd_conf.toml --log-file C:\\var\\log\\containerd\\containerd.log --run-service --log-level info',
    bootstrap: true,
    priority: 0,
    preScripts: [
      { script: 'C:\\Temp\\windows-defender-exclusion.ps1 -BinPath C:\\k\\containerd\\containerd.exe' },
    ],
  });
  t.is(
    s.get('kubelet')!.command,
    'C:\\k\\kube-log-runner.exe -log-file=C:\\var\\log\\kubelet\\kubelet.log C:\\k\\kubelet.exe --config=C:\\k\\kubelet.conf --bootstrap-kubeconfig=C:\\k\\bootstrap-kubeconfig --kubeconfig=C:\\k\\kubeconfig --cert-dir=c:\\var\\lib\\kubelet\\pki\\ --windows-service --node-labels=node.openshift.io/os_id=Windows --windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS --v=2 --node-ip=NODE_IP',
  );
  t.deepEqual(s.get('kubelet')!.dependencies, ['containerd']);
  t.deepEqual(s.get('kubelet')!.preScripts, [
    {
      variableName: 'NODE_IP',
      // Not upstream's text: that one yields a line per default route (node-ip-script.test.ts).
      script: NODE_IP_SCRIPT,
    },
  ]);
  t.is(
    s.get('windows_exporter')!.command,
    'C:\\k\\windows_exporter.exe --collectors.enabled cpu,logical_disk,net,os,service,system,container,memory,cpu_info --web.config.file C:\\k\\tls\\windows-exporter-webconfig.yaml --log.level info --log.file C:\\var\\log\\windows_exporter\\windows_exporter.log',
  );
  t.is(
    s.get('hybrid-overlay-node')!.command,
    `C:\\k\\hybrid-overlay-node.exe --node NODE_NAME --bootstrap-kubeconfig=C:\\k\\kubeconfig --cert-dir=C:\\k\\cni\\config --cert-duration=24h --windows-service --logfile C:\\var\\log\\hybrid-overlay\\hybrid-overlay.log --k8s-apiserver=${API} --k8s-cacert C:\\k\\bootstrap-ca.crt`,
  );
  t.is(
    s.get('csi-proxy')!.command,
    'C:\\k\\csi-proxy.exe -log_file=C:\\var\\log\\csi-proxy\\csi-proxy.log -logtostderr=false -windows-service --v=2',
  );
  t.deepEqual(s.get('kube-proxy'), {
    name: 'kube-proxy',
    command:
      'C:\\k\\kube-log-runner.exe -log-file=C:\\var\\log\\kube-proxy\\kube-proxy.log C:\\k\\kube-proxy.exe --config C:\\k\\kube-proxy.conf --windows-service',
    bootstrap: false,
    priority: 3,
    dependencies: ['hybrid-overlay-node'],
    preScripts: [
      {
        script:
          'C:\\Temp\\network-conf.ps1 -hostnameOverride NODE_NAME -clusterCIDR NODE_SUBNET -kubeConfigPath KUBE_CONFIG_PATH -kubeProxyConfigPath KUBE_PROXY_CONFIG_PATH -verbosity VERBOSITY',
        nodeArgs: [
          { name: 'NODE_NAME', jsonPath: '{.metadata.name}' },
          {
            name: 'NODE_SUBNET',
            jsonPath: '{.metadata.annotations.k8s\\.ovn\\.org/hybrid-overlay-node-subnet}',
          },
          { name: 'KUBE_CONFIG_PATH', jsonPath: 'C:\\k\\kubeconfig' },
          { name: 'KUBE_PROXY_CONFIG_PATH', jsonPath: 'C:\\k\\kube-proxy.conf' },
          { name: 'VERBOSITY', jsonPath: '0' },
        ],
      },
    ],
  });
  t.deepEqual(
    [...s.values()].map((x) => [x.name, x.priority, x.bootstrap, x.dependencies ?? []]),
    [
      ['containerd', 0, true, []],
      ['kubelet', 1, true, ['containerd']],
      ['windows_exporter', 2, false, []],
      ['hybrid-overlay-node', 2, false, ['kubelet']],
      ['csi-proxy', 2, false, []],
      ['kube-proxy', 3, false, ['hybrid-overlay-node']],
    ],
  );
});

test('services: debug switches levels and verbosity', (t) => {
  const s = byName({ ...base, debug: true });
  t.true(s.get('containerd')!.command.endsWith('--log-level debug'));
  t.true(s.get('kubelet')!.command.includes(' --v=4 '));
  t.true(s.get('windows_exporter')!.command.includes('--log.level debug'));
  t.true(s.get('csi-proxy')!.command.endsWith('--v=4'));
  t.is(s.get('kube-proxy')!.preScripts![0]!.nodeArgs![4]!.jsonPath, '4');
});

// services_test.go hybridOverlayConfiguration vectors.
for (const [vxlan, debug] of [
  [undefined, false],
  [undefined, true],
  ['4789', true],
] as const) {
  test(`services: hybrid-overlay-node vxlan=${vxlan ?? '""'} debug=${debug}`, (t) => {
    const h = byName({ ...base, debug, ...(vxlan ? { vxlanPort: vxlan } : {}) }).get('hybrid-overlay-node')!;
    t.like(h, { name: 'hybrid-overlay-node', bootstrap: false, priority: 2, dependencies: ['kubelet'] });
    t.is(h.preScripts, undefined);
    t.deepEqual(h.nodeVariables, [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }]);
    for (const part of [
      'C:\\k\\hybrid-overlay-node.exe',
      '--node NODE_NAME',
      '--bootstrap-kubeconfig=C:\\k\\kubeconfig',
      '--cert-dir=C:\\k\\cni\\config',
      '--cert-duration=24h',
      '--windows-service',
      '--logfile',
      'C:\\var\\log\\hybrid-overlay\\hybrid-overlay.log',
      '--k8s-cacert C:\\k\\bootstrap-ca.crt',
    ]) {
      t.true(h.command.includes(part), part);
    }
    t.is(h.command.includes('--hybrid-overlay-vxlan-port 4789'), vxlan !== undefined);
    t.is(h.command.includes('--loglevel 5'), debug);
  });
}

test('services: platform contributions (hostname override, credential provider, cloud node manager)', (t) => {
  const s = byName({
    ...base,
    cloudProvider: 'external',
    cloudConfigFile: 'cloud.conf',
    capabilities: { hostnameOverride: awsHostname, imageCredentialProvider: ecr, cloudNodeManager: azureCnm },
  });
  const kubelet = s.get('kubelet')!;
  t.true(
    kubelet.command.endsWith(
      '--v=2 --cloud-provider=external --cloud-config=C:\\k\\cloud.conf --hostname-override=HOSTNAME_OVERRIDE --node-ip=NODE_IP --image-credential-provider-bin-dir=C:\\k --image-credential-provider-config=C:\\k\\credential-provider-config.yaml',
    ),
  );
  t.deepEqual(
    kubelet.preScripts!.map((p) => p.variableName),
    ['HOSTNAME_OVERRIDE', 'NODE_IP'],
  );
  t.is(kubelet.preScripts![0]!.script, awsHostname.command);
  t.deepEqual([...s.keys()].at(-1), 'cloud-node-manager');
  t.is(s.get('cloud-node-manager')!.command, azureCnm.service({ debug: false }).command);
});

test('services: the planner resolves optional capabilities from the container', (t) => {
  const c = newRootContainer();
  t.false(
    c
      .resolve(ServicesPlanner)
      .plan(base)
      .some((s) => s.name === 'cloud-node-manager'),
  );
  const withCnm = newRootContainer();
  withCnm.register(CloudNodeManager, { useValue: azureCnm });
  t.true(
    withCnm
      .resolve(ServicesPlanner)
      .plan(base)
      .some((s) => s.name === 'cloud-node-manager'),
  );
});

// Deliberate difference from upstream (QUIRK 19): with any SERVICES_LOG_* setting, every service goes
// through kube-log-runner with its own log file, and those with their own log flag log to stderr instead.
test('services: log rotation wraps EVERY service (upstream wraps only kubelet and kube-proxy)', (t) => {
  const rotation = { fileSize: '50Mi', fileAge: '48h', flushInterval: '10s' };
  const s = byName({ ...base, logRotation: rotation, capabilities: { cloudNodeManager: azureCnm } });
  const flags = '-log-file-size=50Mi -log-file-age=48h -flush-interval=10s';
  const expectLog: Record<string, string> = {
    containerd: 'containerd\\containerd',
    kubelet: 'kubelet\\kubelet',
    windows_exporter: 'windows_exporter\\windows_exporter',
    'hybrid-overlay-node': 'hybrid-overlay\\hybrid-overlay',
    'csi-proxy': 'csi-proxy\\csi-proxy',
    'kube-proxy': 'kube-proxy\\kube-proxy',
    'cloud-node-manager': 'cloud-node-manager\\cloud-node-manager',
  };
  t.is(s.size, 7);
  for (const [name, spec] of s) {
    t.true(
      spec.command.startsWith(
        `C:\\k\\kube-log-runner.exe -log-file=C:\\var\\log\\${expectLog[name]}.log ${flags} `,
      ),
      name,
    );
  }
  t.false(s.get('containerd')!.command.includes('--log-file C:'));
  t.false(s.get('windows_exporter')!.command.includes('--log.file'));
  t.false(s.get('hybrid-overlay-node')!.command.includes('--logfile'));
  t.true(s.get('csi-proxy')!.command.includes('-logtostderr=true'));
});

test('services: bad options are clear errors', (t) => {
  t.throws(() => buildWindowsServices({ ...base, vxlanPort: '70000' }), { message: /VXLAN port "70000"/ });
  t.throws(() => buildWindowsServices({ ...base, vxlanPort: '47; rm' }), { message: /VXLAN port/ });
  t.throws(() => buildWindowsServices({ ...base, apiServerInternalUrl: 'api; x' }), {
    message: /API server URL/,
  });
});

test('services: every pre-script and hostname command parses as PowerShell', (t) => {
  const all = [
    ...buildWindowsServices({ ...base, capabilities: { hostnameOverride: awsHostname } }),
    ...buildWindowsServices({ ...base, debug: true, capabilities: { hostnameOverride: vsphereHostname } }),
  ];
  const scripts = all.flatMap((s) => s.preScripts ?? []).map((p) => p.script);
  t.true(scripts.length >= 6);
  for (const script of scripts) t.deepEqual(powershellSyntaxErrors(script), [], script);
});
