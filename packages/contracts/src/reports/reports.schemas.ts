import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { csvList, searchText } from '../common/query.ts';

/**
 * Reports (product §B2 Reports, §3 Report file / Report schedule / requests, §4, §5, §7, §9):
 * generated PDF files for a set of systems and a period, one-off or by a schedule (report task).
 */

/** Report page batch (product §B9). */
export const REPORTS_PAGE_SIZE = 100;
/** Report tasks (schedules) come in pages of this many cards. */
export const REPORT_TASKS_PAGE_SIZE = 20;
/** Create report modal width (product §B9). */
export const REPORT_MODAL_WIDTH = 720;
/** Table max content width and minimum height (product §B9). */
export const REPORT_TABLE_MAX_WIDTH = 1694;
export const REPORT_TABLE_MIN_HEIGHT = 600;
export const REPORT_TABLE_HEIGHT_OFFSET = 222;
/** Schedules run in this time zone unless a schedule says otherwise. */
export const DEFAULT_REPORT_TIME_ZONE = 'Europe/Moscow';
export const REPORT_NAME_MAX = 200;
export const REPORT_EMAILS_MAX = 50;
export const REPORT_SYSTEMS_MAX = 200;
/** Largest period of a one-off report. */
export const REPORT_MAX_DAYS = 366;
/** The longest list of a delete-multiple request. */
export const REPORT_DELETE_MAX = 500;

/** Report schedule periods (product §B4, §B9); forPeriod is the one-off report of a date range. */
export const REPORT_PERIODS = ['everyDay', 'everyWeek', 'twiceAMonth', 'onceAMonth', 'forPeriod'] as const;
export const ReportPeriodSchema = z.enum(REPORT_PERIODS);
export type ReportPeriod = z.infer<typeof ReportPeriodSchema>;
/** The periods a schedule may have (the edit form offers no forPeriod). */
export const SCHEDULE_PERIODS = ['everyDay', 'everyWeek', 'twiceAMonth', 'onceAMonth'] as const;
export const SchedulePeriodSchema = z.enum(SCHEDULE_PERIODS);
export type SchedulePeriod = z.infer<typeof SchedulePeriodSchema>;
/** Days a scheduled report covers (product §B9); onceAMonth covers the days of the month before. */
export const REPORT_PERIOD_DAYS: Record<Exclude<SchedulePeriod, 'onceAMonth'>, number> = {
  everyDay: 1,
  everyWeek: 7,
  twiceAMonth: 14,
};

/** Texts of product §B5 (create report form, ru) and of the edit schedule form. */
export const REPORT_MESSAGES = {
  dateRequired: 'Поле даты не заполненно',
  invalidEmail: 'Некорректный email',
  invalidName: 'Некорректное имя',
  invalidEmails: 'Введите корректные email адреса',
  chooseSystems: 'Выберите системы',
  invalidDate: 'Некорректная дата',
  nameRequired: 'Название отчета обязательно',
  editInvalidEmails: 'Ibvalid emails',
  editEmptyName: 'Empty name',
  editEmptySystems: 'Empty error',
  deleteFailed: 'Ошибка при удалении отчета',
} as const;

/** `YYYY-MM-DDTHH:mm` (product §B9 start-time format), wall time of the schedule's time zone. */
export const START_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
/** `day.month.year` of one-off reports (product §B3). */
export const DMY_PATTERN = /^(\d{2})\.(\d{2})\.(\d{4})$/;

const validYmd = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/** Parses `YYYY-MM-DDTHH:mm` into its parts, or null. */
export function parseStartTime(
  value: string,
): { year: number; month: number; day: number; hour: number; minute: number } | null {
  const m = START_TIME_PATTERN.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (!validYmd(year, month, day) || hour > 23 || minute > 59) return null;
  return { year, month, day, hour, minute };
}

/** Parses `DD.MM.YYYY`, or null. */
export function parseDmy(value: string): { year: number; month: number; day: number } | null {
  const m = DMY_PATTERN.exec(value);
  if (!m) return null;
  const [day, month, year] = m.slice(1).map(Number) as [number, number, number];
  return validYmd(year, month, day) ? { year, month, day } : null;
}

/** The five crontab fields of a report task (product §B3), celery style. */
export const CrontabSchema = z.object({
  minute: z.string().min(1).max(64),
  hour: z.string().min(1).max(64),
  day_of_week: z.string().min(1).max(64),
  day_of_month: z.string().min(1).max(64),
  month_of_year: z.string().min(1).max(64),
});
export type Crontab = z.infer<typeof CrontabSchema>;

/**
 * The day of month on which twiceAMonth fires again: 14 days later, wrapping inside the 28 days
 * every month has, so both days exist in February too.
 */
export const twiceAMonthSecondDay = (day: number): number => (day + 14 <= 28 ? day + 14 : day + 14 - 28);

/**
 * The crontab of a period starting at `startTime` (product §B4: the crontab is derived from
 * period + start time). onceAMonth from the 29th–31st fires on the last day of each month ('L'),
 * twiceAMonth from those days on the 15th–17th and the last day, so that no month is skipped.
 */
export function crontabFromPeriod(period: SchedulePeriod, startTime: string): Crontab {
  const parts = parseStartTime(startTime);
  if (!parts) throw new Error(`Invalid start time ${startTime}`);
  const base = { minute: String(parts.minute), hour: String(parts.hour), month_of_year: '*' };
  switch (period) {
    case 'everyDay':
      return { ...base, day_of_week: '*', day_of_month: '*' };
    case 'everyWeek': {
      const weekday = new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
      return { ...base, day_of_week: String(weekday), day_of_month: '*' };
    }
    case 'twiceAMonth': {
      if (parts.day > 28) return { ...base, day_of_week: '*', day_of_month: `${parts.day - 14},L` };
      const days = [parts.day, twiceAMonthSecondDay(parts.day)].sort((a, b) => a - b);
      return { ...base, day_of_week: '*', day_of_month: days.join(',') };
    }
    case 'onceAMonth':
      return { ...base, day_of_week: '*', day_of_month: parts.day > 28 ? 'L' : String(parts.day) };
  }
}

const isInt = (v: string, min: number, max: number) =>
  /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max;

/** The period a crontab stands for (product §B4: derived on load), or null for another crontab. */
export function periodFromCrontab(crontab: Crontab): SchedulePeriod | null {
  const { minute, hour, day_of_week: dow, day_of_month: dom, month_of_year: moy } = crontab;
  if (!isInt(minute, 0, 59) || !isInt(hour, 0, 23) || moy !== '*') return null;
  if (dom === '*') {
    if (dow === '*') return 'everyDay';
    return isInt(dow, 0, 6) ? 'everyWeek' : null;
  }
  if (dow !== '*') return null;
  if (dom === 'L' || isInt(dom, 1, 28)) return 'onceAMonth';
  const pair = dom.split(',');
  if (pair.length !== 2) return null;
  const [a, b] = pair as [string, string];
  if (b === 'L') return isInt(a, 15, 17) ? 'twiceAMonth' : null;
  if (!isInt(a, 1, 28) || !isInt(b, 1, 28)) return null;
  return Number(b) - Number(a) === 14 ? 'twiceAMonth' : null;
}

const emailSchema = z.email({ error: REPORT_MESSAGES.invalidEmail }).max(254);

/** A system choice of the report forms (product §B3 System choice): key = code, text = name. */
export const SystemChoiceSchema = z.object({ key: z.string(), text: z.string() });
export type SystemChoice = z.infer<typeof SystemChoiceSchema>;

/** A generated report file (product §B3 Report file; isDeleting is client-side only). */
export const ReportFileSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  /** `/api/v0/soc/reports/{id}/`; the file is at link + `download/`. */
  link: z.string(),
  /** ISO 8601. */
  created: z.string(),
  /** First and last instant the report covers, ISO 8601. */
  start: z.string(),
  finish: z.string(),
  /**
   * The IANA time zone whose calendar days the period covers: `start` is the first day's
   * midnight there and `finish` the last day's end, so the period's dates are shown in it.
   */
  time_zone: z.string().optional(),
  /** Bytes. */
  size: z.number().int().nonnegative(),
  /** Names of the systems the report covers, comma-separated. */
  system: z.string(),
  /**
   * E-mail delivery: `none` (no addresses), `pending` (not yet sent; a failed attempt is retried
   * with growing delays, its error in `mail_error`), `sent`.
   */
  mail: z.enum(['none', 'pending', 'sent']).optional(),
  /** The last delivery failure while `mail` is `pending` (e.g. the SMTP server unreachable). */
  mail_error: z.string().nullable().optional(),
});
export type ReportFile = z.infer<typeof ReportFileSchema>;
export const ReportListResponseSchema = pageOf(ReportFileSchema);
export type ReportListResponse = z.infer<typeof ReportListResponseSchema>;

export const REPORT_ORDERINGS = ['created', '-created', 'filename', '-filename', 'size', '-size'] as const;
export const ReportOrderingSchema = z.enum(REPORT_ORDERINGS);
export type ReportOrdering = z.infer<typeof ReportOrderingSchema>;
export const DEFAULT_REPORT_ORDERING: ReportOrdering = '-created';

const isoInstant = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
    error: 'Enter a valid date/time.',
  })
  .transform((v) => new Date(v));

/** Filters, ordering and page of the reports list (product §B7 Reports). */
export const ReportListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(REPORTS_PAGE_SIZE).default(REPORTS_PAGE_SIZE),
    ordering: ReportOrderingSchema.default(DEFAULT_REPORT_ORDERING),
    /** Part of the file name. */
    filename: searchText.optional(),
    /** System codes (`IS-0001,IS-0002`): reports covering any of them. */
    system__in: csvList(z.string().min(1).max(200)).optional(),
    size__gte: z.coerce.number().int().min(0).optional(),
    size__lte: z.coerce.number().int().min(0).optional(),
    /** The report period lies inside [start__gte, finish__lte]. */
    start__gte: isoInstant.optional(),
    finish__lte: isoInstant.optional(),
    created__gte: isoInstant.optional(),
    created__lte: isoInstant.optional(),
  })
  .strict();
export type ReportListQuery = z.infer<typeof ReportListQuerySchema>;

/**
 * GET /soc/reports/recipient_rules/: who may receive a report of these systems (codes or names;
 * none: all of the caller's), so that the forms say it before the request is sent.
 */
export const ReportRecipientRulesQuerySchema = z.strictObject({
  systems: csvList(z.string().trim().min(1).max(200)).optional(),
});
export const ReportRecipientRulesSchema = z.object({
  /**
   * Mail domains allowed for every one of the systems (lower case, sorted); besides them, the
   * active users of every one of the systems (and the provider's staff) may receive the report.
   */
  domains: z.array(z.string()),
});
export type ReportRecipientRules = z.infer<typeof ReportRecipientRulesSchema>;

/** One-off report request (product §B3): dates `DD.MM.YYYY`, the range inclusive. */
export const ReportCreateSchema = z
  .object({
    name: z.string().trim().min(1, { error: REPORT_MESSAGES.nameRequired }).max(REPORT_NAME_MAX),
    /** System names or codes; empty: all systems of the caller. */
    systems: z.array(z.string().min(1).max(200)).max(REPORT_SYSTEMS_MAX).default([]),
    emails: z.array(emailSchema).max(REPORT_EMAILS_MAX).default([]),
    start: z.string().refine((v) => parseDmy(v) !== null, { error: REPORT_MESSAGES.invalidDate }),
    finish: z.string().refine((v) => parseDmy(v) !== null, { error: REPORT_MESSAGES.invalidDate }),
  })
  .strict();
export type ReportCreate = z.infer<typeof ReportCreateSchema>;
export const ReportCreateResponseSchema = z.object({
  /** The report being built; it appears in the list when ready. */
  id: z.number().int(),
  detail: z.string(),
});

export const ReportDeleteMultipleSchema = z
  .object({ ids: z.array(z.number().int().positive()).min(1).max(REPORT_DELETE_MAX) })
  .strict();
export const ReportDeleteResponseSchema = z.object({ deleted: z.number().int() });

/** A report schedule (product §B3 Report schedule / report task). */
export const ReportTaskSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Names of the systems. */
  systems: z.array(z.string()),
  /** Codes of the same systems, in the same order (the edit form preselects them). */
  system_keys: z.array(z.string()),
  emails: z.array(z.string()),
  /** `YYYY-MM-DDTHH:mm` in `time_zone`. */
  start_time: z.string(),
  period: SchedulePeriodSchema,
  crontab: CrontabSchema,
  time_zone: z.string(),
  /** Next run, ISO 8601. */
  next_run: z.string().nullable(),
  last_run: z.string().nullable(),
});
export type ReportTask = z.infer<typeof ReportTaskSchema>;
export const ReportTaskListResponseSchema = pageOf(ReportTaskSchema);
export type ReportTaskListResponse = z.infer<typeof ReportTaskListResponseSchema>;

export const ReportTaskListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(REPORT_TASKS_PAGE_SIZE),
  })
  .strict();

const startTimeSchema = z
  .string()
  .refine((v) => parseStartTime(v) !== null, { error: REPORT_MESSAGES.invalidDate });

/** Schedule request (product §B3). The crontab must be the one of period + start_time. */
export const ReportTaskCreateSchema = z
  .object({
    name: z.string().trim().min(1, { error: REPORT_MESSAGES.nameRequired }).max(REPORT_NAME_MAX),
    /** System codes or names; empty: all systems of the caller. */
    systems: z.array(z.string().min(1).max(200)).max(REPORT_SYSTEMS_MAX).default([]),
    emails: z.array(emailSchema).min(1, { error: REPORT_MESSAGES.invalidEmails }).max(REPORT_EMAILS_MAX),
    start_time: startTimeSchema,
    period: SchedulePeriodSchema,
    crontab: CrontabSchema,
  })
  .strict();
export type ReportTaskCreate = z.infer<typeof ReportTaskCreateSchema>;

/** PATCH of a schedule (product §B7): the name only when changed, systems kept when absent. */
export const ReportTaskUpdateSchema = z
  .object({
    name: z.string().trim().min(1, { error: REPORT_MESSAGES.editEmptyName }).max(REPORT_NAME_MAX).optional(),
    systems: z
      .array(z.string().min(1).max(200))
      .min(1, { error: REPORT_MESSAGES.editEmptySystems })
      .optional(),
    emails: z
      .array(z.email({ error: REPORT_MESSAGES.editInvalidEmails }).max(254))
      .min(1, { error: REPORT_MESSAGES.editInvalidEmails })
      .max(REPORT_EMAILS_MAX)
      .optional(),
    start_time: startTimeSchema.optional(),
    period: SchedulePeriodSchema.optional(),
    crontab: CrontabSchema.optional(),
  })
  .strict();
export type ReportTaskUpdate = z.infer<typeof ReportTaskUpdateSchema>;

/** Recipients typed in the text area: split on comma-and-space (and commas), trimmed (product §B5). */
export const splitRecipients = (text: string): string[] =>
  text
    .split(/,\s*/)
    .map((s) => s.trim())
    .filter(Boolean);
