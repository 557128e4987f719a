import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from '@soc/contracts';
import { describe, expect, it } from 'vitest';
import { flattenCatalog } from '@/shared/i18n/catalog.ts';
import { en } from './locales/en.ts';
import { ru } from './locales/ru.ts';

const catalogs = { en: flattenCatalog(en), ru: flattenCatalog(ru) };
const text = (language: 'en' | 'ru', key: string, values: Record<string, string | number> = {}) =>
  String(catalogs[language].get(key)).replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name]));

describe('incident texts fixed by the specification', () => {
  it('name every status and priority in both languages', () => {
    for (const status of INCIDENT_STATUSES) {
      expect(catalogs.en.has(`incidentStatus.${status}`), status).toBe(true);
      expect(catalogs.ru.has(`incidentStatus.${status}`), status).toBe(true);
    }
    for (const priority of INCIDENT_PRIORITIES) {
      expect(catalogs.en.has(`incidentPriority.${priority}`), priority).toBe(true);
    }
    expect(text('ru', 'incidentStatus.waiting_for_customer')).toBe('Ожидает ответа клиента');
    expect(text('en', 'incidentStatus.canceled')).toBe('Canceled');
    expect(text('ru', 'incidentPriority.critical')).toBe('Критический');
  });

  it('carry the filter, create-incident and pagination texts', () => {
    expect([
      text('ru', 'incidents.filters.slaBreachedTrue'),
      text('ru', 'incidents.filters.slaBreachedFalse'),
    ]).toEqual(['Нарушен', 'Не нарушен']);
    expect([
      text('ru', 'incidents.filters.gossopkaSent'),
      text('ru', 'incidents.filters.gossopkaNotSent'),
    ]).toEqual(['Отправлен', 'Не отправлен']);
    expect(text('en', 'incidents.create.required')).toBe('Required field');
    expect(text('ru', 'incidents.create.required')).toBe('Обязательное поле');
    expect(text('en', 'incidents.create.maxLength', { max: 255 })).toBe('Maximum number of characters - 255');
    expect(text('ru', 'incidents.create.maxLength', { max: 255 })).toBe(
      'Максимальное количество символов - 255',
    );
    expect(text('en', 'incidents.create.success', { key: 7 })).toBe('Incident 7 added');
    expect(text('ru', 'incidents.create.success', { key: 7 })).toBe('Инцидент 7 добавлен');
    expect(text('en', 'incidents.create.filesAdded')).toBe('Files added');
    expect(text('ru', 'incidents.create.filesAdded')).toBe('Файлы добавлены');
    expect(text('en', 'incidents.create.failed')).toBe('Problems occurred while adding');
    expect(text('ru', 'incidents.create.failed')).toBe('При добавлении возникли проблемы');
    expect(text('ru', 'incidents.create.attachmentsFailed')).toBe('Ошибка при добавлении вложений');
    expect(text('en', 'incidents.total', { low: 1, high: 40, total: 99 })).toBe('1-40 of 99');
  });
});
