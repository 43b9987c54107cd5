export { parseAddressPolicy, PUBLIC_ONLY, refusalOf, type AddressPolicy } from './address-policy';
export { signatureTimestamp, signWebhook } from './sign-webhook';
export { WebhookPoster, type PostOutcome, type Resolver, type WebhookPosterOptions } from './webhook-poster';
