export { parseAddressPolicy, PUBLIC_ONLY, refusalOf, type AddressPolicy } from './address-policy';
export { checkDestination, type CheckedDestination, type Resolver } from './destination';
export { DocumentFetcher, type DocumentFetcherOptions, type FetchOutcome } from './document-fetcher';
export { signatureTimestamp, signWebhook } from './sign-webhook';
export { WebhookPoster, type PostOutcome, type WebhookPosterOptions } from './webhook-poster';
