// The editor's texts come with the staff screens' chunks, not with the start-up language pack.
import { addFeatureTexts } from '../../../i18n/featureTexts.ts';
import { markdownEn } from './en.ts';
import { markdownRu } from './ru.ts';

addFeatureTexts('markdown', { en: markdownEn, ru: markdownRu });
