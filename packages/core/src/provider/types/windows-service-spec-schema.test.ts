import test from 'ava';
import { serviceSpecProblems } from './windows-service-spec-schema.js';
import type { WindowsServiceSpec } from './windows-service-spec.js';

const hybridOverlay: WindowsServiceSpec = {
  name: 'hybrid-overlay-node',
  command: 'C:\\k\\hybrid-overlay-node.exe --node NODE_NAME --windows-service',
  bootstrap: false,
  priority: 2,
  dependencies: ['kubelet'],
  nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
};

const kubelet: WindowsServiceSpec = {
  name: 'kubelet',
  command: 'C:\\k\\kubelet.exe --hostname-override=HOSTNAME_OVERRIDE --node-ip=NODE_IP',
  bootstrap: true,
  priority: 1,
  dependencies: ['containerd'],
  preScripts: [
    { variableName: 'HOSTNAME_OVERRIDE', script: 'C:\\Temp\\gcp-get-hostname.ps1' },
    { variableName: 'NODE_IP', script: "(Get-NetRoute -DestinationPrefix '0.0.0.0/0').ifIndex" },
  ],
};

test('valid specs have no problems', (t) => {
  t.deepEqual(serviceSpecProblems(hybridOverlay), []);
  t.deepEqual(serviceSpecProblems(kubelet), []);
  t.deepEqual(
    serviceSpecProblems({
      name: 'csi-proxy',
      command: 'C:\\k\\csi-proxy.exe',
      bootstrap: false,
      priority: 2,
    }),
    [],
  );
});

test('a pre-script run only for its effect needs no variable', (t) => {
  const spec = {
    ...kubelet,
    preScripts: [{ script: 'C:\\Temp\\windows-defender-exclusion.ps1 -BinPath C:\\k\\x.exe' }],
  };
  t.deepEqual(serviceSpecProblems(spec), []);
});

const cases: readonly [string, WindowsServiceSpec, RegExp][] = [
  ['a name with spaces', { ...hybridOverlay, name: 'hybrid overlay' }, /^name: service names are letters/],
  ['an empty command', { ...hybridOverlay, command: '' }, /^command: /],
  [
    'a two-line command',
    { ...hybridOverlay, command: 'a.exe NODE_NAME\nb.exe' },
    /^command: a command is one line/,
  ],
  ['a negative priority', { ...hybridOverlay, priority: -1 }, /^priority: /],
  ['a fractional priority', { ...hybridOverlay, priority: 1.5 }, /^priority: /],
  [
    'a lower-case variable',
    { ...hybridOverlay, nodeVariables: [{ name: 'node_name', jsonPath: '{.metadata.name}' }] },
    /UPPER_SNAKE_CASE/,
  ],
  [
    'an empty JSONPath',
    { ...hybridOverlay, nodeVariables: [{ name: 'NODE_NAME', jsonPath: '' }] },
    /^nodeVariables\.0\.jsonPath: /,
  ],
  [
    'a bootstrap service with node variables',
    { ...hybridOverlay, bootstrap: true },
    /bootstrap service hybrid-overlay-node cannot require node variables/,
  ],
  [
    'a service depending on itself',
    { ...hybridOverlay, dependencies: ['hybrid-overlay-node'] },
    /depends on itself/,
  ],
  [
    'a dependency listed twice',
    { ...hybridOverlay, dependencies: ['kubelet', 'kubelet'] },
    /lists a dependency twice/,
  ],
  [
    'a variable the command never uses',
    { ...hybridOverlay, command: 'C:\\k\\hybrid-overlay-node.exe' },
    /defines variable NODE_NAME but its command never uses it/,
  ],
  [
    'an unused pre-script variable',
    { ...kubelet, command: 'C:\\k\\kubelet.exe --node-ip=NODE_IP' },
    /defines variable HOSTNAME_OVERRIDE/,
  ],
  [
    'a multi-line pre-script',
    { ...kubelet, preScripts: [{ variableName: 'NODE_IP', script: 'a\nb' }] },
    /a pre-script is one command line/,
  ],
  ['an unknown key', { ...hybridOverlay, path: 'x' } as WindowsServiceSpec, /Unrecognized key/],
];

for (const [what, spec, message] of cases) {
  test(`reports ${what}`, (t) => {
    const problems = serviceSpecProblems(spec);
    t.true(problems.length > 0);
    t.true(
      problems.some((p) => message.test(p)),
      problems.join('\n'),
    );
  });
}
