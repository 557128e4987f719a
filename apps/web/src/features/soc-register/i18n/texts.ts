// The registration's texts come with its chunk, not with the start-up language pack.
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { socRegisterEn } from './en.ts';
import { socRegisterRu } from './ru.ts';

addFeatureTexts('socRegister', { en: socRegisterEn, ru: socRegisterRu });
