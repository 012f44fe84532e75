// A project that depends on the packed @wmco/core the way a third party would: a provider built on
// '@wmco/core/provider', a host process that composes it with '@wmco/core', and a script that uses the
// test kit without its optional peers. Written into a temporary folder by core-package.test.ts.

/** The consumer's files, by path; `CORE_TARBALL` in package.json is replaced by the tarball's path. */
export const CONSUMER_FILES: Readonly<Record<string, string>> = {
  'package.json': JSON.stringify(
    {
      name: 'wmco-core-consumer',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { '@wmco/core': 'file:CORE_TARBALL' },
      devDependencies: { '@types/node': '24.19.2', typescript: '6.0.3' },
    },
    undefined,
    2,
  ),
  // pnpm asks about dependencies with build scripts; ssh2's native crypto is optional (pure-JS fallback).
  'pnpm-workspace.yaml': 'allowBuilds:\n  ssh2: false\n  cpu-features: false\n',
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      exactOptionalPropertyTypes: true,
      verbatimModuleSyntax: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      types: ['node'],
      rootDir: 'src',
      outDir: 'dist',
    },
    include: ['src'],
  }),
  'src/demo-provider.ts': `
import {
  defineProvider,
  inject,
  injectable,
  MachineAccess,
  PlatformPrerequisites,
  WINDOWS_SERVER_2022,
  type WindowsBuild,
} from '@wmco/core/provider';

@injectable()
class DemoPrerequisites implements PlatformPrerequisites {
  readonly supportedBuilds: readonly WindowsBuild[] = [WINDOWS_SERVER_2022];
  readonly customVxlanPortRequired = false;
  readonly notes: readonly string[];
  constructor(@inject(MachineAccess) access: MachineAccess) {
    this.notes = ['connects as ' + access.sshUser];
  }
}

export const demoProvider = defineProvider({
  id: 'demo',
  platform: 'None',
  contractVersion: '^1.0.0',
  packageName: 'wmco-core-consumer',
  register(r) {
    r.useValue(MachineAccess, { sshUser: 'Administrator' });
    r.useClass(PlatformPrerequisites, DemoPrerequisites);
  },
});
`,
  'src/main.ts': `
import { createWmcoCore, newRootContainer, type WmcoCore } from '@wmco/core';
import { CONTRACT_VERSION, ContractVersionError, defineProvider, PlatformPrerequisites } from '@wmco/core/provider';
import { demoProvider } from './demo-provider.js';

const core: WmcoCore = createWmcoCore({ parent: newRootContainer(), providers: [demoProvider], platform: 'None' });
const notes: readonly string[] = core.resolve(PlatformPrerequisites).notes;
await core.dispose();

// A provider written for a later major of the contract is refused when the core starts.
const future = defineProvider({ id: 'future', platform: 'None', contractVersion: '^2.0.0', register: () => undefined });
let refused = '';
try {
  createWmcoCore({ parent: newRootContainer(), providers: [future], platform: 'None' });
} catch (err) {
  if (err instanceof ContractVersionError) refused = err.message;
}
console.log(JSON.stringify({ contract: CONTRACT_VERSION, capabilities: core.capabilities, notes, refused }));
`,
  'test-kit.mjs': `
import { powershellSyntaxErrors } from '@wmco/core/testing';
try {
  console.log(JSON.stringify({ errors: powershellSyntaxErrors('Write-Output 1') }));
} catch (err) {
  console.log(JSON.stringify({ name: err.name, message: err.message }));
}
`,
};
