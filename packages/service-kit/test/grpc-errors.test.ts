import { DiscordError, InvalidFormBodyError, type ErrorTree } from '@acs/discord-errors';
import { boundedErrorBody, fromGrpcError, MAX_ERROR_BODY_BYTES, toGrpcError } from '../src/grpc-errors';
import type { ServiceError } from '@grpc/grpc-js';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const leaf = (message: string) => ({ code: 'X', message });

describe('boundedErrorBody', () => {
  it('leaves a body that fits as it is', () => {
    const body = new InvalidFormBodyError({ name: { _errors: [leaf('m'.repeat(5000))] } }).toBody();
    expect(boundedErrorBody(body)).toBe(body);
  });

  it('cuts long messages first, keeping every error', () => {
    const errors: ErrorTree = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [String(i), { _errors: [leaf('é'.repeat(10_000))] }]),
    );
    const bounded = boundedErrorBody(new InvalidFormBodyError(errors).toBody());
    expect(Object.keys(bounded.errors ?? {})).toHaveLength(20);
    const message = (bounded.errors?.['7'] as ErrorTree)._errors?.[0]?.message ?? '';
    expect(message).toBe(`${'é'.repeat(197)}...`);
    expect(size(bounded)).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES);
  });

  it('keeps the first errors that fit, in order, nested or in one long list', () => {
    const nested: ErrorTree = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [
        String(i),
        { options: { '0': { name: { _errors: [leaf('bad')] } } } },
      ]),
    );
    const list: ErrorTree = { name: { _errors: Array.from({ length: 10_000 }, (_, i) => leaf(`bad ${i}`)) } };
    for (const errors of [nested, list]) {
      const bounded = boundedErrorBody(new InvalidFormBodyError(errors).toBody());
      expect(bounded).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
      expect(size(bounded)).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES);
      expect(size(bounded)).toBeGreaterThan(MAX_ERROR_BODY_BYTES / 2);
    }
    const kept = Object.keys(boundedErrorBody(new InvalidFormBodyError(nested).toBody()).errors ?? {});
    expect(kept).toEqual(kept.map((_, i) => String(i)));
    const leaves = (boundedErrorBody(new InvalidFormBodyError(list).toBody()).errors?.name as ErrorTree)
      ._errors;
    expect(leaves?.[0]).toEqual(leaf('bad 0'));
  });

  it('rebuilds a tree whose fields are named like Object’s own keys without touching any prototype', () => {
    const errors = JSON.parse(
      `{"__proto__":{"_errors":[{"code":"X","message":"${'p'.repeat(40_000)}"}]},"constructor":{"_errors":[{"code":"Y","message":"c"}]}}`,
    ) as ErrorTree;
    const bounded = boundedErrorBody(new InvalidFormBodyError(errors).toBody());
    expect(JSON.parse(JSON.stringify(bounded.errors))).toEqual(
      JSON.parse(
        `{"__proto__":{"_errors":[{"code":"X","message":"${'p'.repeat(197)}..."}]},"constructor":{"_errors":[{"code":"Y","message":"c"}]}}`,
      ),
    );
    expect(({} as Record<string, unknown>)._errors).toBeUndefined();
  });

  it('keeps the status, code and message through toGrpcError and fromGrpcError', () => {
    const big = new DiscordError(400, 50035, 'Invalid Form Body', {
      name: { _errors: Array.from({ length: 10_000 }, () => leaf('x'.repeat(50))) },
    });
    const wire = toGrpcError(big);
    const value = wire.metadata?.get('grpc-status-details-bin')[0] as Buffer;
    // Base64 in the trailers: well under the caller's 64 KiB header list.
    expect(Math.ceil(value.length / 3) * 4).toBeLessThan(48 * 1024);
    const back = fromGrpcError(Object.assign(new Error('x'), wire) as ServiceError);
    expect(back?.httpStatus).toBe(400);
    expect(back?.code).toBe(50035);
  });

  it('carries an error’s own top-level fields (530010’s) through toGrpcError and fromGrpcError', () => {
    const fields = {
      user_id: '5',
      provider_type: 'DISCORD_BOT',
      provider_id: null,
      provider_issued_user_id: 'p',
    };
    const error = new DiscordError(400, 530010, 'User account is non-provisional', undefined, fields);
    expect(error.toBody()).toEqual({ ...fields, code: 530010, message: 'User account is non-provisional' });
    const back = fromGrpcError(Object.assign(new Error('x'), toGrpcError(error)) as ServiceError);
    expect(back?.toBody()).toEqual(error.toBody());
    expect(back?.fields).toEqual(fields);
    // An error without fields comes back without any.
    const plain = fromGrpcError(
      Object.assign(
        new Error('x'),
        toGrpcError(new DiscordError(404, 10013, 'Unknown User')),
      ) as ServiceError,
    );
    expect(plain?.fields).toBeUndefined();
    expect(plain?.toBody()).toEqual({ code: 10013, message: 'Unknown User' });
  });
});
