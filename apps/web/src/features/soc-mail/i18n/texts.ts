// The quarantine's texts come with its chunk, not with the start-up language pack.
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { socMailEn } from './en.ts';
import { socMailRu } from './ru.ts';

addFeatureTexts('socMail', { en: socMailEn, ru: socMailRu });
