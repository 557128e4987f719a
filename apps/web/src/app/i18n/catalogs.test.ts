import { describe, expect, it } from 'vitest';
import { flattenCatalog } from '@/shared/i18n/catalog.ts';
import { apiTokensEn } from '../../features/api-tokens/i18n/en.ts';
import { apiTokensRu } from '../../features/api-tokens/i18n/ru.ts';
import { iocFeedEn } from '../../features/ioc-feed/i18n/en.ts';
import { iocFeedRu } from '../../features/ioc-feed/i18n/ru.ts';
import { logSourcesEn } from '../../features/log-sources/i18n/en.ts';
import { logSourcesRu } from '../../features/log-sources/i18n/ru.ts';
import { misconfigsEn } from '../../features/misconfigs/i18n/en.ts';
import { misconfigsRu } from '../../features/misconfigs/i18n/ru.ts';
import { rulesEn } from '../../features/rules/i18n/en.ts';
import { rulesRu } from '../../features/rules/i18n/ru.ts';
import { auditLogEn } from '../../features/settings/i18n/auditLog.en.ts';
import { auditLogRu } from '../../features/settings/i18n/auditLog.ru.ts';
import { webhooksEn } from '../../features/webhooks/i18n/en.ts';
import { webhooksRu } from '../../features/webhooks/i18n/ru.ts';
import { reportsEn } from '../../features/reports/i18n/en.ts';
import { reportsRu } from '../../features/reports/i18n/ru.ts';
import { docsEn } from '../../features/documents/i18n/en.ts';
import { docsRu } from '../../features/documents/i18n/ru.ts';
import { tenantsEn } from '../../features/tenants/i18n/en.ts';
import { tenantsRu } from '../../features/tenants/i18n/ru.ts';
import { assetsEn } from '../../features/assets/i18n/en.ts';
import { assetsRu } from '../../features/assets/i18n/ru.ts';
import { tasksEn } from '../../features/tasks/i18n/en.ts';
import { tasksRu } from '../../features/tasks/i18n/ru.ts';
import { incidentPageEn } from '../../features/incident-page/i18n/en.ts';
import { incidentPageRu } from '../../features/incident-page/i18n/ru.ts';
import { alertsEn } from '../../features/alerts/i18n/en.ts';
import { alertsRu } from '../../features/alerts/i18n/ru.ts';
import { chatEn } from '@/shared/ui/chat/i18n/en.ts';
import { chatRu } from '@/shared/ui/chat/i18n/ru.ts';
import { markdownEn } from '@/shared/ui/markdown/i18n/en.ts';
import { markdownRu } from '@/shared/ui/markdown/i18n/ru.ts';
import { inboxEn } from '../../features/inbox/i18n/en.ts';
import { inboxRu } from '../../features/inbox/i18n/ru.ts';
import { socQueueEn } from '../../features/soc-queue/i18n/en.ts';
import { socQueueRu } from '../../features/soc-queue/i18n/ru.ts';
import { socRegisterEn } from '../../features/soc-register/i18n/en.ts';
import { socRegisterRu } from '../../features/soc-register/i18n/ru.ts';
import { staffAreaEn } from '@/shared/ui/staff/i18n/en.ts';
import { staffAreaRu } from '@/shared/ui/staff/i18n/ru.ts';
import { en } from './locales/en.ts';
import { ru } from './locales/ru.ts';

// the start-up catalogs with the texts that lazy features add themselves (featureTexts.ts)
const lazyEn = {
  apiTokens: apiTokensEn,
  iocFeed: iocFeedEn,
  logSources: logSourcesEn,
  misconfigs: misconfigsEn,
  rules: rulesEn,
  auditLog: auditLogEn,
  webhooks: webhooksEn,
  reports: reportsEn,
  docs: docsEn,
  tenants: tenantsEn,
  assets: assetsEn,
  tasks: tasksEn,
  incidentPage: incidentPageEn,
  alerts: alertsEn,
  chat: chatEn,
  markdown: markdownEn,
  inbox: inboxEn,
  socQueue: socQueueEn,
  socRegister: socRegisterEn,
  staffArea: staffAreaEn,
};
const lazyRu = {
  apiTokens: apiTokensRu,
  iocFeed: iocFeedRu,
  logSources: logSourcesRu,
  misconfigs: misconfigsRu,
  rules: rulesRu,
  auditLog: auditLogRu,
  webhooks: webhooksRu,
  reports: reportsRu,
  docs: docsRu,
  tenants: tenantsRu,
  assets: assetsRu,
  tasks: tasksRu,
  incidentPage: incidentPageRu,
  alerts: alertsRu,
  chat: chatRu,
  markdown: markdownRu,
  inbox: inboxRu,
  socQueue: socQueueRu,
  socRegister: socRegisterRu,
  staffArea: staffAreaRu,
};
const catalogs = { en: flattenCatalog({ ...en, ...lazyEn }), ru: flattenCatalog({ ...ru, ...lazyRu }) };
const variables = (text: unknown) =>
  [...String(text).matchAll(/{{\s*(\w+)\s*(?:,[^}]*)?}}/g)].map((match) => match[1]).sort();
/** The plural forms Russian has and English has not (i18next picks them by `count`). */
const RUSSIAN_ONLY_FORM = /_(few|many)$/;

describe('translation catalogs', () => {
  it('have exactly the same keys in ru and en', () => {
    const enKeys = [...catalogs.en.keys()];
    const ruKeys = [...catalogs.ru.keys()].filter((key) => !RUSSIAN_ONLY_FORM.test(key));
    expect(
      enKeys.filter((key) => !catalogs.ru.has(key)),
      'keys missing in ru',
    ).toEqual([]);
    expect(
      ruKeys.filter((key) => !catalogs.en.has(key)),
      'keys missing in en',
    ).toEqual([]);
  });

  it('give every plural key all the forms of its language', () => {
    const forms = { en: ['one', 'other'], ru: ['one', 'few', 'many', 'other'] };
    for (const [language, catalog] of Object.entries(catalogs)) {
      const plurals = [...catalog.keys()]
        .filter((key) => key.endsWith('_other'))
        .map((key) => key.slice(0, -6));
      for (const base of plurals) {
        for (const form of forms[language as keyof typeof forms]) {
          expect(catalog.has(`${base}_${form}`), `${language}: ${base}_${form}`).toBe(true);
        }
      }
    }
  });

  it('have a non-empty text for every key', () => {
    for (const [language, catalog] of Object.entries(catalogs)) {
      for (const [key, value] of catalog) {
        expect(typeof value === 'string' && value.trim() !== '', `${language}: ${key}`).toBe(true);
      }
    }
  });

  it('use the same interpolation variables in both languages', () => {
    for (const [key, value] of catalogs.en) {
      expect(variables(catalogs.ru.get(key)), key).toEqual(variables(value));
    }
  });

  it('carry the texts the specification fixes', () => {
    expect(catalogs.ru.get('auth.login.usernameRequired')).toBe('Введите логин');
    expect(catalogs.en.get('auth.login.usernameRequired')).toBe('Enter login');
    expect(catalogs.ru.get('auth.login.passwordRequired')).toBe('Введите пароль');
    expect(catalogs.en.get('auth.login.passwordRequired')).toBe('Enter password');
    expect(catalogs.ru.get('validation.required')).toBe('Это поле обязательно к заполнению');
    expect(catalogs.en.get('validation.required')).toBe('This field is required');
    expect(catalogs.ru.get('auth.changePassword.mismatch')).toBe('Пароли должны совпадать');
    expect(catalogs.en.get('auth.changePassword.mismatch')).toBe('Must match');
    expect(catalogs.ru.get('auth.login.oidcLabel')).toBe('Войти через');
    expect(catalogs.ru.get('docs.filters.retryLanguages')).toBe('Повторить загрузку');
  });
});
