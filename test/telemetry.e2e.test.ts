import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createDemoWorld,
  metricSample as sample,
  scrapeMetrics as scrape,
  startTestStack,
  type TestStack,
} from './support';

/** One span as the OTLP/HTTP JSON exporter sends it, with its service's name. */
interface ReceivedSpan {
  service: string;
  traceId: string;
  name: string;
  kind: number;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; name: string; kind: number }> }>;
  }>;
}

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, one request is one trace across processes:
 * api-gateway's HTTP server span, its gRPC client span, command-registry's gRPC server
 * span and its PostgreSQL spans share a trace id; and when the request makes an event, the
 * trace goes on through the outbox and NATS to the dispatcher that delivers it.
 */
describe('tracing across HTTP → gRPC → PostgreSQL → outbox → NATS → dispatcher', () => {
  let collector: http.Server;
  const spans: ReceivedSpan[] = [];
  let stack: TestStack;

  beforeAll(async () => {
    collector = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces' && (req.headers['content-type'] ?? '').includes('json')) {
          const payload = JSON.parse(body) as OtlpExport;
          for (const resourceSpans of payload.resourceSpans ?? []) {
            const service =
              resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ??
              '';
            for (const scope of resourceSpans.scopeSpans ?? []) {
              for (const span of scope.spans ?? [])
                spans.push({ service, traceId: span.traceId, name: span.name, kind: span.kind });
            }
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    stack = await startTestStack({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        // Every service serves /metrics on a port it reports (METRICS_PORT=0).
        ACS_METRICS: '1',
      },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    collector?.close();
  });

  it('exports one trace spanning api-gateway and command-registry, down to pg', async () => {
    const world = await createDemoWorld(stack.admin);
    const response = await fetch(`${stack.apiUrl}/api/v10/applications/${world.application.id}/commands`, {
      method: 'POST',
      headers: { Authorization: `Bot ${world.application.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'traced', description: 'Leaves a trace' }),
    });
    expect(response.status).toBe(201);

    const deadline = Date.now() + 15_000;
    let shared: string | undefined;
    while (!shared && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const gatewayTraces = new Set(
        spans
          .filter((s) => s.service === 'api-gateway' && s.name.includes('CreateCommand'))
          .map((s) => s.traceId),
      );
      shared = spans.find(
        (s) =>
          s.service === 'command-registry' &&
          gatewayTraces.has(s.traceId) &&
          /pg|postgres|INSERT|SELECT/i.test(s.name),
      )?.traceId;
    }
    expect(shared).toBeDefined();
    const services = new Set(spans.filter((s) => s.traceId === shared).map((s) => s.service));
    expect([...services].sort()).toEqual(expect.arrayContaining(['api-gateway', 'command-registry']));
  });

  it('continues the trace of a request through its event, to the dispatcher delivering it', async () => {
    const world = await createDemoWorld(stack.admin);
    const reset = await stack.admin('POST', `/admin/applications/${world.application.id}/bot/reset-token`);
    expect(reset.status).toBe(200);

    // oauth writes application.bot_token_reset with the trace of the request; its relay
    // publishes it with traceparent; the dispatcher ends the bot's sessions in a span of it
    // (within its processing span, which ends last).
    const deadline = Date.now() + 15_000;
    let traceId: string | undefined;
    while (!traceId && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const requestTraces = new Set(
        spans
          .filter((s) => s.service === 'api-gateway' && s.name.includes('ResetBotToken'))
          .map((s) => s.traceId),
      );
      traceId = spans.find(
        (s) =>
          s.service === 'dispatcher' &&
          s.name === 'process oauth.application.bot_token_reset' &&
          requestTraces.has(s.traceId),
      )?.traceId;
    }
    expect(traceId).toBeDefined();
    const trace = spans.filter((s) => s.traceId === traceId);
    const names = (service: string) => trace.filter((s) => s.service === service).map((s) => s.name);
    expect(names('api-gateway')).toEqual(expect.arrayContaining([expect.stringContaining('ResetBotToken')]));
    expect(names('oauth')).toEqual(
      expect.arrayContaining([
        expect.stringContaining('ResetBotToken'),
        expect.stringMatching(/^send .*\.oauth\.application\.bot_token_reset$/),
      ]),
    );
    expect(names('dispatcher')).toEqual(
      expect.arrayContaining([
        'process oauth.application.bot_token_reset',
        'deliver oauth.application.bot_token_reset',
      ]),
    );
    // The request's trace id is in api-gateway's log line of the event it made (the cache
    // of the application's credentials dropped), written in the event's processing span.
    // Under ACS_TEST_REPLICAS, in the log of one of the api-gateways.
    const logged = stack.processes
      .filter((p) => p.name.replace(/#\d+$/, '') === 'api-gateway')
      .flatMap((p) => p.lastLines(500))
      .map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; trace_id?: string; span_id?: string };
        } catch {
          return {};
        }
      })
      .find(
        (entry) =>
          entry.msg === 'cached credentials of the application dropped' && entry.trace_id === traceId,
      );
    expect(logged?.span_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('serves RED metrics by route and RPC, and the event pipeline’s lag, at each service’s /metrics', async () => {
    const world = await createDemoWorld(stack.admin);
    expect(
      (await stack.admin('POST', `/admin/applications/${world.application.id}/bot/reset-token`)).status,
    ).toBe(200);
    const route = {
      http_request_method: 'POST',
      http_route: '/admin/applications/:application_id/bot/reset-token',
      http_response_status_class: '2xx',
    };
    const lag = { acs_event_name: 'oauth.application.bot_token_reset' };
    // The dispatcher receives the event a moment after the answer: poll its endpoint.
    const deadline = Date.now() + 15_000;
    let dispatcher = '';
    while (Date.now() < deadline && !sample(dispatcher, 'messaging_consumer_lag_count', lag)) {
      await new Promise((r) => setTimeout(r, 250));
      dispatcher = await scrape(stack, 'dispatcher');
    }
    const gateway = await scrape(stack, 'api-gateway');
    expect(sample(gateway, 'http_server_request_duration_count', route)).toBeGreaterThanOrEqual(1);
    // The route's pattern, never the path with the application's id.
    expect(gateway).not.toContain(world.application.id);
    expect(
      sample(gateway, 'rpc_client_duration_count', {
        rpc_method: 'ResetBotToken',
        rpc_grpc_status_code: '0',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(dispatcher, 'messaging_consumer_lag_count', lag)).toBeGreaterThanOrEqual(1);
    expect(dispatcher).toMatch(
      /messaging_consumer_lag_bucket\{[^}]*acs_event_name="oauth.application.bot_token_reset"[^}]*le="1"\}/,
    );
    // The dispatcher sent the event's gateway dispatch (ending the bot's sessions).
    expect(dispatcher).toMatch(
      /acs_dispatcher_deliveries(_total)?\{[^}]*acs_delivery_channel="gateway",acs_delivery_outcome="sent"\} [1-9]/,
    );
    // ACS's instruments only: the instrumentations' own metrics are dropped.
    expect(gateway).not.toMatch(/^http_server_duration|^http_client_duration|^db_client/m);
    const oauth = await scrape(stack, 'oauth');
    expect(sample(oauth, 'messaging_outbox_lag_count', lag)).toBeGreaterThanOrEqual(1);
    expect(
      sample(oauth, 'rpc_server_duration_count', { rpc_method: 'ResetBotToken', rpc_grpc_status_code: '0' }),
    ).toBeGreaterThanOrEqual(1);
  });
});
