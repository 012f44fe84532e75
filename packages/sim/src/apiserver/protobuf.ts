import type { JsonObject } from './json.js';
import { compact, objectMeta, time, type Fields } from './protobuf-meta.js';
import { PbMessage } from './protobuf-reader.js';
import { WORKLOAD_DECODERS } from './protobuf-workloads.js';
import { ApiError, errors } from './status.js';

/**
 * Decoding of the protobuf request bodies kubectl sends (kubectl-needs §5): the `k8s\0` + runtime.Unknown
 * envelope, then CertificateSigningRequest (`certificate approve|deny`), DeleteOptions (drain's DELETE
 * fallback), ConfigMap and Namespace (`create configmap|namespace`), and the kinds of protobuf-workloads.ts.
 * Other kinds get 415.
 */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function csrCondition(c: PbMessage): JsonObject {
  return compact({
    type: c.str(1),
    status: c.str(6),
    reason: c.str(2),
    message: c.str(3),
    lastUpdateTime: time(c.msg(4)),
    lastTransitionTime: time(c.msg(5)),
  });
}

function csr(m: PbMessage): Fields {
  const spec = m.msg(2);
  const status = m.msg(3);
  return {
    spec: spec
      ? compact({
          request: spec.bytes(1)?.toString('base64'),
          username: spec.str(2),
          uid: spec.str(3),
          groups: spec.strs(4),
          usages: spec.strs(5),
          signerName: spec.str(7),
          expirationSeconds: spec.int(8),
        })
      : undefined,
    status: status
      ? compact({
          conditions: status.msgs(1).map(csrCondition),
          certificate: status.bytes(2)?.toString('base64'),
        })
      : undefined,
  };
}

function deleteOptions(m: PbMessage): Fields {
  const pre = m.msg(2);
  return {
    gracePeriodSeconds: m.int(1),
    preconditions: pre ? compact({ uid: pre.str(1), resourceVersion: pre.str(2) }) : undefined,
    orphanDependents: m.bool(3),
    propagationPolicy: m.str(4),
  };
}

function accessReviewSpec(m: PbMessage): Fields {
  const spec = m.msg(2);
  const ra = spec?.msg(1);
  const nra = spec?.msg(2);
  const resourceAttributes = ra
    ? compact({
        namespace: ra.str(1),
        verb: ra.str(2),
        group: ra.str(3),
        version: ra.str(4),
        resource: ra.str(5),
        subresource: ra.str(6),
        name: ra.str(7),
      })
    : undefined;
  const nonResourceAttributes = nra ? compact({ path: nra.str(1), verb: nra.str(2) }) : undefined;
  return { spec: compact({ resourceAttributes, nonResourceAttributes }) };
}

const DECODERS: Readonly<Record<string, (m: PbMessage) => Fields>> = {
  SelfSubjectAccessReview: accessReviewSpec,
  SelfSubjectReview: () => ({}),
  CertificateSigningRequest: csr,
  DeleteOptions: deleteOptions,
  ConfigMap: (m) => ({ data: m.map(2), binaryData: m.bytesMap(3), immutable: m.bool(4) }),
  Namespace: (m) => {
    const fins = m.msg(2)?.strs(1) ?? [];
    return { spec: fins.length > 0 ? { finalizers: fins } : undefined };
  },
  ...WORKLOAD_DECODERS,
};

export function decodeProtobuf(body: Buffer): JsonObject {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) {
    throw errors.badRequest('protobuf body does not start with the k8s\\0 magic');
  }
  const unknown = new PbMessage(body.subarray(4));
  const typeMeta = unknown.msg(1);
  const apiVersion = typeMeta?.str(1) ?? '';
  const kind = typeMeta?.str(2) ?? '';
  const decode = DECODERS[kind];
  if (!decode) {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the simulated API server decodes protobuf only for ${Object.keys(DECODERS).join(', ')}; got kind "${kind}"`,
    );
  }
  const raw = new PbMessage(unknown.bytes(2) ?? Buffer.alloc(0));
  const fields = decode(raw);
  const metaFields = kind === 'DeleteOptions' ? {} : { metadata: objectMeta(raw.msg(1)) };
  return compact({ apiVersion, kind, ...metaFields, ...fields });
}
