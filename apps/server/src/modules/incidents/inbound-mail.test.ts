import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PostalMime from 'postal-mime';
import type {
  Comment,
  InboundMailResult,
  MailQuarantineDetail,
  MailQuarantineItem,
  MailQuarantineReleased,
} from '@soc/contracts';
import { auditLog, incidents, mailQuarantine } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';
import { senderVerified, stripQuotedReply } from './inbound-mail.message.ts';

let ctx: TestContext;
let key: number;
let incidentId: string;
/** The incident's system. */
let ownIsId: string;
/** The access of Ирина Морозова (irina@client-one.test), a user of the incident's system. */
let customer: string;
let analyst: string;

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2215fbc0000000049454e44ae426082',
  'hex',
);
const GOOD_AUTH =
  'Authentication-Results: mx.soc-portal.local; spf=pass smtp.mailfrom=irina@client-one.test;\r\n' +
  ' dkim=pass header.d=client-one.test; dmarc=pass header.from=client-one.test';

/** `Имя <a@b>` with the display name as an RFC 2047 encoded word. */
const encodeName = (from: string) =>
  from.replace(
    /^(.+?) </,
    (_, name: string) => `=?UTF-8?B?${Buffer.from(name, 'utf8').toString('base64')}?= <`,
  );

/** A real multipart MIME reply: quoted-printable Cyrillic text, a quoted original, a base64 PNG. */
function reply(opts: {
  from: string;
  subject: string;
  messageId: string;
  authHeaders: string[];
  text?: string;
  attachment?: boolean;
}): Buffer {
  const text = opts.text ?? 'Да, это наш сотрудник, активность легитимна.';
  const qp = Buffer.from(
    `${text}\r\n\r\n> Аналитики SOC ожидают вашего ответа\r\n> по инциденту.\r\n`,
    'utf8',
  )
    .toString('binary')
    .replace(
      /[^\x20-\x3c\x3e-\x7e\r\n]/g,
      (c) => `=${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
    );
  const boundary = 'b1_7f3c2a9e';
  const lines = [
    ...opts.authHeaders,
    'Received: from mail.client-one.test (mail.client-one.test [198.51.100.7]) by mx.soc-portal.local',
    `From: ${encodeName(opts.from)}`,
    'To: SOC <incidents@soc-portal.local>',
    `Subject: =?UTF-8?B?${Buffer.from(opts.subject, 'utf8').toString('base64')}?=`,
    `Message-ID: ${opts.messageId}`,
    'In-Reply-To: <notification-1@soc-portal.local>',
    'Date: Fri, 20 Nov 2026 12:30:00 +0300',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    qp,
    ...(opts.attachment
      ? [
          `--${boundary}`,
          'Content-Type: image/png; name="=?UTF-8?B?' +
            Buffer.from('скриншот.png').toString('base64') +
            '?="',
          'Content-Disposition: attachment; filename="=?UTF-8?B?' +
            Buffer.from('скриншот.png').toString('base64') +
            '?="',
          'Content-Transfer-Encoding: base64',
          '',
          PNG.toString('base64'),
        ]
      : []),
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'binary');
}

const post = (body: Buffer, token: string | undefined = ctx.config.inboundMail.token) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v0/soc/inbound_mail/',
    headers: { 'content-type': 'message/rfc822', ...(token ? { 'x-inbound-token': token } : {}) },
    payload: body,
  });
const statusOf = async () =>
  (
    await ctx.database.db.select({ s: incidents.status }).from(incidents).where(eq(incidents.id, incidentId))
  )[0]!.s;
const chat = async () =>
  (
    await ctx.app.inject({ url: `/api/v0/soc/incs/${key}/comments/?no_page=true`, headers: bearer(customer) })
  ).json<{ results: Comment[] }>().results;

const held = async (id: number) => {
  const [row] = await ctx.database.db
    .select({
      reason: mailQuarantine.reason,
      sender_verified: mailQuarantine.senderVerified,
      sender: mailQuarantine.senderEmail,
    })
    .from(mailQuarantine)
    .where(eq(mailQuarantine.id, id));
  return row!;
};
const api = (method: 'GET' | 'POST' | 'DELETE', path: string, token?: string) =>
  ctx.app.inject({
    method,
    url: `/api/v0/analyst/mail_quarantine${path}`,
    headers: token ? bearer(token) : {},
  });

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  customer = await (
    await buildCustomer(ctx, [own.id], {
      email: 'irina@client-one.test',
      firstName: 'Ирина',
      lastName: 'Морозова',
    })
  ).login();
  // a verified sender who is a user of another system only
  await buildCustomer(ctx, [other.id], { email: 'boris@client-two.test' });
  analyst = await (await buildAnalyst(ctx)).login();
  ownIsId = own.isId;
  const row = await buildIncident(ctx, own.id);
  key = row.key;
  incidentId = row.id;
});
afterAll(() => ctx.close());

describe('POST /soc/inbound_mail/', () => {
  it('turns a verified user’s reply into her comment, with the file, and moves the status', async () => {
    await ctx.database.db
      .update(incidents)
      .set({ status: 'waiting_for_customer' })
      .where(eq(incidents.id, incidentId));
    const mail = reply({
      from: 'Ирина Морозова <Irina@Client-One.test>',
      subject: `Re: [INC-${key}] Требуется ваш ответ`,
      messageId: '<reply-1@client-one.test>',
      authHeaders: [GOOD_AUTH],
      attachment: true,
    });
    const res = await post(mail);
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json<InboundMailResult>();
    expect(result).toMatchObject({ incident: key, source: 'Email by authorized user', created: true });
    expect(await statusOf()).toBe('waiting_for_support');
    const comment = (await chat()).find((c) => c.id === result.comment_id)!;
    expect(comment.author).toBe('Ирина Морозова');
    expect(comment.is_mine).toBe(true);
    expect(comment.body).toBe('<p>Да, это наш сотрудник, активность легитимна.</p>');
    expect(comment.attachments.map((a) => [a.filename, a.content_type, a.size])).toEqual([
      ['скриншот.png', 'image/png', PNG.length],
    ]);

    // the gateway delivering the same message again stores nothing new
    const again = await post(mail);
    expect(again.statusCode).toBe(200);
    expect(again.json<InboundMailResult>()).toMatchObject({ comment_id: result.comment_id, created: false });
    expect((await chat()).filter((c) => c.id === result.comment_id)).toHaveLength(1);
  });

  it('stores a message delivered twice at the same moment once', async () => {
    const mail = reply({
      from: 'irina@client-one.test',
      subject: `Re: [INC-${key}]`,
      messageId: '<parallel-1@client-one.test>',
      authHeaders: [GOOD_AUTH],
    });
    const answers = await Promise.all([post(mail), post(mail), post(mail)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    const ids = new Set(answers.map((a) => a.json<InboundMailResult>().comment_id));
    expect(ids.size).toBe(1);
  });

  it('quarantines a forged sender instead of posting on the incident, and changes no status', async () => {
    await ctx.database.db
      .update(incidents)
      .set({ status: 'waiting_for_customer' })
      .where(eq(incidents.id, incidentId));
    // the gateway's own verdict on top; a "pass" the sender wrote into the message further down
    const res = await post(
      reply({
        from: 'Ирина Морозова <irina@client-one.test>',
        subject: `Re: [INC-${key}] Требуется ваш ответ`,
        messageId: '<forged-1@evil.example>',
        authHeaders: [
          'Authentication-Results: mx.soc-portal.local; spf=fail smtp.mailfrom=evil.example; dkim=none; dmarc=fail header.from=client-one.test',
          'Authentication-Results: mx.soc-portal.local; dmarc=pass header.from=client-one.test',
        ],
        text: 'Закройте инцидент, это ложное срабатывание.',
      }),
    );
    expect(res.statusCode, res.body).toBe(202);
    const result = res.json<InboundMailResult>();
    expect(result).toMatchObject({ comment_id: null, source: null, created: true });
    expect(result.quarantine_id).toBeGreaterThan(0);
    expect(await statusOf()).toBe('waiting_for_customer');
    expect((await chat()).some((c) => c.body.includes('ложное срабатывание'))).toBe(false);
    expect((await held(result.quarantine_id!)).reason).toBe('unverified_sender');

    // a pass from some other server is not ours to trust
    const foreign = await post(
      reply({
        from: 'irina@client-one.test',
        subject: `[INC-${key}]`,
        messageId: '<forged-2@evil.example>',
        authHeaders: ['Authentication-Results: mx.evil.example; dmarc=pass header.from=client-one.test'],
      }),
    );
    expect(foreign.statusCode).toBe(202);
    expect(foreign.json<InboundMailResult>().comment_id).toBeNull();
  });

  it('refuses results a sender smuggled into a quoted string or a nested comment of the gateway (issue 37 item 1)', async () => {
    await buildAnalyst(ctx, { email: 'anna@soc-portal.local', firstName: 'Анна', lastName: 'Соколова' });
    await ctx.database.db
      .update(incidents)
      .set({ status: 'waiting_for_customer' })
      .where(eq(incidents.id, incidentId));
    const cases = [
      // the envelope sender, which the gateway copies into smtp.mailfrom as a quoted local-part
      {
        id: '<smuggled-1@evil.example>',
        from: 'Ирина Морозова <irina@client-one.test>',
        header:
          'Authentication-Results: mx.soc-portal.local; spf=pass smtp.mailfrom="x;dmarc=pass header.from=client-one.test"@evil.example; dkim=none; dmarc=fail header.from=client-one.test',
      },
      // a comment in a comment, from the SOC's own domain: it would be shown as the analyst
      {
        id: '<smuggled-2@evil.example>',
        from: 'Анна Соколова <anna@soc-portal.local>',
        header:
          'Authentication-Results: mx.soc-portal.local; spf=fail smtp.mailfrom=evil.example; dkim=fail ((x); dkim=pass header.d=soc-portal.local ) header.d=soc-portal.local; dmarc=fail header.from=soc-portal.local',
      },
      {
        id: '<smuggled-3@evil.example>',
        from: 'irina@client-one.test',
        header:
          'Authentication-Results: mx.soc-portal.local; dkim=fail ((x); dkim=pass header.d=client-one.test ) header.d=client-one.test; dmarc=fail header.from=client-one.test',
      },
    ];
    for (const c of cases) {
      const res = await post(
        reply({
          from: c.from,
          subject: `Re: [INC-${key}] Требуется ваш ответ`,
          messageId: c.id,
          authHeaders: [c.header],
          text: `Закройте инцидент ${c.id}, это ложное срабатывание.`,
        }),
      );
      expect(res.statusCode, `${c.id} ${res.body}`).toBe(202);
      const result = res.json<InboundMailResult>();
      expect(result.comment_id, c.id).toBeNull();
      expect(await held(result.quarantine_id!), c.id).toMatchObject({
        reason: 'unverified_sender',
        sender_verified: false,
      });
    }
    expect(await statusOf()).toBe('waiting_for_customer');
    const comments = await chat();
    expect(comments.some((c) => c.body.includes('ложное срабатывание'))).toBe(false);
    expect(comments.some((c) => c.from_soc && c.author.includes('Соколова'))).toBe(false);
  });

  it('quarantines verified senders who are no users of the incident’s system', async () => {
    const res = await post(
      reply({
        from: 'boris@client-two.test',
        subject: `Re: [INC-${key}]`,
        messageId: '<boris-1@client-two.test>',
        authHeaders: ['Authentication-Results: mx.soc-portal.local; dmarc=pass header.from=client-two.test'],
      }),
    );
    expect(res.statusCode).toBe(202);
    const item = await held(res.json<InboundMailResult>().quarantine_id!);
    expect(item).toMatchObject({
      reason: 'not_a_user',
      sender_verified: true,
      sender: 'boris@client-two.test',
    });
  });

  it('shows authenticated mail from the national centre’s domain as the centre', async () => {
    const res = await post(
      reply({
        from: 'Дежурная смена <duty@cert.gov.ru>',
        subject: `Re: [INC-${key}] Инцидент зарегистрирован`,
        messageId: '<centre-1@cert.gov.ru>',
        authHeaders: [
          'Authentication-Results: mx.soc-portal.local; dkim=pass (2048-bit key) header.d=cert.gov.ru header.s=mail; dmarc=pass header.from=cert.gov.ru',
        ],
        text: 'Инцидент зарегистрирован в ГосСОПКА.',
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const comment = (await chat()).find((c) => c.id === res.json<InboundMailResult>().comment_id)!;
    expect(comment.author).toBe('НКЦКИ');
    expect(comment.from_national_centre).toBe(true);
    expect(comment.source).toBe('Email by authorized user');
  });

  it('never shows unauthenticated mail from the centre’s domain as the centre', async () => {
    const cases = [
      { id: '<fake-centre-1@evil.example>', headers: [] },
      // a pass the sender wrote under the gateway's own (failing) verdict
      {
        id: '<fake-centre-2@evil.example>',
        headers: [
          'Authentication-Results: mx.soc-portal.local; dkim=none; spf=softfail smtp.mailfrom=cert.gov.ru; dmarc=fail header.from=cert.gov.ru',
          'Authentication-Results: mx.soc-portal.local; dkim=pass header.d=cert.gov.ru; dmarc=pass header.from=cert.gov.ru',
        ],
      },
      // SPF alone vouches for the envelope, not for the From a reader sees
      {
        id: '<fake-centre-3@evil.example>',
        headers: [
          'Authentication-Results: mx.soc-portal.local; spf=pass smtp.mailfrom=cert.gov.ru; dmarc=none',
        ],
      },
      // a DKIM pass of another domain
      {
        id: '<fake-centre-4@evil.example>',
        headers: ['Authentication-Results: mx.soc-portal.local; dkim=pass header.d=evil.example'],
      },
    ];
    for (const c of cases) {
      const res = await post(
        reply({
          from: 'НКЦКИ <duty@cert.gov.ru>',
          subject: `Re: [INC-${key}]`,
          messageId: c.id,
          authHeaders: c.headers,
          text: 'Срочно перейдите по ссылке и введите пароль.',
        }),
      );
      expect(res.statusCode, c.id).toBe(202);
      const item = await held(res.json<InboundMailResult>().quarantine_id!);
      expect(item.reason, c.id).toBe('unverified_national_centre');
    }
    expect((await chat()).some((c) => c.body.includes('введите пароль'))).toBe(false);
  });

  it('lets analysts list, view, release and delete quarantined mail; customers cannot', async () => {
    const first = await post(
      reply({
        from: 'Мошенник <duty@cert.gov.ru>',
        subject: `Re: [INC-${key}] Письмо на проверку`,
        messageId: '<review-1@evil.example>',
        authHeaders: [],
        text: 'Письмо для проверки аналитиком.',
        attachment: true,
      }),
    );
    const stranger = reply({
      from: 'stranger@outside.example',
      subject: `Re: [INC-${key}]`,
      messageId: '<review-2@outside.example>',
      authHeaders: [],
      text: 'Второе письмо.',
    });
    const second = await post(stranger);
    const firstId = first.json<InboundMailResult>().quarantine_id!;
    const secondId = second.json<InboundMailResult>().quarantine_id!;

    // the same message delivered again is the same entry
    const again = await post(stranger);
    expect(again.statusCode).toBe(200);
    expect(again.json<InboundMailResult>()).toMatchObject({ quarantine_id: secondId, created: false });

    // customers: the analysts' API is closed to them
    expect((await api('GET', '/', customer)).statusCode).toBe(403);
    expect((await api('GET', `/${firstId}/`, customer)).statusCode).toBe(403);
    expect((await api('POST', `/${firstId}/release/`, customer)).statusCode).toBe(403);
    expect((await api('DELETE', `/${firstId}/`, customer)).statusCode).toBe(403);
    expect((await api('GET', '/')).statusCode).toBe(401);

    const page = (await api('GET', `/?incident=${key}&sender=outside&page_size=1`, analyst)).json<{
      total: number;
      next: string | null;
      results: MailQuarantineItem[];
    }>();
    expect(page.total).toBe(1);
    expect(page.results.map((r) => r.id)).toEqual([secondId]);
    const all = (await api('GET', `/?incident=${key}&page_size=1`, analyst)).json<{
      total: number;
      next: string | null;
      results: MailQuarantineItem[];
    }>();
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.next).toContain('page=2');
    expect((await api('GET', '/?incident=99999999', analyst)).json<{ total: number }>().total).toBe(0);

    const detail = (await api('GET', `/${firstId}/`, analyst)).json<MailQuarantineDetail>();
    expect(detail).toMatchObject({
      incident: key,
      system: ownIsId,
      sender: 'duty@cert.gov.ru',
      sender_name: 'Мошенник',
      reason: 'unverified_national_centre',
      sender_verified: false,
      attachments: ['скриншот.png'],
      body: '<p>Письмо для проверки аналитиком.</p>',
    });

    const released = await api('POST', `/${firstId}/release/`, analyst);
    expect(released.statusCode, released.body).toBe(201);
    const { comment_id } = released.json<MailQuarantineReleased>();
    const comment = (await chat()).find((c) => c.id === comment_id)!;
    expect(comment).toMatchObject({
      author: 'Мошенник <duty@cert.gov.ru>',
      author_id: null,
      source: 'Email by unauthorized user',
      from_national_centre: false,
      from_soc: false,
      body: '<p>Письмо для проверки аналитиком.</p>',
    });
    expect(comment.attachments.map((a) => a.filename)).toEqual(['скриншот.png']);
    expect((await api('GET', `/${firstId}/`, analyst)).statusCode).toBe(404);
    expect((await api('POST', `/${firstId}/release/`, analyst)).statusCode).toBe(404);

    expect((await api('DELETE', `/${secondId}/`, analyst)).statusCode).toBe(204);
    expect((await api('GET', `/${secondId}/`, analyst)).statusCode).toBe(404);
    expect((await chat()).some((c) => c.body.includes('Второе письмо'))).toBe(false);

    const audited = await ctx.database.db
      .select({ action: auditLog.action, id: auditLog.objectId, systems: auditLog.systemIds })
      .from(auditLog)
      .where(eq(auditLog.objectType, 'mail_quarantine'));
    const actions = audited.filter((a) => a.id === String(firstId)).map((a) => a.action);
    expect(actions).toEqual(['mail_quarantine.receive', 'mail_quarantine.release']);
    expect(
      audited.find((a) => a.id === String(secondId) && a.action === 'mail_quarantine.delete'),
    ).toBeDefined();
    // staff-only: no system, so no customer reads these entries
    expect(audited.every((a) => a.systems.length === 0)).toBe(true);
  });

  it('keeps a reply past the storage quota without its files; a quarantined one is not released past it', async () => {
    const quota = ctx.config.storageQuotaBytesPerSystem;
    ctx.config.storageQuotaBytesPerSystem = 1;
    try {
      const res = await post(
        reply({
          from: 'irina@client-one.test',
          subject: `Re: [INC-${key}]`,
          messageId: '<over-quota-1@client-one.test>',
          authHeaders: [GOOD_AUTH],
          text: 'Ответ при исчерпанной квоте.',
          attachment: true,
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      const result = res.json<InboundMailResult>();
      expect(result.skipped_attachments).toEqual(['скриншот.png']);
      const comment = (await chat()).find((c) => c.id === result.comment_id)!;
      expect(comment.body).toBe('<p>Ответ при исчерпанной квоте.</p>');
      expect(comment.attachments).toEqual([]);

      const held = await post(
        reply({
          from: 'stranger@outside.example',
          subject: `Re: [INC-${key}]`,
          messageId: '<over-quota-2@outside.example>',
          authHeaders: [],
          attachment: true,
        }),
      );
      const id = held.json<InboundMailResult>().quarantine_id!;
      const before = (await chat()).length;
      const release = await api('POST', `/${id}/release/`, analyst);
      expect(release.statusCode, release.body).toBe(507);
      // nothing taken out of the quarantine, nothing posted
      expect((await api('GET', `/${id}/`, analyst)).statusCode).toBe(200);
      expect(await chat()).toHaveLength(before);
    } finally {
      ctx.config.storageQuotaBytesPerSystem = quota;
    }
  });

  it('refuses calls without the gateway token, messages without an incident and unknown incidents', async () => {
    const mail = reply({ from: 'a@b.example', subject: `[INC-${key}]`, messageId: '<x@b>', authHeaders: [] });
    expect((await post(mail, '')).statusCode).toBe(401);
    expect((await post(mail, 'wrong-token-wrong-token-wrong')).statusCode).toBe(401);
    const noRef = await post(
      reply({ from: 'a@b.example', subject: 'Hello', messageId: '<y@b>', authHeaders: [] }),
    );
    expect(noRef.statusCode).toBe(400);
    const unknown = await post(
      reply({ from: 'a@b.example', subject: '[INC-99999999]', messageId: '<z@b>', authHeaders: [] }),
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('keeps only the new text of a reply', () => {
    expect(stripQuotedReply('Готово.\n\nПт, 20 нояб. 2026 г. в 10:00, SOC пишет:\n> текст')).toBe('Готово.');
    expect(stripQuotedReply('Done.\r\n\r\nOn Fri, Nov 20, 2026, SOC wrote:\r\n> text')).toBe('Done.');
    expect(stripQuotedReply('Ok\n-----Original Message-----\nFrom: x')).toBe('Ok');
  });
});

describe('senderVerified: only the topmost Authentication-Results of our gateway counts', () => {
  const ID = 'mx.soc-portal.local';
  const verdict = async (headers: string[], from = 'duty@cert.gov.ru') =>
    senderVerified(
      await PostalMime.parse([...headers, `From: ${from}`, 'Subject: x', '', 'text', ''].join('\r\n')),
      ID,
      from,
    );
  const pass = `Authentication-Results: ${ID}; dkim=pass header.d=cert.gov.ru; dmarc=pass header.from=cert.gov.ru`;
  const fail = `Authentication-Results: ${ID}; dkim=fail header.d=cert.gov.ru; dmarc=fail header.from=cert.gov.ru`;

  it('takes the gateway’s header on top and ignores one claiming its id further down', async () => {
    expect(await verdict([pass, fail])).toBe(true);
    expect(await verdict([fail, pass])).toBe(false);
  });

  it('ignores other servers’ headers above or below ours', async () => {
    const other = 'Authentication-Results: mx.evil.example; dmarc=pass header.from=cert.gov.ru';
    expect(await verdict([other, fail])).toBe(false);
    expect(await verdict([fail, other])).toBe(false);
    expect(await verdict([other])).toBe(false);
    expect(await verdict([other, pass])).toBe(true);
    // an id that merely starts like ours, or hides behind a comment, is another server
    expect(
      await verdict([`Authentication-Results: ${ID}.evil.example; dmarc=pass header.from=cert.gov.ru`]),
    ).toBe(false);
  });

  it('no text in a quoted string or a comment of the gateway changes its verdict', async () => {
    // printable ASCII, the characters of the grammar and whole forged results
    const text = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
          fc.constantFrom(
            ';',
            '"',
            '\\',
            '(',
            ')',
            ' ',
            '; dmarc=pass header.from=cert.gov.ru',
            '") ; dkim=pass header.d=cert.gov.ru (',
          ),
        ),
        { maxLength: 5 },
      )
      .map((parts) => parts.join(''));
    const quoted = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
    const comment = (s: string) => `(${s.replace(/[\\()]/g, '\\$&')})`;
    await fc.assert(
      fc.asyncProperty(text, text, fc.boolean(), async (q, c, passes) => {
        const verdictWord = passes ? 'pass' : 'fail';
        const header =
          `Authentication-Results: ${ID}; spf=pass smtp.mailfrom=${quoted(q)}@evil.example ${comment(c)};` +
          ` dkim=${verdictWord} (${comment(c)} ${comment(q)}) header.d=cert.gov.ru header.s=${quoted(c)};` +
          ` dmarc=${verdictWord} ${comment(q)} header.from=cert.gov.ru reason=${quoted(q)}`;
        expect(await verdict([header])).toBe(passes);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at a header above ours it cannot read, never trusting what lies below', async () => {
    // a quote that never closes: where its text ends cannot be known, so nothing in it counts
    const broken = `Authentication-Results: ${ID}; dkim=fail header.s="x; dmarc=pass header.from=cert.gov.ru`;
    expect(await verdict([broken, pass])).toBe(false);
    expect(await verdict([pass, broken])).toBe(true);
  });

  it('needs DMARC for the From domain or an aligned DKIM pass (header.d or header.i)', async () => {
    const ar = (r: string) => [`Authentication-Results: ${ID} 1; ${r}`];
    expect(await verdict(ar('dmarc=pass header.from=cert.gov.ru'))).toBe(true);
    expect(await verdict(ar('dmarc=pass header.from=evil.example'))).toBe(false);
    expect(await verdict(ar('dkim=pass header.i=@cert.gov.ru'))).toBe(true);
    expect(await verdict(ar('dkim=pass header.d=gov.ru'))).toBe(true);
    expect(await verdict(ar('dkim=pass header.d=evil.example'))).toBe(false);
    expect(await verdict(ar('dkim=fail (bad signature) header.d=cert.gov.ru'))).toBe(false);
    expect(await verdict(ar('spf=pass smtp.mailfrom=duty@cert.gov.ru'))).toBe(false);
    expect(await verdict(ar('none'))).toBe(false);
  });
});
