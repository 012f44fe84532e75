import { clone, isObject, str, strList, type JsonObject } from './json.js';
import type { TypeHooks, WriteContext } from './type-hooks.js';
import { errors, type StatusCause } from './status.js';
import { x509 } from './x509.js';

/**
 * certificates.k8s.io/v1 CertificateSigningRequest strategy: the PKCS#10 request must parse (422
 * otherwise, row 10), requester fields come from the authenticated user, the spec never changes after
 * create, `/approval` only touches Approved/Denied conditions and `/status` only the status.
 */
function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function name(o: JsonObject): string {
  return isObject(o['metadata']) ? (str(o['metadata']['name']) ?? '') : '';
}

/** Parses spec.request (base64 of a PEM CERTIFICATE REQUEST); undefined with the reason when invalid. */
export function parseCsrRequest(request: unknown): x509.Pkcs10CertificateRequest | string {
  if (typeof request !== 'string' || request === '') return 'Required value';
  const pem = Buffer.from(request, 'base64').toString('utf8');
  if (!/-----BEGIN CERTIFICATE REQUEST-----/.test(pem))
    return 'Invalid value: PEM block type must be CERTIFICATE REQUEST';
  try {
    return new x509.Pkcs10CertificateRequest(pem);
  } catch (e) {
    return `Invalid value: ${(e as Error).message}`;
  }
}

function validate(o: JsonObject): void {
  const spec = isObject(o['spec']) ? o['spec'] : {};
  const causes: StatusCause[] = [];
  const parsed = parseCsrRequest(spec['request']);
  if (typeof parsed === 'string') causes.push({ field: 'spec.request', message: parsed });
  if ((str(spec['signerName']) ?? '') === '')
    causes.push({ field: 'spec.signerName', message: 'Required value', reason: 'FieldValueRequired' });
  if (strList(spec['usages']).length === 0)
    causes.push({ field: 'spec.usages', message: 'Required value', reason: 'FieldValueRequired' });
  if (causes.length > 0)
    throw errors.invalid('CertificateSigningRequest', 'certificates.k8s.io', name(o), causes);
}

function conditions(o: JsonObject): JsonObject[] {
  const s = isObject(o['status']) ? o['status'] : {};
  return Array.isArray(s['conditions']) ? s['conditions'].filter(isObject) : [];
}

function stamp(c: JsonObject): JsonObject {
  return {
    ...c,
    lastUpdateTime: c['lastUpdateTime'] ?? now(),
    lastTransitionTime: c['lastTransitionTime'] ?? now(),
  };
}

function approval(old: JsonObject, next: JsonObject): void {
  const isDecision = (c: JsonObject): boolean => c['type'] === 'Approved' || c['type'] === 'Denied';
  const decisions = conditions(next).filter(isDecision).map(stamp);
  const types = decisions.map((c) => c['type']);
  const n = name(old);
  if (types.includes('Approved') && types.includes('Denied')) {
    throw errors.invalid('CertificateSigningRequest', 'certificates.k8s.io', n, [
      {
        field: 'status.conditions',
        message: 'Invalid value: Approved and Denied conditions are mutually exclusive',
      },
    ]);
  }
  for (const c of conditions(old).filter(isDecision)) {
    if (!types.includes(c['type'])) {
      throw errors.invalid('CertificateSigningRequest', 'certificates.k8s.io', n, [
        {
          field: 'status.conditions',
          message: `Forbidden: updates may not remove a condition of type "${str(c['type']) ?? ''}"`,
        },
      ]);
    }
  }
  const oldStatus = isObject(old['status']) ? clone(old['status']) : {};
  next['status'] = {
    ...oldStatus,
    conditions: [...conditions(old).filter((c) => !isDecision(c)), ...decisions],
  };
}

function statusUpdate(old: JsonObject, next: JsonObject): void {
  const approved = conditions(old).some((c) => c['type'] === 'Approved');
  const s = isObject(next['status']) ? next['status'] : {};
  const oldCert = isObject(old['status']) ? old['status']['certificate'] : undefined;
  if (s['certificate'] !== undefined && s['certificate'] !== oldCert && !approved) {
    throw errors.invalid('CertificateSigningRequest', 'certificates.k8s.io', name(old), [
      {
        field: 'status.certificate',
        message: 'Forbidden: certificate issuance requires the Approved condition',
      },
    ]);
  }
  next['status'] = { ...s, conditions: conditions(next).map(stamp) };
}

export const csrHooks: TypeHooks = {
  create(next: JsonObject, ctx: WriteContext): void {
    validate(next);
    const spec = isObject(next['spec']) ? next['spec'] : {};
    spec['username'] = ctx.user.name;
    spec['groups'] = [...ctx.user.groups];
    if (ctx.user.uid !== undefined) spec['uid'] = ctx.user.uid;
    else delete spec['uid'];
    delete spec['extra'];
    next['spec'] = spec;
  },
  update(old: JsonObject, next: JsonObject, ctx: WriteContext): void {
    next['spec'] = clone(old['spec'] ?? {});
    if (ctx.subresource === 'approval') approval(old, next);
    else if (ctx.subresource === 'status') statusUpdate(old, next);
    else if (old['status'] !== undefined) next['status'] = clone(old['status']);
  },
};
