import test from 'ava';
import { loadHostModule } from '../host-module.js';
import { powershellSyntaxErrors } from '../../testing/powershell-syntax.js';
import { decodePowerShellCommand, encodePowerShellCommand } from './invocation.js';
import {
  SESSION_FOLDER_REFUSED_MARKER,
  SESSION_READY_MARKER,
  SESSION_RESULT_PREFIX,
  hostSessionScript,
  parseHostSession,
} from './session-invocation.js';

const positions = (script: string, order: readonly string[]): number[] => order.map((s) => script.indexOf(s));

for (const install of [false, true]) {
  test(`the ${install ? 'first-contact' : 'plain'} session script parses and round-trips through the command line`, async (t) => {
    const { remotePath, sha256 } = await loadHostModule();
    const script = hostSessionScript({ modulePath: remotePath, sha256 }, install);
    t.deepEqual(powershellSyntaxErrors(script), []);
    const decoded = decodePowerShellCommand(encodePowerShellCommand(script));
    t.is(decoded, script);
    t.deepEqual(parseHostSession(decoded!), { modulePath: remotePath, sha256, install });
    t.is(parseHostSession(`${script}; Remove-Item C:\\k`), undefined, 'only the exact form');
  });
}

test('a session checks the module before running it, says when it is ready, then answers line by line', async (t) => {
  const { remotePath, sha256 } = await loadHostModule();
  const plain = hostSessionScript({ modulePath: remotePath, sha256 }, false);
  const order = [
    'ReadAllBytes',
    `-ne '${sha256}'`,
    'New-Module',
    SESSION_READY_MARKER,
    'while',
    'ReadLine()',
  ];
  const at = positions(plain, order);
  t.false(at.includes(-1), order.join(', '));
  t.deepEqual(
    at,
    [...at].sort((a, b) => a - b),
    'hash check, module, ready line, then the request loop',
  );
  t.true(plain.includes(`'${SESSION_RESULT_PREFIX}' + $json`), 'every answer carries the result prefix');
  t.true(plain.includes('[Console]::Out.Flush()'), 'each answer is flushed at once');
});

test('a first-contact session checks the module, has it check the working area, and writes the module only then', async (t) => {
  const { remotePath, sha256 } = await loadHostModule();
  const script = hostSessionScript({ modulePath: remotePath, sha256 }, true);
  const order = [
    'ReadLine()',
    'FromBase64String',
    `-ne '${sha256}'`,
    'New-Module',
    '$refused = Initialize-WmcoWorkArea',
    `WriteLine('${SESSION_FOLDER_REFUSED_MARKER} ' + $refused)`,
    'exit 4',
    'WriteAllBytes',
    'Move-Item',
    SESSION_READY_MARKER,
  ];
  const at = positions(script, order);
  t.false(at.includes(-1), order.join(', '));
  t.deepEqual(
    at,
    [...at].sort((a, b) => a - b),
  );
  t.is(script.split('New-Module').length, 2, 'the module is loaded once');
  t.false(script.includes('Set-Acl'), "the folders are the module's to check and protect");
});

test('a module path outside the wmco folder or a hash that does not name it is refused', async (t) => {
  const { remotePath, sha256 } = await loadHostModule();
  t.throws(() => hostSessionScript({ modulePath: "C:\\x'; evil; '.psm1", sha256 }, false), {
    message: /not under/,
  });
  t.throws(() => hostSessionScript({ modulePath: remotePath, sha256: 'f'.repeat(64) }, true), {
    message: /does not name/,
  });
});
