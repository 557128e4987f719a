import type { IncidentCard } from '@soc/contracts';
import type { TFunction } from 'i18next';
import { formatDate } from '@/shared/lib/formatDateTime.ts';
import '../i18n/texts.ts';

/**
 * The outcome of an incident in words, or null while it has none. A customer's close names the
 * resolution (TP/FP and its title); the SOC's own outcomes (completed, canceled) carry no
 * resolution kind, only a resolution date, so they read "Completed by the SOC, 25 Nov 2026".
 */
export function resolutionText(
  incident: Pick<IncidentCard, 'resolution' | 'resolution_name_ref' | 'resolutiondate' | 'status'>,
  t: TFunction,
  locale?: string,
): string | null {
  if (incident.resolution) {
    return [
      incident.resolution === 'True Positive' ? t('incidentResolution.TP') : t('incidentResolution.FP'),
      incident.resolution_name_ref?.title,
    ]
      .filter(Boolean)
      .join(': ');
  }
  if (incident.resolutiondate === null) return null;
  const date = formatDate(incident.resolutiondate, locale);
  if (incident.status === 'completed') return t('incidentPage.details.completedBySoc', { date });
  if (incident.status === 'canceled') return t('incidentPage.details.canceledBySoc', { date });
  return t('incidentPage.details.resolvedOn', { date });
}
