import fs from 'node:fs';
import path from 'node:path';
import { EVENT_CATALOG } from '../src/event-catalog';
import { renderEventsTable, withEventsTable } from '../src/render-events-table';

// The README's events table is generated from the catalog (names, `data` fields) and
// EVENT_DOCS (producer, consumers): it cannot describe an event that is not published, or
// miss one that is.

const README = path.join(__dirname, '..', 'README.md');

it('the README holds the table rendered from the catalog (run `npm run docs --workspace @acs/events`)', () => {
  const readme = fs.readFileSync(README, 'utf8');
  expect(readme).toBe(withEventsTable(readme));
});

it('has one row per event, with the fields of its schema', () => {
  const table = renderEventsTable();
  const rows = table.split('\n').slice(2);
  expect(rows).toHaveLength(Object.keys(EVENT_CATALOG).length);
  expect(rows[0]).toMatch(
    /^\| `oauth\.application\.authorized` \| oauth: .* \| `application_id`, `integration_type`, `user_id`, `scopes`, `guild_id\?` \| dispatcher: /,
  );
});
