import type { SQL } from 'drizzle-orm';
import { and, asc, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { TaskListQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { systems, taskAttachments, taskMessages, tasks, users } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type TaskRow = typeof tasks.$inferSelect;
export type TaskMessageRow = typeof taskMessages.$inferSelect;
export type TaskAttachmentRow = typeof taskAttachments.$inferSelect;
export type TaskListRow = { task: TaskRow; system: { id: number; isId: string; fullName: string } };

const ORDER: Record<TaskListQuery['ordering'], SQL[]> = {
  '-updated': [desc(tasks.updated), desc(tasks.id)],
  updated: [asc(tasks.updated), asc(tasks.id)],
  '-created': [desc(tasks.created), desc(tasks.id)],
  created: [asc(tasks.created), asc(tasks.id)],
  '-priority': [desc(tasks.priorityRank), desc(tasks.updated), desc(tasks.id)],
  priority: [asc(tasks.priorityRank), asc(tasks.updated), asc(tasks.id)],
  status: [asc(tasks.statusRank), desc(tasks.updated), desc(tasks.id)],
  '-status': [desc(tasks.statusRank), desc(tasks.updated), desc(tasks.id)],
};

export const scopeCondition = (scope: SystemScope): SQL | undefined => inScope(tasks.systemId, scope);

function filterCondition(q: TaskListQuery): SQL | undefined {
  const pattern = q.search ? likePattern(q.search) : null;
  const number = q.search && /^#?\d{1,15}$/.test(q.search) ? Number(q.search.replace('#', '')) : null;
  return and(
    pattern
      ? or(
          sql`${tasks.subject} ILIKE ${pattern}`,
          sql`${tasks.description} ILIKE ${pattern}`,
          number !== null ? eq(tasks.id, number) : undefined,
        )
      : undefined,
    q.status__in ? inArray(tasks.status, q.status__in) : undefined,
    q.type__in ? inArray(tasks.type, q.type__in) : undefined,
    q.priority__in ? inArray(tasks.priority, q.priority__in) : undefined,
    q.system__in ? inArray(tasks.systemId, q.system__in) : undefined,
    q.created__gte !== undefined ? gte(tasks.created, new Date(q.created__gte)) : undefined,
    q.created__lte !== undefined ? lte(tasks.created, new Date(q.created__lte)) : undefined,
  );
}

const listSelect = {
  task: tasks,
  system: { id: systems.id, isId: systems.isId, fullName: systems.fullName },
};

export function createTasksRepository(db: Db) {
  return {
    async list(scope: SystemScope, q: TaskListQuery): Promise<{ rows: TaskListRow[]; total: number }> {
      const where = and(scopeCondition(scope), filterCondition(q));
      const [rows, [count]] = await Promise.all([
        db
          .select(listSelect)
          .from(tasks)
          .innerJoin(systems, eq(systems.id, tasks.systemId))
          .where(where)
          .orderBy(...ORDER[q.ordering])
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(tasks)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async get(scope: SystemScope, id: number): Promise<TaskListRow | null> {
      const [row] = await db
        .select(listSelect)
        .from(tasks)
        .innerJoin(systems, eq(systems.id, tasks.systemId))
        .where(and(eq(tasks.id, id), scopeCondition(scope)))
        .limit(1);
      return row ?? null;
    },

    /** Locks a task the caller may see inside a transaction; null when there is none. */
    async lock(scope: SystemScope, id: number): Promise<TaskRow | null> {
      const [row] = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.id, id), scopeCondition(scope)))
        .for('update');
      return row ?? null;
    },

    async systemExists(id: number): Promise<boolean> {
      const [row] = await db.select({ id: systems.id }).from(systems).where(eq(systems.id, id)).limit(1);
      return Boolean(row);
    },

    async insertTask(values: typeof tasks.$inferInsert): Promise<TaskRow> {
      const [row] = await db.insert(tasks).values(values).returning();
      return row!;
    },

    async updateTask(id: number, values: Partial<typeof tasks.$inferInsert>): Promise<void> {
      await db.update(tasks).set(values).where(eq(tasks.id, id));
    },

    async insertMessage(values: typeof taskMessages.$inferInsert): Promise<TaskMessageRow> {
      const [row] = await db.insert(taskMessages).values(values).returning();
      return row!;
    },

    async insertAttachments(values: (typeof taskAttachments.$inferInsert)[]): Promise<void> {
      if (values.length) await db.insert(taskAttachments).values(values);
    },

    async messages(taskId: number, limit: number, offset: number, search?: string) {
      const where = and(
        eq(taskMessages.taskId, taskId),
        search
          ? or(
              sql`${taskMessages.body} ILIKE ${likePattern(search)}`,
              sql`${taskMessages.authorName} ILIKE ${likePattern(search)}`,
            )
          : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(taskMessages)
          .where(where)
          .orderBy(asc(taskMessages.created), asc(taskMessages.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(taskMessages)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async message(id: number): Promise<TaskMessageRow | null> {
      const [row] = await db.select().from(taskMessages).where(eq(taskMessages.id, id)).limit(1);
      return row ?? null;
    },

    /** Files of these messages, by message id. */
    async messageAttachments(messageIds: number[]): Promise<Map<number, TaskAttachmentRow[]>> {
      const out = new Map<number, TaskAttachmentRow[]>();
      if (!messageIds.length) return out;
      const rows = await db
        .select()
        .from(taskAttachments)
        .where(inArray(taskAttachments.messageId, messageIds))
        .orderBy(taskAttachments.created, taskAttachments.filename);
      for (const r of rows) {
        const list = out.get(r.messageId!) ?? [];
        list.push(r);
        out.set(r.messageId!, list);
      }
      return out;
    },

    /** Files attached to the task itself (when it was opened). */
    async taskAttachments(taskId: number): Promise<TaskAttachmentRow[]> {
      return db
        .select()
        .from(taskAttachments)
        .where(and(eq(taskAttachments.taskId, taskId), isNull(taskAttachments.messageId)))
        .orderBy(taskAttachments.created, taskAttachments.filename);
    },

    async attachment(taskId: number, id: string): Promise<TaskAttachmentRow | null> {
      const [row] = await db
        .select()
        .from(taskAttachments)
        .where(and(eq(taskAttachments.id, id), eq(taskAttachments.taskId, taskId)))
        .limit(1);
      return row ?? null;
    },

    /** A task with its author's account, for the mail about a reply. */
    async withAuthor(taskId: number) {
      const [row] = await db
        .select({
          id: tasks.id,
          type: tasks.type,
          subject: tasks.subject,
          status: tasks.status,
          email: users.email,
          locale: users.locale,
          active: users.isActive,
          role: users.role,
        })
        .from(tasks)
        .innerJoin(users, eq(users.id, tasks.authorId))
        .where(eq(tasks.id, taskId));
      return row;
    },
  };
}
export type TasksRepository = ReturnType<typeof createTasksRepository>;
