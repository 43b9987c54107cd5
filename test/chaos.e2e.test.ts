import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * The chaos benchmark's short form (bench/chaos-bench.js --short): two replicas of every
 * service on a PostgreSQL and a three-server NATS cluster of the bench's own, one traffic
 * loop of each kind (invocations, command writes, lobby messages with their webhook
 * events), and in turn a SIGKILL of one replica of every service, of the NATS server
 * leading the events stream, and a PostgreSQL restart. Nothing acknowledged may be lost.
 * The bench runs as a process of its own (it owns its servers and kills processes); its
 * report is the last line of its output.
 */

interface ChaosReport {
  traffic: Record<string, { requests: number; acknowledged: number }>;
  faults: { fault: string; requests: number }[];
  crashed: string[];
  lost: Record<string, number>;
  samples: Record<string, unknown[]>;
  expected: { interactions: number; webhook_events: number };
}

function runShortBench(): Promise<{ code: number | null; report?: ChaosReport; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(__dirname, '..', 'bench', 'chaos-bench.js'), '--short', '--json'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const last = stdout.trim().split('\n').pop();
      let report: ChaosReport | undefined;
      try {
        report = last ? (JSON.parse(last) as ChaosReport) : undefined;
      } catch {
        report = undefined;
      }
      resolve({ code, report, stderr });
    });
  });
}

test('nothing acknowledged is lost through a replica kill of every service, a NATS leader kill and a PostgreSQL restart', async () => {
  const { code, report, stderr } = await runShortBench();
  if (!report) throw new Error(`the chaos bench printed no report (exit ${code}):\n${stderr.slice(-4000)}`);
  // Every fault ran, each with traffic flowing through it.
  expect(report.faults.map((f) => f.fault)).toEqual([
    'SIGKILL oauth#1',
    'SIGKILL permissions#1',
    'SIGKILL command-registry#1',
    'SIGKILL interactions#1',
    'SIGKILL lobby#1',
    'SIGKILL dispatcher#1',
    'SIGKILL api-gateway#1',
    'SIGKILL the NATS stream leader',
    'restart PostgreSQL',
  ]);
  for (const fault of report.faults) expect(fault.requests).toBeGreaterThan(0);
  // Each kind of traffic had writes acknowledged, so that "nothing lost" says something.
  for (const kind of ['invocation', 'command write', 'lobby message'])
    expect(report.traffic[kind]?.acknowledged).toBeGreaterThan(0);
  expect(report.expected.interactions).toBeGreaterThan(0);
  expect(report.expected.webhook_events).toBeGreaterThan(0);
  expect(report.crashed).toEqual([]);
  expect({ lost: report.lost, samples: report.samples }).toEqual({
    lost: { interactions: 0, webhook_events: 0, lobby_messages: 0, command_writes: 0 },
    samples: { interactions: [], webhook_events: [], lobby_messages: [], command_writes: [] },
  });
  expect(code).toBe(0);
}, 900_000);
