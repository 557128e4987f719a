/** Live events (`/events/`, server-sent), the event bus, and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { eventsRoutes } from './events.routes.ts';
import { createEventsService } from './events.service.ts';

export { createPgEventBus } from './event-bus.ts';
export type { EventBus, StoredEvent } from './event-bus.ts';
export type { EventListener, LiveListener } from './event-bus.ts';
export { eventVisibleTo } from './events.service.ts';
export { createEventsRepository } from './events.repository.ts';
export type { EventsRepository } from './events.repository.ts';

export const eventsModule: AppModule = async (app, { ctx }) => {
  const events = createEventsService({
    db: ctx.db,
    config: ctx.config,
    bus: ctx.bus,
    heartbeatMs: ctx.eventsHeartbeatMs,
  });
  // open event streams would hold the server open: end them first, clients reconnect elsewhere
  app.addHook('preClose', async () => events.closeAll());
  await app.register(eventsRoutes, { prefix: `${API_BASE}/events`, events });
};
