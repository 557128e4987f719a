// The panel's texts load with the panel, not with the shell (the dashboard's first visit).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { inboxEn } from './en.ts';
import { inboxRu } from './ru.ts';

addFeatureTexts('inbox', { en: inboxEn, ru: inboxRu });
