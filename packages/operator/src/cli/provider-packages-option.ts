/** Packages named with `--provider-package` (repeatable) or `WMCO_PROVIDER_PACKAGES` (comma-separated). */
export function providerPackages(
  flag: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): readonly string[] {
  const fromEnv = (env['WMCO_PROVIDER_PACKAGES'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return [...new Set([...(flag ?? []), ...fromEnv])];
}

export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
