// The documents area's texts come with its chunks, not with the start-up language pack, whose
// 260 KB Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { docsEn } from './en.ts';
import { docsRu } from './ru.ts';

addFeatureTexts('docs', { en: docsEn, ru: docsRu });
