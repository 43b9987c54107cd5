import { createServer, type Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { Close, GATEWAY_VERSION, MAX_PAYLOAD_BYTES } from '../domain/gateway-codes';
import { GatewayConnection, type ConnectionContext } from './gateway-connection';

/** The gateway's listening server. */
export interface GatewayServer {
  port: number;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

/**
 * Listens for gateway WebSockets on `host:port`. The query names the version (10; others
 * close with 4012), the encoding (json; etf closes with 4002) and optionally
 * `compress=zlib-stream`.
 */
export async function startGatewayServer(
  context: ConnectionContext,
  host: string,
  port: number,
): Promise<GatewayServer> {
  const http: Server = createServer((_req, res) => {
    res
      .writeHead(426, { 'content-type': 'text/plain' })
      .end('WebSocket only: connect with ?v=10&encoding=json\n');
  });
  const wss = new WebSocketServer({ server: http, maxPayload: MAX_PAYLOAD_BYTES * 4 });
  wss.on('connection', (socket, request) => {
    const query = new URL(request.url ?? '/', 'http://gateway').searchParams;
    const version = query.get('v');
    const connection = new GatewayConnection(socket, context, {
      compress: query.get('compress') === 'zlib-stream',
    });
    if (version !== null && version !== String(GATEWAY_VERSION)) connection.end(Close.INVALID_API_VERSION);
    else if ((query.get('encoding') ?? 'json') !== 'json') connection.end(Close.DECODE_ERROR);
  });
  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  const address = http.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.close(Close.UNKNOWN_ERROR.code, 'Server restarting.');
        wss.close(() => http.close(() => resolve()));
        http.closeAllConnections();
      }),
  };
}
