import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server started by the global setup. */
    baseUrl: string;
    /** Name of the local OIDC provider (oidc-provider) the server is configured with. */
    oidcProviderName: string;
    /** Login at that provider whose e-mail is carol's. */
    oidcLogin: string;
  }
}
