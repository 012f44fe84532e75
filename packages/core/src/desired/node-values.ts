import { resolveNodeVariables } from './service-variables.js';
import type { NodeVariable } from '../provider/types/windows-service-spec.js';

/** A value from the Node or the host that is not of the type its variable needs; nothing reaches the host. */
export class NodeValueError extends Error {
  constructor(
    readonly variable: string,
    value: string,
    expected: string,
  ) {
    super(`refusing ${variable} = "${printable(value)}": not ${expected}`);
    this.name = 'NodeValueError';
  }
}

/** At most 80 characters, control and non-ASCII characters as \u escapes (the value is hostile). */
function printable(value: string): string {
  const cut = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return cut.replace(/[^\x20-\x7e…]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);
const LABEL = '[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?';
const NODE_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(\\.${LABEL})*$`);
const HOST_NAME = new RegExp(NODE_NAME.source, 'i');
/** Operator constants and values of other variables: one word, no quoting or shell metacharacters. */
const SAFE_WORD = /^[A-Za-z0-9._:\\/=+-]{1,1024}$/;

/** Canonical dotted-quad IPv4 (no leading zeros, no shortened or numeric forms). */
export function isCanonicalIpv4(value: string): boolean {
  return IPV4.test(value);
}

/** An IPv4 CIDR in canonical form with its network address (`10.132.2.0/24`). */
export function isIpv4Cidr(value: string): boolean {
  const [ip, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || ip === undefined || prefix === undefined || !isCanonicalIpv4(ip)) return false;
  if (!/^(3[0-2]|[12]?\d)$/.test(prefix)) return false;
  const bits = Number(prefix);
  const n = ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  return bits === 0 ? n === 0 : n % 2 ** (32 - bits) === 0;
}

interface ValueType {
  readonly test: (value: string) => boolean;
  readonly expected: string;
}

/**
 * The type of each variable the operator fills (ADR 0009): node variables (NODE_NAME, NODE_SUBNET) and
 * pre-script values (NODE_IP, HOSTNAME_OVERRIDE). Anything else must be one plain word.
 */
const TYPES: Readonly<Record<string, ValueType>> = {
  NODE_NAME: { test: (v) => NODE_NAME.test(v), expected: 'a lower-case RFC 1123 node name' },
  NODE_SUBNET: { test: isIpv4Cidr, expected: 'an IPv4 CIDR such as 10.132.2.0/24' },
  NODE_IP: { test: isCanonicalIpv4, expected: 'a dotted-quad IPv4 address' },
  HOSTNAME_OVERRIDE: { test: (v) => HOST_NAME.test(v), expected: 'an RFC 1123 host name' },
};
const OTHER: ValueType = {
  test: (v) => SAFE_WORD.test(v),
  expected: 'one word of letters, digits and . _ : \\ / = + -',
};

/** Throws NodeValueError unless `value` has the type variable `name` needs. */
export function checkNodeValue(name: string, value: string): void {
  const type = TYPES[name] ?? OTHER;
  if (!type.test(value)) throw new NodeValueError(name, value, type.expected);
}

/** Every value checked; returns them unchanged. */
export function checkNodeValues(values: Readonly<Record<string, string>>): Record<string, string> {
  for (const [name, value] of Object.entries(values)) checkNodeValue(name, value);
  return { ...values };
}

/** Each variable's value on `node`, checked for its type. */
export function typedNodeVariables(
  variables: readonly NodeVariable[],
  node: unknown,
): Record<string, string> {
  return checkNodeValues(resolveNodeVariables(variables, node));
}
