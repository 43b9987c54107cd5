/* eslint-disable @typescript-eslint/no-explicit-any -- Discord's JSON, read field by field */
import { callApi, describeError } from '../http/call-api';
import { parseInvocation, type ListedCommand } from '../cli/parse-invocation';
import { runInteraction } from './run-interaction';
import type { ChannelRef, DiscordMessage, InteractionResult, OpenedModal, Timing, UserRef } from './types';
import { UserSession } from './user-session';
import type { WorldContext } from './world-context';

/** Component types a click or a select may use (D:components/reference.mdx). */
const BUTTON = 2;
const SELECTS = [3, 5, 6, 7, 8];
const TEXT_INPUT = 4;
const FILE_UPLOAD = 19;

/** Where an interaction happens, and how long to wait for it. */
export interface InvokeOptions extends Timing {
  /** The world's channel (its name, object or id); default the world's first channel. */
  channel?: ChannelRef;
}

/**
 * A user of a world, acting as the chat client does: a session token and a gateway
 * session (opened at the first action) on which the answers arrive.
 */
export class WorldUser {
  private opened: Promise<{ token: string; session: UserSession }> | undefined;

  /** @internal built by the world */
  constructor(
    private readonly world: WorldContext,
    readonly id: string,
    readonly name: string,
  ) {}

  /** Invokes a slash command as typed in the command bar: `/roll sides:6`, `/tag edit name:"a b"`. */
  async slash(line: string, options: InvokeOptions = {}): Promise<InteractionResult> {
    const channel = this.world.channel(options.channel);
    const commands = await this.commands(channel.id);
    const data = parseInvocation(line, commands, { resolveName: this.resolveName });
    return this.run(`${line.trim()}  (#${channel.name})`, options, {
      type: 2,
      channel_id: channel.id,
      data,
    });
  }

  /**
   * Asks the app for an option's choices as the user types: `/roll sides:1` (the option
   * typed last has the focus; `city:Pa?` marks another). The choices are in `choices`.
   */
  async autocomplete(line: string, options: InvokeOptions = {}): Promise<InteractionResult> {
    const channel = this.world.channel(options.channel);
    const data = parseInvocation(line, await this.commands(channel.id), {
      autocomplete: true,
      resolveName: this.resolveName,
    });
    return this.run(`autocomplete ${line.trim()}  (#${channel.name})`, options, {
      type: 4,
      channel_id: channel.id,
      data,
    });
  }

  /** Runs the USER command `name` on `target` (a user of the world, by name, or any user's id). */
  async userCommand(name: string, options: InvokeOptions & { target: UserRef }): Promise<InteractionResult> {
    const target = this.world.userId(options.target);
    return this.contextCommand(
      name,
      2,
      target,
      `user command "${name}" on ${describeUser(this.world, target)}`,
      options,
    );
  }

  /** Runs the MESSAGE command `name` on `target` (a message the app posted, or its id). */
  async messageCommand(
    name: string,
    options: InvokeOptions & { target: DiscordMessage | { id: string } | string },
  ): Promise<InteractionResult> {
    const target = typeof options.target === 'string' ? options.target : options.target.id;
    return this.contextCommand(name, 3, target, `message command "${name}" on message ${target}`, options);
  }

  /** Clicks the button `customId` of `message`. */
  async click(
    message: DiscordMessage | null | undefined,
    options: Timing & { customId: string },
  ): Promise<InteractionResult> {
    const found = findComponent(message, options.customId, [BUTTON], 'click');
    return this.run(
      `clicks [${found.label ?? options.customId}] (${options.customId}) on message ${found.message.id}`,
      options,
      componentBody(this.world, found.message, { component_type: BUTTON, custom_id: options.customId }),
      found.message,
    );
  }

  /** Picks `values` in the select `customId` of `message`. */
  async select(
    message: DiscordMessage | null | undefined,
    options: Timing & { customId: string; values: string[] },
  ): Promise<InteractionResult> {
    const found = findComponent(message, options.customId, SELECTS, 'select');
    const known: string[] | undefined = found.component.options?.map((o: any) => String(o.value));
    const unknown = known ? options.values.filter((v) => !known.includes(v)) : [];
    if (unknown.length > 0) {
      throw new Error(
        `select ${options.customId} has no option ${unknown.map((v) => `"${v}"`).join(', ')} (it has: ${known?.join(', ')})`,
      );
    }
    return this.run(
      `selects ${options.values.join(', ')} in [${options.customId}] on message ${found.message.id}`,
      options,
      componentBody(this.world, found.message, {
        component_type: found.component.type,
        custom_id: options.customId,
        values: options.values,
      }),
      found.message,
    );
  }

  /**
   * Submits the modal the app opened with an answer per input custom_id: text for a text
   * input, values (an array, or one string) for a select.
   */
  async submitModal(
    modal: OpenedModal | null | undefined,
    answers: Record<string, string | string[]>,
    options: Timing = {},
  ): Promise<InteractionResult> {
    if (!modal)
      throw new Error('submitModal needs the modal the app opened (a result’s `modal`), and it is null');
    const inputs = listInputs(modal.components);
    const names = [...inputs.keys()];
    for (const customId of Object.keys(answers)) {
      if (!inputs.has(customId))
        throw new Error(
          `modal "${modal.title}" (${modal.custom_id}) has no input "${customId}" (it has: ${names.join(', ') || 'none'})`,
        );
    }
    const components = Object.entries(answers).map(([customId, answer]) => {
      const { input, inLabel } = inputs.get(customId) as { input: any; inLabel: boolean };
      if (input.type === FILE_UPLOAD)
        throw new Error(`${customId} is a file upload: use the CLI's --file for now`);
      const component =
        input.type === TEXT_INPUT
          ? { type: TEXT_INPUT, custom_id: customId, value: String(answer) }
          : { type: input.type, custom_id: customId, values: Array.isArray(answer) ? answer : [answer] };
      return inLabel ? { type: 18, component } : { type: 1, components: [component] };
    });
    const shown = Object.entries(answers)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(' ');
    return this.run(`submits modal "${modal.title}" (${modal.custom_id}): ${shown}`, options, {
      type: 5,
      application_id: modal.application_id,
      guild_id: this.world.guild.id,
      channel_id: modal.channel_id,
      data: { id: modal.id, custom_id: modal.custom_id, components },
    });
  }

  /** `@alice` and `#general` in a command line: the world's user's and channel's ids. */
  private readonly resolveName = (kind: 'user' | 'channel', name: string): string =>
    kind === 'user' ? this.world.userId(name) : this.world.channel(name).id;

  /**
   * Sends a plain message to a channel of the world, as the chat client does
   * (`POST /channels/{id}/messages`): `content`, or a whole message body (`embeds`,
   * `message_reference`…). Answers the message; throws with ACS's error when refused.
   */
  async send(channel: ChannelRef, message: string | Record<string, unknown>): Promise<DiscordMessage> {
    const target = this.world.channel(channel);
    const { token } = await this.open();
    const body = typeof message === 'string' ? { content: message } : message;
    const answer = await callApi(this.world.base, 'POST', `/api/v10/channels/${target.id}/messages`, {
      token,
      body,
    });
    if (answer.status !== 200)
      throw new Error(`${this.name} could not send to #${target.name}:\n${describeError(answer)}`);
    this.world
      .transcriptOf()
      .note(`${this.name} in #${target.name}: ${JSON.stringify(body.content ?? body)}`);
    return answer.body as DiscordMessage;
  }

  /**
   * The channel's messages as this user sees them (`GET /channels/{id}/messages`), newest
   * first, as Discord lists them: at most `limit` (1-100, default 50).
   */
  async history(channel: ChannelRef, { limit = 50 }: { limit?: number } = {}): Promise<DiscordMessage[]> {
    const target = this.world.channel(channel);
    const { token } = await this.open();
    const answer = await callApi(
      this.world.base,
      'GET',
      `/api/v10/channels/${target.id}/messages?limit=${limit}`,
      { token },
    );
    if (answer.status !== 200)
      throw new Error(`${this.name} could not read #${target.name}:\n${describeError(answer)}`);
    return answer.body as DiscordMessage[];
  }

  /** The commands this user can use in the channel, the world's app's only (as the command picker lists them). */
  async commands(channelId: string): Promise<ListedCommand[]> {
    const { token } = await this.open();
    const index = await callApi(
      this.world.base,
      'GET',
      `/api/v10/guilds/${this.world.guild.id}/application-command-index?channel_id=${channelId}`,
      { token },
    );
    if (index.status !== 200)
      throw new Error(`could not list the commands ${this.name} can use:\n${describeError(index)}`);
    return (index.body.application_commands as ListedCommand[]).filter(
      (c) => c.application_id === this.world.app.id,
    );
  }

  /** Closes the user's gateway session. */
  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (opened) (await opened.catch(() => undefined))?.session.close();
  }

  private async contextCommand(
    name: string,
    type: 2 | 3,
    targetId: string,
    action: string,
    options: InvokeOptions,
  ): Promise<InteractionResult> {
    const channel = this.world.channel(options.channel);
    const commands = await this.commands(channel.id);
    const command = commands.find((c) => c.name === name && c.type === type);
    if (!command) {
      const kind = type === 2 ? 'user' : 'message';
      const known = commands.filter((c) => c.type === type).map((c) => `"${c.name}"`);
      throw new Error(
        `no ${kind} command "${name}" here (${known.join(', ') || `no ${kind} commands registered`})`,
      );
    }
    return this.run(`${action}  (#${channel.name})`, options, {
      type: 2,
      channel_id: channel.id,
      data: {
        id: command.id,
        name: command.name,
        type,
        version: command.version,
        target_id: targetId,
        ...(command.guild_id ? { guild_id: command.guild_id } : {}),
      },
    });
  }

  private async run(
    action: string,
    timing: Timing,
    body: Record<string, unknown>,
    source?: DiscordMessage,
  ): Promise<InteractionResult> {
    const { token, session } = await this.open();
    const result = await runInteraction(
      {
        base: this.world.base,
        token,
        session,
        quietMs: timing.quietMs ?? this.world.timing.quietMs,
        finalTimeoutMs: timing.finalTimeoutMs ?? this.world.timing.finalTimeoutMs,
      },
      { application_id: this.world.app.id, guild_id: this.world.guild.id, ...body },
      source,
    );
    this.world.transcriptOf().interaction(this.name, action, result);
    return result;
  }

  private open(): Promise<{ token: string; session: UserSession }> {
    this.opened ??= (async () => {
      const created = await callApi(this.world.base, 'POST', `/admin/users/${this.id}/sessions`, {
        token: `Admin ${this.world.adminToken}`,
      });
      if (created.status !== 201)
        throw new Error(`could not open a session for ${this.name}:\n${describeError(created)}`);
      const session = await UserSession.open(await this.world.gatewayUrl(), created.body.token);
      session.listen((dispatch) => this.world.heard(dispatch));
      return { token: created.body.token as string, session };
    })();
    return this.opened;
  }
}

function describeUser(world: WorldContext, id: string): string {
  return world.userNameOf(id) ?? `user ${id}`;
}

/** The body of a component interaction on `message`. */
function componentBody(
  world: WorldContext,
  message: DiscordMessage,
  data: Record<string, unknown>,
): Record<string, unknown> {
  return {
    type: 3,
    application_id: message.application_id ?? world.app.id,
    channel_id: message.channel_id,
    message_id: message.id,
    data,
  };
}

/** The component `customId` of `message` of one of `types`; throws naming the message's components. */
function findComponent(
  message: DiscordMessage | null | undefined,
  customId: string,
  types: number[],
  verb: string,
): { message: DiscordMessage; component: any; label?: string } {
  if (!message)
    throw new Error(
      `${verb} needs a message with components (a result’s \`response\` or a follow-up), and it is ${String(message)}`,
    );
  const all: any[] = [];
  const visit = (component: any) => {
    if (!component || typeof component !== 'object') return;
    if (component.custom_id !== undefined) all.push(component);
    for (const child of component.components ?? []) visit(child);
    if (component.accessory) visit(component.accessory);
  };
  for (const component of message.components ?? []) visit(component);
  const found = all.find((c) => c.custom_id === customId && types.includes(c.type));
  if (!found) {
    const usable = all.filter((c) => types.includes(c.type)).map((c) => c.custom_id);
    const what = verb === 'click' ? 'button' : 'select';
    throw new Error(
      `message ${message.id} has no ${what} "${customId}" (its ${what}s: ${usable.join(', ') || 'none'})`,
    );
  }
  return { message, component: found, ...(found.label ? { label: found.label } : {}) };
}

/** A modal's inputs by custom_id, and whether each sits in a label (else in a row). */
function listInputs(components: any[]): Map<string, { input: any; inLabel: boolean }> {
  const inputs = new Map<string, { input: any; inLabel: boolean }>();
  const visit = (component: any, inLabel: boolean) => {
    if (!component || typeof component !== 'object') return;
    if (component.type === 18) visit(component.component, true);
    else if (component.custom_id !== undefined && component.type !== 1)
      inputs.set(component.custom_id, { input: component, inLabel });
    for (const child of component.components ?? []) visit(child, inLabel);
  };
  for (const component of components) visit(component, false);
  return inputs;
}
