/** Query keys of the auth area; everything under `all` is dropped at logout. */
export const authKeys = {
  all: ['auth'] as const,
  user: () => [...authKeys.all, 'user'] as const,
  oidcProviders: () => [...authKeys.all, 'oidc-providers'] as const,
  mfa: () => [...authKeys.all, 'mfa'] as const,
};
