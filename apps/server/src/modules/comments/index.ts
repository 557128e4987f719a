/** What other modules may use of the comments module (an incident's chat). */
export { commentsRoutes } from './comments.routes.ts';
export { createCommentsService, insertComment } from './comments.service.ts';
export type { CommentsService, NewComment, StatusListener } from './comments.service.ts';
