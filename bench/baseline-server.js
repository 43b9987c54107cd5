'use strict';
// The benchmark's baseline: one Express process answering
// GET /api/v10/applications/:id/commands from the same PostgreSQL rows with `pg`,
// with no authentication, no gRPC hop and no cache — the least a server must do.
const express = require('express');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get('/api/v10/applications/:id/commands', async (req, res, next) => {
  try {
    const { rows } = await pool.query(
      `SELECT id::text, application_id::text, version::text, data FROM registry.command
        WHERE application_id = $1 AND guild_id = 0 ORDER BY id`,
      [req.params.id],
    );
    const body = JSON.stringify(
      rows.map((r) => ({ id: r.id, application_id: r.application_id, version: r.version, ...r.data })),
    );
    res.setHeader('Content-Type', 'application/json');
    res.end(body);
  } catch (error) {
    next(error);
  }
});
// PORT 0 (the default) binds a port of the OS's choosing, which the parent learns from the message.
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  process.send?.({ port: server.address().port }),
);
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
