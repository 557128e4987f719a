// The queue's texts come with its chunk, not with the start-up language pack (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { socQueueEn } from './en.ts';
import { socQueueRu } from './ru.ts';

addFeatureTexts('socQueue', { en: socQueueEn, ru: socQueueRu });
