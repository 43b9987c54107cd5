'use strict';
// The baseline of bench/messages-bench.js: one Express process that stores a channel
// message with one `pg` INSERT of its JSON and lists a channel's newest messages with one
// SELECT (the rows' JSON aggregated by PostgreSQL), with no authentication, no permission
// check, no gRPC hop and no event: the least a server must do for the same routes.
const express = require('express');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.use(express.json());
app.post('/channels/:id/messages', async (req, res, next) => {
  try {
    const { rows } = await pool.query(
      `INSERT INTO bench_message (channel_id, body) VALUES ($1, $2)
       RETURNING (body || jsonb_build_object('id', id::text, 'channel_id', channel_id::text))::text AS json`,
      [req.params.id, JSON.stringify({ content: req.body.content, timestamp: new Date().toISOString() })],
    );
    res.setHeader('Content-Type', 'application/json');
    res.end(rows[0].json);
  } catch (error) {
    next(error);
  }
});
app.get('/channels/:id/messages', async (req, res, next) => {
  try {
    const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? 50)));
    const { rows } = await pool.query(
      `SELECT COALESCE(json_agg(m.body ORDER BY m.id DESC), '[]')::text AS json
         FROM (SELECT id, body FROM bench_message WHERE channel_id = $1 ORDER BY id DESC LIMIT $2) m`,
      [req.params.id, limit],
    );
    res.setHeader('Content-Type', 'application/json');
    res.end(rows[0].json);
  } catch (error) {
    next(error);
  }
});
const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
