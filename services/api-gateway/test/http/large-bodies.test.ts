import { createServer, request } from 'node:http';
import express from 'express';
import { FairWorkQueue } from '../../src/http/fair-work-queue';
import { findLongNumberText } from '../../src/http/find-long-number-text';
import { PacedTurns, TurnTooFarError } from '../../src/http/paced-turns';
import { readJsonBody } from '../../src/http/read-json-body';

// The pieces that keep one client's megabyte bodies from slowing everyone else down.

describe('findLongNumberText', () => {
  const find = (json: string, max = 16) => findLongNumberText(Buffer.from(json), max);

  it('names the path of a decimal integer as text longer than the limit', () => {
    expect(find('{"name":"ok","permissions":"99999999999999999"}')).toEqual(['permissions']);
    expect(find('[{"a":1},{"options":[{"x":"y"},{"id":"-12345678901234567"}]}]')).toEqual([
      1,
      'options',
      1,
      'id',
    ]);
    expect(find('"99999999999999999999"')).toEqual([]);
    expect(find('{"a":{"b":"1"},"c":["2","99999999999999999999"]}')).toEqual(['c', 1]);
  });

  it('names the object holding a key that is such a number', () => {
    expect(find('{"a":{"99999999999999999999":1}}')).toEqual(['a']);
  });

  it('passes long text that is no number, such as an image data URI', () => {
    expect(
      find('{"icon":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4"}'),
    ).toBeUndefined();
    expect(find('{"a":"99999999999999999999x"}')).toBeUndefined();
  });

  it('reads escaped quotes and keys with escapes', () => {
    expect(find('{"a\\"b":"\\"\\"\\"","c\\"d":"99999999999999999999"}')).toEqual(['c"d']);
  });

  it('finds nothing in bodies within the limit, or malformed ones', () => {
    expect(find('{"name":"ok","options":[1,2,3],"n":12345678901234567890}')).toBeUndefined();
    expect(find('{"name":"99999999999999999999')).toBeUndefined();
  });

  it('costs a scan, not a decode, on a megabyte of digits', () => {
    const body = Buffer.from(JSON.stringify({ default_member_permissions: '9'.repeat(1_000_000) }));
    const started = process.cpuUsage();
    expect(findLongNumberText(body, 8192)).toEqual(['default_member_permissions']);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(30);
  });
});

describe('FairWorkQueue', () => {
  it('runs one job per turn of the event loop, taking turns between clients', async () => {
    const queue = new FairWorkQueue();
    const order: string[] = [];
    const runs = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((job) =>
      queue.run(job[0] ?? '', () => {
        order.push(job);
        return job;
      }),
    );
    // Something that arrives meanwhile (an I/O callback's work) runs between two jobs.
    setImmediate(() => order.push('other'));
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c1']);
    expect(order).toEqual(['a1', 'other', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(queue.size).toBe(0);
  });

  it('rejects with what a job threw', async () => {
    await expect(
      new FairWorkQueue().run('a', () => {
        throw new Error('bad body');
      }),
    ).rejects.toThrow('bad body');
  });
});

describe('PacedTurns', () => {
  it('gives a key one turn at a time, paced by the bytes its turns carried, and other keys theirs at once', async () => {
    // On Jest's clock (performance.now and setTimeout), so a busy machine cannot move the edges.
    jest.useFakeTimers();
    try {
      const turns = new PacedTurns(1000); // 1000 bytes a second: 50 bytes pace the next turn by 50 ms
      const first = await turns.take('a');
      let secondStarted = false;
      const second = turns.take('a').then((end) => {
        secondStarted = true;
        return end;
      });
      const other = await turns.take('b'); // not held behind a's turns
      other(1);
      await jest.advanceTimersByTimeAsync(20);
      expect(secondStarted).toBe(false); // a's second turn waits for its first to end
      first(50);
      await jest.advanceTimersByTimeAsync(45);
      expect(secondStarted).toBe(false);
      await jest.advanceTimersByTimeAsync(5);
      expect(secondStarted).toBe(true);
      (await second)(0);
      await jest.advanceTimersByTimeAsync(60);
      expect(turns.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a turn that could not start within the wait allowed, saying when to come back', async () => {
    const turns = new PacedTurns(1000, 100); // 1000 bytes a second, at most 100 ms of waiting
    const first = await turns.take('a', 50); // the next turn is 50 ms away once this one ends
    const second = turns.take('a', 60);
    await expect(turns.take('a', 10)).rejects.toEqual(expect.any(TurnTooFarError));
    await turns.take('a', 10).catch((error: TurnTooFarError) => {
      expect(error.retryAfterMs).toBeGreaterThan(100);
    });
    expect(await turns.take('b', 1000).then((end) => (end(0), 'b served'))).toBe('b served');
    first(50);
    (await second)(60);
  });

  it('ignores a turn ended twice', async () => {
    const turns = new PacedTurns(1e9);
    const end = await turns.take('a');
    end(0);
    end(0);
    const again = await turns.take('a');
    const third = turns.take('a');
    let thirdStarted = false;
    void third.then(() => (thirdStarted = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdStarted).toBe(false);
    again(0);
    (await third)(0);
  });
});

describe('readJsonBody with large bodies', () => {
  it('serves a client again after one of its large requests gave up while waiting for its turn', async () => {
    const app = express();
    app.post('/json', ...readJsonBody(1024 * 1024, 1e9), (_req, res) => {
      res.status(200).end();
    });
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as { port: number }).port;
    const body = Buffer.from(JSON.stringify({ a: 'x'.repeat(100_000) }));
    const post = () =>
      request({
        host: '127.0.0.1',
        port,
        path: '/json',
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
      });
    const answered = (req: ReturnType<typeof post>) =>
      new Promise<number>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
    try {
      // The first holds the turn while its body is incomplete; the second waits, then leaves.
      const first = post();
      const firstAnswer = answered(first);
      first.write(body.subarray(0, 1000));
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Headers only: nothing holds its socket back, so its leaving is seen at once.
      const second = post();
      second.on('error', () => undefined);
      second.flushHeaders();
      await new Promise((resolve) => setTimeout(resolve, 50));
      second.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      first.end(body.subarray(1000));
      expect(await firstAnswer).toBe(200);
      const third = post();
      const thirdAnswer = answered(third);
      third.end(body);
      expect(await thirdAnswer).toBe(200);
    } finally {
      server.close();
    }
  });
});
