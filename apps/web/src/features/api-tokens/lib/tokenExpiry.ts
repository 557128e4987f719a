import { PERSONAL_TOKEN_MAX_DAYS } from '@soc/contracts';
import dayjs, { type Dayjs } from 'dayjs';

/** The last moment a personal token may be set to expire: the server refuses anything later. */
export const latestTokenExpiry = (now: Dayjs = dayjs()): Dayjs => now.add(PERSONAL_TOKEN_MAX_DAYS, 'day');

/** The end of the chosen day, kept within the longest lifetime the server allows (ISO 8601). */
export const tokenExpiryOf = (day: Dayjs, now: Dayjs = dayjs()): string => {
  const end = day.endOf('day');
  const latest = latestTokenExpiry(now);
  return (end.isAfter(latest) ? latest : end).toISOString();
};
