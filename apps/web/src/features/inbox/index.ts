// What other features and app/ may use of this feature (design §10.10).
export { NotificationBell } from './components/NotificationBell.tsx';
export { inboxKeys } from './api/inboxKeys.ts';
