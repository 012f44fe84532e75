import test from 'ava';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import {
  bootstrapServices,
  dependencyCycles,
  servicesListProblems,
  sortServicesByPriority,
  validateServices,
} from './services-list-rules.js';

// Vectors: servicescm_test.go validateDependencies / validatePriorities / GetBootstrapServices (§4.2).
const svc = (
  name: string,
  bootstrap: boolean,
  priority: number,
  more: Partial<WindowsServiceSpec> = {},
): WindowsServiceSpec => ({ name, command: `${name}.exe`, bootstrap, priority, ...more });

const dependencyCases: [string, WindowsServiceSpec[], RegExp | undefined][] = [
  ['empty', [], undefined],
  [
    'bootstrap with a pre-script variable, controller with a node variable',
    [
      svc('b', true, 0, {
        command: 'b.exe --ip=NODE_IP',
        preScripts: [{ variableName: 'NODE_IP', script: 'x.ps1' }],
      }),
      svc('c', false, 1, {
        command: 'c.exe --n NODE_NAME',
        nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
      }),
    ],
    undefined,
  ],
  [
    'chain',
    [
      svc('b0', true, 0),
      svc('c1', false, 1, { dependencies: ['b0'] }),
      svc('c2', false, 2, { dependencies: ['c1'] }),
    ],
    undefined,
  ],
  [
    'bootstrap with node variables',
    [
      svc('b', true, 0, {
        command: 'b.exe NODE_NAME',
        nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
      }),
      svc('c', false, 1),
    ],
    /cannot require node variables/,
  ],
  [
    'bootstrap depends on controllers',
    [svc('b', true, 0, { dependencies: ['c1', 'c2'] }), svc('c1', false, 1), svc('c2', false, 1)],
    /cannot depend on non-bootstrap service c1/,
  ],
  [
    'bootstrap depends on a controller that depends on it',
    [
      svc('b', true, 0, { dependencies: ['c1'] }),
      svc('c1', false, 1),
      svc('c2', false, 1, { dependencies: ['b'] }),
    ],
    /cannot depend on non-bootstrap/,
  ],
  ['self cycle', [svc('svc', false, 1, { dependencies: ['svc'] })], /depends on itself|cycle/],
  ['unknown dependency ignored', [svc('svc', false, 1, { dependencies: ['external-svc'] })], undefined],
  [
    'three-cycle',
    [
      svc('s0', false, 1, { dependencies: ['s1'] }),
      svc('s1', false, 1, { dependencies: ['s2'] }),
      svc('s2', false, 1, { dependencies: ['s0'] }),
    ],
    /dependency cycle: s0 -> s1 -> s2 -> s0/,
  ],
  [
    'two-cycle beside a free service',
    [
      svc('s0', false, 1),
      svc('s1', false, 1, { dependencies: ['s2'] }),
      svc('s2', false, 1, { dependencies: ['s1'] }),
    ],
    /dependency cycle: s1 -> s2 -> s1/,
  ],
  // QUIRK 6: upstream's hasCycle falsely reports this diamond as a cycle; a correct search does not.
  [
    'diamond is not a cycle',
    [
      svc('A', false, 1, { dependencies: ['B', 'C'] }),
      svc('B', false, 1),
      svc('C', false, 1),
      svc('E', false, 1, { dependencies: ['A'] }),
    ],
    undefined,
  ],
];
for (const [label, services, error] of dependencyCases) {
  test(`validate dependencies: ${label}`, (t) => {
    if (error) t.throws(() => validateServices(services), { message: error });
    else t.notThrows(() => validateServices(services));
  });
}

const priorityCases: [string, WindowsServiceSpec[], boolean][] = [
  ['empty', [], true],
  ['b0 c2 c5', [svc('a', true, 0), svc('b', false, 2), svc('c', false, 5)], true],
  ['b0 b0 c1', [svc('a', true, 0), svc('b', true, 0), svc('c', false, 1)], true],
  ['b0 c0 c5 overlap', [svc('a', true, 0), svc('b', false, 0), svc('c', false, 5)], false],
  ['b2 c0 c1', [svc('a', true, 2), svc('b', false, 0), svc('c', false, 1)], false],
  ['b1 c0 c2', [svc('a', true, 1), svc('b', false, 0), svc('c', false, 2)], false],
];
for (const [label, services, valid] of priorityCases) {
  test(`validate priorities: ${label}`, (t) => {
    const problems = servicesListProblems(services);
    if (valid) t.deepEqual(problems, []);
    else t.regex(problems.join(), /must be lower than every other service/);
  });
}

test('bootstrap services are the leading bootstrap entries after sorting', (t) => {
  t.is(bootstrapServices([]).length, 0);
  t.is(bootstrapServices([svc('a', true, 0), svc('b', true, 1)]).length, 2);
  t.is(bootstrapServices([svc('a', false, 1), svc('b', false, 2)]).length, 0);
  t.deepEqual(
    bootstrapServices([svc('c1', false, 1), svc('b0', true, 0), svc('c2', false, 2)]).map((s) => s.name),
    ['b0'],
  );
});

test('sorting by priority is stable and does not touch the input (upstream sorts in place, unstably)', (t) => {
  const input = [svc('x', false, 2), svc('a', false, 1), svc('y', false, 2), svc('b', true, 0)];
  t.deepEqual(
    sortServicesByPriority(input).map((s) => s.name),
    ['b', 'a', 'x', 'y'],
  );
  t.is(input[0]!.name, 'x');
});

test('duplicate names and every cycle are reported', (t) => {
  t.regex(servicesListProblems([svc('a', false, 1), svc('a', false, 2)]).join(), /listed twice/);
  const cycles = dependencyCycles([
    svc('a', false, 1, { dependencies: ['b'] }),
    svc('b', false, 1, { dependencies: ['a'] }),
    svc('c', false, 1, { dependencies: ['d'] }),
    svc('d', false, 1, { dependencies: ['c'] }),
  ]);
  t.deepEqual(cycles, [
    ['a', 'b', 'a'],
    ['c', 'd', 'c'],
  ]);
});

test('single-service rules apply inside the list', (t) => {
  t.throws(() => validateServices([svc('bad name', false, 1)]), { message: /service bad name: name/ });
});
