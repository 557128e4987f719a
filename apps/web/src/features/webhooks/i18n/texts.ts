// The webhooks screen's texts come with its chunk, not with the start-up language pack.
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { webhooksEn } from './en.ts';
import { webhooksRu } from './ru.ts';

addFeatureTexts('webhooks', { en: webhooksEn, ru: webhooksRu });
