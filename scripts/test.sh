#!/usr/bin/env bash
# Runs ava (TAP reporter) in every package that has tests, one package at a time, writing each package's
# TAP to <out>/<package>.tap, then the host module's Pester suite into <out>/pester.tap (PowerShell and
# Pester from scripts/toolchain.sh: WMCO_PWSH, WMCO_PESTER; without them it says why and is skipped).
# Assumes the workspace is built (tsc -b). Usage: scripts/test.sh <out-dir>
set -uo pipefail
out=${1:?usage: test.sh <out-dir>}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
status=0
for dir in "$root"/packages/* "$root"/examples/*; do
  [ -f "$dir/package.json" ] || continue
  if [ -z "$(find "$dir/src" -name '*.test.ts' -print -quit 2>/dev/null)" ]; then continue; fi
  name=$(basename "$dir")
  echo "== test $name" >&2
  (cd "$dir" && pnpm exec ava --tap) >"$out/$name.tap" 2>"$out/$name.stderr"
  code=$?
  cat "$out/$name.tap"
  if [ $code -ne 0 ]; then
    status=1
    cat "$out/$name.stderr" >&2
    # A crash before any TAP summary still counts as a failure.
    grep -q '^# fail' "$out/$name.tap" || echo "# fail 1" >>"$out/$name.tap"
  fi
done
bash "$root/scripts/test-pester.sh" "$out" || status=1
exit $status
