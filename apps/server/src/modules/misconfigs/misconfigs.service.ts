import type {
  Misconfig,
  MisconfigAction,
  MisconfigActionPayload,
  MisconfigDetail,
  MisconfigGroupListQuery,
  MisconfigListQuery,
} from '@soc/contracts';
import { MISCONFIG_ACTION_RULES, MisconfigActionPayloadSchema } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentHistoryEntry, presentMisconfig, presentMisconfigGroup } from './misconfigs.presenter.ts';
import { createMisconfigsRepository } from './misconfigs.repository.ts';

/** Status changes shown in the detail panel. */
const HISTORY_LIMIT = 50;

/**
 * Security recommendations (/misconfigs): misconfigurations of the caller's systems. A
 * customer marks one fixed or accepts its risk (with a comment); every change goes to the
 * audit log, which is also the history the detail shows.
 */
export function createMisconfigsService({ db }: { db: Db }) {
  const repo = createMisconfigsRepository(db);

  async function detail(auth: AuthContext, id: number): Promise<MisconfigDetail> {
    const row = await repo.get(systemScope(auth), id);
    if (!row) throw notFound();
    const history = await repo.history(id, HISTORY_LIMIT);
    return {
      ...presentMisconfig(row),
      history: history.map(presentHistoryEntry).filter((e) => e !== null),
    };
  }

  return {
    async list(auth: AuthContext, q: MisconfigListQuery): Promise<{ total: number; results: Misconfig[] }> {
      const { rows, total } = await repo.list(systemScope(auth), q);
      return { total, results: rows.map(presentMisconfig) };
    },

    /** The recommendations grouped by title (product §A2 /misconfigs, issue 40 flaw 7). */
    async groups(auth: AuthContext, q: MisconfigGroupListQuery) {
      const { rows, total, exact } = await repo.groups(systemScope(auth), q);
      return { total, exact, results: rows.map(presentMisconfigGroup) };
    },

    /** The incident tab: misconfigurations linked to an incident the caller may see. */
    async ofIncident(incidentId: string, q: { page: number; page_size: number }) {
      const { rows, total } = await repo.ofIncident(incidentId, q.page_size, (q.page - 1) * q.page_size);
      return { total, results: rows.map(presentMisconfig) };
    },

    detail,

    /** Applies an action (fix, accept_risk, reopen) if the current status allows it. */
    async act(
      auth: AuthContext,
      id: number,
      action: MisconfigAction,
      payload: MisconfigActionPayload,
      ip: string,
    ): Promise<MisconfigDetail> {
      const { comment } = MisconfigActionPayloadSchema.parse(payload);
      const rule = MISCONFIG_ACTION_RULES[action];
      const change = await db.transaction(async (tx) => {
        const writes = createMisconfigsRepository(tx);
        const row = await writes.lock(systemScope(auth), id);
        if (!row) throw notFound();
        if (!rule.from.includes(row.status)) {
          throw badRequest({
            non_field_errors: [msg('misconfigActionNotPossible', row.status, action)],
          });
        }
        if (rule.commentRequired && !comment) throw badRequest({ comment: [msg('fieldRequired')] });
        await writes.setStatus(id, { status: rule.to, comment, userId: auth.userId, at: new Date() });
        return { from: row.status, to: rule.to };
      });
      await audit(db, {
        userId: auth.userId,
        action: `misconfig.${action}`,
        objectType: 'misconfig',
        objectId: id,
        ip,
        details: { ...change, comment },
      });
      return detail(auth, id);
    },
  };
}
export type MisconfigsService = ReturnType<typeof createMisconfigsService>;
