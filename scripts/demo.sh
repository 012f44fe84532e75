#!/usr/bin/env bash
# The README's demo command. Sets up the toolchain, builds, and shows what this build of wmco can do.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
pnpm exec tsc -b
echo
echo "# The platform providers built in, plus the third-party KubeVirt example loaded by package name:"
WMCO_PROVIDER_PACKAGES=@wmco/provider-kubevirt-example pnpm --silent wmco providers
