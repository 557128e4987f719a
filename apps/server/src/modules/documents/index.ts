/** Instructions, response instructions and articles, and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { AppContext, AppModule } from '../app-module.ts';
import { documentsRoutes } from './documents.routes.ts';
import { createDocumentsService } from './documents.service.ts';

export type { DocumentsService } from './documents.service.ts';
export { solidPng } from './png.ts';

/** The documents' service over the shared storage (the analyst API writes through it too). */
export const documentsFor = (ctx: AppContext) => createDocumentsService({ db: ctx.db, storage: ctx.storage });

export const documentsModule: AppModule = async (app, { ctx }) => {
  await app.register(documentsRoutes, {
    prefix: `${API_BASE}/soc`,
    documents: documentsFor(ctx),
    storage: ctx.storage,
    config: ctx.config,
  });
};
