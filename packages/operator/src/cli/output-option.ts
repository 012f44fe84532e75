import { InvalidArgumentError, Option } from 'commander';

/**
 * `-o, --output <format>` limited to the formats a command prints: anything else is a usage error (exit 2,
 * with the allowed values named) instead of being accepted and ignored. `templates` are kubectl's
 * `<name>=<template>` forms the command takes (`jsonpath`).
 */
export function outputOption(
  formats: readonly string[],
  defaultView = formats[0] ?? '',
  templates: readonly string[] = [],
): Option {
  const option = new Option('-o, --output <format>', `output format (default: ${defaultView})`);
  if (templates.length === 0) return option.choices([...formats]);
  const allowed = [...formats, ...templates.map((t) => `${t}=<template>`)];
  // The choices are listed (help, shell completion); the parser also takes `<template name>=...`.
  return option.choices([...formats, ...templates.map((t) => `${t}=`)]).argParser((value: string) => {
    if (formats.includes(value) || templates.some((t) => value.startsWith(`${t}=`))) return value;
    throw new InvalidArgumentError(`Allowed choices are ${allowed.join(', ')}.`);
  });
}
