import 'i18next';
import type { apiTokensEn } from '../../features/api-tokens/i18n/en.ts';
import type { iocFeedEn } from '../../features/ioc-feed/i18n/en.ts';
import type { logSourcesEn } from '../../features/log-sources/i18n/en.ts';
import type { misconfigsEn } from '../../features/misconfigs/i18n/en.ts';
import type { rulesEn } from '../../features/rules/i18n/en.ts';
import type { auditLogEn } from '../../features/settings/i18n/auditLog.en.ts';
import type { webhooksEn } from '../../features/webhooks/i18n/en.ts';
import type { reportsEn } from '../../features/reports/i18n/en.ts';
import type { docsEn } from '../../features/documents/i18n/en.ts';
import type { tenantsEn } from '../../features/tenants/i18n/en.ts';
import type { assetsEn } from '../../features/assets/i18n/en.ts';
import type { tasksEn } from '../../features/tasks/i18n/en.ts';
import type { incidentPageEn } from '../../features/incident-page/i18n/en.ts';
import type { alertsEn } from '../../features/alerts/i18n/en.ts';
import type { chatEn } from '@/shared/ui/chat/i18n/en.ts';
import type { markdownEn } from '@/shared/ui/markdown/i18n/en.ts';
import type { inboxEn } from '../../features/inbox/i18n/en.ts';
import type { socQueueEn } from '../../features/soc-queue/i18n/en.ts';
import type { socMailEn } from '../../features/soc-mail/i18n/en.ts';
import type { socRegisterEn } from '../../features/soc-register/i18n/en.ts';
import type { staffAreaEn } from '@/shared/ui/staff/i18n/en.ts';
import type { en } from './locales/en.ts';

// Typed keys: t('menu.dashbord') is a compile error instead of a raw key on screen. Texts that a
// lazy feature adds itself (featureTexts.ts) are typed here beside the start-up catalog.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en & {
        apiTokens: typeof apiTokensEn;
        logSources: typeof logSourcesEn;
        auditLog: typeof auditLogEn;
        misconfigs: typeof misconfigsEn;
        iocFeed: typeof iocFeedEn;
        webhooks: typeof webhooksEn;
        rules: typeof rulesEn;
        reports: typeof reportsEn;
        docs: typeof docsEn;
        tenants: typeof tenantsEn;
        assets: typeof assetsEn;
        tasks: typeof tasksEn;
        incidentPage: typeof incidentPageEn;
        alerts: typeof alertsEn;
        chat: typeof chatEn;
        markdown: typeof markdownEn;
        inbox: typeof inboxEn;
        socQueue: typeof socQueueEn;
        socMail: typeof socMailEn;
        socRegister: typeof socRegisterEn;
        staffArea: typeof staffAreaEn;
      };
    };
  }
}
