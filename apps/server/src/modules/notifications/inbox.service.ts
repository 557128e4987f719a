import type { InboxCount } from '@soc/contracts';
import { PortalEventSchema, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import { stoppedAt } from '../../lib/pagination.ts';
import type { EventsRepository } from '../events/index.ts';
import { createInboxRepository } from './inbox.repository.ts';
import { NOTIFY_INBOX_JOB } from './notifications.repository.ts';
import { presentInboxItem } from './inbox.presenter.ts';

export { NOTIFY_INBOX_JOB };

export interface InboxDeps {
  db: Db;
  events: EventsRepository;
}

/** A count stopped at `cap` + 1 as the answer says it: past the cap, `cap` and not exact. */
export const cappedCount = (n: number, cap: number): InboxCount => {
  const { total, exact } = stoppedAt(n, cap);
  return { unread: total, unread_exact: exact };
};

/**
 * The notification centre (issue 40): the `notify.inbox` job writes a user's items from the
 * dispatched events and signals the user's open streams; the routes page, count and mark them.
 * A caller only ever reaches their own items, of systems still theirs.
 */
export function createInboxService({ db, events }: InboxDeps) {
  const repo = createInboxRepository(db);
  const unread = async (auth: AuthContext) =>
    cappedCount(await repo.count(auth.userId, systemScope(auth), true), TOTAL_COUNT_CAP);

  return {
    /** Job: the items of one event, then the signal to the users who got one. */
    async runEvent(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      // a job's payload is data from the queue: parsed like the mail jobs', never cast
      const users = await repo.fanOut(Number(payload.eventId), PortalEventSchema.parse(payload.kind));
      await events.signalInbox(users);
      return { items: users.length };
    },

    async list(auth: AuthContext, onlyUnread: boolean, page: number, pageSize: number) {
      const scope = systemScope(auth);
      const [rows, n] = await Promise.all([
        repo.page(auth.userId, scope, onlyUnread, pageSize, (page - 1) * pageSize),
        repo.count(auth.userId, scope, onlyUnread),
      ]);
      const total = cappedCount(n, TOTAL_COUNT_CAP);
      return { total: total.unread, total_exact: total.unread_exact, results: rows.map(presentInboxItem) };
    },

    count: unread,

    async markRead(auth: AuthContext, id: number): Promise<InboxCount> {
      if (!(await repo.markRead(auth.userId, systemScope(auth), id))) throw notFound();
      await events.signalInbox([auth.userId]);
      return unread(auth);
    },

    async markAllRead(auth: AuthContext, upTo: number): Promise<InboxCount> {
      await repo.markAllRead(auth.userId, upTo);
      await events.signalInbox([auth.userId]);
      return unread(auth);
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
