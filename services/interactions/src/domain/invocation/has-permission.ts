/** Whether a decimal bit set holds `bit`; a malformed set holds nothing. */
export function hasPermission(bits: string, bit: bigint): boolean {
  if (!/^\d{1,30}$/.test(bits)) return false;
  return (BigInt(bits) & bit) === bit;
}
