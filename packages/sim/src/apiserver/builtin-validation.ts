import { fieldErrors as fe } from './field-errors.js';
import { isObject, meta, str, type Json, type JsonObject } from './json.js';
import { qualifiedNameProblems } from './qualified-name.js';
import { errors, type StatusCause } from './status.js';
import type { TypeHooks } from './type-hooks.js';

/**
 * Field rules of the built-in kinds that their OpenAPI schemas do not carry (enums, required list items,
 * ranges), each from kubernetes' hand-written validation, read at release-1.36:
 * - Service `spec.type`: ValidateService, pkg/apis/core/validation/validation.go (supportedServiceType).
 * - Node `spec.taints`: validateNodeTaints / validateTaintEffect, same file (effect required and one of
 *   NoSchedule, PreferNoSchedule, NoExecute; key required; one taint per key and effect).
 * - Lease `spec`: ValidateLeaseSpec, pkg/apis/coordination/validation/validation.go.
 * - CSR `status.conditions`: validateConditions, pkg/apis/certificates/validation/validation.go.
 */
type Rule = (o: JsonObject) => StatusCause[];

const list = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const obj = (v: Json | undefined): JsonObject => (isObject(v) ? v : {});
const text = (v: Json | undefined): string => str(v) ?? '';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
export const serviceRule: Rule = (o) => {
  const type = text(obj(o['spec'])['type']);
  return type === '' || SERVICE_TYPES.includes(type)
    ? []
    : [fe.notSupported('spec.type', type, SERVICE_TYPES)];
};

/** field.Duplicate with upstream's detail; the value is shown as JSON where Go prints the struct. */
function duplicateTaint(at: string, taint: JsonObject): StatusCause {
  const d = fe.duplicate(at, '');
  return {
    ...d,
    message: `Duplicate value: ${JSON.stringify(taint)}: taints must be unique by key and effect pair`,
  };
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
export const nodeRule: Rule = (o) => {
  const out: StatusCause[] = [];
  const seen = new Set<string>();
  list(obj(o['spec'])['taints']).forEach((taint, i) => {
    const at = `spec.taints[${i}]`;
    const key = text(taint['key']);
    const effect = text(taint['effect']);
    for (const p of qualifiedNameProblems(key)) out.push(fe.invalid(`${at}.key`, key, p));
    if (effect === '') out.push(fe.required(`${at}.effect`));
    else if (!TAINT_EFFECTS.includes(effect))
      out.push(fe.notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
    if (seen.has(`${key}:${effect}`)) out.push(duplicateTaint(at, taint));
    seen.add(`${key}:${effect}`);
  });
  return out;
};

export const leaseRule: Rule = (o) => {
  const spec = obj(o['spec']);
  const out: StatusCause[] = [];
  const duration = spec['leaseDurationSeconds'];
  if (typeof duration === 'number' && duration <= 0)
    out.push(fe.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec['leaseTransitions'];
  if (typeof transitions === 'number' && transitions < 0)
    out.push(fe.invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return out;
};

const TRUE_ONLY = new Set(['Approved', 'Denied', 'Failed']);
export const csrConditionsRule: Rule = (o) => {
  const out: StatusCause[] = [];
  const seen = new Set<string>();
  list(obj(o['status'])['conditions']).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    const type = text(c['type']);
    const status = text(c['status']);
    if (type === '') out.push(fe.required(`${at}.type`));
    const allowed = TRUE_ONLY.has(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (status === '') out.push(fe.required(`${at}.status`));
    else if (!allowed.includes(status)) out.push(fe.notSupported(`${at}.status`, status, allowed));
    if (seen.has(type)) out.push(fe.duplicate(`${at}.type`, type));
    seen.add(type);
  });
  return out;
};

/** Hooks that refuse a create or update breaking `rule` with the real 422. */
export function ruleHooks(kind: string, group: string, rule: Rule): TypeHooks {
  const check = (o: JsonObject): void => {
    const causes = rule(o);
    if (causes.length > 0) throw errors.invalid(kind, group, text(meta(o)['name']), causes);
  };
  return { create: check, update: (_old, next) => check(next) };
}
