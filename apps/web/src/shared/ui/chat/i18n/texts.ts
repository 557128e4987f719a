// The chat's texts come with the chunks that show a chat (the incident page, the task page), not
// with the start-up language pack, whose Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '../../../i18n/featureTexts.ts';
import { chatEn } from './en.ts';
import { chatRu } from './ru.ts';

addFeatureTexts('chat', { en: chatEn, ru: chatRu });
