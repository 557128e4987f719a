import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import type { Mailer } from './mailer.ts';
import { auditedMailer } from './mailer.ts';

describe('auditedMailer', () => {
  it('answers a sent mail as sent when its audit record fails, so that no retry sends it again', async () => {
    const send = vi.fn(async () => ({ messageId: '<m1@test>' }));
    const inner: Mailer = { send, close: vi.fn() };
    // a database that refuses the audit insert
    const db = {
      insert: () => {
        throw new Error('connection lost');
      },
    } as unknown as Db;
    const log = { error: vi.fn() };
    const mailer = auditedMailer(inner, db, log);
    await expect(
      mailer.send({ to: 'alice@customer1.example', subject: 'Report', text: 'x', kind: 'report' }),
    ).resolves.toEqual({ messageId: '<m1@test>' });
    expect(send).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![1]).toBe('mail sent but not audited');
  });
});
