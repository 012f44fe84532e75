import test from 'ava';
import { parseHostEngine, powershellEngineFor } from './host-engine.js';

test('--host-engine takes model or powershell, and names both when given something else', (t) => {
  t.is(parseHostEngine('model'), 'model');
  t.is(parseHostEngine('powershell'), 'powershell');
  t.throws(() => parseHostEngine('pwsh'), {
    message: '--host-engine: "pwsh" is not an engine (model, powershell)',
  });
});

test('the powershell engine needs PowerShell 7 and says why it cannot run without it', (t) => {
  t.is(powershellEngineFor(undefined, '/w', {}), undefined);
  t.is(powershellEngineFor('model', '/w', {}), undefined);
  t.throws(
    () => powershellEngineFor('powershell', '/w', { WMCO_PWSH_MISSING: 'no .NET SDK on this machine' }),
    {
      message: 'the powershell host engine needs PowerShell 7: no .NET SDK on this machine',
    },
  );
  t.throws(() => powershellEngineFor('powershell', '/w', { WMCO_PWSH: '/nonexistent/pwsh' }), {
    message: /WMCO_PWSH names \/nonexistent\/pwsh, which does not exist/,
  });
  t.deepEqual(powershellEngineFor('powershell', '/w', { WMCO_PWSH: process.execPath }), {
    pwsh: process.execPath,
    dir: '/w/hosts',
  });
});
