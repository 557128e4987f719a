import { Readable } from 'node:stream';
import type { AuditFilters, Language } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentAuditEntry } from './audit.presenter.ts';
import type { AuditView } from './audit.repository.ts';
import { createAuditRepository } from './audit.repository.ts';

const HEADERS: Record<Language, string[]> = {
  en: ['Time (UTC)', 'User', 'Full name', 'Action', 'Object type', 'Object', 'IP address', 'User agent'],
  ru: ['Время (UTC)', 'Пользователь', 'ФИО', 'Действие', 'Тип объекта', 'Объект', 'IP-адрес', 'Клиент'],
};

/**
 * What `auth` may read: customers their systems' entries, without the addresses and user agents
 * of the provider's staff; analysts and administrators everything (a token's system limit applies).
 */
const viewOf = (auth: AuthContext): AuditView => ({
  scope: systemScope(auth),
  staffAddresses: auth.role !== 'customer',
});

/** The audit log for its readers (issue 13): customers see their systems' entries. */
export function createAuditService(db: Db) {
  const repo = createAuditRepository(db);
  return {
    async list(filters: AuditFilters, auth: AuthContext, page: number, pageSize: number) {
      const view = viewOf(auth);
      const [total, rows] = await Promise.all([
        repo.count(filters, view),
        repo.page(filters, view, pageSize, (page - 1) * pageSize),
      ]);
      return { total, results: rows.map(presentAuditEntry) };
    },

    /** RFC 4180 CSV, UTF-8 with a byte-order mark, streamed in batches. */
    csv(filters: AuditFilters, auth: AuthContext, lang: Language): Readable {
      const view = viewOf(auth);
      const chunks = async function* () {
        yield `\uFEFF${HEADERS[lang].join(',')}\n`;
        yield* repo.csvLines(filters, view);
      };
      return Readable.from(chunks(), { objectMode: false });
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
