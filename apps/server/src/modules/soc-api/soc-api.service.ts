import type { Db } from '../../db/client.ts';
import { createAlertsRepository } from '../alerts/index.ts';
import type { DocumentsService } from '../documents/index.ts';
import type { StatusListener } from '../comments/index.ts';
import type { IncidentCardService } from '../incidents/index.ts';
import { createSocApiFeeds } from './soc-api-feeds.service.ts';
import { createSocApiIncidents } from './soc-api-incidents.service.ts';

export interface SocApiDeps {
  db: Db;
  card: IncidentCardService;
  documents: DocumentsService;
  onCreated: (incidentId: string) => Promise<void>;
  onStatus: StatusListener;
  planGossopka: (incidentId: string, at: Date) => Promise<void>;
}

/** What the analyst API's operations are made with. */
export interface SocApiContext extends SocApiDeps {
  alertsRepo: ReturnType<typeof createAlertsRepository>;
}

/**
 * The analyst API (issue 13): the provider's analysts and their SIEM/SOAR feed incidents,
 * alerts, comments, EPS, documents, rules and misconfigurations. Every call is limited to the
 * caller's systems (a service token may name some), and every change is audited.
 */
export function createSocApiService(deps: SocApiDeps) {
  const context: SocApiContext = { ...deps, alertsRepo: createAlertsRepository(deps.db) };
  return { ...createSocApiIncidents(context), ...createSocApiFeeds(context) };
}

export type SocApiService = ReturnType<typeof createSocApiService>;
