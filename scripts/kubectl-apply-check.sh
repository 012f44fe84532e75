#!/usr/bin/env bash
# Checks that deploy/ (or another directory of manifests) applies cleanly to the cluster that kubectl
# talks to (KUBECONFIG, or --kubeconfig). By default nothing is changed: every file is sent with
# --dry-run=server, in file order, so the API server runs its validation, defaulting and admission.
#
#   scripts/kubectl-apply-check.sh                 # server-side dry run of deploy/
#   scripts/kubectl-apply-check.sh --apply         # really apply (a disposable or simulated cluster)
#   scripts/kubectl-apply-check.sh --dir DIR --kubeconfig FILE
#   WMCO_IMAGE=registry.example/wmco:dev scripts/kubectl-apply-check.sh   # with another operator image
#
# A server that does not support dry run makes the check stop (exit 3) unless --apply is given. In a
# dry run, objects in a namespace that the same directory creates cannot be checked by the server (the
# namespace is not really created); they are checked client-side and reported as such. A namespace
# that neither exists nor is created here is a failure. Exit: 0 ok, 1 a file failed, 2 usage, 3 no
# dry run.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/deploy"
mode=(--dry-run=server)
kubeconfig=()
while [ $# -gt 0 ]; do
  case "$1" in
    --apply) mode=() ;;
    --dir) dir=${2:?--dir needs a directory}; shift ;;
    --kubeconfig) kubeconfig=(--kubeconfig "${2:?--kubeconfig needs a file}"); shift ;;
    -h | --help) sed -n '2,17p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "kubectl-apply-check: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
command -v kubectl >/dev/null || { echo "kubectl-apply-check: kubectl is not on PATH" >&2; exit 2; }
[ -d "$dir" ] || { echo "kubectl-apply-check: no directory $dir" >&2; exit 2; }
k() { kubectl "${kubeconfig[@]}" "$@"; }

if ! err=$(k get --raw /version 2>&1); then
  echo "kubectl-apply-check: cannot reach the API server: $(printf '%s' "$err" | tail -1)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Namespaces this directory creates (kind: Namespace documents), from the files themselves.
created=$(awk '/^---/{ns=0} /^kind: Namespace$/{ns=1} ns && /^  name: /{print $2; ns=0}' "$dir"/*.yaml)

status=0
for file in "$dir"/*.yaml "$dir"/*.yml; do
  [ -f "$file" ] || continue
  name=$(basename "$file")
  src="$file"
  if [ -n "${WMCO_IMAGE:-}" ] && grep -q 'image: quay.io/wmco-ts/operator:' "$file"; then
    src="$work/$name"
    sed "s#image: quay.io/wmco-ts/operator:.*#image: $WMCO_IMAGE#" "$file" >"$src"
  fi
  if out=$(k apply "${mode[@]}" -f "$src" 2>&1); then
    printf '%s\n' "$out" | sed "s#^#$name: #"
    continue
  fi
  if printf '%s' "$out" | grep -qiE 'dry.?run.*(not supported|unsupported)|does not support dry.?run'; then
    echo "kubectl-apply-check: the API server does not support --dry-run=server: $out" >&2
    echo "kubectl-apply-check: re-run with --apply on a cluster you may change" >&2
    exit 3
  fi
  missing=$(printf '%s' "$out" | sed -n 's/.*namespaces "\([^"]*\)" not found.*/\1/p' | sort -u)
  if [ ${#mode[@]} -gt 0 ] && [ -n "$missing" ] && ! grep -qvxF -f <(printf '%s\n' "$created") <<<"$missing"; then
    if out=$(k apply --dry-run=client -f "$src" 2>&1); then
      printf '%s\n' "$out" | sed "s#^#$name: #;s#\$# (client-side only: namespace $(echo $missing) is created by this directory)#"
      continue
    fi
  fi
  printf '%s\n' "$out" | sed "s#^#$name: FAILED: #" >&2
  status=1
done
[ $status -eq 0 ] && echo "kubectl-apply-check: every file of $(basename "$dir")/ applied cleanly${mode[*]:+ ($mode)}"
exit $status
