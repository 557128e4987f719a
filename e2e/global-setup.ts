import type { TestProject } from 'vitest/node';
import { startTestIdp } from '../apps/server/src/test/oidc-idp.ts';
import { ensureChromium } from './support/browser.ts';
import { freePort, startServer } from './support/server.ts';

/**
 * The identity provider of the OIDC sign-in tests: an IdP account with carol's e-mail (carol has
 * a password, so it is never linked to her) and one that the portal does not know yet.
 */
const E2E_IDP = { name: 'Local IdP', login: 'idp-carol', newLogin: 'idp-zoya' } as const;

/**
 * One server for the whole browser suite; each test file signs in as its own users. A real
 * OpenID provider (`oidc-provider`) runs beside it for the OIDC sign-in test.
 */
export default async function setup(project: TestProject) {
  ensureChromium();
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/api/v0/auth/oidc/${encodeURIComponent(E2E_IDP.name)}/callback/`;
  const idp = await startTestIdp({
    clients: [
      { client_id: 'portal-e2e', client_secret: 'portal-e2e-secret-portal-e2e', redirect_uris: [callback] },
    ],
    accounts: {
      [E2E_IDP.login]: { email: 'carol@customer3.example' },
      [E2E_IDP.newLogin]: { email: 'zoya@customer3.example', name: 'Зоя Зайцева' },
    },
  });
  const server = await startServer(
    {
      OIDC_PROVIDERS: JSON.stringify([
        {
          name: E2E_IDP.name,
          issuer: idp.issuer,
          client_id: 'portal-e2e',
          client_secret: 'portal-e2e-secret-portal-e2e',
          auto_create: true,
          allow_http: true,
        },
      ]),
    },
    port,
  );
  project.provide('baseUrl', server.url);
  project.provide('oidcProviderName', E2E_IDP.name);
  project.provide('oidcLogin', E2E_IDP.login);
  project.provide('oidcNewLogin', E2E_IDP.newLogin);
  return async () => {
    await server.stop();
    await idp.stop();
  };
}
