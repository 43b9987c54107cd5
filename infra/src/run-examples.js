'use strict';
/**
 * `npm start -- --with-examples`: runs the example bots of examples/ against the stack, so
 * that a newcomer sees a command answered both ways a few seconds after `npm start`:
 * - gateway-bot (discord.js) as the demo world's app, over the gateway;
 * - http-bot (discord-interactions) as a second app, `Demo HTTP App`, installed in the demo
 *   guild on the first run (kept in .data/examples.json), whose Interactions Endpoint URL is
 *   saved once the bot listens (ACS checks it with a signed PING, as Discord does).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { adminExpect } = require('./admin-client');
const { INSTALL_SCOPES } = require('./demo-world');

const EXAMPLES_DIR = path.join(__dirname, '..', '..', 'examples');

/**
 * The HTTP example's app: the one of `file` when it is still in the database, else a new
 * one installed in the demo guild.
 *
 * @param {import('./admin-client').AdminRequest} admin
 * @param {{ user: { id: string }, guild: { id: string } }} seed
 * @param {string} file
 */
async function ensureHttpApp(admin, seed, file) {
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    // An empty PATCH changes nothing: 200 while the app exists, 404 after a database reset.
    const found = await admin('PATCH', `/admin/applications/${saved.id}`, {});
    if (found.status === 200) return saved;
  }
  const app = await adminExpect(admin, 201, 'POST', '/admin/applications', {
    name: 'Demo HTTP App',
    owner_id: seed.user.id,
  });
  await adminExpect(admin, 200, 'POST', '/admin/oauth2/authorize', {
    client_id: app.id,
    user_id: seed.user.id,
    scope: INSTALL_SCOPES,
    guild_id: seed.guild.id,
  });
  const saved = { id: app.id, verifyKey: app.verify_key, botToken: app.bot_token };
  fs.writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  return saved;
}

/**
 * Starts one example as a child process; its output lines go to `say` with its name, and
 * the promise resolves with the first line that matches `readyLine`.
 */
function startExample(name, env, readyLine, say) {
  const child = spawn(process.execPath, [path.join(EXAMPLES_DIR, name, 'index.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk.toString('utf8');
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        say(`[${name}] ${line}`);
        const match = readyLine.exec(line);
        if (match) resolve(match);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (code ${code}) before it was ready`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { ready, stop };
}

/**
 * Runs both examples; answers the cleanup that stops them and what to print.
 *
 * @param {{ apiUrl: string, admin: import('./admin-client').AdminRequest, seed: any, dataDir: string,
 *   say: (line: string) => void }} options
 */
async function runExamples({ apiUrl, admin, seed, dataDir, say }) {
  const httpApp = await ensureHttpApp(admin, seed, path.join(dataDir, 'examples.json'));
  const http = startExample(
    'http-bot',
    {
      ACS_URL: apiUrl,
      APPLICATION_ID: httpApp.id,
      BOT_TOKEN: httpApp.botToken,
      PUBLIC_KEY: httpApp.verifyKey,
      GUILD_ID: seed.guild.id,
      PORT: '0',
    },
    /listening on (\S+)/,
    say,
  );
  const gateway = startExample(
    'gateway-bot',
    { ACS_URL: apiUrl, BOT_TOKEN: seed.application.botToken, GUILD_ID: seed.guild.id },
    /ready as/,
    say,
  );
  const stop = () => Promise.all([http.stop(), gateway.stop()]);
  try {
    const [, endpoint] = await http.ready;
    await adminExpect(admin, 200, 'PATCH', `/admin/applications/${httpApp.id}`, {
      interactions_endpoint_url: endpoint,
    });
    await gateway.ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    stop,
    lines: [
      'Example bots (examples/): http-bot answers /ping and /echo over HTTP, gateway-bot /hello and /roll over the gateway',
      '  npx acs                     the commands you can use in the demo guild',
      '  npx acs invoke "/ping"      invoke one as the demo user and print the answer',
    ],
  };
}

module.exports = { runExamples };
