// The texts of the incident's alerts, IOC, assets and misconfiguration tabs (and the IOC feed)
// come with their chunks, not with the start-up language pack, whose 260 KB Brotli budget they
// would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { alertsEn } from './en.ts';
import { alertsRu } from './ru.ts';

addFeatureTexts('alerts', { en: alertsEn, ru: alertsRu });
