// The tenants area's texts come with its chunks, not with the start-up language pack, whose
// 260 KB Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { tenantsEn } from './en.ts';
import { tenantsRu } from './ru.ts';

addFeatureTexts('tenants', { en: tenantsEn, ru: tenantsRu });
