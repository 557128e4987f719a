import type { SocApiDeps } from './soc-api.context.ts';
import { createSocApiFeeds } from './soc-api-feeds.service.ts';
import { createSocApiIncidents } from './soc-api-incidents.service.ts';

/**
 * The analyst API (issue 13): the provider's analysts and their SIEM/SOAR feed incidents,
 * alerts, comments, EPS, documents, rules and misconfigurations. Every call is limited to the
 * caller's systems (a service token may name some), and every change is audited.
 */
export function createSocApiService(deps: SocApiDeps) {
  return { ...createSocApiIncidents(deps), ...createSocApiFeeds(deps) };
}

export type SocApiService = ReturnType<typeof createSocApiService>;
