import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSystem, CommentListResponse } from '@soc/contracts';
import {
  buildAnalyst,
  buildContact,
  buildCustomer,
  buildIncident,
  buildSystem,
  buildUser,
  forgetBuiltEvents,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { multipart } from '../../test/multipart.ts';

const run = promisify(execFile);
const TEAM = 'Acme SOC';

let ctx: TestContext;
let dir: string;
const tokens: Record<string, string> = {};
let systemId = 0;
let key = 0;
let analystId = 0;
let analystName = '';

const call = (who: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0${url}`,
    headers: bearer(tokens[who]!),
    ...(payload ? { payload } : {}),
  });
const chat = async (who: string) => {
  const res = await call(who, 'GET', `/soc/incs/${key}/comments/?page_size=50`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CommentListResponse>().results;
};
const outboxTexts = async () => {
  const outbox = ctx.config.mail.outboxDir;
  return Promise.all((await readdir(outbox)).map((f) => readFile(path.join(outbox, f), 'utf8')));
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-reply-name-'));
  ctx = await createTestContext({ incidents: 0 });
  const system = await buildSystem(ctx);
  systemId = system.id;
  await buildContact(ctx, system.id, { email: 'security@reply-name.example' });
  const customer = await buildCustomer(ctx, [system.id]);
  tokens.customer = await customer.login();
  const analyst = await buildAnalyst(ctx, { firstName: 'Boris', lastName: 'Kuznetsov' });
  analystId = analyst.id;
  analystName = 'Boris Kuznetsov';
  tokens.analyst = await analyst.login();
  tokens.admin = await (await buildUser(ctx, { role: 'admin' })).login();
  key = (await buildIncident(ctx, system.id, { status: 'waiting_for_support', reporterId: customer.id })).key;
  await ctx.app.jobs.runDue();
  await forgetBuiltEvents(ctx);
  const outbox = ctx.config.mail.outboxDir;
  for (const f of await readdir(outbox)) await rm(path.join(outbox, f));
});
afterAll(async () => {
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

describe('replies of the SOC under the system’s name', () => {
  it('shows replies as the analyst while the system has no name for them', async () => {
    const res = await call('analyst', 'POST', `/analyst/incidents/${key}/comments/`, { body: 'First look.' });
    expect(res.statusCode, res.body).toBe(201);
    const [reply] = (await chat('customer')).filter((c) => c.from_soc);
    expect(reply).toMatchObject({ author: analystName, author_id: analystId });
  });

  it('is set and cleared by an administrator, and shown in the system', async () => {
    const set = await call('admin', 'PATCH', `/admin/systems/${systemId}/`, { soc_reply_name: ` ${TEAM} ` });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<AdminSystem>().soc_reply_name).toBe(TEAM);
    const blank = await call('admin', 'PATCH', `/admin/systems/${systemId}/`, { soc_reply_name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toHaveProperty('soc_reply_name');
    const refused = await call('customer', 'PATCH', `/admin/systems/${systemId}/`, { soc_reply_name: 'x' });
    expect(refused.statusCode).toBe(403);
  });

  it('shows later replies as the SOC on every path, never naming the analyst to the customer', async () => {
    const prefs = await call('customer', 'PUT', '/notifications/preferences/', {
      events: ['soc_comment'],
      scope: 'all',
      language: 'en',
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    // the first reply's mail, under the analyst's name, goes out before
    await ctx.app.jobs.runDue();
    const outbox = ctx.config.mail.outboxDir;
    for (const f of await readdir(outbox)) await rm(path.join(outbox, f));
    // through the analyst API, the customers' comment route as staff, and a completion's comment
    const viaApi = await call('analyst', 'POST', `/analyst/incidents/${key}/comments/`, {
      body: 'Blocked the sender.',
    });
    expect(viaApi.statusCode, viaApi.body).toBe(201);
    expect(viaApi.json()).toMatchObject({ author: TEAM });
    const form = multipart({ body: 'Please reset the password.' });
    const viaChat = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${key}/comments/`,
      headers: { ...bearer(tokens.analyst!), ...form.headers },
      payload: form.payload,
    });
    expect(viaChat.statusCode, viaChat.body).toBe(201);
    const done = await call('analyst', 'POST', `/analyst/incidents/${key}/status/`, {
      status: 'completed',
      comment: 'Contained and closed.',
    });
    expect(done.statusCode, done.body).toBe(200);

    const replies = (await chat('customer')).filter((c) => c.from_soc);
    expect(replies).toHaveLength(4);
    // the first reply was written before the name was set: it stays as written
    expect(replies[0]).toMatchObject({ author: analystName, author_id: analystId });
    for (const reply of replies.slice(1)) expect(reply).toMatchObject({ author: TEAM, author_id: null });
    // the staff still see who wrote it
    const staffView = (await chat('analyst')).filter((c) => c.from_soc).slice(1);
    for (const reply of staffView) expect(reply).toMatchObject({ author: TEAM, author_id: analystId });

    // the chat's search does not find the analyst's name in the replies shown as the SOC's
    const search = await call('customer', 'GET', `/soc/incs/${key}/comments/?search=Kuznetsov`);
    expect(search.json<CommentListResponse>().results.map((c) => c.author)).toEqual([analystName]);

    // the PDF and the mails of the replies
    const pdf = await call('customer', 'GET', `/soc/incs/${key}/get_pdf_inc/`);
    expect(pdf.statusCode).toBe(200);
    const file = path.join(dir, 'card.pdf');
    await writeFile(file, pdf.rawPayload);
    const text = (await run('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout;
    expect(text).toContain(TEAM);
    await ctx.app.jobs.runDue();
    const mails = (await outboxTexts()).join('\n');
    expect(mails).toContain(TEAM);
    expect(mails).not.toContain('Kuznetsov');
  });
});
