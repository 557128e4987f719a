/** The analysts' API (`/analyst/`): incidents, feeds and documents written by the SOC's tools. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { documentsFor } from '../documents/index.ts';
import { incidentCardFor } from '../incidents/index.ts';
import { createIdempotency } from './idempotency.ts';
import { socApiRoutes } from './soc-api.routes.ts';
import { createSocApiService } from './soc-api.service.ts';
import { socQueueRoutes } from './soc-queue.routes.ts';
import { createSocQueueService } from './soc-queue.service.ts';

/** The examples of the API reference (an analyst's tool may start from them). */
export { EXAMPLE_RULE } from './soc-api.examples.ts';

export const socApiModule: AppModule = async (app, { ctx }) => {
  const idempotency = createIdempotency(ctx.db);
  let prunedAt = 0;
  ctx.jobs.addPoller(async () => {
    // forgetting day-old idempotency keys needs no precision: every ten minutes is enough
    if (Date.now() - prunedAt < 600_000) return;
    prunedAt = Date.now();
    await idempotency.prune();
  });
  const socApi = createSocApiService({
    db: ctx.db,
    card: incidentCardFor(ctx),
    documents: documentsFor(ctx),
    // contacts' mail follows the recorded events (see the incidents module's notifier)
    onCreated: async () => undefined,
    onStatus: async () => undefined,
    planGossopka: (incidentId, at) => ctx.gossopka.plan(incidentId, at),
  });
  await app.register(socApiRoutes, {
    prefix: `${API_BASE}/analyst`,
    idempotency,
    publicUrl: ctx.config.publicUrl,
    socApi,
  });
  await app.register(socQueueRoutes, {
    prefix: `${API_BASE}/analyst`,
    config: ctx.config,
    queue: createSocQueueService({ db: ctx.db, socApi }),
  });
};
