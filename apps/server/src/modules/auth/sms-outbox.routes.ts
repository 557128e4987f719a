import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { createDemoAccountsRepository } from './sms-outbox.repository.ts';
import { createSmsOutboxRepository } from '../../integrations/sms/sms-gateway.ts';
import { notFound } from '../../lib/http-errors.ts';

const OutboxMessageSchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  body: z.string(),
  created: z.string(),
});

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SmsOutboxOptions {
  db: Db;
  /** SMS_OUTBOX as configured: no gateway, the demo data set not turned off (config.sms.outbox). */
  enabled: boolean;
}

/**
 * The embedded SMS outbox of the demo: the latest text messages as JSON and as a page. It shows
 * sign-in codes to anyone, so it answers only while the demo data set is loaded (configured on
 * and the demo accounts still in the database); otherwise both paths answer 404, as if absent.
 */
export const smsOutboxRoutes: FastifyPluginAsyncZod<SmsOutboxOptions> = async (app, { db, enabled }) => {
  app.addHook('onRequest', async () => {
    if (!enabled || !(await createDemoAccountsRepository(db).demoAccountsPresent())) throw notFound();
  });

  const load = async () =>
    (await createSmsOutboxRepository(db).listOutbox()).map((m) => ({
      id: m.id,
      phone: m.phone,
      body: m.body,
      created: m.createdAt.toISOString(),
    }));

  app.get(
    '/api/v0/dev/sms_outbox/',
    {
      config: { public: true },
      schema: {
        operationId: 'listSmsOutbox',
        hide: !enabled,
        tags: ['development'],
        summary: 'Latest messages of the embedded SMS outbox (demo installations only)',
        // 404 unless the demo data set is loaded (see the hook above)
        response: { 200: z.object({ results: z.array(OutboxMessageSchema) }), 404: DetailErrorSchema },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { results: await load() };
    },
  );

  app.get(
    '/dev/sms-outbox',
    { config: { public: true }, schema: { hide: true } },
    async (_request, reply) => {
      const rows = (await load())
        .map(
          (m) =>
            `<tr><td>${escapeHtml(m.created)}</td><td>${escapeHtml(m.phone)}</td><td data-testid="sms-body">${escapeHtml(m.body)}</td></tr>`,
        )
        .join('');
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SMS outbox</title>
<style>body{font-family:sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3rem .6rem}</style></head>
<body><h1>SMS outbox (demo only)</h1><p>Text messages the portal would send; shown because no SMS gateway is configured.</p>
<table><thead><tr><th>Sent</th><th>Phone</th><th>Text</th></tr></thead><tbody>${rows || '<tr><td colspan="3">No messages</td></tr>'}</tbody></table></body></html>`;
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
    },
  );
};
