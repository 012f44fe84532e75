#!/usr/bin/env bash
# Runs the host module's Pester suite (scripts/pester.ps1) with the PowerShell and Pester that
# scripts/toolchain.sh installed (WMCO_PWSH, WMCO_PESTER) and writes its TAP to <out>/pester.tap. Without
# them (no .NET SDK) it prints why the PowerShell tests did not run and succeeds, so everything else runs;
# CI cannot get here without them (toolchain.sh fails there). Usage: scripts/test-pester.sh <out-dir>
set -uo pipefail
out=${1:?usage: test-pester.sh <out-dir>}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
echo "== test pester (WmcoHost.psm1)" >&2
if [ -z "${WMCO_PWSH:-}" ] || [ -z "${WMCO_PESTER:-}" ]; then
  reason="${WMCO_PWSH_MISSING:-WMCO_PWSH/WMCO_PESTER are not set (run through scripts/toolchain.sh)}"
  echo "PowerShell tests skipped: $reason" >&2
  echo "# PowerShell tests skipped: $reason" >"$out/pester.tap"
  exit 0
fi
answers="$out/host-answers"
rm -rf "$answers" && mkdir -p "$answers"
WMCO_HOST_ANSWERS="$answers" "$WMCO_PWSH" -NoProfile -NonInteractive -File "$root/scripts/pester.ps1" \
  "$WMCO_PESTER" >"$out/pester.tap" 2>"$out/pester.stderr"
code=$?
cat "$out/pester.tap"
if [ $code -ne 0 ]; then
  cat "$out/pester.stderr" >&2
  # A run that broke before its summary still counts as a failure.
  grep -q '^# fail [1-9]' "$out/pester.tap" || echo "# fail 1" >>"$out/pester.tap"
fi
# The module's JSON answers of that run, parsed with the operator's own schemas.
node "$root/scripts/check-host-answers.js" "$answers" >"$out/host-answers.tap" 2>&1
answers_code=$?
cat "$out/host-answers.tap"
grep -q '^# fail' "$out/host-answers.tap" || echo "# fail 1" >>"$out/host-answers.tap"
[ $code -eq 0 ] && [ $answers_code -eq 0 ]
