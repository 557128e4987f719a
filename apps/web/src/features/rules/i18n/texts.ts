// The rules area's texts come with its chunks (Rules, the rule page, the rule popover of the
// incident page, the dashboard's ATT&CK matrix), not with the start-up language pack, whose
// 300 KB budget the Sigma and Navigator-layer texts would have passed (issue 30).
import { addFeatureTexts } from '@/shared/i18n/featureTexts.ts';
import { rulesEn } from './en.ts';
import { rulesRu } from './ru.ts';

addFeatureTexts('rules', { en: rulesEn, ru: rulesRu });
