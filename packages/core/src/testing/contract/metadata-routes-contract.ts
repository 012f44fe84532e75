import type { ExecutionContext } from 'ava';
import { z } from 'zod';
import { MetadataRoutes } from '../../provider/capabilities/metadata-routes.js';
import { assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');
const routeSchema = z.object({
  destinationPrefix: z
    .string()
    .regex(/^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/, 'an IPv4 CIDR such as 169.254.169.254/32'),
  description: z.string().min(1),
});

/** True when `cidr` is a valid IPv4 prefix whose host bits are zero. */
function isCanonicalCidr(cidr: string): boolean {
  const [address = '', bits = ''] = cidr.split('/');
  const octets = address.split('.').map(Number);
  const length = Number(bits);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return false;
  if (!Number.isInteger(length) || length < 0 || length > 32) return false;
  const value = octets.reduce((acc, o) => acc * 256 + o, 0);
  const hostBits = 2 ** (32 - length);
  return value % hostBits === 0;
}

function validRoutes(t: ExecutionContext, m: MetadataRoutes): void {
  const routes = m.routes();
  t.true(routes.length > 0, 'register no MetadataRoutes rather than none');
  for (const r of routes)
    t.true(isCanonicalCidr(r.destinationPrefix), `${r.destinationPrefix} is not a canonical CIDR`);
  const prefixes = routes.map((r) => r.destinationPrefix);
  t.is(new Set(prefixes).size, prefixes.length, 'a route is listed twice');
}

export const metadataRoutesContract = capabilityContract<MetadataRoutes>({
  capability: MetadataRoutes,
  name: 'MetadataRoutes',
  snapshot: (m) => plain(m.routes()),
  checks: [
    {
      name: 'shape',
      run: (t, m) => {
        assertShape(t, z.object({ routes: fn }), m);
        assertShape(t, z.array(routeSchema), m.routes());
      },
    },
    { name: 'routes are distinct canonical IPv4 prefixes', run: validRoutes },
  ],
});
