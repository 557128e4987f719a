/** The comments module (an incident's chat) and what other modules may use of it. */
import { API_BASE } from '@soc/contracts';
import type { AppContext, AppModule } from '../app-module.ts';
import { incidentCaches } from '../incidents/index.ts';
import { commentsRoutes } from './comments.routes.ts';
import { createCommentsService } from './comments.service.ts';

export { createCommentsService, insertComment } from './comments.service.ts';
export type { CommentsService, NewComment, StatusListener } from './comments.service.ts';

/** The chat's service over the shared incident caches (the card's routes post through it too). */
export function commentsFor(ctx: AppContext) {
  return createCommentsService({
    db: ctx.db,
    config: ctx.config,
    storage: ctx.storage,
    // contacts' mail follows the recorded events (see the incidents module's notifier)
    onStatus: async () => undefined,
    responses: incidentCaches(ctx.caches, ctx.db).incidents,
  });
}

export const commentsModule: AppModule = async (app, { ctx }) => {
  await app.register(commentsRoutes, {
    prefix: `${API_BASE}/soc/incs`,
    comments: commentsFor(ctx),
    config: ctx.config,
  });
};
