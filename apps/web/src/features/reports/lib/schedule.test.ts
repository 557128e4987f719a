import dayjs from 'dayjs';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { reportsEn } from '../i18n/en.ts';
import { reportsRu } from '../i18n/ru.ts';
import { periodText, scheduleInfo } from './schedule.ts';

/** The info line of a schedule starting on Wednesday 25 November 2026 at 09:00, in `language`. */
async function info(language: 'en' | 'ru', period: 'everyDay' | 'everyWeek' | 'onceAMonth') {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: language,
    resources: { en: { translation: { reports: reportsEn } }, ru: { translation: { reports: reportsRu } } },
    interpolation: { escapeValue: false },
  });
  return scheduleInfo(i18n.t, language, period, dayjs('2026-11-25T09:00'), null, 'Asia/Vladivostok');
}

/** What the line says of each period, and of the time zone, in each language. */
const SAYS = {
  en: {
    everyDay: 'Every day at 09:00 a report for the previous calendar day will be generated and sent.',
    everyWeek: 'Every week on Wednesday at 09:00 a report for the previous week, Monday to Sunday, will be',
    onceAMonth: 'a report for the previous calendar month will be generated and sent.',
    zone: 'Times and report periods are in the Asia/Vladivostok time zone.',
  },
  ru: {
    everyDay: 'Каждый день в 09:00 будет формироваться и отправляться отчёт за предыдущий календарный день.',
    everyWeek: 'отчёт за предыдущую неделю, с понедельника по воскресенье.',
    onceAMonth: 'отчёт за предыдущий календарный месяц.',
    zone: 'Время и периоды отчётов указаны в часовом поясе Asia/Vladivostok.',
  },
} as const;

describe('scheduleInfo', () => {
  it('names the calendar periods the server reports on (day, Monday–Sunday week, month) and the zone', async () => {
    for (const language of ['en', 'ru'] as const) {
      for (const period of ['everyDay', 'everyWeek', 'onceAMonth'] as const) {
        const line = await info(language, period);
        expect(line).toContain(SAYS[language][period]);
        expect(line.endsWith(SAYS[language].zone)).toBe(true);
      }
    }
  });
});

describe('period of a report file', () => {
  // a browser in UTC, a New York one and a Tokyo one all read the Moscow month as 1–30 November
  it.each(['UTC', 'America/New_York', 'Asia/Tokyo'])(
    'shows the calendar dates of its zone (%s)',
    (browser) => {
      const saved = process.env.TZ;
      process.env.TZ = browser;
      try {
        const file = {
          start: '2026-10-31T21:00:00.000Z',
          finish: '2026-11-30T20:59:59.999Z',
          time_zone: 'Europe/Moscow',
        };
        expect(periodText(file, 'en')).toBe('1 Nov 2026 — 30 Nov 2026');
        expect(periodText(file, 'ru')).toBe('01.11.2026 — 30.11.2026');
      } finally {
        process.env.TZ = saved;
      }
    },
  );

  it('reads a file without a zone as of the default report zone', () => {
    expect(periodText({ start: '2026-11-30T21:00:00.000Z', finish: '2026-12-15T20:59:59.999Z' }, 'en')).toBe(
      '1 Dec 2026 — 15 Dec 2026',
    );
  });
});
