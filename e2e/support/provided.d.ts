import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server started by the global setup. */
    baseUrl: string;
    /** Name of the local OIDC provider (oidc-provider) the server is configured with. */
    oidcProviderName: string;
    /** Login at that provider whose (verified) e-mail is carol's: never linked to her account. */
    oidcLogin: string;
    /** Login at that provider with a verified e-mail unknown to the portal (an account is created). */
    oidcNewLogin: string;
  }
}
