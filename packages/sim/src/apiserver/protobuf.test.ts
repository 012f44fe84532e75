import test from 'ava';
import { decodeProtobuf } from './protobuf.js';
import { ApiError } from './status.js';

// A tiny encoder for test vectors, field numbers as in kubectl-needs §5.
function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return Buffer.from(out);
}
const bytes = (num: number, b: Buffer | string): Buffer => {
  const buf = typeof b === 'string' ? Buffer.from(b) : b;
  return Buffer.concat([varint((num << 3) | 2), varint(buf.length), buf]);
};
const int = (num: number, v: number): Buffer => Buffer.concat([varint(num << 3), varint(v)]);
const msg = (...parts: Buffer[]): Buffer => Buffer.concat(parts);
const envelope = (apiVersion: string, kind: string, raw: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from([0x6b, 0x38, 0x73, 0x00]),
    bytes(1, msg(bytes(1, apiVersion), bytes(2, kind))),
    bytes(2, raw),
  ]);

test('decodes the CSR kubectl certificate approve PUTs to /approval', (t) => {
  const meta = msg(
    bytes(1, 'csr-1'),
    bytes(6, '1042'),
    bytes(11, msg(bytes(1, 'k'), bytes(2, 'v'))),
    bytes(8, int(1, 1_700_000_000)),
  );
  const spec = msg(
    bytes(1, 'PEM'),
    bytes(2, 'admin'),
    bytes(4, 'system:masters'),
    bytes(4, 'system:authenticated'),
    bytes(5, 'client auth'),
    bytes(7, 'kubernetes.io/kube-apiserver-client'),
    int(8, 3600),
  );
  const cond = msg(
    bytes(1, 'Approved'),
    bytes(6, 'True'),
    bytes(2, 'KubectlApprove'),
    bytes(3, 'This CSR was approved by kubectl certificate approve.'),
  );
  const body = envelope(
    'certificates.k8s.io/v1',
    'CertificateSigningRequest',
    msg(bytes(1, meta), bytes(2, spec), bytes(3, bytes(1, cond))),
  );
  t.deepEqual(decodeProtobuf(body), {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: {
      name: 'csr-1',
      resourceVersion: '1042',
      creationTimestamp: '2023-11-14T22:13:20Z',
      labels: { k: 'v' },
    },
    spec: {
      request: Buffer.from('PEM').toString('base64'),
      username: 'admin',
      groups: ['system:masters', 'system:authenticated'],
      usages: ['client auth'],
      signerName: 'kubernetes.io/kube-apiserver-client',
      expirationSeconds: 3600,
    },
    status: {
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'KubectlApprove',
          message: 'This CSR was approved by kubectl certificate approve.',
        },
      ],
    },
  });
});

test('decodes DeleteOptions (drain fallback), empty or with preconditions', (t) => {
  t.deepEqual(decodeProtobuf(envelope('v1', 'DeleteOptions', Buffer.alloc(0))), {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
  });
  const raw = msg(int(1, 30), bytes(2, msg(bytes(1, 'uid-1'))), bytes(4, 'Foreground'));
  t.deepEqual(decodeProtobuf(envelope('v1', 'DeleteOptions', raw)), {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    gracePeriodSeconds: 30,
    preconditions: { uid: 'uid-1' },
    propagationPolicy: 'Foreground',
  });
});

test('a missing magic is 400, an unsupported kind is 415, a truncated message is 400', (t) => {
  t.is(t.throws(() => decodeProtobuf(Buffer.from('{}')), { instanceOf: ApiError }).code, 400);
  t.is(
    t.throws(() => decodeProtobuf(envelope('v1', 'Pod', Buffer.alloc(0))), { instanceOf: ApiError }).code,
    415,
  );
  const truncated = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), Buffer.from([0x0a, 0x10, 0x01])]);
  t.is(t.throws(() => decodeProtobuf(truncated), { instanceOf: ApiError }).code, 400);
});

test('a Deployment field the decoder does not know is 415, not silently dropped; empty ones pass', (t) => {
  const container = msg(bytes(1, 'c'), bytes(2, 'img'), bytes(8, Buffer.alloc(0)));
  const podSpec = (extra: Buffer): Buffer => msg(bytes(2, container), bytes(6, ''), extra);
  const deployment = (extra: Buffer): Buffer =>
    envelope(
      'apps/v1',
      'Deployment',
      msg(bytes(1, bytes(1, 'd')), bytes(2, msg(int(1, 1), bytes(3, bytes(2, podSpec(extra)))))),
    );
  t.like(decodeProtobuf(deployment(int(12, 0))), { spec: { replicas: 1 } });
  // PodSpec field 12 is hostPID: set to true it would change the pod, so it is refused.
  const err = t.throws(() => decodeProtobuf(deployment(int(12, 1))), { instanceOf: ApiError });
  t.is(err.code, 415);
  t.regex(err.message, /PodSpec field\(s\) 12/);
});
