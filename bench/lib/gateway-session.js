'use strict';
/** A raw gateway session (bot or user) for the benches: Identify, heartbeats, and each dispatch. */
const WebSocket = require('ws');

/**
 * Opens a session on the gateway at `url` (ws://host:port) and identifies with `token`.
 * @param {string} url
 * @param {string} token  a bot's token or a user's session token
 * @param {number} intents
 * @param {(payload: { t: string, d: any }) => void} onDispatch  called for each op 0
 * @returns {{ ready: Promise<any>, close: () => void }} ready resolves with READY's data
 */
function openGatewaySession(url, token, intents, onDispatch) {
  const socket = new WebSocket(`${url}/?v=10&encoding=json`);
  let heartbeat;
  const ready = new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const p = JSON.parse(data.toString());
      if (p.op === 10) {
        socket.send(
          JSON.stringify({
            op: 2,
            d: { token, intents, properties: { os: 'linux', browser: 'bench', device: 'bench' } },
          }),
        );
        heartbeat = setInterval(
          () => socket.send(JSON.stringify({ op: 1, d: null })),
          p.d.heartbeat_interval,
        );
      }
      if (p.t === 'READY') resolve(p.d);
      if (p.op === 0) onDispatch(p);
    });
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`gateway closed ${code}`)));
  });
  return { ready, close: () => (clearInterval(heartbeat), socket.close(1000)) };
}

module.exports = { openGatewaySession };
