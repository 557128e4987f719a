// The assets area's texts come with its chunks, not with the start-up language pack, whose
// 260 KB Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { assetsEn } from './en.ts';
import { assetsRu } from './ru.ts';

addFeatureTexts('assets', { en: assetsEn, ru: assetsRu });
