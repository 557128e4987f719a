// The staff area's shared texts come with the staff screens' chunks, not with the start-up pack.
import { addFeatureTexts } from '../../../i18n/featureTexts.ts';
import { staffAreaEn } from './en.ts';
import { staffAreaRu } from './ru.ts';

addFeatureTexts('staffArea', { en: staffAreaEn, ru: staffAreaRu });
