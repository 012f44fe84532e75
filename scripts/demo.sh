#!/usr/bin/env bash
# The README's demo command. Sets up the toolchain, builds, and runs the simulated world: a Kubernetes API
# server with OpenShift's cluster objects, three Windows hosts over real SSH (one listed by IPv4, one by a
# DNS name, one with PowerShell as its default shell), and the operator joining them as BYOH nodes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
pnpm exec tsc -b
echo
echo "# The platform providers built in, plus the third-party KubeVirt example loaded by package name:"
WMCO_PROVIDER_PACKAGES=@wmco/provider-kubevirt-example pnpm --silent wmco providers
echo
echo "# BYOH: three Windows hosts listed in windows-instances become Ready worker nodes"
pnpm --silent wmco sim --hosts 3
