/**
 * Finds, in the raw bytes of a JSON body, a string literal that is a decimal integer of
 * more than `maxDigits` characters, and returns its path (the object holding it, for a
 * key), or undefined when there is none. Quotes are found with Buffer#indexOf (memchr),
 * so a body made of one huge string costs next to nothing, whatever its size; everything
 * else is one pass over the bytes. Malformed JSON may yield a wrong path or none:
 * JSON.parse judges it afterwards.
 */
export function findLongNumberText(bytes: Buffer, maxDigits: number): (string | number)[] | undefined {
  // One frame per open container: the member key (or item index) being read, and whether
  // the next string of an object is a key.
  const frames: { key: string | number; isObject: boolean; expectsKey: boolean }[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    const top = frames[frames.length - 1];
    if (byte === 0x22) {
      const end = closingQuote(bytes, i);
      if (end < 0) return undefined;
      const isKey = top?.isObject === true && top.expectsKey;
      if (end - i - 1 > maxDigits && isIntegerText(bytes, i + 1, end)) {
        return (isKey ? frames.slice(0, -1) : frames).map((f) => f.key);
      }
      if (isKey) top.key = decodeKey(bytes, i, end);
      i = end;
    } else if (byte === 0x7b) frames.push({ key: '', isObject: true, expectsKey: true });
    else if (byte === 0x5b) frames.push({ key: 0, isObject: false, expectsKey: false });
    else if (byte === 0x7d || byte === 0x5d) frames.pop();
    else if (byte === 0x3a && top) top.expectsKey = false;
    else if (byte === 0x2c && top) {
      if (top.isObject) top.expectsKey = true;
      else top.key = (top.key as number) + 1;
    }
  }
  return undefined;
}

/** The index of the quote closing the string opened at `start`, or -1 (an odd run of backslashes escapes a quote). */
function closingQuote(bytes: Buffer, start: number): number {
  let quote = bytes.indexOf(0x22, start + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = bytes.indexOf(0x22, quote + 1);
  }
  return -1;
}

/** Whether bytes[start, end) are an optional minus and decimal digits. */
function isIntegerText(bytes: Buffer, start: number, end: number): boolean {
  const first = bytes[start] === 0x2d ? start + 1 : start;
  if (first >= end) return false;
  for (let i = first; i < end; i++) {
    const byte = bytes[i] ?? 0;
    if (byte < 0x30 || byte > 0x39) return false;
  }
  return true;
}

function decodeKey(bytes: Buffer, start: number, end: number): string {
  try {
    return JSON.parse(bytes.toString('utf8', start, end + 1)) as string;
  } catch {
    return '';
  }
}
