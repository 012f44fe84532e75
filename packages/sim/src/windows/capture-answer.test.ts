import { createHash } from 'node:crypto';
import test from 'ava';
import { loadHostCaptureScript, parseCaptureOutput } from '@wmco/core/internal';
import { answerCapture } from './capture-answer.js';
import type { HostInvocation, HostShellContext } from './host-shell.js';
import { WindowsModel } from './windows-model.js';

/** The two things answerCapture uses of its host: the model and the operation log. */
function context(model: WindowsModel, log: HostInvocation[]): HostShellContext {
  return {
    model,
    record: (i: HostInvocation) => log.push(i),
  } as Partial<HostShellContext> as HostShellContext;
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

test('the capture script of this build is answered from the model, with every source', async (t) => {
  const script = await loadHostCaptureScript();
  const log: HostInvocation[] = [];
  const model = new WindowsModel({ osBuild: 17763, ubr: 6000 });
  model.firewallRules.push({
    name: 'WindowsExporter',
    protocol: 'TCP',
    localPort: 9182,
    direction: 'Inbound',
  });
  const reply = await answerCapture(
    context(model, log),
    script.sha256,
    `${script.bytes.toString('base64')}\n`,
  );
  t.is(reply?.code, 0);
  const { records, complete } = parseCaptureOutput(reply?.stdout ?? '');
  t.true(complete);
  t.is(records.length, 17);
  t.like(records.find((r) => r.name === 'net-firewall-port-filter')?.items[0], {
    value: { LocalPort: ['9182'] },
    types: { LocalPort: 'System.String[]' },
  });
  t.like(
    records
      .find((r) => r.name === 'windows-nt-currentversion')
      ?.items.find((i) => i.value.Name === 'ReleaseId'),
    {
      value: { Value: '1809' },
    },
  );
  t.deepEqual(log, [{ op: 'capture', scripts: [] }]);
});

test('a script that is not the one the command line names is refused, as the invocation does', async (t) => {
  const script = await loadHostCaptureScript();
  const log: HostInvocation[] = [];
  const other = Buffer.from('Remove-Item -Recurse C:\\');
  const reply = await answerCapture(
    context(new WindowsModel(), log),
    script.sha256,
    other.toString('base64'),
  );
  t.deepEqual(reply, {
    stderr: `wmco capture script hash mismatch: the script sent has SHA-256 ${sha(other)}\r\n`,
    code: 1,
  });
  t.deepEqual(log, []);
});

test('a capture script of another build is refused: the simulated host answers only this one', async (t) => {
  const other = Buffer.from('# another version of the capture script');
  const reply = await answerCapture(context(new WindowsModel(), []), sha(other), other.toString('base64'));
  t.is(reply?.code, 1);
  t.regex(reply?.stderr ?? '', /answers only the capture script of this build/);
});
