import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { Close, GATEWAY_VERSION, MAX_PAYLOAD_BYTES } from '../../domain/gateway-codes';
import { clientAddress, type TrustProxy } from './compile-trust-proxy';
import { ConnectionsPerAddress } from './connections-per-address';
import { GatewayConnection, type ConnectionContext } from './gateway-connection';

/** The gateway's listening server. */
export interface GatewayServer {
  port: number;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

/** Where and how the gateway listens. */
export interface GatewayServerOptions {
  host: string;
  port: number;
  /** Open sockets per client address; more are refused with HTTP 429 (0: no cap). */
  maxConnectionsPerAddress: number;
  /** Which hops may name the client in `X-Forwarded-For`. */
  trustProxy: TrustProxy;
}

/**
 * Listens for gateway WebSockets. The query names the version (10; others close with
 * 4012), the encoding (json; etf closes with 4002) and optionally `compress=zlib-stream`.
 * An upgrade from an address that already holds `maxConnectionsPerAddress` sockets on
 * this replica is answered 429 before any WebSocket exists (Discord documents no close
 * code for this; a refused handshake costs nothing, and clients retry it with backoff).
 */
export async function startGatewayServer(
  context: ConnectionContext,
  options: GatewayServerOptions,
): Promise<GatewayServer> {
  const http: Server = createServer((_req, res) => {
    res
      .writeHead(426, { 'content-type': 'text/plain' })
      .end('WebSocket only: connect with ?v=10&encoding=json\n');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES * 4 });
  const perAddress = new ConnectionsPerAddress(options.maxConnectionsPerAddress);
  http.on('upgrade', (request, socket: Duplex, head: Buffer) => {
    const address = clientAddress(request, options.trustProxy);
    if (!perAddress.tryOpen(address)) {
      context.logger.debug({ address }, 'gateway upgrade refused: too many sockets from this address');
      return refuseUpgrade(socket, 429, 'Too many gateway connections from this address.\n');
    }
    // The TCP socket ends however the handshake or the WebSocket ends.
    socket.once('close', () => perAddress.close(address));
    wss.handleUpgrade(request, socket, head, (ws) => {
      const query = new URL(request.url ?? '/', 'http://gateway').searchParams;
      const version = query.get('v');
      const connection = new GatewayConnection(ws, context, {
        compress: query.get('compress') === 'zlib-stream',
      });
      if (version !== null && version !== String(GATEWAY_VERSION)) connection.end(Close.INVALID_API_VERSION);
      else if ((query.get('encoding') ?? 'json') !== 'json') connection.end(Close.DECODE_ERROR);
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port, options.host, resolve));
  const address = http.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.close(Close.UNKNOWN_ERROR.code, 'Server restarting.');
        wss.close(() => http.close(() => resolve()));
        http.closeAllConnections();
      }),
  };
}

/** Answers an upgrade request with a plain HTTP error and closes the socket. */
function refuseUpgrade(socket: Duplex, status: number, body: string): void {
  // Node removed its own error listener when it handed the socket over.
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
