import test from 'ava';
import { BUILTIN_TYPES } from './builtin-types.js';
import { age } from './table-columns.js';
import { toTable } from './table.js';

test('ages print like kubectl', (t) => {
  const now = Date.parse('2026-01-10T00:00:00Z');
  const ago = (s: number): string => new Date(now - s * 1000).toISOString();
  t.is(age(ago(5), now), '5s');
  t.is(age(ago(150), now), '2m30s');
  t.is(age(ago(3600), now), '60m');
  t.is(age(ago(4 * 3600 + 60), now), '4h1m');
  t.is(age(ago(30 * 3600), now), '30h');
  t.is(age(ago(3 * 86400), now), '3d');
  t.is(age(undefined, now), '<unknown>');
});

test('a node table row: status with SchedulingDisabled, roles, version; metadata as the row object', (t) => {
  const nodeType = BUILTIN_TYPES.find((x) => x.kind === 'Node')!;
  const node = {
    metadata: {
      name: 'n1',
      labels: { 'node-role.kubernetes.io/worker': '' },
      creationTimestamp: new Date().toISOString(),
    },
    spec: { unschedulable: true },
    status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.36.0' } },
  };
  const table = toTable(nodeType, [node], { includeObject: 'Metadata', withColumns: true }) as {
    columnDefinitions: { name: string }[];
    rows: { cells: unknown[]; object: { kind: string } }[];
  };
  t.deepEqual(
    table.columnDefinitions.map((c) => c.name),
    [
      'Name',
      'Status',
      'Roles',
      'Age',
      'Version',
      'Internal-IP',
      'External-IP',
      'OS-Image',
      'Kernel-Version',
      'Container-Runtime',
    ],
  );
  t.deepEqual(table.rows[0]?.cells.slice(0, 3), ['n1', 'Ready,SchedulingDisabled', 'worker']);
  t.is(table.rows[0]?.object.kind, 'PartialObjectMetadata');
  t.is(
    (
      toTable(nodeType, [node], { includeObject: 'None', withColumns: false }) as {
        columnDefinitions: unknown;
      }
    ).columnDefinitions,
    null,
  );
});
