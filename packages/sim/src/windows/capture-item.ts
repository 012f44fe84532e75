import type { CaptureItem, CaptureRecord } from '@wmco/core/internal';

/** A property as WmcoCapture.ps1 records it: the value (dates ISO, enums by name) and its .NET type. */
export type Typed = readonly [value: unknown, type: string | null];

export const str = (v: string): Typed => [v, 'System.String'];
export const strs = (v: readonly string[]): Typed => [[...v], 'System.String[]'];
export const bool = (v: boolean): Typed => [v, 'System.Boolean'];
export const u32 = (v: number): Typed => [v, 'System.UInt32'];
export const i32 = (v: number): Typed => [v, 'System.Int32'];
export const i64 = (v: number): Typed => [v, 'System.Int64'];
/** DateTime.ToString('o') in UTC: seven fractional digits. */
export const date = (v: Date): Typed => [v.toISOString().replace(/Z$/, '0000Z'), 'System.DateTime'];
export const enumOf = (type: string, v: string): Typed => [v, type];

/** One captured object: its first PowerShell type name and its properties in the script's order. */
export function item(type: string, props: Readonly<Record<string, Typed>>): CaptureItem {
  const value: Record<string, unknown> = {};
  const types: Record<string, string | null> = {};
  for (const [name, [v, t]] of Object.entries(props)) {
    value[name] = v;
    types[name] = v === null ? null : t;
  }
  return { type, value, types };
}

/** A registry value as ConvertTo-WmcoCaptureKey records it. */
export function registryValue(key: string, name: string, kind: string, value: Typed): CaptureItem {
  return item('Microsoft.Win32.RegistryKey value', {
    Key: str(key),
    Name: str(name),
    Kind: enumOf('Microsoft.Win32.RegistryValueKind', kind),
    Value: value,
  });
}

export const record = (name: string, command: string, items: CaptureItem[]): CaptureRecord => ({
  name,
  command,
  items,
  error: null,
});
