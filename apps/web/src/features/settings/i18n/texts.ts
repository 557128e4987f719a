// The audit log's texts (the names of 88 actions) stay out of the start-up language pack
// (bundle.e2e.ts); the other settings texts are in it (app/i18n/locales).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { auditLogEn } from './auditLog.en.ts';
import { auditLogRu } from './auditLog.ru.ts';

addFeatureTexts('auditLog', { en: auditLogEn, ru: auditLogRu });
