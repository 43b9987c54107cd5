import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import express from 'express';
import { loadCommandRegistryProto } from '@acs/protos';
import type { commandRegistry } from '@acs/protos';
import { InvalidFormBodyError } from '@acs/discord-errors';
import {
  callUnary,
  CLIENT_CHANNEL_OPTIONS,
  createGrpcServer,
  createLogger,
  recordHttpMetrics,
  startTelemetry,
  traceFields,
  type GrpcServer,
  type Telemetry,
} from '../src';

const proto = loadCommandRegistryProto().acs.command_registry.v1;
const logger = createLogger('test', 'silent');
const SERVICE = 'acs.command_registry.v1.CommandRegistryService';

/** The sample lines of `name` in Prometheus text whose labels include every one of `labels`. */
function samples(text: string, name: string, labels: Record<string, string>): number[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
}

describe('metrics at METRICS_PORT/metrics', () => {
  let telemetry: Telemetry;
  let metricsUrl: string;
  let server: GrpcServer;
  let client: commandRegistry.CommandRegistryServiceClient;
  let http: ReturnType<ReturnType<typeof express>['listen']>;
  let apiUrl: string;

  beforeAll(async () => {
    telemetry = startTelemetry({ serviceName: 'test', metricsPort: '0', metricsHost: '127.0.0.1' });
    const { metrics } = await telemetry.listening();
    expect(metrics).toBeGreaterThan(0);
    metricsUrl = `http://127.0.0.1:${metrics}/metrics`;

    server = createGrpcServer({
      logger,
      isReady: async () => true,
      services: [
        {
          name: SERVICE,
          definition: proto.CommandRegistryService.service,
          handlers: {
            GetCommand: async (req: commandRegistry.GetCommandRequest__Output) => {
              if (req.command_id === 'invalid')
                throw new InvalidFormBodyError({ name: { _errors: [{ code: 'X', message: 'bad' }] } });
              return { command_json: '{}' };
            },
          },
        },
      ],
    });
    const port = await server.listen('127.0.0.1:0');
    client = new proto.CommandRegistryService(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
      CLIENT_CHANNEL_OPTIONS,
    );

    const app = express();
    app.use(recordHttpMetrics());
    app.get('/api/v10/applications/:application_id/commands', (_req, res) => void res.json([]));
    app.get('/boom/:id', (_req, res) => void res.status(503).json({}));
    app.use((_req: express.Request, res: express.Response) => void res.status(404).json({}));
    await new Promise<void>((resolve) => (http = app.listen(0, '127.0.0.1', () => resolve())));
    apiUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    client?.close();
    await server?.drain();
    http?.close();
    await telemetry?.shutdown();
  });

  it('counts gRPC calls on both sides by service, method and status code', async () => {
    const request = { application_id: '1', guild_id: '', command_id: '42' };
    await callUnary(client, client.GetCommand, request);
    await callUnary(client, client.GetCommand, request);
    await callUnary(client, client.GetCommand, { ...request, command_id: 'invalid' }).catch(() => undefined);

    const text = await (await fetch(metricsUrl)).text();
    const rpc = { rpc_system: 'grpc', rpc_service: SERVICE, rpc_method: 'GetCommand' };
    expect(samples(text, 'rpc_server_duration_count', { ...rpc, rpc_grpc_status_code: '0' })).toEqual([2]);
    expect(samples(text, 'rpc_server_duration_count', { ...rpc, rpc_grpc_status_code: '3' })).toEqual([1]);
    expect(samples(text, 'rpc_client_duration_count', { ...rpc, rpc_grpc_status_code: '0' })).toEqual([2]);
    expect(samples(text, 'rpc_client_duration_count', { ...rpc, rpc_grpc_status_code: '3' })).toEqual([1]);
    expect(text).toMatch(/rpc_server_duration_bucket\{[^}]*le="0.005"/);
  });

  it('counts HTTP requests by route pattern, method and status class, never by raw path', async () => {
    await fetch(`${apiUrl}/api/v10/applications/111/commands`);
    await fetch(`${apiUrl}/api/v10/applications/222/commands`);
    await fetch(`${apiUrl}/boom/333`);
    await fetch(`${apiUrl}/nowhere/444`);

    const text = await (await fetch(metricsUrl)).text();
    const name = 'http_server_request_duration_count';
    expect(
      samples(text, name, {
        http_request_method: 'GET',
        http_route: '/api/v10/applications/:application_id/commands',
        http_response_status_class: '2xx',
      }),
    ).toEqual([2]);
    expect(samples(text, name, { http_route: '/boom/:id', http_response_status_class: '5xx' })).toEqual([1]);
    // No route matched: counted as a 4xx without a route label.
    expect(
      samples(text, name, { http_response_status_class: '4xx' }).length +
        samples(text, name, { http_response_status_code: '404' }).length,
    ).toBe(2);
    expect(text).not.toMatch(/applications\/\d|boom\/\d|nowhere/);
    expect(text).toMatch(/target_info\{[^}]*service_name="test"/);
  });

  it('serves nothing but /metrics', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });
});

describe('traceFields (the log mixin)', () => {
  it('gives the active span’s trace and span ids, and nothing outside a span', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      expect(traceFields()).toEqual({});
      const spanContext = {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: 1,
      };
      const fields = context.with(trace.setSpanContext(context.active(), spanContext), () => traceFields());
      expect(fields).toEqual({ trace_id: spanContext.traceId, span_id: spanContext.spanId });
    } finally {
      context.disable();
    }
  });

  it('rejects a METRICS_PORT that is not a port', () => {
    expect(() => startTelemetry({ serviceName: 'test', metricsPort: 'abc' })).toThrow(/METRICS_PORT/);
  });
});
