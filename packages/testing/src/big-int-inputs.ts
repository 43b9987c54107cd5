/**
 * Runs `run` with the global `BigInt` watched and answers the length of the longest text
 * converted meanwhile (0 if none). A validator that refuses a megabyte of digits "before any
 * BigInt work" shows it here exactly, where a CPU-time bound would depend on how busy the
 * machine is.
 */
export async function longestBigIntText(run: () => unknown): Promise<number> {
  const original = globalThis.BigInt;
  let longest = 0;
  globalThis.BigInt = new Proxy(original, {
    apply(target, thisArg, args: unknown[]) {
      const [value] = args;
      if (typeof value === 'string') longest = Math.max(longest, value.length);
      return Reflect.apply(target, thisArg, args);
    },
  });
  try {
    await run();
  } finally {
    globalThis.BigInt = original;
  }
  return longest;
}
