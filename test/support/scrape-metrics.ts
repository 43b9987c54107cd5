import type { TestStack } from './start-test-stack';

/** What separates the texts of a service's replicas in what `scrapeMetrics` returns. */
const PROCESS_HEADER = '# acs process ';

/**
 * A service's Prometheus text, scraped from the metrics port it reported (the stack must
 * run with `ACS_METRICS: '1'`). `service` is a process (`oauth`, `oauth#2`) or, with
 * replicas, a service whose replicas' texts are returned one after the other, each after a
 * `# acs process <name>` comment line (`metricSample` adds their samples up).
 */
export async function scrapeMetrics(stack: TestStack, service: string): Promise<string> {
  const exact = stack.processes.filter((p) => p.name === service);
  const processes =
    exact.length > 0 ? exact : stack.processes.filter((p) => p.name.startsWith(`${service}#`));
  if (processes.length === 0) throw new Error(`no process ${service} in this stack`);
  const texts = await Promise.all(
    processes.map(async (p) => {
      const port = p.listeningPorts?.metrics;
      if (typeof port !== 'number')
        throw new Error(`${p.name} reported no metrics port (ACS_METRICS unset?)`);
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      if (response.status !== 200) throw new Error(`${p.name}'s /metrics answered ${response.status}`);
      return `${PROCESS_HEADER}${p.name}\n${await response.text()}`;
    }),
  );
  return texts.join('\n');
}

/**
 * The value of the first sample of `name` (`http_server_request_duration_count`) whose
 * labels include every one of `labels`, added up over the replicas' texts when
 * `scrapeMetrics` returned several; undefined when there is none.
 */
export function metricSample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const values = text.split(`\n${PROCESS_HEADER}`).flatMap((processText) => {
    const line = processText
      .split('\n')
      .find(
        (l) =>
          (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) &&
          Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
      );
    return line === undefined ? [] : [Number(line.slice(line.lastIndexOf(' ') + 1))];
  });
  return values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0);
}
