import test from 'ava';
import { BUILTIN_TYPES } from './builtin-types.js';
import type { JsonObject } from './json.js';
import { toTable } from './table.js';

// The cells kube-apiserver's printers (pkg/printers/internalversion/printers.go) compute, for the kinds the
// operator's users look at with `kubectl get`.

function row(group: string, kind: string, o: JsonObject, wide = true): (string | number)[] {
  const t = BUILTIN_TYPES.find((x) => x.group === group && x.kind === kind)!;
  const table = toTable(t, [o], { includeObject: 'None', withColumns: true }) as {
    columnDefinitions: { name: string; priority: number }[];
    rows: { cells: (string | number)[] }[];
  };
  const cells = table.rows[0]?.cells ?? [];
  return wide ? cells : cells.filter((_c, i) => table.columnDefinitions[i]?.priority === 0);
}

function headers(group: string, kind: string): string[] {
  const t = BUILTIN_TYPES.find((x) => x.group === group && x.kind === kind)!;
  const table = toTable(t, [], { includeObject: 'None', withColumns: true }) as {
    columnDefinitions: { name: string; priority: number }[];
  };
  return table.columnDefinitions.map((c) => (c.priority === 0 ? c.name : `(${c.name})`));
}

const ago = (s: number): string => new Date(Date.now() - s * 1000).toISOString();

test('core events: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE; wide adds subobject, source, first seen, count, name', (t) => {
  t.deepEqual(headers('', 'Event'), [
    'Last Seen',
    'Type',
    'Reason',
    'Object',
    '(Subobject)',
    '(Source)',
    'Message',
    '(First Seen)',
    '(Count)',
    '(Name)',
  ]);
  const ev = {
    metadata: { name: 'n1.abc' },
    involvedObject: { kind: 'Node', name: 'n1', fieldPath: 'spec' },
    type: 'Warning',
    reason: 'Rebooted',
    message: ' back up \n',
    firstTimestamp: ago(600),
    lastTimestamp: ago(30),
    count: 4,
    source: { component: 'kubelet', host: 'n1' },
  };
  t.deepEqual(row('', 'Event', ev), [
    '30s',
    'Warning',
    'Rebooted',
    'node/n1',
    'spec',
    'kubelet, n1',
    'back up',
    '10m',
    4,
    'n1.abc',
  ]);
});

test('an event without lastTimestamp or count (the new API) shows first seen and count 1; no name shows the kind', (t) => {
  const ev = {
    metadata: { name: 'e' },
    involvedObject: { kind: 'Namespace' },
    eventTime: ago(5),
    reportingComponent: 'wmco',
    reportingInstance: 'pod-1',
  };
  const cells = row('', 'Event', ev);
  t.is(cells[0], '5s');
  t.is(cells[3], 'namespace');
  t.is(cells[5], 'wmco, pod-1');
  t.is(cells[8], 1);
  const series = row('', 'Event', { ...ev, series: { count: 7, lastObservedTime: ago(2) } });
  t.is(series[0], '2s');
  t.is(series[8], 7);
});

test('events.k8s.io events print through the same columns (regarding, note, deprecated fields)', (t) => {
  const ev = {
    metadata: { name: 'e' },
    regarding: { kind: 'Machine', name: 'm1' },
    note: 'provisioned',
    reason: 'Created',
    type: 'Normal',
    deprecatedLastTimestamp: ago(3),
    reportingController: 'machine-api',
  };
  t.deepEqual(row('events.k8s.io', 'Event', ev, false), [
    '3s',
    'Normal',
    'Created',
    'machine/m1',
    'provisioned',
  ]);
});

test('CSR condition precedence (Denied > Approved > Pending, then Failed, Issued) and requested duration', (t) => {
  const csr = (types: string[], cert?: string, secs?: number): (string | number)[] =>
    row('certificates.k8s.io', 'CertificateSigningRequest', {
      metadata: { name: 'c' },
      spec: {
        signerName: 'kubernetes.io/kubelet-serving',
        username: 'u',
        ...(secs ? { expirationSeconds: secs } : {}),
      },
      status: {
        conditions: types.map((type) => ({ type, status: 'True' })),
        ...(cert ? { certificate: cert } : {}),
      },
    });
  t.is(csr([])[5], 'Pending');
  t.is(csr(['Failed'])[5], 'Pending,Failed');
  t.is(csr(['Approved'], 'Y2VydA==')[5], 'Approved,Issued');
  t.is(csr(['Approved', 'Denied'])[5], 'Denied');
  t.is(csr([], undefined, 3600)[4], '60m');
  t.is(csr([])[4], '<none>');
});

test('leases, deployments, daemonsets, PDBs, services, endpoints, service accounts, bindings', (t) => {
  const m = { name: 'x', creationTimestamp: ago(1) };
  t.deepEqual(row('coordination.k8s.io', 'Lease', { metadata: m, spec: { holderIdentity: 'pod-a' } }), [
    'x',
    'pod-a',
    '1s',
  ]);
  const tmpl = {
    spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'op', image: 'img:1' }] },
  };
  t.deepEqual(
    row('apps', 'Deployment', {
      metadata: m,
      spec: { replicas: 2, selector: { matchLabels: { a: 'b' } }, template: tmpl },
      status: { readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
    }),
    ['x', '1/2', 2, 1, '1s', 'op', 'img:1', 'a=b'],
  );
  t.deepEqual(row('apps', 'DaemonSet', { metadata: m, spec: { template: tmpl } }, false), [
    'x',
    0,
    0,
    0,
    0,
    0,
    'kubernetes.io/os=linux',
    '1s',
  ]);
  t.deepEqual(row('policy', 'PodDisruptionBudget', { metadata: m, spec: { minAvailable: '50%' } }), [
    'x',
    '50%',
    'N/A',
    0,
    '1s',
  ]);
  t.deepEqual(
    row(
      '',
      'Service',
      {
        metadata: m,
        spec: {
          clusterIP: '172.30.0.9',
          ports: [{ port: 9182 }, { port: 80, nodePort: 30080, protocol: 'UDP' }],
        },
      },
      false,
    ),
    ['x', 'ClusterIP', '172.30.0.9', '<none>', '9182/TCP,80:30080/UDP', '1s'],
  );
  const addresses = [1, 2, 3, 4].map((i) => ({ ip: `10.0.0.${i}` }));
  t.is(
    row('', 'Endpoints', { metadata: m, subsets: [{ addresses, ports: [{ port: 9182 }] }] })[1],
    '10.0.0.1:9182,10.0.0.2:9182,10.0.0.3:9182 + 1 more...',
  );
  t.is(row('', 'Endpoints', { metadata: m })[1], '<none>');
  t.deepEqual(row('', 'ServiceAccount', { metadata: m, secrets: [{ name: 's' }] }), ['x', 1, '1s']);
  t.deepEqual(
    row('rbac.authorization.k8s.io', 'ClusterRoleBinding', {
      metadata: m,
      roleRef: { kind: 'ClusterRole', name: 'r' },
      subjects: [
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
        { kind: 'Group', name: 'g' },
      ],
    }),
    ['x', 'ClusterRole/r', '1s', '', 'g', 'ns/sa'],
  );
  t.regex(
    String(row('rbac.authorization.k8s.io', 'Role', { metadata: m })[1]),
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  );
});

test('pods: ready containers, restarts summed, Terminating while deleting, wide IP and node', (t) => {
  const pod = {
    metadata: { name: 'p', creationTimestamp: ago(1) },
    spec: { nodeName: 'n1', containers: [{ name: 'a' }, { name: 'b' }] },
    status: {
      phase: 'Running',
      podIP: '10.128.0.5',
      containerStatuses: [
        { ready: true, restartCount: 2 },
        { ready: false, restartCount: 1 },
      ],
    },
  };
  t.deepEqual(row('', 'Pod', pod), [
    'p',
    '1/2',
    'Running',
    '3',
    '1s',
    '10.128.0.5',
    'n1',
    '<none>',
    '<none>',
  ]);
  t.is(
    row('', 'Pod', { ...pod, metadata: { ...pod.metadata, deletionTimestamp: ago(0) } })[2],
    'Terminating',
  );
  const gated = {
    ...pod,
    spec: { ...pod.spec, readinessGates: [{ conditionType: 'a' }, { conditionType: 'b' }] },
    status: { ...pod.status, conditions: [{ type: 'a', status: 'True' }] },
  };
  t.is(row('', 'Pod', gated)[8], '1/2');
});
