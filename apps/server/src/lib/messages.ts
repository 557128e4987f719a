import type { IncidentStatus, Language, TaskStatus } from '@soc/contracts';
import {
  INCIDENT_STATUS_TITLES,
  QUERY_MILLIS_MESSAGE,
  REPORT_MESSAGES,
  TASK_STATUS_TITLES,
  WEBHOOK_MESSAGES,
} from '@soc/contracts';

/**
 * A text the server sends for a person to read, in both languages. Services throw it inside an
 * `HttpError` (as its detail or among its field messages) and the error handler picks the
 * caller's language when it answers (issue 28): `?language=`, else Accept-Language, else Russian.
 * Outside an answer (logs, `Error.message`) it reads as its English text.
 */
export class Localized {
  constructor(
    readonly en: string,
    readonly ru: string,
  ) {}

  in(lang: Language): string {
    return this[lang];
  }

  toString(): string {
    return this.en;
  }

  toJSON(): string {
    return this.en;
  }
}

/** A message as thrown: localised, or a fixed text for machines (e.g. an integration's protocol). */
export type Message = string | Localized;

/** A pair of texts from a catalog that keeps them by language (e.g. the contracts' message tables). */
export const localized = (texts: Readonly<Record<Language, string>>): Localized =>
  new Localized(texts.en, texts.ru);

/** Entry `key` of a table of texts by language (`{ru: {…}, en: {…}}`, as the contracts keep some). */
export const fromTable = <K extends string>(
  table: Readonly<Record<Language, Readonly<Record<K, string>>>>,
  key: K,
): Localized => new Localized(table.en[key], table.ru[key]);

/** A pair of texts as data tables keep them (e.g. the demo's), English first. */
export type TextPair = readonly [en: string, ru: string];

/** A pair of texts kept as `[en, ru]`, to be read with `.in(lang)`. */
export const fromPair = ([en, ru]: TextPair): Localized => new Localized(en, ru);

/**
 * The language a stored or queued value names (a user's locale, a job's payload): English only
 * when it says so, otherwise Russian, the portal's default.
 */
export const languageOf = (value: unknown): Language => (value === 'en' ? 'en' : 'ru');

const DATE_LOCALES: Readonly<Record<Language, string>> = { ru: 'ru-RU', en: 'en-GB' };

/** The `Intl` locale that writes dates and numbers for a reader of `lang`. */
export const dateLocale = (lang: Language): string => DATE_LOCALES[lang];

const t = (en: string, ru: string) => new Localized(en, ru);
/** "a minute", or the window of a route limit in seconds. */
const perWindow = (seconds: number) =>
  seconds === 60 ? t('a minute', 'в минуту') : t(`in ${seconds} seconds`, `за ${seconds} с`);

/**
 * The server's user-facing messages, by key. Where the specification gives a Russian text, that
 * is the ru text; en is the English the interface uses.
 */
const MESSAGES = {
  // --- the API as a whole
  queryMillisRange: t(
    QUERY_MILLIS_MESSAGE,
    'Укажите метку времени в миллисекундах от 0 (1970-01-01) до 253402300799999 (9999-12-31T23:59:59.999Z).',
  ),
  duplicateHost: t(
    'The request carries more than one Host header.',
    'В запросе больше одного заголовка Host.',
  ),
  notFound: t('Not found.', 'Не найдено.'),
  notAuthenticated: t(
    'Authentication credentials were not provided.',
    'Учётные данные не были предоставлены.',
  ),
  permissionDenied: t(
    'You do not have permission to perform this action.',
    'У вас недостаточно прав для выполнения данного действия.',
  ),
  invalidToken: t(
    'Given token not valid for any token type',
    'Токен недействителен. Войдите в систему заново.',
  ),
  readOnlyToken: t('This API token is read-only.', 'Этот API-токен позволяет только чтение.'),
  throttled: (seconds: number) =>
    t(
      `Request was throttled. Expected available in ${seconds} seconds.`,
      `Слишком много запросов. Повторите попытку через ${seconds} с.`,
    ),
  malformedJson: t('Malformed JSON body.', 'Тело запроса не является корректным JSON.'),
  emptyJson: t('Empty JSON body.', 'Пустое тело запроса JSON.'),
  bodyTooLarge: t('Request body is too large.', 'Тело запроса слишком велико.'),
  unsupportedMediaType: t('Unsupported media type.', 'Неподдерживаемый тип содержимого.'),
  invalidContentLength: t('Invalid content length.', 'Некорректная длина содержимого.'),
  malformedMultipart: t('Malformed multipart body.', 'Некорректное тело запроса multipart.'),
  expectedMultipart: t('Expected multipart/form-data.', 'Ожидается multipart/form-data.'),

  // --- Sigma rule import (issue 30): per file, in the import's answer and the CLI's report
  sigmaInvalidYaml: (detail: string) => t(`Not valid YAML: ${detail}`, `Некорректный YAML: ${detail}`),
  sigmaNotUtf8: t('The file is not UTF-8 text.', 'Файл не является текстом в UTF-8.'),
  sigmaNotMapping: t(
    'Not a Sigma rule: the document is not a mapping of fields.',
    'Не правило Sigma: документ не является набором полей.',
  ),
  sigmaMissingField: (field: string) => t(`The rule has no ${field}.`, `В правиле нет поля ${field}.`),
  sigmaInvalidField: (field: string) =>
    t(`The rule's ${field} is not valid.`, `Поле ${field} правила некорректно.`),
  sigmaUnknownTags: (tags: string) => t(`Unknown tags: ${tags}.`, `Неизвестные теги: ${tags}.`),
  sigmaFileTooLarge: (limit: string) => t(`The file is larger than ${limit}.`, `Файл больше ${limit}.`),
  sigmaNotRuleFile: t(
    'Neither a YAML file (.yml, .yaml) nor a zip archive.',
    'Не файл YAML (.yml, .yaml) и не архив zip.',
  ),
  sigmaZipInvalid: (detail: string) =>
    t(`Not a readable zip archive: ${detail}`, `Архив zip не читается: ${detail}`),
  sigmaZipTooManyEntries: (limit: number) =>
    t(
      `The archive holds more than ${limit} files; nothing of it was imported.`,
      `В архиве больше ${limit} файлов; из него ничего не импортировано.`,
    ),
  sigmaZipTooLarge: (limit: string) =>
    t(
      `The archive expands to more than ${limit}; nothing of it was imported.`,
      `Архив распаковывается больше чем в ${limit}; из него ничего не импортировано.`,
    ),
  sigmaDuplicateId: (file: string) =>
    t(`The same rule id is in ${file} of this import.`, `Тот же id правила есть в ${file} этого импорта.`),
  sigmaIdTaken: t(
    'The rule id belongs to a rule that was not imported from Sigma.',
    'Этот id принадлежит правилу, импортированному не из Sigma.',
  ),
  // the whole import is refused (422): a file a Sigma rule never looks like, stopped before or while parsing
  sigmaTooDeep: (file: string, max: number) =>
    t(
      `${file} nests more than ${max} levels deep, which no Sigma rule does; nothing was imported.`,
      `В ${file} вложенность больше ${max} уровней, какой не бывает в правилах Sigma; ничего не импортировано.`,
    ),
  sigmaParseTooSlow: (file: string, seconds: number) =>
    t(
      `Reading ${file} took longer than ${seconds} s and was stopped; nothing was imported.`,
      `Чтение ${file} заняло больше ${seconds} с и было остановлено; ничего не импортировано.`,
    ),
  sigmaParseTooBig: (file: string) =>
    t(
      `Reading ${file} needed too much memory and was stopped; nothing was imported.`,
      `Для чтения ${file} потребовалось слишком много памяти, оно остановлено; ничего не импортировано.`,
    ),
  sigmaNoFiles: t(
    'Send at least one YAML file or zip archive.',
    'Отправьте хотя бы один файл YAML или архив zip.',
  ),
  sigmaSkipDeprecated: t('The rule is deprecated.', 'Правило устарело (deprecated).'),
  sigmaSkipUnsupported: t(
    'The rule is marked unsupported (its detection cannot be expressed).',
    'Правило помечено как unsupported (его обнаружение невыразимо).',
  ),
  sigmaSkipInformational: t(
    'An informational rule raises no alert (enrichment only).',
    'Информационное правило не создаёт оповещений (только обогащение).',
  ),
  sigmaSkipNoLevel: t('The rule has no level.', 'У правила нет уровня (level).'),
  sigmaSkipCorrelation: t(
    'A correlation or filter rule, not a detection rule.',
    'Правило корреляции или фильтр, а не правило обнаружения.',
  ),
  sigmaSkipCollection: t(
    'A rule collection of several YAML documents (not supported).',
    'Коллекция правил из нескольких документов YAML (не поддерживается).',
  ),
  unknownParameter: t('Unknown parameter.', 'Неизвестный параметр.'),
  invalidValue: t('Invalid value.', 'Некорректное значение.'),

  // --- ATT&CK Navigator layers (texts inside the exported file)
  layerRulesName: t('SOC detection rules: ATT&CK coverage', 'Правила обнаружения SOC: покрытие ATT&CK'),
  layerRulesDescription: t(
    'Number of detection rules per technique (score); the comment lists the rule ids.',
    'Число правил обнаружения по технике (score); в комментарии — идентификаторы правил.',
  ),
  layerRulesComment: (ids: string) => t(`Rules: ${ids}`, `Правила: ${ids}`),
  layerIncidentsName: (from: string, to: string) =>
    t(`Incidents by ATT&CK technique, ${from} – ${to}`, `Инциденты по техникам ATT&CK, ${from} – ${to}`),
  layerIncidentsDescription: t(
    'Number of incidents per technique in the period (score), as the dashboard’s MITRE widget shows them.',
    'Число инцидентов по технике за период (score), как на виджете MITRE панели мониторинга.',
  ),
  layerIncidentsComment: (n: number) => t(`Incidents: ${n}`, `Инцидентов: ${n}`),
  layerFilter: t('Filter', 'Фильтр'),
  layerPeriod: t('Period', 'Период'),
  layerSystems: t('Systems', 'Системы'),
  layerAllSystems: t('all available', 'все доступные'),
  layerBandNone: t('No rules', 'Нет правил'),
  layerBandLow: t('Low: 1–13 rules', 'Низкое: 1–13 правил'),
  layerBandMedium: t('Medium: 14–15 rules', 'Среднее: 14–15 правил'),
  layerBandHigh: t('High: 16–17 rules', 'Высокое: 16–17 правил'),
  layerBandHighest: t('Highest: 18 rules or more', 'Наивысшее: 18 правил и больше'),
  layerHeatLow: t('Low: up to 28.6% of the most frequent', 'Низкая: до 28,6% от самой частой'),
  layerHeatMedium: t('Medium: over 28.6%', 'Средняя: больше 28,6%'),
  layerHeatHigh: t('High: over 31.4%', 'Высокая: больше 31,4%'),
  layerHeatHigher: t('Highest: over 35.7%', 'Наивысшая: больше 35,7%'),
  storageFull: t(
    'There is not enough storage space for this file; try again later.',
    'Недостаточно места для хранения файла; повторите попытку позже.',
  ),
  storageUnavailable: t(
    'The file storage is temporarily unavailable; nothing was saved. Try again shortly.',
    'Хранилище файлов временно недоступно; ничего не сохранено. Повторите попытку чуть позже.',
  ),
  unavailable: t(
    'The service is temporarily unavailable; try again shortly.',
    'Сервис временно недоступен; повторите попытку чуть позже.',
  ),
  internalError: t('Internal server error.', 'Внутренняя ошибка сервера.'),
  objectDoesNotExist: (id: unknown) =>
    t(`Invalid pk "${String(id)}" - object does not exist.`, `Объект «${String(id)}» не существует.`),
  fieldRequired: t('This field is required.', 'Обязательное поле.'),

  // --- signing in
  invalidCredentials: t(
    'No active account found with the given credentials',
    'Не найдена активная учётная запись с указанными данными',
  ),
  invalidRefresh: t('Token is invalid or expired', 'Токен недействителен или истёк'),
  oldPasswordWrong: t(
    'Your old password was entered incorrectly. Please enter it again.',
    'Старый пароль введён неверно. Введите его ещё раз.',
  ),
  sameAsOldPassword: t(
    'The new password must differ from the old one',
    'Новый пароль должен отличаться от старого',
  ),
  loggedOut: t('Logged out.', 'Вы вышли из системы.'),
  passwordChanged: t('Password changed.', 'Пароль изменён.'),
  mfaResendWait: (seconds: number) =>
    t(`A new code may be requested in ${seconds} seconds.`, `Новый код можно запросить через ${seconds} с.`),

  // --- uploads
  tooManyFiles: (max: number) =>
    t(`Ensure this field has no more than ${max} files.`, `Не больше ${max} файлов.`),
  emptyFile: (name: string) =>
    t(`The submitted file "${name}" is empty.`, `Отправленный файл «${name}» пуст.`),
  fileTooLarge: (megabytes: number) =>
    t(`Each file must be at most ${megabytes} MB.`, `Размер каждого файла — не больше ${megabytes} МБ.`),
  noFile: t('No file was submitted.', 'Файл не отправлен.'),

  // --- incidents
  actionNotAvailable: (action: string, status: IncidentStatus) =>
    t(
      `Action "${action}" is not available for this incident (status: ${INCIDENT_STATUS_TITLES.en[status]}).`,
      `Действие «${action}» недоступно для этого инцидента (статус: ${INCIDENT_STATUS_TITLES.ru[status]}).`,
    ),
  assigneeNotMember: t(
    'Only users of the incident’s system can be assigned.',
    'Назначить можно только пользователей системы инцидента.',
  ),
  criticalByAnalystsOnly: t(
    'Only analysts may set the critical priority.',
    'Критический приоритет устанавливают только аналитики.',
  ),
  gossopkaPlanByAnalystsOnly: t(
    'Only analysts plan the report to the national centre.',
    'Отправку в НКЦКИ планируют только аналитики.',
  ),
  gossopkaAlreadySent: t('The incident has already been sent.', 'Инцидент уже отправлен.'),
  socAssigneeNotStaff: t(
    'The SOC assignee must be an analyst or an administrator of the provider.',
    'Ответственным SOC может быть только аналитик или администратор провайдера.',
  ),
  plannedTimeInPast: t(
    'The planned time must be in the future.',
    'Запланированное время должно быть в будущем.',
  ),
  rateByCustomerOnly: t('Only the customer rates an incident.', 'Оценку инциденту ставит только заказчик.'),
  rateHandledOnly: t('Only a handled incident can be rated.', 'Оценить можно только обработанный инцидент.'),
  alreadyRated: t('The incident has already been rated.', 'Инцидент уже оценён.'),
  completeByAction: t(
    'Analysts complete incidents with the "complete" action.',
    'Аналитики завершают инциденты действием «Завершить».',
  ),
  completeNotOpen: t(
    'The incident is not open; it cannot be completed.',
    'Инцидент не открыт; его нельзя завершить.',
  ),
  csvMailQueued: (email: string) =>
    t(`The CSV file will be sent to ${email}`, `CSV-файл будет отправлен на ${email}`),
  csvMailSubject: t('Incident export (CSV)', 'Выгрузка инцидентов (CSV)'),
  csvMailTooMany: (max: number) =>
    t(
      `The requested export holds more than the allowed ${max} incidents. Narrow the filters and request it again.`,
      `Запрошенная выгрузка содержит больше допустимых ${max} инцидентов. Сузьте фильтры и запросите её снова.`,
    ),
  csvMailAttached: (total: number) =>
    t(
      `Attached is the export of ${total} incidents you requested.`,
      `Во вложении — выгрузка ${total} инцидентов по вашему запросу.`,
    ),
  csvMailTooLarge: (total: number) =>
    t(
      `The export of ${total} incidents is too large for e-mail. Narrow the filters and request it again.`,
      `Выгрузка ${total} инцидентов слишком велика для письма. Сузьте фильтры и запросите её снова.`,
    ),
  downloadTooLarge: t(
    'The maximum number of records for a file download is exceeded.',
    'Превышено максимальное число записей для выгрузки в файл.',
  ),
  noEmail: t('Your account has no e-mail address.', 'У вашей учётной записи нет адреса e-mail.'),

  // --- tasks
  taskClosed: t(
    'The task is closed; reopen it to write.',
    'Задача закрыта; чтобы писать, откройте её заново.',
  ),
  taskStatus: (from: TaskStatus, to: TaskStatus) =>
    t(
      `A task that is ${TASK_STATUS_TITLES.en[from]} cannot be set to ${TASK_STATUS_TITLES.en[to]}.`,
      `Задачу в статусе «${TASK_STATUS_TITLES.ru[from]}» нельзя перевести в статус «${TASK_STATUS_TITLES.ru[to]}».`,
    ),
  unknownSystem: t('Unknown system.', 'Неизвестная система.'),

  // --- administration
  userExists: t('A user with that username already exists.', 'Пользователь с таким именем уже существует.'),
  systemExists: t('A system with this code already exists.', 'Система с таким кодом уже существует.'),
  cannotDemoteSelf: t(
    'You cannot deactivate or demote yourself.',
    'Нельзя деактивировать себя или понизить свою роль.',
  ),

  // --- documents
  onlyInstructionsHaveSensors: t('Only instructions have sensors.', 'Сенсоры есть только у инструкций.'),
  noDocumentOfKind: t('No document of this kind has this id.', 'Документа этого вида с таким id нет.'),
  documentLanguageExists: t(
    'The document already exists in this language.',
    'Документ на этом языке уже существует.',
  ),
  documentNothingChanged: t(
    'Change at least one of title, description, tags, sensors.',
    'Измените хотя бы одно из полей: название, описание, теги, сенсоры.',
  ),

  // --- alerts
  alertsBulkMax: (max: number) =>
    t(
      `At most ${max} alerts can be changed at once.`,
      `За один раз можно изменить не больше ${max} алертов.`,
    ),
  alertsOwnSystem: t(
    'Alerts can only be attached to an incident of their own system.',
    'Алерты можно привязать только к инциденту их системы.',
  ),
  alertNoProcessTree: t(
    'The alert has no process events to build a tree from.',
    'У алерта нет событий процессов, по которым можно построить дерево.',
  ),
  alertNoSuchValue: t(
    'The alert has no such value for this template.',
    'У алерта нет такого значения для этого шаблона.',
  ),
  httpLinksOnly: t('Only http and https links are allowed.', 'Допускаются только ссылки http и https.'),

  // --- the analyst API's idempotency keys
  idempotencyReleasing: t(
    'The Idempotency-Key is being released; retry.',
    'Ключ Idempotency-Key освобождается; повторите запрос.',
  ),
  idempotencyInProgress: t(
    'A request with this Idempotency-Key is still in progress.',
    'Запрос с этим ключом Idempotency-Key ещё выполняется.',
  ),
  idempotencyMismatch: t(
    'This Idempotency-Key was used with a different request.',
    'Этот ключ Idempotency-Key уже использован с другим запросом.',
  ),
  reportQueued: t('The report will be generated.', 'Отчёт будет сформирован.'),
  // the report forms' checks; their ru texts are the contract's REPORT_MESSAGES, as specified
  reportDateRequired: t('Enter the date', REPORT_MESSAGES.dateRequired),
  reportInvalidEmail: t('Invalid e-mail address', REPORT_MESSAGES.invalidEmail),
  reportInvalidName: t('Invalid name', REPORT_MESSAGES.invalidName),
  reportInvalidEmails: t('Enter valid e-mail addresses', REPORT_MESSAGES.invalidEmails),
  reportChooseSystems: t('Choose the systems', REPORT_MESSAGES.chooseSystems),
  reportInvalidDate: t('Invalid date', REPORT_MESSAGES.invalidDate),
  reportNameRequired: t('The report name is required', REPORT_MESSAGES.nameRequired),
  reportPeriodTooLong: (days: number) =>
    t(`The period may be at most ${days} days.`, `Период может быть не длиннее ${days} дней.`),
  reportPeriodInFuture: t(
    'The period cannot end after today: a report covers days that have passed.',
    'Период не может заканчиваться позже сегодняшнего дня: отчёт строится за прошедшие дни.',
  ),
  // the e-mail of a built report
  reportMailSubject: (name: string) => t(`Report: ${name}`, `Отчёт: ${name}`),
  reportMailAttached: (name: string, period: string, page: string) =>
    t(
      `Attached is the report "${name}" for ${period}.\nReports are also on the portal: ${page}`,
      `Во вложении — отчёт «${name}» за период ${period}.\nОтчёты также доступны на портале: ${page}`,
    ),
  reportMailTooLarge: (name: string, period: string, bytes: number, page: string) =>
    t(
      `The report "${name}" for ${period} is too large for e-mail (${bytes} bytes). Download it from the portal: ${page}`,
      `Отчёт «${name}» за период ${period} слишком велик для письма (${bytes} байт). Скачайте его на портале: ${page}`,
    ),

  // --- recommendations, national centre, tokens, live updates
  misconfigActionNotPossible: (status: string, action: string) =>
    t(
      `The recommendation is ${status.replace('_', ' ')}; "${action}" is not possible.`,
      `Рекомендация в статусе «${status}»; действие «${action}» невозможно.`,
    ),
  gossopkaNotSendable: t(
    'Only incidents (not other issue types) that are not canceled are sent to the national centre.',
    'В НКЦКИ отправляются только инциденты (не другие типы обращений), которые не отменены.',
  ),
  tooManyPersonalTokens: (max: number) =>
    t(
      `You may hold at most ${max} tokens; revoke one first.`,
      `Можно иметь не больше ${max} токенов; сначала отзовите один из них.`,
    ),
  userDeactivated: t('The user is deactivated.', 'Пользователь деактивирован.'),
  tokenRoleTooHigh: (role: string) =>
    t(
      `The token's role may not exceed the user's role (${role}).`,
      `Роль токена не может быть выше роли пользователя (${role}).`,
    ),
  tokensCannotManageTokens: t(
    'API tokens cannot manage API tokens; sign in to do this.',
    'API-токеном нельзя управлять API-токенами; войдите в систему.',
  ),
  tokensCannotStream: t(
    'API tokens cannot open event streams; sign in to do this.',
    'API-токеном нельзя открыть поток событий; войдите в систему.',
  ),
  eventsTicketInvalid: t(
    'The events ticket is invalid or has expired.',
    'Билет потока событий недействителен или истёк.',
  ),
  eventsTicketUsed: t(
    'The events ticket has already been used; ask for a new one.',
    'Билет потока событий уже использован; запросите новый.',
  ),
  signInLinkInvalid: t(
    'The sign-in link is invalid or has expired. Please sign in again.',
    'Ссылка для входа недействительна или устарела. Войдите заново.',
  ),

  // --- documents and uploads
  filesNotAccepted: t('Files are not accepted here.', 'Файлы здесь не принимаются.'),
  exactlyOneFile: t('Send exactly one file in the field "file".', 'Отправьте ровно один файл в поле «file».'),
  documentFileTooLarge: (megabytes: number) =>
    t(`The file must be at most ${megabytes} MB.`, `Размер файла — не больше ${megabytes} МБ.`),
  unexpectedFileField: t(
    'Unexpected file field; use "attachments".',
    'Неожиданное поле файла; используйте «attachments».',
  ),
  storageQuota: (used: string, quota: string, adding: string) =>
    t(
      `The system's storage quota is used up: ${used} of ${quota} stored, and these files ` +
        `need ${adding} more. Delete files that are no longer needed or ask the SOC to raise the quota.`,
      `Квота хранилища системы исчерпана: занято ${used} из ${quota}, а этим файлам нужно ещё ${adding}. ` +
        'Удалите ненужные файлы или попросите SOC увеличить квоту.',
    ),
  // --- the IOC feed
  invalidFeedCursor: t(
    'Invalid cursor: use the link of the previous page.',
    'Неверный курсор: используйте ссылку с предыдущей страницы.',
  ),
  // --- route limits (plugins/route-limits.ts): the refusal, then each bucket's label
  routeLimitPerUser: (what: Localized, max: number, windowSeconds: number) =>
    t(
      `Too many ${what.en} from your account: at most ${max} ${perWindow(windowSeconds).en}. Please try again later.`,
      `Слишком много ${what.ru} с вашей учётной записи: не более ${max} ${perWindow(windowSeconds).ru}. Повторите попытку позже.`,
    ),
  routeLimitPerSystem: (what: Localized, max: number, windowSeconds: number) =>
    t(
      `Too many ${what.en} for this system: at most ${max} ${perWindow(windowSeconds).en} for all its users together. Please try again later.`,
      `Слишком много ${what.ru} по этой системе: не более ${max} ${perWindow(windowSeconds).ru} на всех её пользователей. Повторите попытку позже.`,
    ),
  routeLimitExport: t('CSV exports', 'выгрузок CSV'),
  routeLimitReport: t('report orders', 'заказов отчётов'),
  routeLimitComment: t('comments', 'комментариев'),
  routeLimitUpload: t('file uploads', 'загрузок файлов'),
  routeLimitIncident: t('new incidents', 'новых инцидентов'),
  routeLimitPdf: t('PDF files', 'PDF-файлов'),
  routeLimitFeed: t('IOC feed downloads', 'загрузок фида IOC'),
  routeLimitLayer: t('ATT&CK Navigator layers', 'слоёв ATT&CK Navigator'),
  routeLimitWebhookTest: t('test and repeated webhook deliveries', 'тестовых и повторных отправок вебхуков'),
  // --- outbound webhooks (issue 29 part 2)
  webhookUrlInvalid: t(WEBHOOK_MESSAGES.urlInvalid, 'Введите адрес http(s).'),
  webhookUrlCredentials: t(
    WEBHOOK_MESSAGES.urlCredentials,
    'Адрес не может содержать имя пользователя или пароль.',
  ),
  webhookAddressRefused: t(
    'This address is private, loopback, link-local or a metadata service: webhooks cannot be sent there.',
    'Это частный, локальный, link-local адрес или адрес сервиса метаданных: вебхуки туда не отправляются.',
  ),
  webhookEventsRequired: t(WEBHOOK_MESSAGES.eventsRequired, 'Выберите хотя бы одно событие.'),
  webhookChatIdRequired: t(WEBHOOK_MESSAGES.chatIdRequired, 'Для Telegram нужен идентификатор чата.'),
  webhookTooMany: (max: number) =>
    t(
      `A system may have at most ${max} webhook endpoints.`,
      `У системы может быть не более ${max} адресов вебхуков.`,
    ),
  webhookSystemUnknown: t('No such system.', 'Такой системы нет.'),
  webhookQueueFull: (max: number) =>
    t(
      `${max} deliveries to this endpoint are waiting to be sent. Try again once some of them are done.`,
      `На этот адрес ждут отправки ${max} доставок. Повторите попытку, когда часть из них завершится.`,
    ),
  webhookSystemQueueFull: (max: number) =>
    t(
      `${max} webhook deliveries of this system are waiting to be sent. Try again once some of them are done.`,
      `По этой системе ждут отправки ${max} доставок вебхуков. Повторите попытку, когда часть из них завершится.`,
    ),
  webhookDisabledSubject: (url: string) =>
    t(`Webhook endpoint turned off: ${url}`, `Адрес вебхука отключён: ${url}`),
  webhookDisabledText: (url: string, system: string, days: number) =>
    t(
      `Deliveries to the webhook endpoint ${url} of ${system} have failed for ${days} days, so the ` +
        'portal has turned it off. Fix the receiver and turn the endpoint on again under Webhooks.',
      `Доставка на адрес вебхука ${url} системы ${system} не удаётся ${days} дн., поэтому портал ` +
        'отключил его. Исправьте получателя и снова включите адрес в разделе «Вебхуки».',
    ),
  webhookTestText: t('Test event from the SOC portal.', 'Тестовое событие портала SOC.'),
  webhookIncidentCreated: (key: number, summary: string) =>
    t(`New incident #${key}: ${summary}`, `Новый инцидент №${key}: ${summary}`),
  webhookIncidentUpdated: (key: number, fields: string) =>
    t(`Incident #${key} changed: ${fields}`, `Инцидент №${key} изменён: ${fields}`),
  webhookIncidentStatus: (key: number, from: IncidentStatus | null, to: IncidentStatus) =>
    t(
      `Incident #${key}: ${from ? `${INCIDENT_STATUS_TITLES.en[from]} → ` : ''}${INCIDENT_STATUS_TITLES.en[to]}`,
      `Инцидент №${key}: ${from ? `${INCIDENT_STATUS_TITLES.ru[from]} → ` : ''}${INCIDENT_STATUS_TITLES.ru[to]}`,
    ),
  webhookCommentCreated: (key: number, author: string) =>
    t(`New comment on incident #${key} by ${author}`, `Новый комментарий к инциденту №${key} от ${author}`),
  webhookReportReady: (name: string) => t(`Report ready: ${name}`, `Отчёт готов: ${name}`),
  webhookTaskUpdated: (id: number, subject: string, status: TaskStatus) =>
    t(
      `Request #${id} ${subject}: ${TASK_STATUS_TITLES.en[status]}`,
      `Заявка №${id} ${subject}: ${TASK_STATUS_TITLES.ru[status]}`,
    ),
  webhookOpen: t('Open in the portal', 'Открыть в портале'),

  // --- SMS texts other than the sign-in code (whose text is SMS_TEXT_TEMPLATE): each says what
  // the code will do, so that a code asked for by someone else does not pass for a sign-in
  smsMfaChangeCode: (code: string, minutes: number) =>
    t(
      `${code} is your SOC Portal code to CHANGE the second factor of your account. It expires in ${minutes} minutes. Never share it with anyone; if you did not ask for it, change your password.`,
      `${code} — код SOC Portal для СМЕНЫ второго фактора вашей учётной записи. Действует ${minutes} мин. Никому не сообщайте его; если вы его не запрашивали, смените пароль.`,
    ),

  // --- demo data (demo/): the texts its generator writes besides its tables of text pairs
  demoIncidentDescription: (summary: string, host: string, firstEvent: string) =>
    t(
      `## What happened\n\n${summary}.\n\n- Host: \`${host}\`\n- First event: ${firstEvent}\n\n## What to do\n\nCheck whether the activity is legitimate and report back in the comments.`,
      `## Что произошло\n\n${summary}.\n\n- Узел: \`${host}\`\n- Первое событие: ${firstEvent}\n\n## Что сделать\n\nПроверьте легитимность активности и сообщите результат в комментариях.`,
    ),
  demoIncidentRecommendations: t(
    'Isolate the host and reset the passwords of the affected accounts.',
    'Изолируйте узел, смените пароли затронутых учётных записей.',
  ),
  demoDiagramFilename: t('connection-diagram.png', 'схема-подключения.png'),
  demoDiagramAlt: t('diagram', 'схема'),
  demoMonthlyReportFile: t('Monthly report', 'Отчёт за месяц'),
  demoWeeklySchedule: t('Weekly report', 'Еженедельный отчёт'),
  demoMonthlySchedule: t('Monthly report', 'Ежемесячный отчёт'),
} as const;

type Catalog = typeof MESSAGES;
export type MessageKey = keyof Catalog;
type Args<K extends MessageKey> = Catalog[K] extends (...args: infer A) => Localized ? A : [];

/** The message `key` of the catalog, with its parameters where it takes some. */
export function msg<K extends MessageKey>(key: K, ...args: Args<K>): Localized {
  const entry: Localized | ((...a: never[]) => Localized) = MESSAGES[key];
  return typeof entry === 'function' ? (entry as (...a: Args<K>) => Localized)(...args) : entry;
}

/**
 * Messages that contract schemas give in one language (WEBHOOK_MESSAGES in English, the
 * specified REPORT_MESSAGES in Russian), in both languages:
 * the error handler answers a validation message found here in the caller's language.
 */
const SCHEMA_MESSAGES: ReadonlyMap<string, Localized> = new Map([
  ...(
    [
      'webhookUrlInvalid',
      'webhookUrlCredentials',
      'webhookEventsRequired',
      'webhookChatIdRequired',
      'queryMillisRange',
    ] as const
  ).map((key) => [MESSAGES[key].en, MESSAGES[key]] as const),
  // the report schemas give the specified Russian texts
  ...(['reportInvalidEmail', 'reportInvalidDate', 'reportNameRequired'] as const).map(
    (key) => [MESSAGES[key].ru, MESSAGES[key]] as const,
  ),
]);

/** A schema's own message, localised where the catalog knows it. */
export const schemaMessage = (text: string): Message => SCHEMA_MESSAGES.get(text) ?? text;

/**
 * An answer's body with every localised text in `lang`: the `{detail}` of an error, its field
 * messages (lists under field names) or a body with a machine-readable code beside the text.
 */
export function inLanguage(body: unknown, lang: Language): unknown {
  if (body instanceof Localized) return body.in(lang);
  if (Array.isArray(body)) return body.map((item) => inLanguage(item, lang));
  if (body && typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype) {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, inLanguage(v, lang)]));
  }
  return body;
}
