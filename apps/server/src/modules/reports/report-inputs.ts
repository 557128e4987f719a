import { msg } from '../../lib/messages.ts';
import { badRequest } from '../../lib/http-errors.ts';
import type { SystemScope } from '../../lib/scope.ts';
import type { ReportsRepository } from './reports.repository.ts';

// What one-off reports and schedules both take from a request: systems, language, file name.

// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const UNSAFE_IN_FILENAME = /[\u0000-\u001f\u007f\\/:*?"<>|]+/g;
export const fileSafe = (name: string) =>
  name.replace(UNSAFE_IN_FILENAME, '_').trim().slice(0, 120) || 'report';

export const ymd = (d: Date, zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(d);

/** The systems named in a request (codes or names), within the caller's scope; empty: all of theirs. */
export async function resolveSystems(
  repo: ReportsRepository,
  keys: string[],
  scope: SystemScope,
  field = 'systems',
) {
  const unique = [...new Set(keys.map((k) => k.trim()).filter(Boolean))];
  if (!unique.length) {
    const ids = await repo.allSystemIds(scope);
    if (!ids.length) throw badRequest({ [field]: [msg('reportChooseSystems')] });
    return repo.systemsByIds(ids);
  }
  const found = await repo.systemsByKeys(unique, scope);
  const known = new Set(found.flatMap((s) => [s.isId.toLowerCase(), s.fullName.toLowerCase()]));
  if (unique.some((k) => !known.has(k.toLowerCase())))
    throw badRequest({ [field]: [msg('reportChooseSystems')] });
  return found.sort((a, b) => a.isId.localeCompare(b.isId));
}
