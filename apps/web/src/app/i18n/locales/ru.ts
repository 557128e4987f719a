import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES } from '@soc/contracts';
import { settingsRu } from '../../../features/settings/i18n/ru.ts';
import { filesRu } from '../../../features/files/i18n/ru.ts';
import type { RussianTexts } from '@/shared/i18n/catalog.ts';
import type { en } from './en.ts';
import { dashboardRu } from '../../../features/dashboard/i18n/ru.ts';
import { authRu } from '../../../features/auth/i18n/ru.ts';
import { incidentsRu } from '../../../features/incidents/i18n/ru.ts';

/** Russian catalog: the same keys as en.ts (checked by the type and by catalogs.test.ts). */
export const ru: RussianTexts<typeof en> = {
  attackMatrix: {
    techniques_one: '{{count, number}} техника',
    techniques_few: '{{count, number}} техники',
    techniques_many: '{{count, number}} техник',
    techniques_other: '{{count, number}} техники',
    open: 'Показать подтехники {{id}}',
    close: 'Скрыть подтехники {{id}}',
    gapTitle: 'есть в сравниваемом слое, нет правил',
    gapInSubsTitle: 'подтехника есть в сравниваемом слое без правил',
  },
  list: {
    filters: 'Фильтры',
    filtersCount: 'Фильтры, активных: {{count}}',
    closeFilters: 'Закрыть фильтры',
    nothingFoundFor: 'По запросу «{{search}}» ничего не найдено.',
    nothingFoundForWithFilters_one: 'По запросу «{{search}}» с выбранным фильтром ничего не найдено.',
    nothingFoundForWithFilters_few:
      'По запросу «{{search}}» с {{count}} выбранными фильтрами ничего не найдено.',
    nothingFoundForWithFilters_many:
      'По запросу «{{search}}» с {{count}} выбранными фильтрами ничего не найдено.',
    nothingFoundForWithFilters_other:
      'По запросу «{{search}}» с {{count}} выбранными фильтрами ничего не найдено.',
    nothingMatchesFilters_one: 'С выбранным фильтром ничего не найдено.',
    nothingMatchesFilters_few: 'С {{count}} выбранными фильтрами ничего не найдено.',
    nothingMatchesFilters_many: 'С {{count}} выбранными фильтрами ничего не найдено.',
    nothingMatchesFilters_other: 'С {{count}} выбранными фильтрами ничего не найдено.',
    clearFilters: 'Сбросить поиск и фильтры',
    closePanel: 'Закрыть подробности',
    details: 'Подробности',
  },
  common: {
    loading: 'Загрузка…',
    reload: 'Перезагрузить',
    retry: 'Повторить',
    loadingMore: 'Загрузка…',
    loadMoreFailed: 'Не удалось загрузить ещё',
    cancel: 'Отмена',
    logout: 'Выйти',
    searchTooLong: 'Слишком длинный запрос (максимум символов: {{max}})',
    commentSource: {
      web: 'Веб-интерфейс или API',
      email: 'Письмо от авторизованного пользователя',
      unverified: 'Письмо от неподтверждённого отправителя',
    },
    bytes_one: '{{count, number}} байт',
    bytes_few: '{{count, number}} байта',
    bytes_many: '{{count, number}} байт',
    bytes_other: '{{count, number}} байта',
  },
  app: {
    defaultPortalName: 'SOC Portal',
    homeLink: '{{portalName}}: главная',
    logoAlt: 'Логотип {{portalName}}',
    titleTemplate: '{{title}} | {{portalName}}',
  },
  menu: {
    label: 'Главное меню',
    dashboard: 'Дашборд',
    issues: 'Обращения',
    incidents: 'Инциденты',
    alerts: 'Алерты',
    misconfigs: 'Рекомендации по безопасности',
    tasks: 'Задачи',
    tenants: 'Системы',
    logSources: 'Источники событий',
    reports: 'Отчёты',
    docs: 'Документация',
    assets: 'Активы',
    beta: 'Beta',
    soc: 'SOC',
    socQueue: 'Очередь разбора',
    socMail: 'Карантин почты',
  },
  pages: {
    dashboard: 'Дашборд',
    incidents: 'Инциденты',
    incident: 'Инцидент {{incNumber}}',
    rule: 'Правило {{id}}',
    tasks: 'Задачи',
    misconfigs: 'Рекомендации по безопасности',
    alerts: 'Алерты',
    tenants: 'Системы',
    docs: 'Документация',
    reports: 'Отчёты',
    logSources: 'Источники событий',
    assets: 'Активы',
    files: 'Файлы',
    instruction: 'Инструкция {{id}}',
    responseInstruction: 'Инструкция по реагированию {{id}}',
    article: 'Статья {{id}}',
  },
  header: {
    language: 'Язык: {{current}}. Переключить на {{next}}',
    darkTheme: 'Тёмная тема',
    profile: 'Меню профиля {{name}}',
    menuTitle: 'Меню',
    openMenu: 'Открыть меню',
    closeMenu: 'Закрыть меню',
    notifications: 'Уведомления, непрочитанных: {{count, number}}',
    notificationsMore: 'Уведомления, непрочитанных: более {{count, number}}',
  },
  profile: {
    changePassword: 'Безопасность',
    logout: 'Выйти',
  },
  footer: {
    version: 'Версия {{version}}',
  },
  auth: authRu,
  incidentStatus: INCIDENT_STATUS_TITLES.ru,
  incidentPriority: INCIDENT_PRIORITY_TITLES.ru,
  incidentResolution: {
    TP: 'True Positive',
    FP: 'False Positive',
  },
  dashboard: dashboardRu,
  incidents: incidentsRu,
  dateRange: {
    startDate: 'С',
    endDate: 'По',
    presets: {
      last7Days: 'Последние 7 дней',
      last30Days: 'Последние 30 дней',
      thisMonth: 'Этот месяц',
      lastMonth: 'Прошлый месяц',
    },
  },
  uploads: {
    dropHint: 'Перетащите файлы сюда или',
    chooseFiles: 'Выберите файлы',
    filesHint: 'До {{max}} файлов, каждый не больше {{size}} МБ',
    removeFile: 'Удалить {{name}}',
    notAttached: 'Не прикреплено',
    fileTooLarge: 'Файл {{name}} больше {{size}} МБ и не прикреплён',
    dangerousExtension: '{{name}}: файлы типа .{{extension}} не принимаются; упакуйте файл в архив с паролем',
    bidiName:
      '{{name}}: имя содержит символы управления направлением текста, которые могут скрыть тип файла; переименуйте файл',
  },
  downloads: {
    title: 'Загрузки',
    retry: 'Скачать {{name}} ещё раз',
    remove: 'Убрать {{name}} из списка',
    progress: 'Ход загрузки {{name}}',
    failed: 'Ошибка загрузки',
  },
  validation: {
    required: 'Это поле обязательно к заполнению',
  },
  errors: {
    requestFailed: 'Ошибка запроса',
    network: 'Сервер недоступен. Проверьте подключение и повторите попытку.',
    invalidResponse: 'Сервер прислал неожиданный ответ.',
    httpStatus: 'Ошибка сервера {{status}}',
    retryAfter: 'Повторите через {{seconds}} с.',
    storageQuota:
      'Квота хранилища этой системы исчерпана (занято {{used}} из {{quota}} ГБ). Удалите ненужные файлы или попросите SOC увеличить квоту.',
    unexpectedTitle: 'Что-то пошло не так',
    unexpectedText:
      'На странице произошла непредвиденная ошибка. Перезагрузите страницу или повторите попытку.',
    chunk: {
      missingTitle: 'Часть приложения не найдена',
      missingText: 'Вероятно, приложение обновилось. Перезагрузите страницу, чтобы получить новую версию.',
      timeoutTitle: 'Страница загружается слишком долго',
      timeoutText: 'Проверьте подключение и перезагрузите страницу.',
      otherTitle: 'Не удалось загрузить страницу',
      otherText: 'Перезагрузите страницу. Если ошибка повторится, обратитесь в поддержку.',
    },
  },
  version: {
    available: 'Доступна новая версия',
    description: 'Перезагрузите страницу, чтобы начать ею пользоваться.',
    reload: 'Перезагрузить',
    whatsNew: 'Что нового',
  },
  settings: settingsRu,
  files: filesRu,
};
