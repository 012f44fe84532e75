import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import type { ResourceType } from '../apiserver/resource-type.js';
import { StoreEventController } from './controller.js';

const CREDENTIALS_REQUESTS = 'cloudcredential.openshift.io/v1/credentialsrequests';
/** The label and annotation the cloud credential operator puts on every Secret it writes. */
export const CREDENTIALS_REQUEST_LABEL = 'cloudcredential.openshift.io/credentials-request';

/** What one simulated cloud does for a CredentialsRequest whose providerSpec is its kind. */
export interface CloudMint {
  /** `AWSProviderSpec`, `AzureProviderSpec`, `GCPProviderSpec`. */
  readonly kind: string;
  /** New credentials holding what `providerSpec` lists; returns the Secret data the real operator writes. */
  mint(requestName: string, providerSpec: JsonObject): Record<string, string>;
}

function obj(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

/**
 * A stand-in for the cloud credential operator in mint mode: for every CredentialsRequest whose
 * providerSpec kind is this cloud's, it has the cloud mint an identity holding only the listed
 * permissions and writes the Secret `spec.secretRef` names (labelled and annotated as the real one),
 * then sets `status.provisioned`. Requests for another cloud get the `Ignored` condition; a missing
 * target namespace `MissingTargetNamespace`. A minted Secret that is deleted is written again, with the
 * same credentials, as the real operator re-syncs it; a deleted request's credentials are forgotten (a new
 * request of the same name gets new ones). Editing a request's permissions is not modelled.
 */
export class CredentialsMinter extends StoreEventController {
  readonly name = 'cloud-credential-operator';
  private readonly minted = new Map<string, Record<string, string>>();

  constructor(
    writer: ConstructorParameters<typeof StoreEventController>[0],
    onError: ConstructorParameters<typeof StoreEventController>[1],
    private readonly cloud: CloudMint,
  ) {
    super(writer, onError);
  }

  /** Resolves once the Secret `namespace/name` exists (store events, no clock). */
  whenWritten(namespace: string, name: string): Promise<void> {
    const t = this.type('secrets');
    return new Promise((resolve) => {
      if (this.writer.store.get(t, namespace, name)) return resolve();
      const off = this.writer.store.subscribe(() => {
        if (!this.writer.store.get(t, namespace, name)) return;
        off();
        resolve();
      });
    });
  }

  /** Handles the requests that exist already (call after start). */
  resync(): void {
    const t = this.type();
    for (const cr of this.writer.store.list(t, { labels: [], fields: [] }).items) this.reconcile(cr);
  }

  protected handle(e: StoreEvent): void {
    if (e.typeKey === CREDENTIALS_REQUESTS && e.type === 'DELETED') this.minted.delete(keyOf(e.object));
    if (e.typeKey === CREDENTIALS_REQUESTS && e.type !== 'DELETED') this.reconcile(e.object);
    if (e.typeKey === '/v1/secrets' && e.type === 'DELETED') this.secretGone(e.object);
  }

  private type(name = 'credentialsrequests'): ResourceType {
    return name === 'secrets'
      ? this.writer.registry.mustFind('', 'v1', 'secrets')
      : this.writer.registry.mustFind('cloudcredential.openshift.io', 'v1', name);
  }

  private secretGone(secret: JsonObject): void {
    const owner = strMap(meta(secret)['annotations'])[CREDENTIALS_REQUEST_LABEL];
    const [ns, name] = (owner ?? '').split('/');
    const cr = ns && name ? this.writer.store.get(this.type(), ns, name) : undefined;
    if (cr) this.reconcile(cr);
  }

  private reconcile(cr: JsonObject): void {
    const m = meta(cr);
    const key = keyOf(cr);
    const spec = obj(cr['spec']);
    const providerSpec = obj(spec['providerSpec']);
    if (str(providerSpec['kind']) !== this.cloud.kind)
      return this.setStatus(cr, false, [cond('Ignored', 'InfrastructureMismatch', 'for a different cloud')]);
    const ref = obj(spec['secretRef']);
    const ns = str(ref['namespace']) ?? '';
    const name = str(ref['name']) ?? '';
    if (!this.writer.store.get(this.writer.registry.mustFind('', 'v1', 'namespaces'), undefined, ns))
      return this.setStatus(cr, false, [
        cond('MissingTargetNamespace', 'NamespaceMissing', `target namespace ${ns} not found`),
      ]);
    let data = this.minted.get(key);
    if (!data) {
      data = this.cloud.mint(str(m['name']) ?? '', providerSpec);
      this.minted.set(key, data);
    }
    this.writeSecret(ns, name, key, data);
    this.setStatus(cr, true, []);
  }

  private writeSecret(ns: string, name: string, owner: string, data: Record<string, string>): void {
    const t = this.type('secrets');
    if (this.writer.store.get(t, ns, name)) return;
    this.writer.create(t, ns, {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name,
        namespace: ns,
        labels: { [CREDENTIALS_REQUEST_LABEL]: 'true' },
        annotations: { [CREDENTIALS_REQUEST_LABEL]: owner },
      },
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
    });
  }

  private setStatus(cr: JsonObject, provisioned: boolean, conditions: JsonObject[]): void {
    const m = meta(cr);
    const generation = typeof m['generation'] === 'number' ? m['generation'] : 1;
    const before = obj(cr['status']);
    if (before['provisioned'] === provisioned && before['lastSyncGeneration'] === generation) return;
    const status = {
      provisioned,
      lastSyncGeneration: generation,
      lastSyncTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      ...(conditions.length > 0 ? { conditions } : {}),
    };
    this.writer.mutate(
      {
        type: this.type(),
        namespace: str(m['namespace']),
        name: str(m['name']) ?? '',
        subresource: 'status',
      },
      (cur) => ({ ...cur, status }),
    );
  }
}

function keyOf(cr: JsonObject): string {
  const m = meta(cr);
  return `${str(m['namespace']) ?? ''}/${str(m['name']) ?? ''}`;
}

function cond(type: string, reason: string, message: string): JsonObject {
  return {
    type,
    status: 'True',
    reason,
    message,
    lastProbeTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}
