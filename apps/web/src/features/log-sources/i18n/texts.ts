// The log sources page's texts come with its chunk, not with the start-up language pack.
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { logSourcesEn } from './en.ts';
import { logSourcesRu } from './ru.ts';

addFeatureTexts('logSources', { en: logSourcesEn, ru: logSourcesRu });
