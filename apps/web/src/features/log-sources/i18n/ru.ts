import type { logSourcesEn } from './en.ts';

/** Тексты экрана источников событий. */
export const logSourcesRu: typeof logSourcesEn = {
  title: 'Источники событий',
  subtitle: 'Проверьте, что все источники ваших систем продолжают передавать события в SOC.',
  tabs: { total: 'Все источники', active: 'Активные', silent: 'Молчащие', disabled: 'Отключённые' },
  statuses: { active: 'Активен', silent: 'Молчит', disabled: 'Отключён' },
  statusHelp: {
    active: 'События поступают как ожидается',
    silent: 'Нет событий дольше порога источника',
    disabled: 'Отключён: события от него не ожидаются',
  },
  summary: {
    total: 'Источники',
    epsHour: 'EPS за последний час',
    epsDay: 'EPS за последние 24 часа',
    byType: 'По типам источников',
    type: 'Тип',
    loadFailed: 'Не удалось загрузить итоги',
  },
  columns: {
    name: 'Источник',
    type: 'Тип',
    host: 'Хост',
    system: 'Система',
    status: 'Статус',
    lastEvent: 'Последнее событие',
    epsHour: 'EPS (1 ч)',
    epsDay: 'EPS (24 ч)',
  },
  lastEventAgo: '{{ago}} назад',
  never: 'Никогда',
  silentFor: 'Порог молчания: {{minutes}} мин',
  searchPlaceholder: 'Имя источника или хост',
  searchLabel: 'Поиск источников событий',
  searchButton: 'Найти',
  typeFilter: 'Тип',
  systemFilter: 'Система',
  empty: 'Нет данных',
  loadFailed: 'Не удалось загрузить источники событий',
  pagination: '{{low, number}}-{{high, number}} из {{total, number}}',
  duration: { seconds: '{{n}} с', minutes: '{{n}} мин', hours: '{{n}} ч', days: '{{n}} д' },
};
