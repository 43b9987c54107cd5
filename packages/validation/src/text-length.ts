/** Length in code points, as the API counts it (a surrogate pair is one; no copy of the text is made). */
export function codePointLength(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = value.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      length -= 1;
      i += 1;
    }
  }
  return length;
}

/**
 * Whether a string is min to max code points long. A code point takes one or two UTF-16
 * units, so text far outside the bounds is judged by its `length` alone, without a scan.
 */
export function isLengthWithin(value: string, min: number, max: number): boolean {
  if (value.length < min || value.length > 2 * max) return false;
  const length = codePointLength(value);
  return length >= min && length <= max;
}
