import type { ExecutionContext } from 'ava';
import { z } from 'zod';
import { HostRename } from '../../provider/capabilities/host-rename.js';
import { assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');
const schema = z.object({ hostnameFor: fn, matches: fn });

/** Machine names as the machine-api generates them: `<machineset>-<5 random characters>`. */
const MACHINE_NAMES = ['win-x7k2p', 'winworker-4hq9z', 'ws2022-0a1b2'];
const DNS_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function exactMatching(t: ExecutionContext, rename: HostRename, target: string): void {
  const same = [
    target,
    target.toUpperCase(),
    `${target}.example.com`,
    `${target.toUpperCase()}.EXAMPLE.COM.`,
  ];
  for (const current of same) t.true(rename.matches(current, target), `'${current}' is '${target}'`);
  const different = [
    `${target}x`,
    `x${target}`,
    target.slice(0, -1),
    `${target}x.example.com`,
    `${target}-1`,
  ];
  for (const current of different)
    t.false(rename.matches(current, target), `'${current}' is not '${target}'`);
}

export const hostRenameContract = capabilityContract<HostRename>({
  capability: HostRename,
  name: 'HostRename',
  snapshot: (rename) =>
    plain(
      MACHINE_NAMES.map((m) => {
        const target = rename.hostnameFor(m);
        return {
          m,
          target,
          self: rename.matches(target, target),
          other: rename.matches(`${target}x`, target),
        };
      }),
    ),
  checks: [
    { name: 'shape', run: (t, rename) => assertShape(t, schema, rename) },
    {
      name: 'hostnameFor yields a DNS label for machine names',
      run: (t, rename) => {
        for (const m of MACHINE_NAMES) t.regex(rename.hostnameFor(m), DNS_LABEL, `hostnameFor('${m}')`);
      },
    },
    {
      name: 'matches is exact and case-insensitive on the first label',
      run: (t, rename) => MACHINE_NAMES.forEach((m) => exactMatching(t, rename, rename.hostnameFor(m))),
    },
  ],
});
