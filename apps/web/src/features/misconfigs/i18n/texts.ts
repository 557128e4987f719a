// The recommendations' texts stay out of the start-up language pack (bundle.e2e.ts).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { misconfigsEn } from './en.ts';
import { misconfigsRu } from './ru.ts';

addFeatureTexts('misconfigs', { en: misconfigsEn, ru: misconfigsRu });
