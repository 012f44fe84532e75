import { DEFAULT_OPERATOR_NAMESPACE, type CloudContext, type CloudCredentials } from '@wmco/core/provider';

export interface StaticSecret {
  readonly namespace: string;
  readonly name: string;
  readonly data: Readonly<Record<string, string>>;
}

export interface StaticCloudContextInput {
  readonly infrastructureName: string;
  readonly platformStatus: Readonly<Record<string, unknown>>;
  readonly caBundle?: string;
  readonly secrets: readonly StaticSecret[];
  readonly requestTimeoutMs?: number;
  /** Which Secret the capabilities read (unset: the minted one, as in the operator). */
  readonly credentials?: CloudCredentials;
}

/** The installer's root Secrets in kube-system (`--cloud-credentials=root`), for contexts built from them. */
export const ROOT_CREDENTIALS: CloudCredentials = { mode: 'root', namespace: DEFAULT_OPERATOR_NAMESPACE };

/** A CloudContext over fixed values (tests, and `wmco preflight --cloud-file`); returns copies of Secret data. */
export function staticCloudContext(input: StaticCloudContextInput): CloudContext {
  return {
    infrastructureName: input.infrastructureName,
    platformStatus: input.platformStatus,
    ...(input.caBundle !== undefined ? { caBundle: input.caBundle } : {}),
    ...(input.requestTimeoutMs !== undefined ? { requestTimeoutMs: input.requestTimeoutMs } : {}),
    ...(input.credentials ? { credentials: input.credentials } : {}),
    readSecret: (namespace, name) => {
      const s = input.secrets.find((x) => x.namespace === namespace && x.name === name);
      return Promise.resolve(s ? { ...s.data } : undefined);
    },
  };
}
