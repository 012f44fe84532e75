import type { StatusCause } from './status.js';

/**
 * The causes of apimachinery's field.ErrorList (pkg/util/validation/field/errors.go), worded as the real
 * Status messages print them: strings quoted, numbers bare, supported values quoted and listed.
 */
function shown(v: string | number): string {
  return typeof v === 'number' ? String(v) : JSON.stringify(v);
}

export const fieldErrors = {
  required(field: string): StatusCause {
    return { reason: 'FieldValueRequired', field, message: 'Required value' };
  },
  invalid(field: string, value: string | number, detail: string): StatusCause {
    return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${shown(value)}: ${detail}` };
  },
  notSupported(field: string, value: string, supported: readonly string[]): StatusCause {
    const list = supported.map((s) => JSON.stringify(s)).join(', ');
    return {
      reason: 'FieldValueNotSupported',
      field,
      message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${list}`,
    };
  },
  duplicate(field: string, value: string): StatusCause {
    return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${JSON.stringify(value)}` };
  },
};
