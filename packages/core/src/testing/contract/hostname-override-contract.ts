import { z } from 'zod';
import { HostnameOverride } from '../../provider/capabilities/hostname-override.js';
import { assertPowerShell, assertShape, isAbsoluteWindowsPath, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const schema = z.object({
  command: z
    .string()
    .min(1)
    .regex(/^[^\r\n]*$/, 'the command is one line (it runs as a service pre-script)'),
  files: z.array(
    z.object({
      path: z.string().refine(isAbsoluteWindowsPath, 'an absolute Windows path'),
      content: z.string().min(1),
    }),
  ),
});

const SCRIPT = /\.ps(m?)1$/i;

export const hostnameOverrideContract = capabilityContract<HostnameOverride>({
  capability: HostnameOverride,
  name: 'HostnameOverride',
  snapshot: (o) => plain({ command: o.command, files: o.files }),
  checks: [
    { name: 'shape', run: (t, o) => assertShape(t, schema, o) },
    {
      name: 'the command parses as PowerShell',
      run: (t, o) => assertPowerShell(t, 'the command', o.command),
    },
    {
      name: 'every script file parses as PowerShell',
      run: (t, o) => {
        for (const file of o.files.filter((f) => SCRIPT.test(f.path)))
          assertPowerShell(t, file.path, file.content);
        t.pass();
      },
    },
    {
      name: 'every file is used by the command, once',
      run: (t, o) => {
        const paths = o.files.map((f) => f.path.toLowerCase());
        t.is(new Set(paths).size, paths.length, 'a file path is listed twice');
        for (const path of paths)
          t.true(o.command.toLowerCase().includes(path), `the command never uses ${path}`);
      },
    },
  ],
});
