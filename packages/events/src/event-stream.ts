/** The JetStream stream every service publishes to, by default. */
export const EVENTS_STREAM = 'ACS_EVENTS';
/** The first token of every event subject, by default (`acs.<service>.<type>`). */
export const EVENTS_SUBJECT_PREFIX = 'acs';

/**
 * Where events go: the stream and the subject prefix it captures (`<prefix>.>`). One
 * deployment uses the defaults; test stacks sharing one NATS server each use their own.
 */
export interface EventStreamConfig {
  stream: string;
  subjectPrefix: string;
  /**
   * How long the stream keeps an event (its `max_age`); unset: the stream is created
   * without a limit and an existing stream's limit is left as it is.
   */
  maxAgeMs?: number;
  /**
   * How many servers of a NATS cluster keep each event (the stream's `num_replicas`): set
   * on creation, and on an existing stream whose count differs. Unset: the stream is
   * created with one replica and an existing stream's count is left as it is.
   */
  replicas?: number;
}

/** The defaults: stream `ACS_EVENTS`, subjects `acs.>`. */
export const DEFAULT_EVENT_STREAM: EventStreamConfig = {
  stream: EVENTS_STREAM,
  subjectPrefix: EVENTS_SUBJECT_PREFIX,
};

/** The event settings of a service's config (service-kit's `commonConfig`). */
export interface EventSettings {
  EVENTS_STREAM: string;
  EVENTS_SUBJECT_PREFIX: string;
  EVENTS_RETENTION_HOURS: number;
  EVENTS_STREAM_REPLICAS: number;
}

/**
 * The stream a service's config names, keeping events for EVENTS_RETENTION_HOURS on
 * EVENTS_STREAM_REPLICAS servers.
 */
export function eventStreamOf(config: EventSettings): Required<EventStreamConfig> {
  return {
    stream: config.EVENTS_STREAM,
    subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
    maxAgeMs: config.EVENTS_RETENTION_HOURS * 60 * 60 * 1000,
    replicas: config.EVENTS_STREAM_REPLICAS,
  };
}

/**
 * The subject an outbox row is published on. Rows store `acs.<service>.<type>` (written
 * before the deployment's prefix is known to the store); the relay swaps the first token.
 */
export function publishedSubject(storedSubject: string, subjectPrefix: string): string {
  const dot = storedSubject.indexOf('.');
  return dot < 0 ? `${subjectPrefix}.${storedSubject}` : `${subjectPrefix}${storedSubject.slice(dot)}`;
}

/** The event's subject without its prefix: `oauth.application.authorized`. */
export function subjectWithoutPrefix(subject: string, subjectPrefix: string): string {
  return subject.startsWith(`${subjectPrefix}.`) ? subject.slice(subjectPrefix.length + 1) : subject;
}
