import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskDetail } from '@soc/contracts';
import {
  CommentListResponseSchema,
  CommentSchema,
  TaskDetailSchema,
  TaskListResponseSchema,
} from '@soc/contracts';
import { auditLog, tasks } from '../../db/schema/index.ts';
import { buildAnalyst, buildCustomer, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { multipart } from '../../test/multipart.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** The customer's system and another tenant's. */
let ownSystem: number;
let otherSystem: number;
let customerEmail: string;

const post = (user: string, url: string, form: ReturnType<typeof multipart>) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/soc${url}`,
    headers: { ...bearer(tokens[user]!), ...form.headers },
    payload: form.payload,
  });
const postJson = (user: string, url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v0/soc${url}`, headers: bearer(tokens[user]!), payload });
const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(tokens[user]!) });

async function createTask(
  user: string,
  fields: Record<string, string> = {},
  files: Parameters<typeof multipart>[1] = [],
) {
  const res = await post(
    user,
    '/tasks/',
    multipart(
      {
        system: String(ownSystem),
        type: 'rule_development',
        subject: 'Detect RDP from the internet',
        description: 'Please **alert** on RDP logons from external addresses.',
        priority: 'high',
        ...fields,
      },
      files,
    ),
  );
  expect(res.statusCode, res.body).toBe(201);
  return TaskDetailSchema.parse(res.json());
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  ownSystem = own.id;
  otherSystem = other.id;
  const customer = await buildCustomer(ctx, [own.id]);
  customerEmail = `${customer.username}@test.example`;
  tokens.customer = await customer.login();
  tokens.otherTenant = await (await buildCustomer(ctx, [other.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
});
afterAll(() => ctx.close());

describe('tasks', () => {
  it('lists the tasks of the caller’s systems only, with filters, search and ordering', async () => {
    const own = await createTask('customer');
    const other = await createTask('otherTenant', { system: String(otherSystem), type: 'question' });
    const mine = TaskListResponseSchema.parse((await get('customer', '/tasks/')).json());
    expect(mine.results.map((t) => t.id)).toEqual([own.id]);
    expect(mine.results.every((t) => t.system.id === ownSystem)).toBe(true);
    const all = TaskListResponseSchema.parse((await get('analyst', '/tasks/?page_size=200')).json());
    expect(all.results.map((t) => t.id)).toEqual(expect.arrayContaining([own.id, other.id]));
    expect(new Set(all.results.map((t) => t.system.id)).size).toBeGreaterThan(1);
    const updated = all.results.map((t) => t.updated);
    expect(updated).toEqual([...updated].sort((a, b) => b - a));

    const open = TaskListResponseSchema.parse(
      (await get('analyst', '/tasks/?status__in=open,in_progress')).json(),
    );
    expect(open.results.every((t) => ['open', 'in_progress'].includes(t.status))).toBe(true);
    const created = await createTask('customer', { subject: 'Unique zebra subject', type: 'question' });
    const found = TaskListResponseSchema.parse((await get('customer', '/tasks/?search=%20zebra%20')).json());
    expect(found.results.map((t) => t.id)).toEqual([created.id]);
    const byType = TaskListResponseSchema.parse(
      (await get('customer', '/tasks/?type__in=question&ordering=created')).json(),
    );
    expect(byType.results.every((t) => t.type === 'question')).toBe(true);
    // the other tenant's question is not the customer's
    expect(byType.results.map((t) => t.id)).toEqual([created.id]);
    const paged = TaskListResponseSchema.parse((await get('analyst', '/tasks/?page_size=2')).json());
    expect(paged.results).toHaveLength(2);
    expect(paged.next).toContain('page=2');
  });

  it('opens a task with a file, shows it with the statuses a customer may set, and audits it', async () => {
    const task = await createTask('customer', {}, [
      { name: 'схема.png', type: 'image/png', body: Buffer.from('\x89PNG\r\n\x1a\nrest', 'latin1') },
    ]);
    expect(task).toMatchObject({
      status: 'open',
      type: 'rule_development',
      priority: 'high',
      messages_count: 0,
      available_statuses: ['closed'],
    });
    expect(task.rendered_description).toContain('<strong>alert</strong>');
    expect(task.attachments.map((a) => [a.filename, a.content_type])).toEqual([['схема.png', 'image/png']]);
    const download = await ctx.app.inject({
      method: 'GET',
      url: task.attachments[0]!.link,
      headers: bearer(tokens.customer!),
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    const entries = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'task'), eq(auditLog.objectId, String(task.id))));
    expect(entries.map((e) => e.action)).toContain('task.create');
  });

  it('runs the chat workflow: the analyst’s reply starts work and e-mails the author; the customer’s answer hands it back', async () => {
    const task = await createTask('customer');
    const reply = await post(
      'analyst',
      `/tasks/${task.id}/messages/`,
      multipart({ body: 'Which hosts? <b>srv</b>' }, [
        { name: 'log.txt', type: 'text/plain', body: Buffer.from('lines') },
      ]),
    );
    expect(reply.statusCode, reply.body).toBe(201);
    const message = CommentSchema.parse(reply.json());
    expect(message).toMatchObject({ from_soc: true, is_mine: true, source: 'API' });
    // the chat composer is plain text: typed HTML stays text, as in incident comments
    expect(message.body).toBe('<p>Which hosts? &lt;b&gt;srv&lt;/b&gt;</p>');
    expect(message.attachments[0]!.link).toBe(
      `/api/v0/soc/tasks/${task.id}/attachments/${message.attachments[0]!.id}/download/`,
    );
    let shown = TaskDetailSchema.parse((await get('customer', `/tasks/${task.id}/`)).json());
    expect(shown).toMatchObject({ status: 'in_progress', messages_count: 1, last_from_soc: true });

    await ctx.app.jobs.runDue();
    const outbox = ctx.config.mail.outboxDir;
    const mails = await Promise.all(
      (await readdir(outbox)).map(async (f) => PostalMime.parse(await readFile(path.join(outbox, f)))),
    );
    const mail = mails.find((m) => m.subject?.includes(`[TASK-${task.id}]`));
    expect(mail?.to?.[0]?.address).toBe(customerEmail);
    expect(mail?.text).toContain('Which hosts?');
    expect(mail?.text).toContain(`/issues/issues/task?model=request&type=rule_development&id=${task.id}`);

    // waiting for the customer: the answer hands it back to the SOC
    const toWaiting = await postJson('analyst', `/tasks/${task.id}/status/`, {
      status: 'waiting_for_customer',
    });
    expect(toWaiting.statusCode, toWaiting.body).toBe(200);
    const answer = await post(
      'customer',
      `/tasks/${task.id}/messages/`,
      multipart({ body: 'srv-01 and srv-02' }),
    );
    expect(answer.statusCode, answer.body).toBe(201);
    shown = TaskDetailSchema.parse((await get('customer', `/tasks/${task.id}/`)).json());
    expect(shown).toMatchObject({ status: 'in_progress', messages_count: 2, last_from_soc: false });

    const chat = CommentListResponseSchema.parse(
      (await get('customer', `/tasks/${task.id}/messages/?no_page=true`)).json(),
    );
    expect(chat.results.map((m) => [m.from_soc, m.is_mine])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(chat.results[0]!.attachments).toHaveLength(1);

    // resolved by the SOC; the customer closes it and can no longer write
    expect((await postJson('analyst', `/tasks/${task.id}/status/`, { status: 'resolved' })).statusCode).toBe(
      200,
    );
    shown = TaskDetailSchema.parse((await get('customer', `/tasks/${task.id}/`)).json());
    expect(shown.available_statuses).toEqual(['open', 'closed']);
    const closed = await postJson('customer', `/tasks/${task.id}/status/`, { status: 'closed' });
    expect(TaskDetailSchema.parse(closed.json()).status).toBe('closed');
    const late = await post('customer', `/tasks/${task.id}/messages/`, multipart({ body: 'one more thing' }));
    expect(late.statusCode).toBe(400);
    const reopened = await postJson('customer', `/tasks/${task.id}/status/`, { status: 'open' });
    expect(TaskDetailSchema.parse(reopened.json()).status).toBe('open');
    const statuses = await ctx.database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'task.status'), eq(auditLog.objectId, String(task.id))));
    expect(statuses.map((s) => s.details.status)).toEqual([
      ['in_progress', 'waiting_for_customer'],
      ['in_progress', 'resolved'],
      ['resolved', 'closed'],
      ['closed', 'open'],
    ]);
  });

  it('refuses statuses the customer may not set', async () => {
    const task = await createTask('customer');
    const res = await postJson('customer', `/tasks/${task.id}/status/`, { status: 'resolved' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Record<string, string[]>>().status).toHaveLength(1);
    const same = await postJson('analyst', `/tasks/${task.id}/status/`, { status: 'open' });
    expect(same.statusCode).toBe(400);
  });
});

describe('validation', () => {
  it('maps missing and invalid fields onto the form fields', async () => {
    const res = await post(
      'customer',
      '/tasks/',
      multipart({ system: String(ownSystem), type: 'nonsense', subject: ' ', priority: 'critical' }),
    );
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json<Record<string, string[]>>()).sort()).toEqual([
      'description',
      'priority',
      'subject',
      'type',
    ]);
    const long = await post(
      'customer',
      '/tasks/',
      multipart({ system: String(ownSystem), type: 'other', subject: 'x'.repeat(256), description: 'd' }),
    );
    expect(long.json<Record<string, string[]>>().subject![0]).toMatch(/255/);
    const unknown = await post(
      'customer',
      '/tasks/',
      multipart({ type: 'other', subject: 's', description: 'd', system: String(ownSystem), extra: '1' }),
    );
    expect(unknown.json<Record<string, string[]>>().extra).toEqual(['Unknown field.']);
    const empty = await post(
      'customer',
      `/tasks/${(await createTask('customer')).id}/messages/`,
      multipart({ body: '   ' }),
    );
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json<object>())).toEqual(['body']);
    const bad = await get('customer', '/tasks/?status__in=bogus');
    expect(bad.statusCode).toBe(400);
    const unknownFilter = await get('customer', '/tasks/?colour=red');
    expect(unknownFilter.statusCode).toBe(400);
  });

  it('refuses an executable and stores nothing', async () => {
    const before = (await ctx.database.db.select({ id: tasks.id }).from(tasks)).length;
    const res = await post(
      'customer',
      '/tasks/',
      multipart({ system: String(ownSystem), type: 'other', subject: 's', description: 'd' }, [
        { name: 'tool.exe', type: 'application/octet-stream', body: Buffer.from('MZ\x90\x00rest') },
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<Record<string, string[]>>().attachments).toHaveLength(1);
    expect((await ctx.database.db.select({ id: tasks.id }).from(tasks)).length).toBe(before);
  });
});

describe('tenant isolation', () => {
  it('answers 404 for another tenant’s task on every path and refuses creating one in a foreign system', async () => {
    const theirs: TaskDetail = await createTask('otherTenant', { system: String(otherSystem) });
    const file = await createTask('otherTenant', { system: String(otherSystem) }, [
      { name: 'a.txt', type: 'text/plain', body: Buffer.from('a') },
    ]);
    const checks = [
      await get('customer', `/tasks/${theirs.id}/`),
      await get('customer', `/tasks/${theirs.id}/messages/`),
      await post('customer', `/tasks/${theirs.id}/messages/`, multipart({ body: 'hi' })),
      await postJson('customer', `/tasks/${theirs.id}/status/`, { status: 'closed' }),
      await get('customer', `/tasks/${file.id}/attachments/${file.attachments[0]!.id}/download/`),
      await get(
        'otherTenant',
        `/tasks/${file.id}/attachments/00000000-0000-4000-8000-000000000000/download/`,
      ),
    ];
    expect(checks.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
    const list = TaskListResponseSchema.parse((await get('customer', '/tasks/?page_size=200')).json());
    expect(list.results.some((t) => t.id === theirs.id)).toBe(false);
    const foreign = await post(
      'customer',
      '/tasks/',
      multipart({ system: String(otherSystem), type: 'other', subject: 's', description: 'd' }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<Record<string, string[]>>().system).toEqual(['Неизвестная система.']);
  });
});
