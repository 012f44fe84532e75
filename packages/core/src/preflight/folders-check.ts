import type { HostFolderRefusedError } from '../host/errors.js';
import { HostPaths } from '../host/protocol/host-paths.js';
import type { HostState } from '../host/protocol/index.js';
import { fail, pass, skip, type Finding } from './finding.js';

const FIX_MARK = ' Fix: ';

/**
 * The operator's folders as the join would find them: each either missing (the join creates it for SYSTEM
 * and Administrators only) or one only administrators can change. A folder the host module would refuse (a
 * reparse point, writable by non-administrators, another owner) fails, with the module's fix.
 */
export function checkFolders(state: HostState): Finding {
  const problems = state.folderProblems;
  if (problems === undefined) return skip('folders', 'the host module did not report the folders');
  if (problems.length === 0) {
    return pass(
      'folders',
      `${HostPaths.protectedRoots.join(', ')}: missing, or only administrators can change them`,
    );
  }
  return fail(
    'folders',
    problems.map((p) => `${p.path} ${p.reason}`).join('; '),
    problems.map((p) => `${p.path}: ${p.fix}`).join('; '),
  );
}

/**
 * The first contact itself refused the working area (`C:\ProgramData\wmco`): powershell.exe ran the host
 * module (shell passes), which refused the folder (the module's words, split at the fix).
 */
export function refusedWorkAreaFindings(err: HostFolderRefusedError): Finding[] {
  const at = err.refusal.indexOf(FIX_MARK);
  const folders =
    at < 0
      ? fail('folders', err.refusal, 'see the reason')
      : fail('folders', err.refusal.slice(0, at), err.refusal.slice(at + FIX_MARK.length));
  return [pass('shell', 'powershell.exe ran the host module (which refused its working area)'), folders];
}
