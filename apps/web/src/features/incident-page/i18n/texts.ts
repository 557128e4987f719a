// The incident page's texts come with its chunks (and the task chat's, which shares the comment
// texts), not with the start-up language pack, whose 260 KB Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { incidentPageEn } from './en.ts';
import { incidentPageRu } from './ru.ts';

addFeatureTexts('incidentPage', { en: incidentPageEn, ru: incidentPageRu });
