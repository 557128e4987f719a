import type { Crontab, ReportFile, ReportPeriod, SchedulePeriod } from '@soc/contracts';
import {
  DEFAULT_REPORT_TIME_ZONE,
  crontabFromPeriod,
  parseStartTime,
  periodFromCrontab,
  splitRecipients,
} from '@soc/contracts';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { formatDate } from '@/shared/lib/formatDateTime.ts';
import '../i18n/texts.ts';

/** `YYYY-MM-DDTHH:mm` of a picked date-time (product §B9 start-time format). */
export const toStartTime = (value: Dayjs): string => value.format('YYYY-MM-DDTHH:mm');
/** `DD.MM.YYYY` of a picked day (one-off report request, product §B3). */
export const toDmy = (value: Dayjs): string => value.format('DD.MM.YYYY');
/** A picker value of a stored start time. */
export const fromStartTime = (value: string): Dayjs | null => {
  const parts = parseStartTime(value);
  return parts ? dayjs(new Date(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute)) : null;
};

/** Date presets of the range picker (product §B9): last 7 days, last 30 days, this month, last month. */
export function rangePresets(t: TFunction, now: Dayjs = dayjs()): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = now.startOf('day');
  const lastMonth = today.subtract(1, 'month');
  return [
    { label: t('reports.form.presets.last7'), value: [today.subtract(6, 'day'), today] },
    { label: t('reports.form.presets.last30'), value: [today.subtract(29, 'day'), today] },
    { label: t('reports.form.presets.thisMonth'), value: [today.startOf('month'), today] },
    {
      label: t('reports.form.presets.lastMonth'),
      value: [lastMonth.startOf('month'), lastMonth.endOf('month').startOf('day')],
    },
  ];
}

/** The periodicity shown for a schedule: derived from its crontab on load (product §B4). */
export function periodOfCrontab(crontab: Crontab): SchedulePeriod | null {
  return periodFromCrontab(crontab);
}

export function periodLabel(t: TFunction, crontab: Crontab): string {
  const period = periodFromCrontab(crontab);
  if (period) return t(`reports.periods.${period}`);
  const text = [
    crontab.minute,
    crontab.hour,
    crontab.day_of_month,
    crontab.month_of_year,
    crontab.day_of_week,
  ].join(' ');
  return t('reports.periods.custom', { crontab: text });
}

/** Every recipient must be an e-mail address; empty text is no recipients. */
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
export const invalidRecipients = (text: string): string[] =>
  splitRecipients(text).filter((e) => !EMAIL.test(e));

/**
 * The info line that explains the schedule in words (product §B5), from the crontab the form
 * will send, so that what is read is what will run.
 */
export function scheduleInfo(
  t: TFunction,
  language: string,
  period: ReportPeriod,
  start: Dayjs | null,
  range: [Dayjs, Dayjs] | null,
  zone: string,
): string {
  if (period === 'forPeriod') {
    if (!range) return t('reports.form.info.forPeriodEmpty');
    return t('reports.form.info.forPeriod', {
      start: formatDate(range[0].valueOf(), language),
      finish: formatDate(range[1].valueOf(), language),
    });
  }
  if (!start) return t('reports.form.info.noStart');
  const crontab = crontabFromPeriod(period, toStartTime(start));
  const time = start.format('HH:mm');
  const zoneText = t('reports.form.info.timeZone', { zone });
  let text: string;
  switch (period) {
    case 'everyDay':
      text = t('reports.form.info.everyDay', { time });
      break;
    case 'everyWeek': {
      const weekday = new Intl.DateTimeFormat(language, { weekday: 'long' }).format(start.toDate());
      text = t('reports.form.info.everyWeek', { time, weekday });
      break;
    }
    case 'twiceAMonth': {
      const [first, second] = crontab.day_of_month.split(',');
      text =
        second === 'L'
          ? t('reports.form.info.twiceAMonthLast', { time, first })
          : t('reports.form.info.twiceAMonth', { time, first, second });
      break;
    }
    case 'onceAMonth':
      text =
        crontab.day_of_month === 'L'
          ? t('reports.form.info.onceAMonthLast', { time })
          : t('reports.form.info.onceAMonth', { time, day: crontab.day_of_month });
      break;
  }
  return `${text} ${zoneText}`;
}

/**
 * A report file's period as its calendar dates, "1 Nov 2026 — 30 Nov 2026": formatted in the
 * report's time zone, since its bounds are that zone's midnights (a browser in UTC would read
 * the Moscow midnight of 1 Nov as 31 Oct).
 */
export function periodText(
  report: Pick<ReportFile, 'start' | 'finish' | 'time_zone'>,
  language?: string,
): string {
  const zone = report.time_zone ?? DEFAULT_REPORT_TIME_ZONE;
  const day = (iso: string) => formatDate(Date.parse(iso), language, zone);
  return `${day(report.start)} — ${day(report.finish)}`;
}
