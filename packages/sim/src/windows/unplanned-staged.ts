import { HostPaths, stagedPathFor } from '@wmco/core/internal';
import type { PlanStep } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

const STAGED_NAME = /^[0-9a-f]{64}(\.tar\.gz)?$/;

/**
 * Remove-WmcoUnplannedStaged, run at the start of every apply: removes the staged files (`<sha256>` and
 * `<sha256>.tar.gz`) that no placeFile step of this apply places. Staged files must not outlive the apply
 * that needs them, yet a retry after a failed apply should need no new upload: so each placement removes
 * its staged copy at once (`removeStagedOncePlaced`), since a resumed plan never places a file that is in
 * place (when power was lost mid-apply and the services restarted on boot, nothing may be left to apply at
 * all); files not placed yet stay staged for the retry. This sweep removes what an earlier plan left, such
 * as a copy whose host stopped between the placement and the removal.
 */
export function removeUnplannedStaged(m: WindowsModel, steps: readonly PlanStep[]): void {
  if (!m.files.isDirectory(HostPaths.staging)) return;
  const planned = new Set(steps.flatMap((s) => (s.kind === 'placeFile' ? [s.sha256] : [])));
  for (const entry of m.files.list(HostPaths.staging)) {
    if (entry.directory || !STAGED_NAME.test(entry.name) || planned.has(entry.name.slice(0, 64))) continue;
    m.files.remove(`${HostPaths.staging}\\${entry.name}`);
  }
}

/** After step `index` (a placeFile) succeeded: its staged copy goes, unless a later step places it again. */
export function removeStagedOncePlaced(m: WindowsModel, steps: readonly PlanStep[], index: number): void {
  const step = steps[index];
  if (step?.kind !== 'placeFile') return;
  const again = steps.slice(index + 1).some((s) => s.kind === 'placeFile' && s.sha256 === step.sha256);
  if (!again) m.files.remove(stagedPathFor(step.sha256));
}
