import type { TokenLookup } from '../apiserver/authn.js';
import { serviceAccountUser } from '../apiserver/authn.js';
import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { StoreEventController, type ErrorSink } from './controller.js';
import { ServiceAccountTokenSigner } from './sa-token.js';

export const SA_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (v: unknown): string => Buffer.from(str(v) ?? '', 'base64').toString('utf8');

/**
 * kube-controller-manager's service-account token controller (tokens_controller.go) for Secrets of type
 * `kubernetes.io/service-account-token`: when the Secret names an existing ServiceAccount (annotation
 * `kubernetes.io/service-account.name`, and `.uid` if given) it fills `token` (a signed JWT), `ca.crt`
 * and `namespace` and records the uid; when that ServiceAccount does not exist, or is deleted, the Secret
 * is deleted. `lookup()` is the matching legacy token authenticator.
 */
export class ServiceAccountTokenController extends StoreEventController {
  readonly name = 'serviceaccount-tokens';
  private readonly signer = new ServiceAccountTokenSigner();

  constructor(
    writer: ObjectWriter,
    private readonly caPem: string,
    onError: ErrorSink,
  ) {
    super(writer, onError);
  }

  private get secrets(): ReturnType<ObjectWriter['registry']['mustFind']> {
    return this.writer.registry.mustFind('', 'v1', 'secrets');
  }

  private serviceAccount(ns: string, name: string): JsonObject | undefined {
    return this.writer.store.get(this.writer.registry.mustFind('', 'v1', 'serviceaccounts'), ns, name);
  }

  protected handle(e: StoreEvent): void {
    if (e.typeKey === '/v1/serviceaccounts' && e.type === 'DELETED') this.deleteTokensOf(e.object);
    if (e.typeKey !== '/v1/secrets' || e.type === 'DELETED' || e.object['type'] !== SA_TOKEN_TYPE) return;
    // Events are handled after the fact: act on the Secret as it is now, if it still exists.
    const m = meta(e.object);
    const current = this.writer.store.get(this.secrets, str(m['namespace']), str(m['name']) ?? '');
    if (current) this.sync(current);
  }

  /** The referenced ServiceAccount if it exists with the recorded uid (when one is recorded). */
  private owner(secret: JsonObject): JsonObject | undefined {
    const m = meta(secret);
    const ann = strMap(m['annotations']);
    const sa = this.serviceAccount(str(m['namespace']) ?? '', ann[SA_NAME_ANNOTATION] ?? '');
    const uid = ann[SA_UID_ANNOTATION];
    return sa && (uid === undefined || uid === '' || uid === str(meta(sa)['uid'])) ? sa : undefined;
  }

  /** secretUpdateNeeded: the CA differs, or the namespace or the token is empty. */
  private populated(secret: JsonObject): boolean {
    const data = isObject(secret['data']) ? secret['data'] : {};
    return (
      unb64(data['ca.crt']) === this.caPem && unb64(data['namespace']) !== '' && unb64(data['token']) !== ''
    );
  }

  private sync(secret: JsonObject): void {
    const m = meta(secret);
    const ns = str(m['namespace']) ?? '';
    const name = str(m['name']) ?? '';
    if (m['deletionTimestamp'] !== undefined) return;
    const sa = this.owner(secret);
    if (!sa) {
      this.writer.delete(this.secrets, ns, name, { propagationPolicy: 'Background' });
      return;
    }
    const saUid = str(meta(sa)['uid']) ?? '';
    if (this.populated(secret)) return;
    this.writer.mutate({ type: this.secrets, namespace: ns, name }, (cur) => {
      const d = isObject(cur['data']) ? cur['data'] : {};
      d['ca.crt'] = b64(this.caPem);
      if (unb64(d['namespace']) === '') d['namespace'] = b64(ns);
      const claims = { namespace: ns, secretName: name, serviceAccountName: str(meta(sa)['name']) ?? '' };
      if (unb64(d['token']) === '')
        d['token'] = b64(this.signer.sign({ ...claims, serviceAccountUid: saUid }));
      cur['data'] = d;
      const cm = meta(cur);
      cm['annotations'] = {
        ...strMap(cm['annotations']),
        [SA_NAME_ANNOTATION]: str(meta(sa)['name']) ?? '',
        [SA_UID_ANNOTATION]: saUid,
      };
      return cur;
    });
  }

  private deleteTokensOf(sa: JsonObject): void {
    const m = meta(sa);
    for (const s of this.writer.store.all(this.secrets)) {
      const sm = meta(s);
      const ann = strMap(sm['annotations']);
      if (s['type'] !== SA_TOKEN_TYPE || str(sm['namespace']) !== str(m['namespace'])) continue;
      if (ann[SA_NAME_ANNOTATION] !== str(m['name'])) continue;
      this.writer.delete(this.secrets, str(sm['namespace']), str(sm['name']) ?? '', {});
    }
  }

  /**
   * The legacy token authenticator: a token this controller signed is valid while its Secret still holds
   * it and its ServiceAccount exists with the same uid (and is not being deleted).
   */
  lookup(): TokenLookup {
    return (token) => {
      const c = this.signer.verify(token);
      if (!c) return undefined;
      const secret = this.writer.store.get(this.secrets, c.namespace, c.secretName);
      if (!secret || unb64(isObject(secret['data']) ? secret['data']['token'] : undefined) !== token)
        return undefined;
      const sa = this.serviceAccount(c.namespace, c.serviceAccountName);
      if (
        !sa ||
        str(meta(sa)['uid']) !== c.serviceAccountUid ||
        meta(sa)['deletionTimestamp'] !== undefined
      ) {
        return undefined;
      }
      return { ...serviceAccountUser(c.namespace, c.serviceAccountName), uid: c.serviceAccountUid };
    };
  }
}
