// The tasks area's texts come with its chunks, not with the start-up language pack, whose
// 260 KB Brotli budget they would pass (issue 31).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { tasksEn } from './en.ts';
import { tasksRu } from './ru.ts';

addFeatureTexts('tasks', { en: tasksEn, ru: tasksRu });
