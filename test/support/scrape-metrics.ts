import type { TestStack } from './start-test-stack';

/**
 * A service's Prometheus text, scraped from the metrics port it reported (the stack must
 * run with `ACS_METRICS: '1'`).
 */
export async function scrapeMetrics(stack: TestStack, service: string): Promise<string> {
  const port = stack.processes.find((p) => p.name === service)?.listeningPorts?.metrics;
  if (typeof port !== 'number') throw new Error(`${service} reported no metrics port (ACS_METRICS unset?)`);
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (response.status !== 200) throw new Error(`${service}'s /metrics answered ${response.status}`);
  return response.text();
}

/**
 * The value of the first sample of `name` (`http_server_request_duration_count`) whose
 * labels include every one of `labels`; undefined when there is none.
 */
export function metricSample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) =>
        (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) &&
        Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
