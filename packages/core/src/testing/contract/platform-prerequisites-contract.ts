import type { ExecutionContext } from 'ava';
import { z } from 'zod';
import { PlatformPrerequisites } from '../../provider/capabilities/platform-prerequisites.js';
import {
  WINDOWS_SERVER_2019,
  WINDOWS_SERVER_2022,
  WINDOWS_SERVER_2025,
} from '../../provider/types/windows-build.js';
import { assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const KNOWN_BUILDS = [WINDOWS_SERVER_2019, WINDOWS_SERVER_2022, WINDOWS_SERVER_2025];

const schema = z.object({
  supportedBuilds: z
    .array(
      z.object({
        name: z.string().min(1),
        build: z.number().int().positive(),
        minRevision: z.number().int().nonnegative().optional(),
        note: z.string().min(1).optional(),
      }),
    )
    .min(1),
  machineNameMaxLength: z.number().int().min(1).max(63).optional(),
  machineSetNameMaxLength: z.number().int().min(1).optional(),
  customVxlanPortRequired: z.boolean(),
  notes: z.array(
    z
      .string()
      .min(1)
      .regex(/^[^\r\n]*$/, 'one line per note'),
  ),
});

function buildsKnown(t: ExecutionContext, p: PlatformPrerequisites): void {
  for (const b of p.supportedBuilds) {
    const known = KNOWN_BUILDS.find((k) => k.build === b.build);
    if (!known) {
      t.fail(`build ${b.build} is not a Windows Server release core knows`);
      return;
    }
    t.is(b.name, known.name, `build ${b.build} is ${known.name}`);
    if (b.minRevision !== undefined)
      t.truthy(b.note, `say why build ${b.build} needs revision ${b.minRevision}`);
  }
  const builds = p.supportedBuilds.map((b) => b.build);
  t.is(new Set(builds).size, builds.length, 'a build is listed twice');
}

function limitsConsistent(t: ExecutionContext, p: PlatformPrerequisites): void {
  if (p.machineSetNameMaxLength !== undefined) {
    t.not(p.machineNameMaxLength, undefined, 'a MachineSet name limit needs a machine name limit');
    t.true(
      p.machineSetNameMaxLength < (p.machineNameMaxLength ?? 0),
      'the MachineSet limit must be below the name limit',
    );
  }
  if (p.customVxlanPortRequired) {
    // Windows Server 2019 cannot use a custom hybrid-overlay VXLAN port (reference §2).
    t.false(
      p.supportedBuilds.some((b) => b.build === WINDOWS_SERVER_2019.build),
      'WS2019 cannot use a custom VXLAN port',
    );
  }
  t.pass();
}

export const platformPrerequisitesContract = capabilityContract<PlatformPrerequisites>({
  capability: PlatformPrerequisites,
  name: 'PlatformPrerequisites',
  snapshot: (p) => plain(p),
  checks: [
    { name: 'shape', run: (t, p) => assertShape(t, schema, p) },
    { name: 'builds are known Windows Server releases', run: buildsKnown },
    { name: 'name limits and VXLAN rule are consistent', run: limitsConsistent },
  ],
});
