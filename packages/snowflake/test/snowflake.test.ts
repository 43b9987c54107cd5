import { checkSnowflake, createSnowflakeGenerator, isSnowflake, snowflakeTimestamp } from '../src';

describe('snowflakes', () => {
  it('encodes time, worker and process, and increments within a millisecond', () => {
    const gen = createSnowflakeGenerator({ workerId: 3, processId: 7, now: () => 1700000000000 });
    const a = BigInt(gen.next());
    const b = BigInt(gen.next());
    expect(b - a).toBe(1n);
    expect((a & 0x3e0000n) >> 17n).toBe(3n);
    expect((a & 0x1f000n) >> 12n).toBe(7n);
    expect(snowflakeTimestamp(a.toString())).toBe(1700000000000);
  });

  it('produces 17-19 digit ids that @discordjs/rest recognises as major parameters', () => {
    const id = createSnowflakeGenerator({ workerId: 0, processId: 0 }).next();
    expect(id).toMatch(/^\d{17,19}$/);
  });

  it('never repeats across 10,000 ids generated in the same millisecond', () => {
    const gen = createSnowflakeGenerator({ workerId: 1, processId: 1, now: () => 1700000000000 });
    const ids = new Set(Array.from({ length: 10000 }, () => gen.next()));
    expect(ids.size).toBe(10000);
  });

  it('recognises valid and invalid snowflakes', () => {
    expect(isSnowflake('1234567890123456789')).toBe(true);
    expect(isSnowflake('0')).toBe(true);
    expect(isSnowflake('18446744073709551616')).toBe(false);
    expect(isSnowflake('01')).toBe(false);
    expect(isSnowflake('-5')).toBe(false);
    expect(isSnowflake('abc')).toBe(false);
    expect(isSnowflake('')).toBe(false);
  });

  it('stops at 2^63 - 1, the largest id a signed bigint column holds', () => {
    expect(isSnowflake('9223372036854775807')).toBe(true);
    expect(checkSnowflake('9223372036854775808')).toBe('too_large');
    expect(checkSnowflake('18446744073709551615')).toBe('too_large');
    expect(checkSnowflake('99999999999999999999999')).toBe('too_large');
    expect(checkSnowflake('999999999999999999')).toBe('valid');
    expect(checkSnowflake('1e3')).toBe('malformed');
    expect(checkSnowflake('')).toBe('malformed');
  });

  it('classifies a megabyte of digits in one cheap pass', () => {
    const digits = '9'.repeat(1_000_000);
    const started = process.cpuUsage();
    expect(checkSnowflake(digits)).toBe('too_large');
    expect(checkSnowflake(`${digits}x`)).toBe('malformed');
    const used = process.cpuUsage(started);
    // CPU time (a busy machine does not count); BigInt of these digits alone takes 100-200 ms.
    expect((used.user + used.system) / 1000).toBeLessThan(50);
  });

  it('rejects worker ids outside five bits', () => {
    expect(() => createSnowflakeGenerator({ workerId: 32, processId: 0 })).toThrow(RangeError);
  });
});
