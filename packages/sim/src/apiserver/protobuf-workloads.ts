import type { JsonObject } from './json.js';
import { compact, objectMeta, type Fields } from './protobuf-meta.js';
import type { PbMessage } from './protobuf-reader.js';
import { ApiError } from './status.js';

/**
 * Protobuf bodies of the kinds the docs' commands create with kubectl (`create secret generic`, `create
 * serviceaccount`, `create deployment`). Field numbers from k8s.io/api core/v1 and apps/v1 generated.proto.
 * Go's marshaller writes every non-pointer field, so empty ones arrive; a field outside those decoded here
 * that carries a value is refused with 415 rather than silently dropped.
 */
function only(m: PbMessage, where: string, known: readonly number[]): PbMessage {
  const extra = m.setFields().filter((n) => !known.includes(n));
  if (extra.length > 0) {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the simulated API server does not decode protobuf ${where} field(s) ${extra.join(', ')}; send JSON`,
    );
  }
  return m;
}

const nonEmpty = <T>(xs: T[]): T[] | undefined => (xs.length > 0 ? xs : undefined);
const nonBlank = (s: string | undefined): string | undefined => (s === '' ? undefined : s);

function quantities(m: PbMessage | undefined, num: number): Record<string, string> | undefined {
  const entries = m?.msgs(num) ?? [];
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map((e) => [e.str(1) ?? '', e.msg(2)?.str(1) ?? '']));
}

function container(c: PbMessage): JsonObject {
  only(c, 'Container', [1, 2, 3, 4, 5, 6, 7, 8, 13, 14, 20]);
  const res = c.msg(8);
  return compact({
    name: c.str(1),
    image: nonBlank(c.str(2)),
    command: nonEmpty(c.strs(3)),
    args: nonEmpty(c.strs(4)),
    workingDir: nonBlank(c.str(5)),
    ports: nonEmpty(
      c
        .msgs(6)
        .map((p) =>
          compact({ name: nonBlank(p.str(1)), containerPort: p.int(3), protocol: nonBlank(p.str(4)) }),
        ),
    ),
    env: nonEmpty(c.msgs(7).map((e) => compact({ name: e.str(1), value: nonBlank(e.str(2)) }))),
    resources: compact({ limits: quantities(res, 1), requests: quantities(res, 2) }),
    terminationMessagePath: nonBlank(c.str(13)),
    imagePullPolicy: nonBlank(c.str(14)),
    terminationMessagePolicy: nonBlank(c.str(20)),
  });
}

// PodSpec: 2 containers, 3 restartPolicy, 6 dnsPolicy, 7 nodeSelector, 8 serviceAccountName,
// 9 serviceAccount (deprecated), 10 nodeName, 11 hostNetwork, 19 schedulerName.
function podSpec(s: PbMessage): JsonObject {
  only(s, 'PodSpec', [2, 3, 6, 7, 8, 9, 10, 11, 19]);
  return compact({
    containers: s.msgs(2).map(container),
    restartPolicy: nonBlank(s.str(3)),
    dnsPolicy: nonBlank(s.str(6)),
    nodeSelector: s.map(7),
    serviceAccountName: nonBlank(s.str(8)),
    nodeName: nonBlank(s.str(10)),
    hostNetwork: s.bool(11) === true ? true : undefined,
    schedulerName: nonBlank(s.str(19)),
  });
}

function podTemplate(t: PbMessage): JsonObject {
  const spec = t.msg(2);
  return compact({ metadata: objectMeta(t.msg(1)), spec: spec ? podSpec(spec) : undefined });
}

function labelSelector(s: PbMessage | undefined): JsonObject | undefined {
  if (!s) return undefined;
  only(s, 'LabelSelector', [1]);
  return compact({ matchLabels: s.map(1) });
}

// DeploymentSpec: 1 replicas, 2 selector, 3 template {1 metadata, 2 spec}, 4 strategy {1 type},
// 5 minReadySeconds, 6 revisionHistoryLimit, 7 paused, 9 progressDeadlineSeconds.
function deployment(m: PbMessage): Fields {
  const spec = m.msg(2);
  if (!spec) return {};
  only(spec, 'DeploymentSpec', [1, 2, 3, 4, 5, 6, 7, 9]);
  const template = spec.msg(3);
  const strategy = spec.msg(4);
  if (strategy) only(strategy, 'DeploymentStrategy', [1]);
  return {
    spec: compact({
      replicas: spec.int(1),
      selector: labelSelector(spec.msg(2)),
      template: template ? podTemplate(template) : undefined,
      strategy: compact({ type: nonBlank(strategy?.str(1)) }),
      minReadySeconds: spec.int(5) || undefined,
      revisionHistoryLimit: spec.int(6),
      paused: spec.bool(7) === true ? true : undefined,
      progressDeadlineSeconds: spec.int(9),
    }),
  };
}

export const WORKLOAD_DECODERS: Readonly<Record<string, (m: PbMessage) => Fields>> = {
  // Secret: 1 metadata, 2 data (map<string,bytes>), 3 type, 4 stringData, 5 immutable.
  Secret: (m) => ({
    data: m.bytesMap(2),
    type: nonBlank(m.str(3)),
    stringData: m.map(4),
    immutable: m.bool(5),
  }),
  // ServiceAccount: 1 metadata, 2 secrets (ObjectReference, 4 name), 3 imagePullSecrets (1 name),
  // 4 automountServiceAccountToken.
  ServiceAccount: (m) => ({
    secrets: nonEmpty(m.msgs(2).map((r) => compact({ name: r.str(4), namespace: nonBlank(r.str(2)) }))),
    imagePullSecrets: nonEmpty(m.msgs(3).map((r) => compact({ name: r.str(1) }))),
    automountServiceAccountToken: m.bool(4),
  }),
  Deployment: deployment,
};
