import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ESLint } from 'eslint';

// The repository's own eslint.config.js, applied to snippets at virtual paths. Type information is
// switched off (the files do not exist) and only the rule under test runs.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax' || ruleId === 'no-restricted-imports',
});

async function messages(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((m) => `${m.line}: ${m.message}`);
}

const IF_AWS =
  "export function f(platform: string): number {\n  if (platform === 'AWS') return 1;\n  return 0;\n}\n";
const SWITCH =
  "export function g(p: string): number {\n  switch (p) {\n    case 'VSphere':\n      return 1;\n    default:\n      return 0;\n  }\n}\n";

test('comparing a platform name in core is an error', async (t) => {
  t.deepEqual(await messages(IF_AWS, 'packages/core/src/desired/virtual.ts'), [
    '2: Compare no platform names outside provider packages; register a capability instead.',
  ]);
});

test('the rule catches !== and == and names on either side', async (t) => {
  const code = "export const a = (p: string): boolean => 'Azure' !== p || p == 'BareMetal';\n";
  t.is((await messages(code, 'packages/operator/src/virtual.ts')).length, 2);
});

test('switching on a platform name in the operator or sim is an error', async (t) => {
  for (const path of ['packages/operator/src/virtual.ts', 'packages/sim/src/virtual.ts']) {
    t.deepEqual(await messages(SWITCH, path), [
      '3: Switch on no platform names outside provider packages; register a capability instead.',
    ]);
  }
});

test('provider packages and tests may name platforms', async (t) => {
  t.deepEqual(await messages(IF_AWS, 'packages/provider-aws/src/virtual.ts'), []);
  t.deepEqual(await messages(IF_AWS, 'packages/core/src/virtual.test.ts'), []);
});

test('other strings are not platform names', async (t) => {
  t.deepEqual(
    await messages(
      "export const b = (p: string): boolean => p === 'AWSX' || p === 'aws';\n",
      'packages/core/src/v.ts',
    ),
    [],
  );
});

test('provider code imports only the public contract, and never another provider', async (t) => {
  const code =
    "import { buildUserData } from '@wmco/core';\nimport { awsProvider } from '@wmco/provider-aws';\nimport { defineProvider } from '@wmco/core/provider';\nexport const x = [buildUserData, awsProvider, defineProvider];\n";
  const found = await messages(code, 'examples/provider-kubevirt/src/virtual.ts');
  t.is(found.length, 2);
  t.regex(found[0]!, /^1: '@wmco\/core' import is restricted/);
  t.regex(found[1]!, /^2: .*A provider never imports another provider/);
});

test('provider tests may use @wmco/core/testing, provider code may not', async (t) => {
  const code =
    "import { describeProviderContract } from '@wmco/core/testing';\nexport const x = describeProviderContract;\n";
  t.deepEqual(await messages(code, 'packages/provider-gcp/src/virtual.test.ts'), []);
  t.is((await messages(code, 'packages/provider-gcp/src/virtual.ts')).length, 1);
});

test('an embedding example uses @wmco/core, its provider entry and providers, never @wmco/core/internal', async (t) => {
  const allowed =
    "import { createWmcoCore } from '@wmco/core';\nimport { CloudContext } from '@wmco/core/provider';\nimport { noneProvider } from '@wmco/provider-none';\nexport const x = [createWmcoCore, CloudContext, noneProvider];\n";
  t.deepEqual(await messages(allowed, 'examples/embedded-controller/src/virtual.ts'), []);
  const internal =
    "import { ByohControllers } from '@wmco/core/internal';\nexport const y = ByohControllers;\n";
  const found = await messages(internal, 'examples/embedded-controller/src/virtual.ts');
  t.is(found.length, 1);
  t.regex(found[0]!, /^1: .*An embedder uses the public entries only/);
});
