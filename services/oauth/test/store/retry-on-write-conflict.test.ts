import { retryOnWriteConflict } from '../../src/store/retry-on-write-conflict';

/** An error as PostgreSQL's driver (`code`) or Prisma (`meta.code`, P2034) reports a write conflict. */
function conflict(kind: 'pg' | 'prisma' | 'message'): Error {
  if (kind === 'pg') return Object.assign(new Error('conflict'), { code: '40001' });
  if (kind === 'prisma') return Object.assign(new Error('Transaction failed'), { code: 'P2034' });
  return new Error('deadlock detected');
}

/** An operation that fails with `failures` in turn, then answers 'done'; it counts its runs. */
function failingWith(failures: Error[]) {
  const run = jest.fn(async () => {
    const next = failures[run.mock.calls.length - 1];
    if (next) throw next;
    return 'done';
  });
  return run;
}

describe('retryOnWriteConflict', () => {
  it('runs a transaction again after a write conflict or a deadlock, and answers what the next run answers', async () => {
    const run = failingWith([conflict('pg'), conflict('prisma'), conflict('message')]);
    await expect(retryOnWriteConflict(run)).resolves.toBe('done');
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('gives up after four runs with the last conflict', async () => {
    const last = conflict('pg');
    const run = failingWith([conflict('pg'), conflict('pg'), conflict('pg'), last, conflict('pg')]);
    await expect(retryOnWriteConflict(run)).rejects.toBe(last);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('throws any other failure at once', async () => {
    const other = Object.assign(new Error('unique violation'), { code: '23505' });
    const run = failingWith([other]);
    await expect(retryOnWriteConflict(run)).rejects.toBe(other);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
