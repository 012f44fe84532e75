import { stagedPathFor } from '@wmco/core/internal';
import type { PlanStep } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

/**
 * The placeFile branch of Invoke-WmcoApply, after step `index` succeeded: the placed file's staged copy goes
 * now, unless a later step of the plan places the same hash. Not when the whole apply succeeded: a resumed
 * plan never places a file already in place, so after an apply stopped later on (power lost, and the
 * services restarted on boot may leave nothing to apply) the copy would stay for good. Files not placed yet
 * stay staged, so a retry needs no new upload. Not a sweep of the staging folder at the start of an apply:
 * the join's deferred uploads stage files beside the bootstrap apply for a later round (join-rounds.ts).
 */
export function removeStagedOncePlaced(m: WindowsModel, steps: readonly PlanStep[], index: number): void {
  const step = steps[index];
  if (step?.kind !== 'placeFile') return;
  const again = steps.slice(index + 1).some((s) => s.kind === 'placeFile' && s.sha256 === step.sha256);
  if (!again) m.files.remove(stagedPathFor(step.sha256));
}
