#!/usr/bin/env node
'use strict';
/**
 * A deploy script for application commands that never guesses: it asks ACS what a bulk
 * overwrite would do (`PUT …/commands?dry_run=true`, an ACS-only extension), prints the
 * diff, stops before the daily create quota (30034) would refuse it, and sends the real
 * PUT only when something changed. Plain `fetch`, no library: on Discord itself the dry
 * run does not exist, so point it at ACS.
 *
 *   ACS_URL=http://127.0.0.1:8080 APPLICATION_ID=... BOT_TOKEN=... [GUILD_ID=...] \
 *     node examples/deploy-commands [commands.json] [--dry-run]
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * Dry-runs the sync of `commands` to the app's global commands (or `guildId`'s), then
 * applies it when it changes something and `apply` is not false. Resolves what it found:
 * `changed`, the dry run's `diff`, whether it `applied`, and the quota headers it last saw.
 * Rejects with an Error carrying the API's `status` and error `body` on a refusal.
 */
async function deployCommands({
  baseUrl,
  applicationId,
  botToken,
  guildId,
  commands,
  apply = true,
  log = console.log,
}) {
  const scope = guildId ? `/guilds/${guildId}` : '';
  const url = `${baseUrl.replace(/\/+$/, '')}/api/v10/applications/${applicationId}${scope}/commands`;
  const put = async (query) => {
    const response = await fetch(url + query, {
      method: 'PUT',
      headers: { Authorization: `Bot ${botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(commands),
    });
    const body = await response.json();
    const quota = {
      remaining: Number(response.headers.get('x-command-creates-remaining')),
      resetAfter: Number(response.headers.get('x-command-creates-reset-after')),
    };
    if (!response.ok) {
      const error = new Error(`${response.status} ${body.code}: ${body.message}`);
      Object.assign(error, { status: response.status, body, quota });
      throw error;
    }
    return { body, quota, sync: response.headers.get('x-command-sync') };
  };

  // Validated exactly as the real PUT: a bad command or a spent quota is refused here, with nothing written.
  const dry = await put('?dry_run=true');
  const diff = dry.body;
  log(describe(diff));
  if (dry.sync === 'unchanged') {
    log('Nothing changed: not sending the PUT.');
    return { changed: false, applied: false, diff, quota: dry.quota };
  }
  log(
    `Creates this counts: ${diff.creates_counted}, left after it: ${diff.creates_remaining} (resets in ${dry.quota.resetAfter} s).`,
  );
  if (!apply) return { changed: true, applied: false, diff, quota: dry.quota };
  const real = await put('');
  log(`Applied: ${real.body.length} commands.`);
  return { changed: true, applied: true, diff, quota: real.quota };
}

/** The diff as a deploy log shows it. */
function describe(diff) {
  const line = (mark, c) =>
    `  ${mark} ${c.name} (type ${c.type})${c.changed_fields ? `: ${c.changed_fields.join(', ')}` : ''}`;
  return [
    `${diff.created.length} to create, ${diff.updated.length} to update, ${diff.deleted.length} to delete, ${diff.unchanged.length} unchanged`,
    ...diff.created.map((c) => line('+', c)),
    ...diff.updated.map((c) => line('~', c)),
    ...diff.deleted.map((c) => line('-', c)),
  ].join('\n');
}

async function main() {
  const env = (name) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--')) ?? path.join(__dirname, 'commands.json');
  await deployCommands({
    baseUrl: process.env.ACS_URL ?? 'http://127.0.0.1:8080',
    applicationId: env('APPLICATION_ID'),
    botToken: env('BOT_TOKEN'),
    guildId: process.env.GUILD_ID,
    commands: JSON.parse(fs.readFileSync(file, 'utf8')),
    apply: !args.includes('--dry-run'),
  });
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message);
    if (error.body?.errors) console.error(JSON.stringify(error.body.errors, null, 2));
    process.exitCode = 1;
  });
}

module.exports = { deployCommands };
