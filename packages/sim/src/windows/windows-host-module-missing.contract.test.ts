// A host whose module went missing or was altered (every joined node after an operator upgrade, when the
// operator assumes the module is there): the session says so on stdout, the adapter sends the module again.
import test from 'ava';
import { loadHostModule } from '@wmco/core/internal';
import { startHostWorld } from './windows-host-fixture.js';
import { cliXmlError } from './powershell-clixml.js';

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

for (const [what, change] of [
  ['missing', (files: { remove(p: string): void }, path: string) => files.remove(path)],
  [
    'altered',
    (files: { write(p: string, d: Buffer): void }, path: string) =>
      files.write(path, Buffer.from('function Invoke-WmcoHost { }')),
  ],
] as const) {
  test(`a session that assumed the module was there sends it again when it is ${what}`, async (t) => {
    const w = await startHostWorld();
    t.teardown(() => w.stop());
    await w.host.observe(emptyQuery);
    change(w.sim.model.files, (await loadHostModule()).remotePath);
    const fresh = w.connect({ assumeModule: true });
    t.teardown(() => fresh.close());
    t.is((await fresh.observe(emptyQuery)).hostname, 'WIN-SIM');
    t.is(fresh.stats.moduleInstalls, 1, 'the module was sent again');
  });
}

test('stderr of -EncodedCommand is CLIXML, a long line wrapped across records (the path is not in one piece)', async (t) => {
  const { remotePath } = await loadHostModule();
  const stderr = cliXmlError({
    message: `Exception calling "ReadAllBytes" with "1" argument(s): "Could not find file '${remotePath}'."`,
    category: 'NotSpecified: (:) [], MethodInvocationException',
    errorId: 'FileNotFoundException',
  });
  t.true(
    stderr.startsWith(
      '#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">',
    ),
  );
  t.true(stderr.endsWith('</Objs>'));
  const records = [...stderr.matchAll(/<S S="Error">(.*?)<\/S>/g)].map((m) => m[1] ?? '');
  t.true(records.every((r) => r.endsWith('_x000D__x000A_')));
  t.false(stderr.includes(remotePath), 'the path is split at the 120th column');
  t.true(
    records
      .join('')
      .replace(/_x000D__x000A_/g, '')
      .includes(remotePath),
  );
});
