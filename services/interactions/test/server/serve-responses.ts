import * as grpc from '@grpc/grpc-js';
import { loadInteractionsProto, type interactions } from '@acs/protos';
import {
  callUnary,
  CLIENT_CHANNEL_OPTIONS,
  createLogger,
  fromGrpcError,
  type GrpcServer,
} from '@acs/service-kit';
import type { DiscordError } from '@acs/discord-errors';
import type { JsonObject } from '@acs/validation';
import type { OAuthClient } from '../../src/clients/oauth-client';
import { createServer } from '../../src/create-server';
import { createResponder } from '../../src/handlers/responder';
import type { ResponseContext } from '../store/response-fixtures';

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
      };
    },
  };
  const server: GrpcServer = createServer({
    logger: createLogger('interactions-test', 'silent'),
    isReady: async () => true,
    responder: createResponder({ responses: ctx.responses, oauth }),
    responses: ctx.responses,
    messages: ctx.messages,
    oauth,
  });
  const port = await server.listen('127.0.0.1:0');
  const client = new (loadInteractionsProto().acs.interactions.v1.InteractionsService)(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    CLIENT_CHANNEL_OPTIONS,
  );
  return {
    applications,
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
    },
  };
}
