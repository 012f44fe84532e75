import { createHash } from 'node:crypto';
import {
  CAPTURE_DONE_PREFIX,
  CAPTURE_HASH_MISMATCH,
  CAPTURE_LINE_PREFIX,
  loadHostCaptureScript,
} from '@wmco/core/internal';
import { serviceRecords } from './capture-services.js';
import { systemRecords } from './capture-system.js';
import type { ExecReply, HostShellContext } from './host-shell.js';

/**
 * `wmco hostcheck`'s capture on the TypeScript model: the script on stdin is checked as the invocation
 * checks it (its SHA-256 against the command line's), then the model answers what WmcoCapture.ps1 would
 * print on Windows for the same state, in Windows' shapes (FIDELITY.md "hostcheck capture"). The script
 * itself does not run here: only the command's plumbing and the fixture format are exercised.
 */
export async function answerCapture(
  ctx: HostShellContext,
  sha256: string,
  stdin: string,
): Promise<ExecReply> {
  const bytes = Buffer.from(stdin.trim(), 'base64');
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256) {
    return { stderr: `${CAPTURE_HASH_MISMATCH}: the script sent has SHA-256 ${actual}\r\n`, code: 1 };
  }
  if (sha256 !== (await loadHostCaptureScript()).sha256) {
    return { stderr: 'the simulated host answers only the capture script of this build\r\n', code: 1 };
  }
  ctx.record({ op: 'capture', scripts: [] });
  const { before, after } = systemRecords(ctx.model);
  const records = [...before, ...serviceRecords(ctx.model), ...after];
  const lines = records.map((r) => `${CAPTURE_LINE_PREFIX}${r.name} ${JSON.stringify(r)}`);
  return { stdout: `${[...lines, `${CAPTURE_DONE_PREFIX}${records.length}`].join('\r\n')}\r\n`, code: 0 };
}
