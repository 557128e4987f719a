// What other features and app/ may use of this feature (design §10.10). Kept light: the live
// stream's invalidation imports it into the shell, which must not carry the queue's texts.
export { socQueueKeys } from './api/socQueueKeys.ts';
