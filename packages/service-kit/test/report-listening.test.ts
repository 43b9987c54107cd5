import { LISTENING_MESSAGE, reportListening } from '../src';

/** A process with (or without) an IPC channel, as `reportListening` sees it. */
function processWith(ipc: boolean) {
  const sent: unknown[] = [];
  let unrefs = 0;
  const proc = {
    send: ipc ? (message: unknown) => sent.push(message) : undefined,
    channel: ipc ? { unref: () => (unrefs += 1) } : undefined,
  } as unknown as NodeJS.Process;
  return { proc, sent, unrefs: () => unrefs };
}

it('tells the parent the bound ports, and lets the channel not hold the process open', () => {
  const child = processWith(true);
  reportListening({ grpc: 50051, gateway: 43210 }, child.proc);
  expect(child.sent).toEqual([{ type: LISTENING_MESSAGE, listeners: { grpc: 50051, gateway: 43210 } }]);
  expect(child.unrefs()).toBe(1);
});

it('does nothing without an IPC channel (Kubernetes, Docker, node dist/main.js)', () => {
  const alone = processWith(false);
  expect(() => reportListening({ http: 8080 }, alone.proc)).not.toThrow();
  expect(alone.sent).toEqual([]);
});
