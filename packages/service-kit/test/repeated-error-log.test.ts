import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { loadCommandRegistryProto } from '@acs/protos';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createGrpcServer, RepeatedErrorLog } from '../src';

/** A log line as pino writes it. */
interface LogLine {
  msg: string;
  level: number;
  repeated?: number;
  err?: { type: string; message: string; stack: string };
  [field: string]: unknown;
}

/** A pino logger whose lines land in `lines`, parsed. */
function capture(): { logger: pino.Logger; lines: LogLine[]; bytes: () => number } {
  const raw: string[] = [];
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as LogLine);
    },
  } as pino.DestinationStream);
  return { logger, lines, bytes: () => raw.reduce((n, line) => n + line.length, 0) };
}

/** The same error, thrown from one place, with a varying id in its message. */
function failure(id: number): Error {
  return new Error(`lookup of ${id} failed`);
}

describe('RepeatedErrorLog', () => {
  it('writes the first error of a kind whole, then one counted line per interval', () => {
    const { logger, lines } = capture();
    const log = new RepeatedErrorLog(logger, { intervalMs: 3_600_000 });
    for (let i = 0; i < 1_000; i++) log.report('error', failure(i), { path: '/x' }, 'unhandled error');

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'unhandled error', path: '/x', err: { type: 'Error' } });
    expect(lines[0]!.err!.stack).toContain('lookup of 0 failed');
    expect(lines[0]!.err!.stack).toMatch(/\n\s+at /);

    log.flush();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ msg: 'unhandled error (repeated)', repeated: 999, path: '/x' });
    expect(lines[1]!.err).toBeUndefined();

    // A quiet interval: nothing to say, and the kind is forgotten.
    log.flush();
    expect(lines).toHaveLength(2);
    log.report('error', failure(7), { path: '/x' }, 'unhandled error');
    expect(lines).toHaveLength(3);
    expect(lines[2]!.err!.stack).toContain('lookup of 7 failed');
  });

  it('tells kinds apart by log message, class, message shape and origin', () => {
    const { logger, lines } = capture();
    const log = new RepeatedErrorLog(logger, { intervalMs: 3_600_000 });
    log.report('error', failure(1), {}, 'unhandled error');
    log.report('error', failure(2), {}, 'another place');
    log.report('error', new TypeError('lookup of 3 failed'), {}, 'unhandled error');
    log.report('error', new Error('something else'), {}, 'unhandled error');
    log.report('warn', 'not an error', {}, 'unhandled error');
    expect(lines.map((line) => line.msg)).toEqual([
      'unhandled error',
      'another place',
      'unhandled error',
      'unhandled error',
      'unhandled error',
    ]);
    expect(lines[4]!.level).toBe(40);
  });

  it('stays bounded with errors of endless different kinds, and with huge messages', () => {
    const { logger, lines, bytes } = capture();
    const log = new RepeatedErrorLog(logger, { intervalMs: 3_600_000, maxSignatures: 10 });
    // 100 kinds (the message's start differs), each 10 times, each message 100 KB long.
    for (let i = 0; i < 1_000; i++) {
      log.report('error', new Error(`${'k'.repeat(i % 100)}|${'x'.repeat(100_000)}`), {}, 'e');
    }
    log.flush();
    const whole = lines.filter((line) => line.err !== undefined);
    const counted = lines.filter((line) => line.err === undefined);
    expect(whole).toHaveLength(10);
    expect(counted.map((line) => line.repeated)).toEqual([...Array<number>(10).fill(9), 900]);
    expect(bytes()).toBeLessThan(21 * 8_000);
  });

  it('summarizes on its own timer', async () => {
    const { logger, lines } = capture();
    const log = new RepeatedErrorLog(logger, { intervalMs: 50 });
    for (let i = 0; i < 5; i++) log.report('error', failure(i), {}, 'unhandled error');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(lines.map((line) => line.repeated)).toEqual([undefined, 4]);
  });
});

describe('createGrpcServer', () => {
  it('logs a handler’s repeated crash once, not once per call', async () => {
    const { logger, lines } = capture();
    const proto = loadCommandRegistryProto().acs.command_registry.v1;
    const server = createGrpcServer({
      logger,
      isReady: async () => true,
      services: [
        {
          name: 'acs.command_registry.v1.CommandRegistryService',
          definition: proto.CommandRegistryService.service,
          handlers: {
            GetCommand: async () => {
              throw new Error('database exploded');
            },
          },
        },
      ],
    });
    const port = await server.listen('127.0.0.1:0');
    const client = new proto.CommandRegistryService(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      CLIENT_CHANNEL_OPTIONS,
    );
    try {
      for (let i = 0; i < 50; i++) {
        await callUnary(client, client.GetCommand, {
          application_id: '1',
          guild_id: '',
          command_id: '1',
        }).catch(() => undefined);
      }
      const errors = lines.filter((line) => line.level >= 40);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        msg: 'unhandled error in RPC',
        err: { message: 'database exploded' },
      });
    } finally {
      client.close();
      await server.drain();
    }
  });
});
