/** How long codes and tokens live, in seconds (config; see limits.ts for the defaults). */
export interface TokenLifetimes {
  authorizationCode: number;
  accessToken: number;
  refreshToken: number;
}
