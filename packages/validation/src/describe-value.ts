/** A value as quoted in error messages, kept short. */
export function describeValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
