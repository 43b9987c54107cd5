/** EMBEDDED: the app has an Activity, and with it a PRIMARY_ENTRY_POINT command. */
const EMBEDDED_FLAG = 1 << 17;

/** Whether an application with these flags must have its `Launch` entry point command (an EMBEDDED app). */
export function needsEntryPoint(flags: number): boolean {
  return (flags & EMBEDDED_FLAG) !== 0;
}
