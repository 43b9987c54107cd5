'use strict';
/**
 * The one local entry point in front of N replicas of the edges (`npm start -- --replicas N`):
 * - HTTP: a reverse proxy (http-proxy-3) on the public port, round-robin over the
 *   api-gateways; each answer names the replica that served it in `X-ACS-Replica`;
 * - WebSocket gateway: on the gateway port, each new connection goes to the next dispatcher
 *   (a WebSocket session is one TCP connection, so spreading connections spreads sessions),
 *   except a connection to `/replica/<i>`, which goes to dispatcher i. That is each
 *   dispatcher's READY `resume_gateway_url` (its GATEWAY_RESUME_URL): a session lives in its
 *   dispatcher's memory, so a Resume must reach the same one. When that dispatcher is gone,
 *   the connection goes to another, which answers the Resume with Invalid Session and the
 *   client identifies anew (as after any dispatcher's death).
 * Both add X-Forwarded-For; the edges behind it trust the loopback (TRUST_PROXY) to read it.
 */
const http = require('node:http');
const { createProxyServer } = require('http-proxy-3');

/** The path prefix of a dispatcher's own (resume) URL. */
const REPLICA_PATH = /^\/replica\/(\d+)(?=[/?]|$)/;

/**
 * @typedef {object} EntryPoint
 * @property {{ http: number, gateway: number }} ports  the ports it is bound to
 * @property {() => Promise<void>} close
 */

/**
 * @param {object} options
 * @param {string} options.host  interface to listen on
 * @param {{ http: number, gateway: number }} options.ports  0 lets the OS choose
 * @param {() => Array<number | undefined>} options.httpTargets  each api-gateway replica's port, by
 *   replica (undefined while it does not run)
 * @param {() => Array<number | undefined>} options.gatewayTargets  each dispatcher replica's WebSocket port
 * @param {(line: string) => void} [options.say]
 * @returns {Promise<EntryPoint>}
 */
async function startEntryPoint({ host, ports, httpTargets, gatewayTargets, say = () => undefined }) {
  const proxy = createProxyServer({ xfwd: true, ws: true });
  // Kept-alive connections to the api-gateways: without an agent, http-proxy-3 opens one
  // connection per request and asks for `Connection: close`, which it then passes on to
  // the client too (every request a new TCP connection on both hops).
  const agent = new http.Agent({ keepAlive: true });
  const pickers = { http: roundRobin(), gateway: roundRobin() };

  proxy.on('proxyRes', (proxyRes, req) => {
    proxyRes.headers['x-acs-replica'] = String(/** @type {any} */ (req).acsReplica);
  });
  proxy.on('error', (error, req, res) => {
    const replica = /** @type {any} */ (req).acsReplica;
    say(`entry point: replica ${replica} did not answer ${req.method} ${req.url}: ${error.message}`);
    if (res instanceof http.ServerResponse) {
      if (!res.headersSent) {
        res.writeHead(502, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ code: 0, message: '502: Bad Gateway' }));
      } else res.destroy();
    } else res?.destroy();
  });

  /** Sends `req` to a live replica: round-robin, or the one named (when it runs). */
  const route = (targets, picker, wanted) => {
    const live = targets.flatMap((port, index) => (port ? [{ port, index }] : []));
    if (live.length === 0) return undefined;
    return live.find((t) => t.index === wanted) ?? picker(live);
  };

  const httpServer = http.createServer((req, res) => {
    const target = route(httpTargets(), pickers.http);
    if (!target) {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ code: 0, message: '503: no api-gateway replica is running' }));
    }
    /** @type {any} */ (req).acsReplica = target.index + 1;
    proxy.web(req, res, { target: `http://127.0.0.1:${target.port}`, agent });
  });

  const gatewayServer = http.createServer((req, res) => {
    // Plain HTTP on the gateway port: the dispatcher answers it (426, WebSocket only).
    const target = route(gatewayTargets(), pickers.gateway);
    if (!target) {
      res.writeHead(503);
      return res.end('no dispatcher replica is running\n');
    }
    /** @type {any} */ (req).acsReplica = target.index + 1;
    proxy.web(req, res, { target: `http://127.0.0.1:${target.port}` });
  });
  gatewayServer.on('upgrade', (req, socket, head) => {
    const sticky = REPLICA_PATH.exec(req.url ?? '/');
    const target = route(gatewayTargets(), pickers.gateway, sticky ? Number(sticky[1]) - 1 : undefined);
    if (!target) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    /** @type {any} */ (req).acsReplica = target.index + 1;
    proxy.ws(req, socket, head, { target: `ws://127.0.0.1:${target.port}` });
  });

  const listen = (server, port) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.removeListener('error', reject);
        resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
      });
    });
  const bound = { http: await listen(httpServer, ports.http), gateway: 0 };
  try {
    bound.gateway = await listen(gatewayServer, ports.gateway);
  } catch (error) {
    await new Promise((resolve) => httpServer.close(resolve));
    throw error;
  }

  return {
    ports: bound,
    async close() {
      for (const server of [httpServer, gatewayServer]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      proxy.close();
      agent.destroy();
    },
  };
}

/** Picks the next of the live targets in turn. */
function roundRobin() {
  let next = 0;
  return (live) => live[next++ % live.length];
}

module.exports = { startEntryPoint, REPLICA_PATH };
