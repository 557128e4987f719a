// The IOC feed's texts come with its chunk, not with the start-up language pack.
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { iocFeedEn } from './en.ts';
import { iocFeedRu } from './ru.ts';

addFeatureTexts('iocFeed', { en: iocFeedEn, ru: iocFeedRu });
