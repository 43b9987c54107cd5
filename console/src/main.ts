import './style.css';
import {
  ApiError,
  call,
  describeError,
  expectOk,
  forgetAdminToken,
  messageForm,
  newNonce,
  storeAdminToken,
  takeCapability,
} from './api';
import { h, replaceChildren } from './dom';
import { ViewerSession, type Dispatch } from './gateway';
import { CommandComposer, type ListedCommand } from './composer';
import { openModal } from './modal';
import { renderMessage, authorName, type RenderContext } from './render-message';
import { Inspector } from './inspector';
import { GatewayLog } from './gateway-log';
import { formDialog } from './form-dialog';
import { PERMISSION_CHOICES, permissionBits } from './permission-names';

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
  memberList: h('section', { class: 'members', 'aria-label': 'Members' }),
  channelTitle: h('h2', { class: 'channel-title' }, 'No channel'),
  messages: h('div', { class: 'message-list', role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages' }),
  status: h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }),
  alert: h('div', { class: 'alert', role: 'alert' }),
  composerHolder: h('div', { class: 'composer-holder' }),
};

let composer: CommandComposer | undefined;

/** The dispatches each viewer's gateway session received (the inspector's "Gateway" view). */
const gatewayLog = new GatewayLog();

/** The server's account of the chosen application, beside the channel (with the members panel and the gateway log). */
const inspector = new Inspector(
  {
    admin: () => state.admin,
    applications: () => state.users.filter((u) => u.bot).map((u) => ({ id: u.id, name: u.name })),
    userName: (id) => state.users.find((u) => u.id === id)?.name,
  },
  [
    { key: 'members', label: 'Members', element: ui.memberList },
    { key: 'gateway', label: 'Gateway', element: gatewayLog.element },
  ],
);

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
  state.users = usersOf(answer.body);
  layout();
  const people = state.users.filter((u) => !u.bot);
  if (people[0]) await actAs(people[0].id);
}

function usersOf(list: any[]): User[] {
  return list.map((u) => ({ id: String(u.id), name: authorName(u), bot: Boolean(u.bot) }));
}

/** Reads the users again when `id` is none of them (an app created since the console opened). */
async function knowUser(id: string): Promise<void> {
  if (!id || state.users.some((u) => u.id === id)) return;
  const answer = await call('GET', '/admin/users', `Admin ${state.admin}`);
  if (answer.status !== 200 || !Array.isArray(answer.body)) return;
  state.users = usersOf(answer.body);
  refreshViewerOptions();
  inspector.refreshApplications();
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
  newUser.addEventListener('click', () => createUser());
  const newServer = h('button', { type: 'button', class: 'button secondary' }, 'New server');
  newServer.addEventListener('click', () => createGuild());
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
      newServer,
      signOut,
    ),
    h(
      'div',
      { class: 'workspace' },
      ui.guildList,
      ui.channelList,
      h('main', { class: 'channel' }, ui.channelTitle, ui.alert, ui.messages, ui.status, ui.composerHolder),
      inspector.element,
    ),
  );
  inspector.refreshApplications();
}

function refreshViewerOptions(): void {
  replaceChildren(
    ui.viewerSelect,
    ...state.users
      .filter((u) => !u.bot)
      .map((u) => h('option', { value: u.id, selected: state.viewer?.user.id === u.id }, u.name)),
  );
}

/** "New user": a dialog, then `POST /admin/users`; the user joins the "Acting as" list. */
function createUser(): void {
  formDialog({
    title: 'New user',
    fields: [{ kind: 'text', name: 'username', label: 'Username', maxlength: 32, required: true }],
    submitLabel: 'Create',
    submit: async ({ username }) => {
      const user = await expectOk('POST', '/admin/users', `Admin ${state.admin}`, { username });
      state.users.push({ id: String(user.id), name: authorName(user), bot: false });
      refreshViewerOptions();
      replaceChildren(ui.status, `Created the user ${authorName(user)}.`);
      return undefined;
    },
  });
}

/** "New server": a guild owned by the viewer (`POST /admin/guilds`), then opened. */
function createGuild(): void {
  const viewer = state.viewer;
  if (!viewer) return;
  formDialog({
    title: 'New server',
    intro: h('p', null, `Owned by ${viewer.user.name}.`),
    fields: [{ kind: 'text', name: 'name', label: 'Server name', maxlength: 100, required: true }],
    submitLabel: 'Create',
    submit: async ({ name }) => {
      const guild = await expectOk('POST', '/admin/guilds', `Admin ${state.admin}`, {
        name,
        owner_id: viewer.user.id,
      });
      // The viewer's server list is READY's (a chat-client session may not read
      // `/users/@me/guilds`, which wants the `guilds` scope): the new server joins it.
      if (state.viewer !== viewer) return undefined;
      state.guilds = [...state.guilds, { id: String(guild.id), name: String(guild.name), owner: true }];
      renderGuilds();
      await openGuild(state.guilds[state.guilds.length - 1]);
      return undefined;
    },
  });
}

/** "New channel": a text channel in the open server, then opened. */
function createChannel(): void {
  const guild = state.guild;
  if (!guild) return;
  formDialog({
    title: 'New channel',
    intro: h('p', null, `In ${String(guild.name)}.`),
    fields: [{ kind: 'text', name: 'name', label: 'Channel name', maxlength: 100, required: true }],
    submitLabel: 'Create',
    submit: async ({ name }) => {
      const channel = await expectOk('POST', `/admin/guilds/${guild.id}/channels`, `Admin ${state.admin}`, {
        name,
        type: 0,
      });
      await openGuild(guild, String(channel.id));
      return undefined;
    },
  });
}

/** "New role": a role of the open server with the chosen permissions. */
function createRole(): void {
  const guild = state.guild;
  if (!guild) return;
  formDialog({
    title: 'New role',
    intro: h('p', null, `In ${String(guild.name)}.`),
    fields: [
      { kind: 'text', name: 'name', label: 'Role name', maxlength: 100, required: true },
      ...PERMISSION_CHOICES.map((p) => ({ kind: 'checkbox' as const, name: p.name, label: p.label })),
    ],
    submitLabel: 'Create',
    submit: async (values) => {
      await expectOk('POST', `/admin/guilds/${guild.id}/roles`, `Admin ${state.admin}`, {
        name: values.name,
        permissions: permissionBits(values),
      });
      await renderMembers();
      return undefined;
    },
  });
}

/** "Add member": a user who is not in the open server joins it. */
function addMember(): void {
  const guild = state.guild;
  if (!guild) return;
  const inGuild = new Set(members.map((m) => String(m.user?.id)));
  const options = state.users
    .filter((u) => !u.bot && !inGuild.has(u.id))
    .map((u) => ({ value: u.id, label: u.name }));
  formDialog({
    title: 'Add a member',
    intro: options.length === 0 ? h('p', null, 'Every user is a member already.') : null,
    fields: [{ kind: 'select', name: 'user', label: 'User', options }],
    submitLabel: 'Add',
    submit: async ({ user }) => {
      if (!user) return 'Choose a user.';
      await expectOk('PUT', `/admin/guilds/${guild.id}/members/${user}`, `Admin ${state.admin}`, {});
      await renderMembers();
      return undefined;
    },
  });
}

/** "Give role": the member keeps their roles and gets one more (`PUT …/members/{user}` with `roles`). */
function giveRole(member: any): void {
  const guild = state.guild;
  if (!guild) return;
  const held = new Set((member.roles ?? []).map(String));
  const name = memberName(member);
  formDialog({
    title: `Give a role to ${name}`,
    fields: [
      {
        kind: 'select',
        name: 'role',
        label: 'Role',
        options: state.roles
          .filter((r) => String(r.id) !== String(guild.id) && !held.has(String(r.id)))
          .map((r) => ({ value: String(r.id), label: String(r.name) })),
      },
    ],
    submitLabel: 'Give',
    submit: async ({ role }) => {
      if (!role) return 'No role left to give: create one with "New role".';
      await expectOk(
        'PUT',
        `/admin/guilds/${guild.id}/members/${String(member.user?.id)}`,
        `Admin ${state.admin}`,
        {
          roles: [...held, role],
        },
      );
      state.commands = undefined; // a role may change which commands the viewer may use
      await renderMembers();
      return undefined;
    },
  });
}

/**
 * "Install app": choose the application, then the consent step as the authorize page
 * shows it — the scopes and the permissions the bot asks for, in this server — and
 * "Authorize" as the viewer (`POST /admin/oauth2/authorize`; the viewer needs MANAGE_GUILD).
 */
function installApp(): void {
  const guild = state.guild;
  const viewer = state.viewer;
  if (!guild || !viewer) return;
  const apps = state.users.filter((u) => u.bot);
  formDialog({
    title: 'Install an app',
    fields: [
      {
        kind: 'select',
        name: 'app',
        label: 'Application',
        options: apps.map((a) => ({ value: a.id, label: a.name })),
      },
    ],
    submitLabel: 'Continue',
    submit: async ({ app }) => {
      const chosen = apps.find((a) => a.id === app);
      if (!chosen) return 'Choose an application.';
      setTimeout(() => consent(chosen, guild, viewer), 0);
      return undefined;
    },
  });
}

function consent(app: User, guild: any, viewer: Viewer): void {
  const scopes = ['bot', 'applications.commands'];
  formDialog({
    title: `Authorize ${app.name}`,
    intro: h(
      'div',
      { class: 'consent' },
      h('p', null, `${viewer.user.name} adds ${app.name} to ${String(guild.name)}. It will be able to:`),
      h('ul', { 'aria-label': 'Scopes' }, ...scopes.map((scope) => h('li', null, h('code', null, scope)))),
      h('p', null, 'with these permissions in the server:'),
    ),
    fields: PERMISSION_CHOICES.map((p) => ({
      kind: 'checkbox' as const,
      name: p.name,
      label: p.label,
      checked: p.botDefault,
    })),
    submitLabel: 'Authorize',
    submit: async (values) => {
      await expectOk('POST', '/admin/oauth2/authorize', `Admin ${state.admin}`, {
        client_id: app.id,
        user_id: viewer.user.id,
        scope: scopes.join(' '),
        guild_id: guild.id,
        permissions: permissionBits(values),
      });
      state.commands = undefined;
      await renderMembers();
      replaceChildren(ui.status, `${app.name} was installed in ${String(guild.name)}.`);
      return undefined;
    },
  });
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
    gatewayLog.record(user.id, dispatch);
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
  gatewayLog.showViewer(user.id, user.name);
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
          'data-guild-id': String(g.id),
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
  let channels: any[] = [];
  try {
    channels = await expectOk('GET', `/api/v10/guilds/${guild.id}/channels`, viewer.token);
  } catch (error) {
    showAlert(error);
  }
  // Another server or viewer was picked while this one's channels loaded.
  if (state.guild !== guild || state.viewer !== viewer) return;
  state.channels = channels;
  renderMembers().catch(showAlert);
  const text = state.channels.filter((c) => [0, 5, 10, 11, 12].includes(Number(c.type)));
  renderChannels(text);
  const channel = text.find((c) => c.id === channelId) ?? text[0];
  if (channel) await openChannel(channel);
  else {
    state.channel = undefined;
    state.messages.clear();
    replaceChildren(ui.channelTitle, 'No channel');
    replaceChildren(ui.messages, h('p', { class: 'empty' }, 'This server has no text channel yet.'));
    replaceChildren(ui.composerHolder);
  }
}

function renderChannels(channels: any[]): void {
  replaceChildren(
    ui.channelList,
    h('h2', { class: 'guild-name' }, String(state.guild?.name ?? '')),
    serverActions(),
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

/** The open server's actions (through the admin API). */
function serverActions(): HTMLElement {
  const action = (label: string, run: () => void) => {
    const button = h('button', { type: 'button', class: 'button secondary small' }, label);
    button.addEventListener('click', run);
    return button;
  };
  return h(
    'div',
    { class: 'server-actions', role: 'group', 'aria-label': 'Server actions' },
    action('New channel', createChannel),
    action('New role', createRole),
    action('Add member', addMember),
    action('Install app', installApp),
  );
}

/** The open server's members (admin API: no public route lists members to a user session). */
let members: any[] = [];

function memberName(member: any): string {
  const id = String(member?.user?.id ?? '');
  return String(member?.nick ?? state.users.find((u) => u.id === id)?.name ?? id);
}

/**
 * The members panel: each member with their roles' names, and "Give role". Read with the
 * console's admin capability (`GET /admin/guilds/{id}` for the roles, `…/members`), since
 * no public route lists a guild's members to a user session.
 */
async function renderMembers(): Promise<void> {
  const guild = state.guild;
  if (!guild) return;
  const admin = `Admin ${state.admin}`;
  const [full, list] = await Promise.all([
    call('GET', `/admin/guilds/${guild.id}`, admin),
    call('GET', `/admin/guilds/${guild.id}/members?limit=1000`, admin),
  ]);
  if (state.guild !== guild) return;
  if (full.status !== 200 || list.status !== 200) {
    const failed = full.status !== 200 ? full : list;
    replaceChildren(
      ui.memberList,
      h('h3', null, 'Members'),
      h('p', { class: 'error' }, describeError(failed.status, failed.body)),
    );
    return;
  }
  state.roles = Array.isArray(full.body?.roles) ? full.body.roles : [];
  members = Array.isArray(list.body) ? list.body : [];
  const roleName = (id: string) => state.roles.find((r) => String(r.id) === id)?.name;
  replaceChildren(
    ui.memberList,
    h('h3', null, `Members — ${members.length}`),
    h(
      'ul',
      { class: 'member-list' },
      ...members.map((member) => {
        const name = memberName(member);
        const bot = state.users.find((u) => u.id === String(member.user?.id))?.bot;
        const give = h(
          'button',
          { type: 'button', class: 'button secondary small', 'aria-label': `Give role to ${name}` },
          'Give role',
        );
        give.addEventListener('click', () => giveRole(member));
        const roles = (Array.isArray(member.roles) ? member.roles : [])
          .map(String)
          .filter((id: string) => id !== String(guild.id));
        return h(
          'li',
          { class: 'member' },
          h('span', { class: 'member-name' }, name),
          bot ? h('span', { class: 'app-tag' }, 'APP') : null,
          h(
            'ul',
            { class: 'role-chips', 'aria-label': `Roles of ${name}` },
            ...roles.map((id: string) => h('li', { class: 'role-chip' }, String(roleName(id) ?? id))),
          ),
          bot ? null : give,
        );
      }),
    ),
    h('p', { class: 'hint' }, 'Read through the admin API: no public route lists members to a user.'),
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
    // Another channel or viewer was picked while this one's messages loaded.
    if (state.channel !== channel || state.viewer !== viewer) return;
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
    sendMessage: async (content, files) => {
      clearAlert();
      try {
        const text = content === '' ? {} : { content };
        const body = files.length > 0 ? messageForm(text, files) : text;
        const message = await expectOk(
          'POST',
          `/api/v10/channels/${channel.id}/messages`,
          viewer.token,
          body,
        );
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
  const launchers = h('div', { class: 'launchers', role: 'group', 'aria-label': 'Activities' });
  replaceChildren(ui.composerHolder, launchers, composer.element);
  void renderLaunchers(channel, launchers);
}

/** PRIMARY_ENTRY_POINT (D:interactions/application-commands.mdx §Application Command Types). */
const PRIMARY_ENTRY_POINT = 4;

/**
 * "Launch": a button per app whose entry point command this viewer may use here, as the
 * chat client's App Launcher offers it. Launching invokes the command; the answer
 * (LAUNCH_ACTIVITY, or the app's own) is shown as any interaction's.
 */
async function renderLaunchers(channel: any, holder: HTMLElement): Promise<void> {
  const commands = await loadCommands();
  if (state.channel !== channel) return;
  const entryPoints = commands.filter((c) => Number(c.type) === PRIMARY_ENTRY_POINT);
  replaceChildren(
    holder,
    ...entryPoints.map((command) => {
      const app = state.users.find((u) => u.id === command.application_id)?.name ?? command.application_id;
      const button = h('button', { type: 'button', class: 'button secondary small' }, `Launch ${app}`);
      button.addEventListener('click', () => {
        void interact({
          type: 2,
          application_id: command.application_id,
          data: { id: command.id, name: command.name, type: PRIMARY_ENTRY_POINT, version: command.version },
        }).then((outcome) => {
          // Discord launches the Activity (handler 2, no response from the app) or the app answers LAUNCH_ACTIVITY.
          if (
            outcome?.outcome === 'success' &&
            [undefined, null, LAUNCH_ACTIVITY].includes(outcome.response?.type)
          )
            replaceChildren(ui.status, `${app}'s activity was launched.`);
        });
      });
      return button;
    }),
  );
}

/** The LAUNCH_ACTIVITY interaction callback type. */
const LAUNCH_ACTIVITY = 12;

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
    onInspect: (message) =>
      inspector.inspect(
        String(message.application_id ?? message.author?.id),
        String(message.interaction_metadata?.id),
      ),
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
  // The same message again (the gateway's copy and `?wait=true`'s): nothing to redraw.
  if (known && JSON.stringify(known) === JSON.stringify(merged)) return;
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
      replaceChildren(ui.status, failureText({ reason_code: d?.reason_code, reason: d?.reason }));
      break;
    case 'INTERACTION_SUCCESS':
      // Ends "Sending…"; what the `?wait=true` answer said (e.g. an activity launched) stays,
      // whichever of the two arrives first.
      if (ui.status.textContent === SENDING) replaceChildren(ui.status);
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
/** The status line while an interaction waits for its answer. */
const SENDING = 'Sending…';

async function interact(body: Record<string, unknown>, { quiet = false } = {}): Promise<any> {
  const viewer = state.viewer;
  if (!viewer || !state.channel) return undefined;
  if (!quiet) {
    clearAlert();
    replaceChildren(ui.status, SENDING);
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
  if (!quiet) {
    replaceChildren(ui.status);
    await knowUser(String(body.application_id ?? ''));
    inspector.follow(String(body.application_id ?? ''));
  }
  for (const message of outcome?.messages ?? []) upsert(message);
  if (outcome?.outcome !== 'success') {
    if (!quiet) showAlert(failureText(outcome));
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
      inspector.follow(String(body.application_id ?? ''));
      if (submitted.body?.outcome !== 'success') showAlert(failureText(submitted.body));
      return undefined;
    });
  }
  return outcome;
}

/** Why an interaction failed, as the server said it (`?wait=true`'s reason and code). */
function failureText(outcome: any): string {
  const code = String(outcome?.reason_code ?? outcome?.outcome ?? 'unknown');
  const reason = typeof outcome?.reason === 'string' && outcome.reason !== '' ? `: ${outcome.reason}` : '';
  return `The application did not respond (${code})${reason}`;
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
