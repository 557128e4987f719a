// What the analyst API's operations are made with, apart from the service that combines them
// (soc-api.service.ts), so that the operations' files need nothing of it.
import type { Db } from '../../db/client.ts';
import type { StatusListener } from '../incidents/index.ts';
import type { DocumentsService } from '../documents/index.ts';
import type { IncidentCardService } from '../incidents/index.ts';

export interface SocApiDeps {
  db: Db;
  card: IncidentCardService;
  documents: DocumentsService;
  onCreated: (incidentId: string) => Promise<void>;
  onStatus: StatusListener;
  planGossopka: (incidentId: string, at: Date) => Promise<void>;
}

/** What the analyst API's operations are made with. */
export type SocApiContext = SocApiDeps;
