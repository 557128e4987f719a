// The API tokens section's texts come with its chunk, not with the start-up language pack.
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { apiTokensEn } from './en.ts';
import { apiTokensRu } from './ru.ts';

addFeatureTexts('apiTokens', { en: apiTokensEn, ru: apiTokensRu });
