import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strList, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import type { ClusterCa } from '../apiserver/pki.js';
import { parseCsrRequest } from '../apiserver/csr-admission.js';
import { x509 } from '../apiserver/x509.js';
import { eventLoop, type ErrorSink, type SimController } from './controller.js';
import { signerRules, type ParsedCsr, type SignerRule } from './signer-rules.js';

const ONE_YEAR = 365 * 86_400;

function conditions(o: JsonObject): JsonObject[] {
  const s = isObject(o['status']) ? o['status'] : {};
  return Array.isArray(s['conditions']) ? s['conditions'].filter(isObject) : [];
}

/** Approved, and neither failed, denied nor issued yet. */
function awaitingSignature(csr: JsonObject): boolean {
  const conds = conditions(csr).map((c) => c['type']);
  const issued = isObject(csr['status']) && csr['status']['certificate'] !== undefined;
  return conds.includes('Approved') && !conds.includes('Failed') && !conds.includes('Denied') && !issued;
}

function parsed(req: x509.Pkcs10CertificateRequest): ParsedCsr {
  const san = req.extensions.find((e) => e instanceof x509.SubjectAlternativeNameExtension);
  const names = san ? san.names.items.map((n) => ({ type: n.type, value: n.value })) : [];
  return {
    commonName: req.subjectName.getField('CN')[0] ?? '',
    organizations: req.subjectName.getField('O'),
    sans: names,
  };
}

function keyUsageBits(usages: readonly string[]): number {
  let bits = 0;
  if (usages.includes('digital signature')) bits |= x509.KeyUsageFlags.digitalSignature;
  if (usages.includes('key encipherment')) bits |= x509.KeyUsageFlags.keyEncipherment;
  return bits;
}

function extendedUsages(usages: readonly string[]): string[] {
  const out: string[] = [];
  if (usages.includes('client auth')) out.push(x509.ExtendedKeyUsage.clientAuth);
  if (usages.includes('server auth')) out.push(x509.ExtendedKeyUsage.serverAuth);
  return out;
}

/**
 * kube-controller-manager's csrsigning controller: signs APPROVED requests for the kubelet-client,
 * kubelet-serving and kube-apiserver-client signers with the cluster CA, after the real per-signer
 * checks; a failed check sets `Failed` with reason SignerValidationFailure (row 2). It never approves
 * (the csrapproving controller is off, row 3). Other signer names are left alone, as upstream does.
 */
export class CsrSigner implements SimController {
  readonly name = 'csr-signer';
  private readonly loop;
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly writer: ObjectWriter,
    private readonly ca: ClusterCa,
    onError: ErrorSink,
  ) {
    this.loop = eventLoop(writer, this.name, onError, (e) => this.handle(e));
  }

  start(): void {
    this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private get type(): ReturnType<ObjectWriter['registry']['mustFind']> {
    return this.writer.registry.mustFind('certificates.k8s.io', 'v1', 'certificatesigningrequests');
  }

  /** An approved, not yet failed, denied or issued CSR of a signer we serve, else undefined. */
  private pending(e: StoreEvent): { name: string; spec: JsonObject; rules: SignerRule } | undefined {
    if (e.typeKey !== 'certificates.k8s.io/v1/certificatesigningrequests' || e.type === 'DELETED')
      return undefined;
    const csr = e.object;
    if (!awaitingSignature(csr)) return undefined;
    const spec = isObject(csr['spec']) ? csr['spec'] : {};
    const rules = signerRules(str(spec['signerName']) ?? '');
    return rules ? { name: str(meta(csr)['name']) ?? '', spec, rules } : undefined;
  }

  private async handle(e: StoreEvent): Promise<void> {
    const p = this.pending(e);
    if (!p || this.inFlight.has(p.name)) return;
    // The event may be stale (an earlier state queued behind our own write): decide on the current object.
    const current = this.writer.store.get(this.type, undefined, p.name);
    if (!current || !this.pending({ ...e, object: current })) return;
    this.inFlight.add(p.name);
    try {
      await this.sign(p.name, p.spec, p.rules);
    } finally {
      this.inFlight.delete(p.name);
    }
  }

  private async sign(name: string, spec: JsonObject, rules: SignerRule): Promise<void> {
    const req = parseCsrRequest(spec['request']);
    const usages = strList(spec['usages']);
    const problem =
      typeof req === 'string'
        ? req
        : (await req.verify())
          ? rules(parsed(req), usages)
          : 'signature of the request does not verify';
    if (problem !== undefined || typeof req === 'string') {
      this.setStatus(name, (st) => {
        const c = Array.isArray(st['conditions']) ? st['conditions'] : [];
        const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        st['conditions'] = [
          ...c,
          {
            type: 'Failed',
            status: 'True',
            reason: 'SignerValidationFailure',
            message: problem ?? '',
            lastUpdateTime: now,
            lastTransitionTime: now,
          },
        ];
      });
      return;
    }
    const requested = typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : ONE_YEAR;
    const certPem = await this.ca.issue({
      subject: req.subject,
      publicKey: req.publicKey,
      keyUsages: keyUsageBits(usages),
      extendedKeyUsages: extendedUsages(usages),
      sans: parsed(req).sans.filter((n): n is { type: 'dns' | 'ip' | 'email' | 'url'; value: string } =>
        ['dns', 'ip', 'email', 'url'].includes(n.type),
      ),
      seconds: Math.min(Math.max(requested, 600), ONE_YEAR),
    });
    this.setStatus(name, (st) => {
      st['certificate'] = Buffer.from(certPem, 'utf8').toString('base64');
    });
  }

  private setStatus(name: string, fn: (status: JsonObject) => void): void {
    const current = this.writer.store.get(this.type, undefined, name);
    if (!current) return;
    const status = isObject(current['status']) ? current['status'] : {};
    fn(status);
    current['status'] = status;
    this.writer.update({ type: this.type, namespace: undefined, name, subresource: 'status' }, current);
  }
}
