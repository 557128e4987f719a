import { joinList } from '@soc/contracts';
import type { DateRange } from './range.ts';

/** Chart values that open the incident list, and the list parameter each one sets. */
export const DRILL_PARAMS = {
  priority: 'priority__in',
  status: 'status__in',
  category: 'category__in',
  mitre: 'technique__in',
  sla: 'sla_breached',
  ioc: 'ioc__in',
} as const;
export type DrillKind = keyof typeof DRILL_PARAMS;

/**
 * The /incidents address of a chart value: the dashboard's own filters (period, tenants, any other
 * list parameter) plus the clicked value, so that the list counts what the chart showed.
 */
export function incidentsLink(
  base: URLSearchParams,
  range: DateRange,
  kind: DrillKind,
  value: string,
): string {
  const params = new URLSearchParams(base);
  params.set('created__gte', String(range.from));
  params.set('created__lte', String(range.to));
  // a comma inside a value is written as \, in a list parameter
  params.set(DRILL_PARAMS[kind], joinList([value]));
  return `/incidents?${params.toString()}`;
}
