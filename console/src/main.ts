import './style.css';
import {
  ApiError,
  call,
  describeError,
  expectOk,
  forgetAdminToken,
  newNonce,
  storeAdminToken,
  takeCapability,
} from './api';
import { h, replaceChildren } from './dom';
import { ViewerSession, type Dispatch } from './gateway';
import { CommandComposer, type ListedCommand } from './composer';
import { openModal } from './modal';
import { renderMessage, authorName, type RenderContext } from './render-message';

/*
 * The console: the world from one viewer's side. The admin token (the capability the
 * launcher prints in the URL fragment, or typed at the login) only lists users and opens
 * a chat-client session for the one picked in "Acting as"; everything shown after that
 * is what the public API and the gateway show that user's session.
 */

interface User {
  id: string;
  name: string;
  bot: boolean;
}

interface Viewer {
  user: User;
  token: string;
  session: ViewerSession | undefined;
}

const state: {
  admin: string;
  users: User[];
  viewer: Viewer | undefined;
  guilds: any[];
  guild: any;
  channels: any[];
  channel: any;
  roles: any[];
  messages: Map<string, any>;
  commands: ListedCommand[] | undefined;
} = {
  admin: '',
  users: [],
  viewer: undefined,
  guilds: [],
  guild: undefined,
  channels: [],
  channel: undefined,
  roles: [],
  messages: new Map(),
  commands: undefined,
};

const root = document.getElementById('app') as HTMLElement;

const ui = {
  viewerSelect: h('select', { id: 'acting-as', class: 'viewer-select' }),
  guildList: h('nav', { class: 'guilds', 'aria-label': 'Servers' }),
  channelList: h('nav', { class: 'channels', 'aria-label': 'Channels' }),
  memberList: h('aside', { class: 'members', 'aria-label': 'Members' }),
  channelTitle: h('h2', { class: 'channel-title' }, 'No channel'),
  messages: h('div', { class: 'message-list', role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages' }),
  status: h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }),
  alert: h('div', { class: 'alert', role: 'alert' }),
  composerHolder: h('div', { class: 'composer-holder' }),
};

let composer: CommandComposer | undefined;

function boot(): void {
  const token = takeCapability();
  if (!token) {
    showLogin();
    return;
  }
  state.admin = token;
  void start();
}

function showLogin(problem?: string): void {
  const input = h('input', { id: 'admin-token', type: 'password', autocomplete: 'off', required: true });
  const form = h(
    'form',
    { class: 'login', 'aria-label': 'Sign in' },
    h('h1', null, 'ACS console'),
    h('p', null, 'Paste the admin token `npm start` printed (or open the console URL it printed).'),
    h('label', { for: 'admin-token' }, 'Admin token'),
    input,
    problem ? h('p', { class: 'error', role: 'alert' }, problem) : null,
    h('button', { type: 'submit', class: 'button primary' }, 'Sign in'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    storeAdminToken(input.value.trim());
    state.admin = input.value.trim();
    void start();
  });
  replaceChildren(root, h('main', { class: 'login-page' }, form));
  input.focus();
}

async function start(): Promise<void> {
  const answer = await call('GET', '/admin/users', `Admin ${state.admin}`);
  if (answer.status === 401) {
    forgetAdminToken();
    showLogin('That admin token was refused.');
    return;
  }
  if (answer.status !== 200) {
    showLogin(describeError(answer.status, answer.body));
    return;
  }
  state.users = (answer.body as any[]).map((u) => ({
    id: String(u.id),
    name: authorName(u),
    bot: Boolean(u.bot),
  }));
  layout();
  const people = state.users.filter((u) => !u.bot);
  if (people[0]) await actAs(people[0].id);
}

function layout(): void {
  const signOut = h('button', { type: 'button', class: 'button secondary' }, 'Sign out');
  signOut.addEventListener('click', () => {
    for (const viewer of viewers.values()) viewer.session?.close();
    viewers.clear();
    state.viewer = undefined;
    forgetAdminToken();
    showLogin();
  });
  const newUser = h('button', { type: 'button', class: 'button secondary' }, 'New user');
  newUser.addEventListener('click', () => void createUser());
  refreshViewerOptions();
  ui.viewerSelect.addEventListener('change', () => void actAs(ui.viewerSelect.value));
  replaceChildren(
    root,
    h(
      'header',
      { class: 'topbar' },
      h('h1', null, 'ACS console'),
      h('label', { for: 'acting-as' }, 'Acting as'),
      ui.viewerSelect,
      newUser,
      signOut,
    ),
    h(
      'div',
      { class: 'workspace' },
      ui.guildList,
      ui.channelList,
      h('main', { class: 'channel' }, ui.channelTitle, ui.alert, ui.messages, ui.status, ui.composerHolder),
      ui.memberList,
    ),
  );
}

function refreshViewerOptions(): void {
  replaceChildren(
    ui.viewerSelect,
    ...state.users
      .filter((u) => !u.bot)
      .map((u) => h('option', { value: u.id, selected: state.viewer?.user.id === u.id }, u.name)),
  );
}

async function createUser(): Promise<void> {
  const username = window.prompt('Username of the new user (2-32 characters)');
  if (!username) return;
  try {
    const user = await expectOk('POST', '/admin/users', `Admin ${state.admin}`, { username });
    state.users.push({ id: String(user.id), name: authorName(user), bot: false });
    refreshViewerOptions();
    await actAs(String(user.id));
  } catch (error) {
    showAlert(error);
  }
}

function showAlert(error: unknown): void {
  const text = error instanceof Error ? error.message : String(error);
  replaceChildren(ui.alert, h('pre', null, text));
}

function clearAlert(): void {
  replaceChildren(ui.alert);
}

/** The viewers opened so far, kept open: switching back needs no new Identify (which the gateway paces). */
const viewers = new Map<string, Viewer>();

/** A chat-client session of the user: its token and gateway session, opened once. */
async function openViewer(user: User): Promise<Viewer> {
  const known = viewers.get(user.id);
  if (known?.session && !known.session.closed) return known;
  const { token } = await expectOk('POST', `/admin/users/${user.id}/sessions`, `Admin ${state.admin}`);
  const viewer: Viewer = { user, token, session: undefined };
  viewers.set(user.id, viewer);
  const { url } = await expectOk('GET', '/api/v10/gateway', token);
  const onDispatch = (dispatch: Dispatch) => {
    if (state.viewer === viewer) handleDispatch(dispatch);
  };
  const onClose = (why: string) => {
    if (state.viewer === viewer) replaceChildren(ui.status, `gateway session closed (${why})`);
  };
  // The gateway paces Identify (4008 "retry in N s"): wait as told, a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      viewer.session = await ViewerSession.open(String(url), token, onDispatch, onClose);
      return viewer;
    } catch (error) {
      const wait = /retry in (\d+) s/.exec(String((error as Error).message));
      if (!wait || attempt >= 4) throw error;
      replaceChildren(ui.status, `waiting ${wait[1]} s for the gateway (Identify is paced)…`);
      await new Promise((resolve) => setTimeout(resolve, (Number(wait[1]) + 1) * 1000));
    }
  }
}

/** Shows the world as the user's chat-client session sees it. */
let picking: string | undefined;

async function actAs(userId: string): Promise<void> {
  const user = state.users.find((u) => u.id === userId);
  if (!user || state.viewer?.user.id === userId || picking === userId) return;
  picking = userId;
  try {
    await showWorldOf(user);
  } finally {
    if (picking === userId) picking = undefined;
  }
}

async function showWorldOf(user: User): Promise<void> {
  const userId = user.id;
  clearAlert();
  state.messages.clear();
  state.commands = undefined;
  state.viewer = undefined;
  ui.viewerSelect.value = userId;
  // Nothing of the previous viewer stays on screen while this one's world loads.
  replaceChildren(ui.messages, h('p', { class: 'empty' }, `Opening ${user.name}'s session…`));
  replaceChildren(ui.composerHolder);
  let viewer: Viewer;
  try {
    viewer = await openViewer(user);
  } catch (error) {
    showAlert(error);
    return;
  }
  if (ui.viewerSelect.value !== userId) return; // another viewer was picked meanwhile
  state.viewer = viewer;
  replaceChildren(ui.status);
  // The user's guilds as their READY lists them (what the chat client's server list shows).
  state.guilds = Array.isArray(viewer.session?.ready?.guilds) ? viewer.session.ready.guilds : [];
  renderGuilds();
  const keep = state.guilds.find((g) => g.id === state.guild?.id) ?? state.guilds[0];
  if (keep) await openGuild(keep, state.channel?.id);
  else {
    state.guild = undefined;
    state.channel = undefined;
    replaceChildren(ui.channelTitle, 'No channel');
    replaceChildren(ui.channelList);
    replaceChildren(ui.messages, h('p', { class: 'empty' }, `${user.name} is in no server.`));
    replaceChildren(ui.composerHolder);
  }
}

function renderGuilds(): void {
  replaceChildren(
    ui.guildList,
    h('h2', { class: 'visually-hidden' }, 'Servers'),
    ...state.guilds.map((g) => {
      const button = h(
        'button',
        {
          type: 'button',
          class: 'guild',
          'aria-current': state.guild?.id === g.id ? 'true' : null,
          title: String(g.name),
        },
        String(g.name ?? '?'),
      );
      button.addEventListener('click', () => void openGuild(g));
      return button;
    }),
  );
}

async function openGuild(guild: any, channelId?: string): Promise<void> {
  const viewer = state.viewer;
  if (!viewer) return;
  state.guild = guild;
  renderGuilds();
  try {
    state.channels = await expectOk('GET', `/api/v10/guilds/${guild.id}/channels`, viewer.token);
  } catch (error) {
    state.channels = [];
    showAlert(error);
  }
  // A chat-client session reads no guild object here: roles are named only when READY carries them.
  state.roles = Array.isArray(guild.roles) ? guild.roles : [];
  renderMembers();
  const text = state.channels.filter((c) => [0, 5, 10, 11, 12].includes(Number(c.type)));
  renderChannels(text);
  const channel = text.find((c) => c.id === channelId) ?? text[0];
  if (channel) await openChannel(channel);
}

function renderChannels(channels: any[]): void {
  replaceChildren(
    ui.channelList,
    h('h2', { class: 'guild-name' }, String(state.guild?.name ?? '')),
    ...channels.map((c) => {
      const button = h(
        'button',
        { type: 'button', class: 'channel-link', 'aria-current': state.channel?.id === c.id ? 'true' : null },
        `# ${String(c.name)}`,
      );
      button.addEventListener('click', () => void openChannel(c));
      return button;
    }),
  );
}

function renderMembers(): void {
  // The members the viewer's READY listed for this guild, when it did; else the users known to the admin.
  const ready = state.viewer?.session?.ready;
  const guild = (ready?.guilds ?? []).find((g: any) => g.id === state.guild?.id);
  const members: any[] = Array.isArray(guild?.members) ? guild.members : [];
  replaceChildren(
    ui.memberList,
    h('h2', null, 'Members'),
    members.length > 0
      ? h('ul', null, ...members.map((m) => h('li', null, authorName(m.user ?? m))))
      : h('p', { class: 'hint' }, 'The gateway lists no members to this viewer.'),
  );
}

async function openChannel(channel: any): Promise<void> {
  const viewer = state.viewer;
  if (!viewer) return;
  state.channel = channel;
  state.commands = undefined;
  state.messages.clear();
  renderChannels(state.channels.filter((c) => [0, 5, 10, 11, 12].includes(Number(c.type))));
  replaceChildren(ui.channelTitle, `# ${String(channel.name)}`);
  ui.messages.setAttribute('aria-label', `Messages in #${String(channel.name)}`);
  try {
    const list: any[] = await expectOk(
      'GET',
      `/api/v10/channels/${channel.id}/messages?limit=100`,
      viewer.token,
    );
    olderMayExist = list.length === 100;
    for (const message of list.reverse()) state.messages.set(message.id, message);
  } catch (error) {
    showAlert(error);
  }
  renderMessages();
  composer = new CommandComposer({
    channelName: String(channel.name),
    users: () => state.users,
    channels: () => state.channels,
    loadCommands: loadCommands,
    sendMessage: async (content) => {
      clearAlert();
      try {
        const message = await expectOk('POST', `/api/v10/channels/${channel.id}/messages`, viewer.token, {
          content,
        });
        upsert(message);
      } catch (error) {
        showAlert(error);
      }
    },
    invoke: (command, data) => void interact({ type: 2, application_id: command.application_id, data }),
    autocomplete: async (command, body) => {
      const outcome = await interact(
        { type: 4, application_id: command.application_id, data: body },
        { quiet: true },
      );
      return outcome?.response?.type === 8 ? (outcome.response.data?.choices ?? []) : [];
    },
  });
  replaceChildren(ui.composerHolder, composer.element);
}

async function loadCommands(): Promise<ListedCommand[]> {
  const viewer = state.viewer;
  if (!viewer || !state.guild || !state.channel) return [];
  if (state.commands) return state.commands;
  const answer = await call(
    'GET',
    `/api/v10/guilds/${state.guild.id}/application-command-index?channel_id=${state.channel.id}`,
    viewer.token,
  );
  if (answer.status !== 200) {
    showAlert(new ApiError(answer.status, answer.body));
    return [];
  }
  state.commands = answer.body.application_commands ?? [];
  return state.commands ?? [];
}

const names = {
  user: (id: string) => state.users.find((u) => u.id === id)?.name,
  channel: (id: string) => state.channels.find((c) => c.id === id)?.name,
  role: (id: string) => state.roles.find((r) => r.id === id)?.name,
};

function renderContext(): RenderContext {
  return {
    names,
    users: state.users,
    channels: state.channels.map((c) => ({ id: String(c.id), name: String(c.name) })),
    roles: state.roles.map((r) => ({ id: String(r.id), name: String(r.name) })),
    onButton: (message, component) =>
      void interact({
        type: 3,
        application_id: message.application_id ?? message.author?.id,
        message_id: message.id,
        data: { component_type: 2, custom_id: component.custom_id },
      }),
    onApps: (anchor, kind, targetId) => void openAppsMenu(anchor, kind, targetId),
    onSelect: (message, component, values) =>
      void interact({
        type: 3,
        application_id: message.application_id ?? message.author?.id,
        message_id: message.id,
        data: { component_type: component.type, custom_id: component.custom_id, values },
      }),
  };
}

/**
 * The context menu of a message (its MESSAGE commands) or of a user (USER commands) that
 * this viewer may use here, as a `menu` of `menuitem`s named by the commands; choosing one
 * invokes it on that target.
 */
async function openAppsMenu(anchor: HTMLElement, kind: 'message' | 'user', targetId: string): Promise<void> {
  document.querySelector('.apps-menu')?.remove();
  const type = kind === 'user' ? 2 : 3;
  const commands = (await loadCommands()).filter((c) => c.type === type);
  const close = () => {
    menu.remove();
    anchor.setAttribute('aria-expanded', 'false');
  };
  const items = commands.map((command) => {
    const item = h('button', { type: 'button', role: 'menuitem', class: 'apps-item' }, command.name);
    item.addEventListener('click', () => {
      close();
      void interact({
        type: 2,
        application_id: command.application_id,
        data: {
          id: command.id,
          name: command.name,
          type,
          version: command.version,
          target_id: targetId,
          ...(command.guild_id ? { guild_id: command.guild_id } : {}),
        },
      });
    });
    return item;
  });
  const menu = h(
    'div',
    {
      role: 'menu',
      class: 'apps-menu',
      'aria-label': kind === 'user' ? 'Apps for this user' : 'Apps for this message',
    },
    ...(items.length > 0 ? items : [h('p', { class: 'hint' }, `No ${kind} commands here`)]),
  );
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  anchor.setAttribute('aria-expanded', 'true');
  anchor.insertAdjacentElement('afterend', menu);
  (items[0] ?? menu).focus();
}

/** The rendered article of each message in view, by id (updated in place, not rebuilt). */
const articles = new Map<string, HTMLElement>();
/** Whether older messages than those shown may exist (the last page was full). */
let olderMayExist = false;

function renderMessages(): void {
  const ctx = renderContext();
  articles.clear();
  const nodes = [...state.messages.values()].map((m) => {
    const article = renderMessage(m, ctx);
    articles.set(m.id, article);
    return article;
  });
  replaceChildren(ui.messages, olderMayExist ? olderButton() : null, ...nodes);
  if (state.messages.size === 0) ui.messages.append(h('p', { class: 'empty' }, 'No messages yet.'));
  ui.messages.scrollTop = ui.messages.scrollHeight;
}

/** "Load older messages": the page before the oldest shown (`?before=`), kept in place on screen. */
function olderButton(): HTMLElement {
  const button = h('button', { type: 'button', class: 'button secondary older' }, 'Load older messages');
  button.addEventListener('click', () => void loadOlder());
  return button;
}

async function loadOlder(): Promise<void> {
  const viewer = state.viewer;
  const oldest = state.messages.keys().next().value;
  if (!viewer || !state.channel || oldest === undefined) return;
  const page: any[] = await expectOk(
    'GET',
    `/api/v10/channels/${state.channel.id}/messages?limit=100&before=${oldest}`,
    viewer.token,
  ).catch((error: unknown) => {
    showAlert(error);
    return [];
  });
  olderMayExist = page.length === 100;
  state.messages = new Map([...page.reverse().map((m): [string, any] => [m.id, m]), ...state.messages]);
  const fromBottom = ui.messages.scrollHeight - ui.messages.scrollTop;
  renderMessages();
  ui.messages.scrollTop = ui.messages.scrollHeight - fromBottom;
}

/**
 * Adds or updates one message in view (the gateway's MESSAGE_UPDATE may be partial): an
 * update replaces its article in place, a new message is inserted at its place by id
 * (usually the end), so a long channel is not rebuilt at every event.
 */
function upsert(message: any): void {
  if (!state.channel || message?.channel_id !== state.channel.id) return;
  const known = state.messages.get(message.id);
  const merged = known ? { ...known, ...message } : message;
  const ctx = renderContext();
  const article = renderMessage(merged, ctx);
  const atBottom = ui.messages.scrollHeight - ui.messages.scrollTop - ui.messages.clientHeight < 80;
  if (known) {
    state.messages.set(message.id, merged);
    articles.get(message.id)?.replaceWith(article);
    articles.set(message.id, article);
    return;
  }
  const ordered = [...state.messages.values(), merged].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  state.messages = new Map(ordered.map((m) => [m.id, m]));
  const index = ordered.indexOf(merged);
  const next = ordered[index + 1];
  ui.messages.querySelector(':scope > .empty')?.remove();
  if (next && articles.has(next.id)) articles.get(next.id)?.before(article);
  else ui.messages.append(article);
  articles.set(message.id, article);
  if (atBottom) ui.messages.scrollTop = ui.messages.scrollHeight;
}

/** Takes a message out of view. */
function removeMessage(id: string): void {
  if (!state.messages.delete(id)) return;
  articles.get(id)?.remove();
  articles.delete(id);
}

function handleDispatch({ t, d }: Dispatch): void {
  switch (t) {
    case 'MESSAGE_CREATE':
    case 'MESSAGE_UPDATE':
      upsert(d);
      break;
    case 'MESSAGE_DELETE':
      removeMessage(String(d?.id));
      break;
    case 'MESSAGE_DELETE_BULK':
      for (const id of d?.ids ?? []) removeMessage(String(id));
      break;
    case 'INTERACTION_FAILURE':
      replaceChildren(ui.status, 'The application did not respond');
      break;
    case 'INTERACTION_SUCCESS':
      replaceChildren(ui.status);
      break;
    case 'INTERACTION_MODAL_CREATE':
      // The modal also comes in the answer to `?wait=true`, which opens it.
      break;
  }
}

/**
 * Sends an interaction as the chat client does, in the open channel, naming the viewer's
 * gateway session; waits for its outcome (`?wait=true`) to show a refusal or a failure,
 * open a modal, or hand autocomplete its choices. The messages also arrive on the gateway.
 */
async function interact(body: Record<string, unknown>, { quiet = false } = {}): Promise<any> {
  const viewer = state.viewer;
  if (!viewer || !state.channel) return undefined;
  if (!quiet) {
    clearAlert();
    replaceChildren(ui.status, 'Sending…');
  }
  const answer = await call('POST', '/api/v10/interactions?wait=true', viewer.token, {
    nonce: newNonce(),
    session_id: viewer.session?.sessionId,
    guild_id: state.guild?.id,
    channel_id: state.channel.id,
    ...body,
  });
  if (answer.status !== 200) {
    if (!quiet) {
      replaceChildren(ui.status);
      showAlert(
        `ACS refused the interaction (the app never saw it):\n${describeError(answer.status, answer.body)}`,
      );
    }
    return undefined;
  }
  const outcome = answer.body;
  if (!quiet) replaceChildren(ui.status);
  for (const message of outcome?.messages ?? []) upsert(message);
  if (outcome?.outcome !== 'success') {
    if (!quiet)
      showAlert(
        `The application did not respond (${String(outcome?.reason_code ?? outcome?.outcome ?? 'unknown')})`,
      );
    return outcome;
  }
  if (outcome.response?.type === 9) {
    const data = outcome.response.data ?? {};
    openModal(data, async (components) => {
      const submitted = await call('POST', '/api/v10/interactions?wait=true', viewer.token, {
        nonce: newNonce(),
        session_id: viewer.session?.sessionId,
        type: 5,
        application_id: body.application_id,
        guild_id: state.guild?.id,
        channel_id: state.channel?.id,
        data: { id: outcome.interaction?.id, custom_id: data.custom_id, components },
      });
      if (submitted.status !== 200) return submitted;
      for (const message of submitted.body?.messages ?? []) upsert(message);
      if (submitted.body?.outcome !== 'success')
        showAlert(
          `The application did not respond (${String(submitted.body?.reason_code ?? submitted.body?.outcome)})`,
        );
      return undefined;
    });
  }
  return outcome;
}

// A console URL pasted into a tab that shows the console already changes only the fragment.
window.addEventListener('hashchange', () => {
  if (new URLSearchParams(window.location.hash.slice(1)).has('token')) {
    for (const viewer of viewers.values()) viewer.session?.close();
    viewers.clear();
    state.viewer = undefined;
    boot();
  }
});

boot();
