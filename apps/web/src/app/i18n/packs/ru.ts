// The Russian language pack: a chunk of its own, fetched only when the interface is in Russian.
import 'dayjs/locale/ru';
import antdLocale from 'antd/es/locale/ru_RU';
import type { LanguagePack } from '@/shared/i18n/catalog.ts';
import { ru } from '../locales/ru.ts';

export const pack: LanguagePack = { translation: ru, antd: antdLocale };
