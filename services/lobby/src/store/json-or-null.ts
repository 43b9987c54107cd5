/** A metadata value as a jsonb parameter. */
export function jsonOrNull(value: Record<string, string> | null | undefined): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
