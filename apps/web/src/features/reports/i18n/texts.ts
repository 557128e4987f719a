// The reports area's texts come with its chunks, not with the start-up language pack, whose
// 260 KB Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { reportsEn } from './en.ts';
import { reportsRu } from './ru.ts';

addFeatureTexts('reports', { en: reportsEn, ru: reportsRu });
