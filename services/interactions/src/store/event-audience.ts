/**
 * The events' audiences are decided in domain/ (interaction-events.ts); re-exported here for
 * the stores that still import them from store/.
 */
export { interactionAudienceOf, messageAudienceOf } from '../domain/interaction-events';
