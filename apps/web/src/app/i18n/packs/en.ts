// The English language pack: a chunk of its own, fetched only when the interface is in English.
import antdLocale from 'antd/es/locale/en_US';
import type { LanguagePack } from '@/shared/i18n/catalog.ts';
import { en } from '../locales/en.ts';

export const pack: LanguagePack = { translation: en, antd: antdLocale };
