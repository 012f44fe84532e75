/**
 * Registry keys created volatile (`RegCreateKeyEx` with `REG_OPTION_VOLATILE`, .NET
 * `RegistryOptions.Volatile`): held in memory only, so a restart or a power loss removes them with their
 * values. Keys are named under HKLM, case-insensitively.
 */
export class VolatileRegistry {
  private readonly keys = new Map<string, Map<string, string>>();

  /** `CreateSubKey(key, ..., Volatile)` then `GetValue(name)`; undefined when absent. */
  get(key: string, name: string): string | undefined {
    return this.keys.get(key.toLowerCase())?.get(name.toLowerCase());
  }

  set(key: string, name: string, value: string): void {
    const k = key.toLowerCase();
    const values = this.keys.get(k) ?? new Map<string, string>();
    values.set(name.toLowerCase(), value);
    this.keys.set(k, values);
  }

  /** Power off: memory is gone. */
  clear(): void {
    this.keys.clear();
  }
}
