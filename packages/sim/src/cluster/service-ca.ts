import type { StoreEvent } from '../apiserver/event-log.js';
import { meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { ClusterCa } from '../apiserver/pki.js';
import { distinguishedName, generateKeys, privateKeyPem, x509 } from '../apiserver/x509.js';
import { StoreEventController, type ErrorSink } from './controller.js';

/** The Service annotation that asks for a serving certificate, in both spellings the service CA reads. */
export const SERVING_CERT_ANNOTATIONS = [
  'service.beta.openshift.io/serving-cert-secret-name',
  'service.alpha.openshift.io/serving-cert-secret-name',
] as const;
const ORIGIN_NAME = 'service.beta.openshift.io/originating-service-name';
const ORIGIN_UID = 'service.beta.openshift.io/originating-service-uid';
const EXPIRY = 'service.beta.openshift.io/expiry';
const SIGNED_BY = 'service.beta.openshift.io/serving-cert-signed-by';
/** The service CA issues serving certificates for two years. */
const VALID_SECONDS = 2 * 365 * 86_400;

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/**
 * The service CA operator's serving-cert controller (openshift/service-ca-operator): a Service annotated
 * with `service.beta.openshift.io/serving-cert-secret-name` (or the alpha spelling) gets a
 * `kubernetes.io/tls` Secret of that name, owned by the Service, whose `tls.crt` (the serving certificate
 * for `<svc>.<ns>.svc` and `<svc>.<ns>.svc.cluster.local`, then the signer) and `tls.key` come from the
 * service CA. A deleted Secret is issued again, with a new key: that is how a rotation is forced.
 */
export class ServiceCaController extends StoreEventController {
  readonly name = 'service-ca';
  private readonly issuing = new Map<string, Promise<void>>();

  private constructor(
    writer: ObjectWriter,
    readonly ca: ClusterCa,
    onError: ErrorSink,
  ) {
    super(writer, onError);
  }

  static async create(writer: ObjectWriter, onError: ErrorSink): Promise<ServiceCaController> {
    const ca = await ClusterCa.create(`openshift-service-serving-signer@${Math.floor(Date.now() / 1000)}`);
    return new ServiceCaController(writer, ca, onError);
  }

  /** The service CA bundle (what `service.beta.openshift.io/inject-cabundle` puts into ConfigMaps). */
  get caPem(): string {
    return this.ca.certPem;
  }

  private type(plural: 'services' | 'secrets'): ReturnType<ObjectWriter['registry']['mustFind']> {
    return this.writer.registry.mustFind('', 'v1', plural);
  }

  protected async handle(e: StoreEvent): Promise<void> {
    if (e.typeKey === '/v1/secrets' && e.type === 'DELETED') {
      const origin = strMap(meta(e.object)['annotations'])[ORIGIN_NAME];
      const ns = str(meta(e.object)['namespace']);
      const svc = origin ? this.writer.store.get(this.type('services'), ns, origin) : undefined;
      if (svc) await this.sync(svc);
      return;
    }
    if (e.typeKey === '/v1/services' && e.type !== 'DELETED') {
      const m = meta(e.object);
      const current = this.writer.store.get(this.type('services'), str(m['namespace']), str(m['name']) ?? '');
      if (current) await this.sync(current);
    }
  }

  /** Issues for every annotated Service that has no Secret yet, and waits for issuing in flight. */
  async settle(): Promise<void> {
    for (const svc of this.writer.store.all(this.type('services'))) await this.sync(svc);
    await Promise.all(this.issuing.values());
  }

  private async sync(service: JsonObject): Promise<void> {
    const m = meta(service);
    const ann = strMap(m['annotations']);
    const secretName = SERVING_CERT_ANNOTATIONS.map((a) => ann[a]).find((v) => v !== undefined && v !== '');
    const ns = str(m['namespace']) ?? '';
    if (!secretName || m['deletionTimestamp'] !== undefined) return;
    const key = `${ns}/${secretName}`;
    const inFlight = this.issuing.get(key);
    if (inFlight) return inFlight;
    if (this.writer.store.get(this.type('secrets'), ns, secretName)) return;
    const issue = this.issue(service, secretName).finally(() => this.issuing.delete(key));
    this.issuing.set(key, issue);
    return issue;
  }

  private async issue(service: JsonObject, secretName: string): Promise<void> {
    const m = meta(service);
    const ns = str(m['namespace']) ?? '';
    const secret = await this.secretFor(service, secretName);
    if (!this.writer.store.get(this.type('secrets'), ns, secretName))
      this.writer.create(this.type('secrets'), ns, secret);
    this.writer.mutate({ type: this.type('services'), namespace: ns, name: str(m['name']) ?? '' }, (cur) => {
      const cm = meta(cur);
      cm['annotations'] = {
        ...strMap(cm['annotations']),
        [SIGNED_BY]: this.ca.cert.subject.replace(/^CN=/, ''),
      };
      return cur;
    });
  }

  private async secretFor(service: JsonObject, secretName: string): Promise<JsonObject> {
    const m = meta(service);
    const [name, ns, uid] = ['name', 'namespace', 'uid'].map((k) => str(m[k]) ?? '') as [
      string,
      string,
      string,
    ];
    const dns = [`${name}.${ns}.svc`, `${name}.${ns}.svc.cluster.local`];
    const keys = await generateKeys();
    const cert = await this.ca.issue({
      subject: distinguishedName(dns[0] ?? ''),
      publicKey: keys.publicKey,
      keyUsages: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      extendedKeyUsages: [x509.ExtendedKeyUsage.serverAuth],
      sans: dns.map((value) => ({ type: 'dns' as const, value })),
      seconds: VALID_SECONDS,
    });
    const expiry = new Date(Date.now() + VALID_SECONDS * 1000).toISOString();
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: {
        name: secretName,
        namespace: ns,
        annotations: { [ORIGIN_NAME]: name, [ORIGIN_UID]: uid, [EXPIRY]: expiry },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid }],
      },
      data: {
        'tls.crt': b64(`${cert.trimEnd()}\n${this.ca.certPem}`),
        'tls.key': b64(await privateKeyPem(keys.privateKey)),
      },
    };
  }
}
