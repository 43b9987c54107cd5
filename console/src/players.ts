import { call, describeError } from './api';
import { formRow, h, replaceChildren } from './dom';

/*
 * The inspector's "Players" view: an application's game players without a chat account
 * (Social SDK provisional accounts) and the lobbies they are in. A player is made with
 * `POST /admin/applications/{id}/provisional-tokens` (what the Bot Token Endpoint answers
 * the app's bot: the console holds the admin token, never an app's secrets); from then on
 * the console acts as the player with its own Bearer token, as the game's client would:
 * `PUT /lobbies` joins (or opens) the lobby of a secret, `GET`/`POST /lobbies/{id}/messages`
 * read and post. The lobbies shown are those the console's players joined (no route lists
 * an application's lobbies). Everything is text nodes.
 */

interface Player {
  id: string;
  name: string;
  token: string;
}

function userName(user: any): string {
  return String(user?.global_name ?? user?.username ?? user?.id ?? '?');
}

/** One lobby: its members and messages, and a form to post in it as one of its players. */
class LobbyPanel {
  readonly element: HTMLElement;
  lobby: any;
  private readonly members = h('ul', { class: 'member-list' });
  private readonly messages = h('ol', { class: 'requests lobby-messages' });
  private readonly author = h('select');
  private readonly text = h('input', { type: 'text', autocomplete: 'off', maxlength: 4000 });
  private readonly problem = h('p', { class: 'error', role: 'alert' });
  private lastMessages = '';

  constructor(
    lobby: any,
    readonly secret: string,
    private readonly players: () => Player[],
  ) {
    this.lobby = lobby;
    const id = String(lobby?.id);
    this.members.setAttribute('aria-label', `Members of lobby ${secret}`);
    this.messages.setAttribute('aria-label', `Messages in lobby ${secret}`);
    const form = h(
      'form',
      { class: 'lobby-post', 'aria-label': `Post in lobby ${secret}`, novalidate: true },
      formRow('Post as', this.author),
      formRow(`Message lobby ${secret}`, this.text),
      this.problem,
      h('div', { class: 'modal-actions' }, h('button', { type: 'submit', class: 'button primary' }, 'Post')),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.post();
    });
    this.element = h(
      'section',
      { class: 'lobby', 'aria-label': `Lobby ${secret}` },
      h('h4', null, `Lobby ${secret}`, ' ', h('span', { class: 'entry-meta' }, id)),
      h('h5', null, 'Members'),
      this.members,
      h('h5', null, 'Messages'),
      this.messages,
      form,
    );
    this.renderMembers();
  }

  /** The lobby as a join answered it (its members). */
  update(lobby: any): void {
    this.lobby = lobby;
    this.renderMembers();
  }

  private memberPlayers(): Player[] {
    const memberIds = new Set((this.lobby?.members ?? []).map((m: any) => String(m?.id)));
    return this.players().filter((p) => memberIds.has(p.id));
  }

  private renderMembers(): void {
    const players = this.players();
    replaceChildren(
      this.members,
      ...(this.lobby?.members ?? []).map((m: any) =>
        h('li', { class: 'member' }, players.find((p) => p.id === String(m?.id))?.name ?? String(m?.id)),
      ),
    );
    const chosen = this.author.value;
    replaceChildren(
      this.author,
      ...this.memberPlayers().map((p) => h('option', { value: p.id, selected: p.id === chosen }, p.name)),
    );
  }

  /** Reads the latest messages as a member player (newest first from the API; shown oldest first). */
  async refresh(): Promise<void> {
    const reader = this.memberPlayers()[0];
    if (!reader) return;
    const answer = await call(
      'GET',
      `/api/v10/lobbies/${String(this.lobby?.id)}/messages?limit=50`,
      `Bearer ${reader.token}`,
    );
    const text = `${answer.status} ${JSON.stringify(answer.body)}`;
    if (text === this.lastMessages) return;
    this.lastMessages = text;
    if (answer.status !== 200 || !Array.isArray(answer.body)) {
      replaceChildren(this.problem, describeError(answer.status, answer.body));
      return;
    }
    replaceChildren(
      this.messages,
      ...[...answer.body]
        .reverse()
        .map((m: any) =>
          h(
            'li',
            { class: 'request lobby-message' },
            h('strong', null, userName(m?.author)),
            ': ',
            String(m?.content ?? ''),
          ),
        ),
    );
    if (answer.body.length === 0) this.messages.append(h('li', { class: 'hint' }, 'No messages yet.'));
  }

  private async post(): Promise<void> {
    replaceChildren(this.problem);
    const player = this.players().find((p) => p.id === this.author.value);
    if (!player) {
      replaceChildren(this.problem, 'Choose a player of this lobby.');
      return;
    }
    const answer = await call(
      'POST',
      `/api/v10/lobbies/${String(this.lobby?.id)}/messages`,
      `Bearer ${player.token}`,
      {
        content: this.text.value,
      },
    );
    if (answer.status !== 201) {
      replaceChildren(this.problem, describeError(answer.status, answer.body));
      return;
    }
    this.text.value = '';
    await this.refresh();
  }
}

/** The players and lobbies of one application. */
interface AppPlayers {
  players: Player[];
  lobbies: Map<string, LobbyPanel>;
}

export class PlayersView {
  private readonly element: HTMLElement;
  private readonly playerList = h('ul', { class: 'member-list', 'aria-label': 'Players' });
  private readonly lobbyList = h('div', { class: 'lobbies' });
  private readonly problem = h('p', { class: 'error', role: 'alert' });
  private readonly done = h('p', { class: 'hint', role: 'status' });
  private readonly externalId = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false' });
  private readonly displayName = h('input', { type: 'text', autocomplete: 'off' });
  private readonly joiner = h('select');
  private readonly secret = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false' });
  private readonly apps = new Map<string, AppPlayers>();
  private applicationId = '';
  private reading = false;

  constructor(private readonly admin: () => string) {
    const create = h(
      'form',
      { class: 'player-form', 'aria-label': 'New player', novalidate: true },
      h('p', { class: 'hint' }, 'A game player without a chat account (a provisional account of this app).'),
      formRow('External user id', this.externalId),
      formRow('Display name (optional)', this.displayName),
      h(
        'div',
        { class: 'modal-actions' },
        h('button', { type: 'submit', class: 'button primary' }, 'Create player'),
      ),
    );
    create.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.createPlayer();
    });
    const join = h(
      'form',
      { class: 'player-form', 'aria-label': 'Join a lobby', novalidate: true },
      formRow('Player', this.joiner),
      formRow('Lobby secret', this.secret),
      h(
        'div',
        { class: 'modal-actions' },
        h('button', { type: 'submit', class: 'button primary' }, 'Join lobby'),
      ),
    );
    join.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.joinLobby();
    });
    this.element = h(
      'section',
      { class: 'players', 'aria-label': 'Game players' },
      create,
      this.problem,
      this.done,
      h('h3', null, 'Players'),
      this.playerList,
      join,
      h('h3', null, 'Lobbies'),
      this.lobbyList,
    );
  }

  /** Shows the view for this application and reads its lobbies' messages. */
  async render(holder: HTMLElement, applicationId: string): Promise<void> {
    if (this.element.parentElement !== holder) replaceChildren(holder, this.element);
    if (applicationId !== this.applicationId) {
      this.applicationId = applicationId;
      replaceChildren(this.problem);
      replaceChildren(this.done);
      this.renderPlayers();
    }
    if (this.reading) return;
    this.reading = true;
    try {
      for (const panel of this.app().lobbies.values()) await panel.refresh();
    } finally {
      this.reading = false;
    }
  }

  private app(): AppPlayers {
    let app = this.apps.get(this.applicationId);
    if (!app) {
      app = { players: [], lobbies: new Map() };
      this.apps.set(this.applicationId, app);
    }
    return app;
  }

  private renderPlayers(): void {
    const app = this.app();
    replaceChildren(
      this.playerList,
      ...app.players.map((p) =>
        h('li', { class: 'member' }, p.name, ' ', h('span', { class: 'entry-meta' }, p.id)),
      ),
    );
    if (app.players.length === 0) this.playerList.append(h('li', { class: 'hint' }, 'No players yet.'));
    const chosen = this.joiner.value;
    replaceChildren(
      this.joiner,
      ...app.players.map((p) => h('option', { value: p.id, selected: p.id === chosen }, p.name)),
    );
    replaceChildren(this.lobbyList, ...[...app.lobbies.values()].map((panel) => panel.element));
    for (const panel of app.lobbies.values()) panel.update(panel.lobby);
  }

  private async createPlayer(): Promise<void> {
    replaceChildren(this.problem);
    replaceChildren(this.done);
    const app = this.app();
    const applicationId = this.applicationId;
    const body: Record<string, unknown> = { external_user_id: this.externalId.value };
    if (this.displayName.value.trim() !== '') body.preferred_global_name = this.displayName.value;
    const issued = await call(
      'POST',
      `/admin/applications/${applicationId}/provisional-tokens`,
      `Admin ${this.admin()}`,
      body,
    );
    if (issued.status !== 200) {
      replaceChildren(this.problem, describeError(issued.status, issued.body));
      return;
    }
    const token = String(issued.body?.access_token);
    const me = await call('GET', '/api/v10/users/@me', `Bearer ${token}`);
    if (me.status !== 200) {
      replaceChildren(this.problem, describeError(me.status, me.body));
      return;
    }
    const player = { id: String(me.body.id), name: userName(me.body), token };
    // The same external id is the same account: its fresh token replaces the old one.
    app.players = [...app.players.filter((p) => p.id !== player.id), player];
    this.externalId.value = '';
    this.displayName.value = '';
    if (this.applicationId === applicationId) {
      replaceChildren(this.done, `Created the player ${player.name} (${player.id}).`);
      this.renderPlayers();
    }
  }

  private async joinLobby(): Promise<void> {
    replaceChildren(this.problem);
    replaceChildren(this.done);
    const app = this.app();
    const player = app.players.find((p) => p.id === this.joiner.value);
    if (!player) {
      replaceChildren(this.problem, 'Create a player first.');
      return;
    }
    const secret = this.secret.value;
    const answer = await call('PUT', '/api/v10/lobbies', `Bearer ${player.token}`, { secret });
    if (answer.status !== 200) {
      replaceChildren(this.problem, describeError(answer.status, answer.body));
      return;
    }
    const id = String(answer.body?.id);
    const known = app.lobbies.get(id);
    if (known) known.update(answer.body);
    else app.lobbies.set(id, new LobbyPanel(answer.body, secret, () => app.players));
    replaceChildren(this.done, `${player.name} joined the lobby ${secret}.`);
    this.secret.value = '';
    this.renderPlayers();
    await app.lobbies.get(id)?.refresh();
  }
}
