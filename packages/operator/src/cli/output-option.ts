import { Option } from 'commander';

/**
 * `-o, --output <format>` limited to the formats a command prints: anything else is a usage error (exit 2,
 * with the allowed values named) instead of being accepted and ignored.
 */
export function outputOption(formats: readonly string[], defaultView = formats[0] ?? ''): Option {
  return new Option('-o, --output <format>', `output format (default: ${defaultView})`).choices([...formats]);
}
