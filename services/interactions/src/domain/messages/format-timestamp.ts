/**
 * A time as Discord writes message timestamps: ISO 8601 in UTC with a "+00:00" offset and
 * microseconds, e.g. "2026-11-24T07:20:00.123000+00:00"; a whole second has no fraction,
 * "2026-11-24T07:20:00+00:00" (Python's `isoformat`, which the API's answers come from).
 */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  const seconds = iso.slice(0, 19);
  const millis = date.getUTCMilliseconds();
  return millis === 0 ? `${seconds}+00:00` : `${seconds}.${String(millis).padStart(3, '0')}000+00:00`;
}
