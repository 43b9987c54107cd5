import { AttachmentStore } from '../../src/store/attachment-rows';
import * as grpc from '@grpc/grpc-js';
import { loadInteractionsProto, type interactions } from '@acs/protos';
import {
  callUnary,
  CLIENT_CHANNEL_OPTIONS,
  createLogger,
  fromGrpcError,
  type GrpcServer,
} from '@acs/service-kit';
import { UnknownResourceError, type DiscordError } from '@acs/discord-errors';
import { PUBLIC_ONLY, WebhookPoster } from '@acs/outbound';
import type { JsonObject } from '@acs/validation';
import type { OAuthClient } from '../../src/clients/oauth-client';
import { createServer } from '../../src/create-server';
import { FollowOnSourcesStore } from '../../src/store/follow-on-sources-store';
import { DeadlineKeeper } from '../../src/delivery/deadline-keeper';
import { HttpDelivery } from '../../src/delivery/http-delivery';
import { OutcomeListener } from '../../src/delivery/outcome-listener';
import { OutcomeWaiter } from '../../src/delivery/outcome-waiter';
import { ApplicationFactsMemo } from '../../src/handlers/application-facts';
import { createResponder } from '../../src/handlers/responder';
import { InteractionStore } from '../../src/store/interaction-store';
import type { ResponseContext } from '../store/response-fixtures';

import type { ChannelAccess } from '../../src/domain/pins';
import { PinStore } from '../../src/store/pin-store';
import { ChannelMessageStore } from '../../src/store/channel-message-store';
import { SearchStore } from '../../src/store/search-store';
import { ReactionStore } from '../../src/store/reaction-store';
import { AutoModStore } from '../../src/store/automod-store';
import { TEST_SIGNER } from '../support/test-signer';
/** What the fake oauth answers for every application: its bot user and flags. */
export interface FakeApplications {
  botUser: JsonObject;
  flags: number;
  /** DescribeInvocation calls made, by application id. */
  asked: string[];
}

/** interactions served over real gRPC on a free port, and a client of it. */
export interface ResponsesOverGrpc {
  applications: FakeApplications;
  /** What the fake permissions answers about the caller's place in a channel; undefined: 10003. */
  channelAccess: { current: ChannelAccess | undefined };
  call<Req, Res>(method: keyof interactions.InteractionsServiceClient & string, request: Req): Promise<Res>;
  /** The DiscordError a call fails with, read back from the gRPC status detail. */
  errorOf(promise: Promise<unknown>): Promise<DiscordError>;
  close(): Promise<void>;
}

/**
 * Serves the response and message routes through `createServer` on the stores of `ctx`,
 * with oauth faked at its client interface (the network edge).
 */
export async function serveResponses(ctx: ResponseContext, botUser: JsonObject): Promise<ResponsesOverGrpc> {
  const applications: FakeApplications = { botUser, flags: 0, asked: [] };
  const channelAccess: { current: ChannelAccess | undefined } = { current: undefined };
  const oauth: OAuthClient = {
    async describeInvocation(query) {
      applications.asked.push(query.applicationId);
      return {
        application: { id: query.applicationId },
        applicationFlags: applications.flags,
        interactionsEndpointUrl: null,
        signingKeyPem: '',
        integrationTypes: [0],
        botUser: applications.botUser,
        user: {},
        userLocale: 'en-US',
        guildInstalled: true,
        userInstalled: false,
        resolvedUsers: {},
        entitlements: [],
      };
    },
    async users() {
      return new Map();
    },
  };
  const logger = createLogger('interactions-test', 'silent');
  // The invocation side is served too (createServer registers every RPC), with peers that
  // know no command and no channel: these tests record their interactions directly.
  const windows = { deadlineMs: 3000, tokenTtlSeconds: 900, sweepIntervalMs: 1000 };
  const facts = new ApplicationFactsMemo(windows.deadlineMs);
  const responder = createResponder({
    responses: ctx.responses,
    oauth,
    applications: facts,
    traces: ctx.traces,
  });
  const traces = ctx.traces;
  const interactions = new InteractionStore(ctx.pool, windows);
  const poster = new WebhookPoster({ policy: PUBLIC_ONLY, timeoutMs: 1000, maxSocketsPerDestination: 1 });
  const server: GrpcServer = createServer({
    logger,
    isReady: async () => true,
    responder,
    responses: ctx.responses,
    traces,
    messages: ctx.messages,
    attachments: new AttachmentStore(ctx.pool),
    oauth,
    registry: { invocableCommand: async () => undefined },
    permissions: {
      describeInvocationContext: async () => {
        throw new UnknownResourceError(10003, 'Unknown Channel');
      },
      describeChannelAccess: async () => {
        if (!channelAccess.current) throw new UnknownResourceError(10003, 'Unknown Channel');
        return channelAccess.current;
      },
      describeSenderAccess: async () => {
        if (!channelAccess.current) throw new UnknownResourceError(10003, 'Unknown Channel');
        return { access: channelAccess.current, member: null, knownRoleIds: [] };
      },
      listChannelsWith: async () => {
        throw new UnknownResourceError(10004, 'Unknown Guild');
      },
      ruleManager: async () => {
        throw new UnknownResourceError(10004, 'Unknown Guild');
      },
      guildFacts: async () => {
        throw new UnknownResourceError(10004, 'Unknown Guild');
      },
      timeOutMember: async () => {
        throw new UnknownResourceError(10004, 'Unknown Guild');
      },
    },
    interactions,
    sources: new FollowOnSourcesStore(ctx.pool),
    ids: ctx.ids,
    applications: facts,
    http: new HttpDelivery({
      poster,
      responder,
      fail: (id, failure) => interactions.failIfPending(id, failure, false),
      noteDelivery: (id, delivery, sentAt) => traces.noteDelivery(id, delivery, sentAt),
      logger,
    }),
    deadlines: new DeadlineKeeper(interactions, { ...windows, logger }),
    outcomes: new OutcomeWaiter(new OutcomeListener(ctx.pool, logger), interactions),
    windows,
    pins: new PinStore(ctx.pool),
    channelMessages: new ChannelMessageStore(ctx.pool, ctx.ids, TEST_SIGNER),
    signer: TEST_SIGNER,
    reactions: new ReactionStore(ctx.pool),
    search: new SearchStore(ctx.pool),
    searchIndexDelayMs: 0,
    automod: new AutoModStore(ctx.pool, ctx.ids),
  });
  const port = await server.listen('127.0.0.1:0');
  const client = new (loadInteractionsProto().acs.interactions.v1.InteractionsService)(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    CLIENT_CHANNEL_OPTIONS,
  );
  return {
    applications,
    channelAccess,
    call: (method, request) => callUnary(client, client[method] as never, request),
    async errorOf(promise) {
      try {
        await promise;
      } catch (caught) {
        const error = fromGrpcError(caught);
        if (!error) throw caught;
        return error;
      }
      throw new Error('expected the call to fail');
    },
    async close() {
      client.close();
      await server.drain();
      poster.close();
    },
  };
}
