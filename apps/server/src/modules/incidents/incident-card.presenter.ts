import type {
  Attachment,
  GossopkaStatus,
  IncidentCard,
  IncidentListItem,
  IncidentPriority,
  Ioc,
  RelatedIncident,
} from '@soc/contracts';
import { GOSSOPKA_PROCESSING_MS, IocTypeSchema } from '@soc/contracts';
import { renderMarkdown } from '../../lib/markdown.ts';
import type { IncidentRecord } from './incident-access.ts';

const ms = (d: Date | null): number | null => (d ? d.getTime() : null);

export const NO_ANSWER_ERROR = 'The national centre did not confirm the incident within 5 minutes.';

/** Where sending to the national centre stands at `now` (product §A4). */
export function gossopkaStatus(
  row: Pick<
    IncidentRecord,
    | 'gossopkaId'
    | 'gossopkaSendTime'
    | 'gossopkaPlannedTime'
    | 'gossopkaProcessingSince'
    | 'gossopkaError'
    | 'status'
  >,
  isIncidentType: boolean,
  now = new Date(),
): GossopkaStatus {
  const base = {
    gossopka_id: row.gossopkaId,
    gossopka_send_time: ms(row.gossopkaSendTime),
    gossopka_planned_time: ms(row.gossopkaPlannedTime),
    gossopka_processing_since: ms(row.gossopkaProcessingSince),
    gossopka_error: null as string | null,
  };
  const sendable = isIncidentType && row.status !== 'canceled';
  if (row.gossopkaId) return { ...base, gossopka_state: 'sent', show_gossopka_button: false };
  const since = row.gossopkaProcessingSince?.getTime();
  if (since !== undefined && now.getTime() - since < GOSSOPKA_PROCESSING_MS) {
    return { ...base, gossopka_state: 'processing', show_gossopka_button: false };
  }
  if (since !== undefined || row.gossopkaError) {
    return {
      ...base,
      gossopka_state: 'error',
      gossopka_error: row.gossopkaError ?? NO_ANSWER_ERROR,
      show_gossopka_button: sendable,
    };
  }
  if (row.gossopkaPlannedTime) return { ...base, gossopka_state: 'planned', show_gossopka_button: sendable };
  return { ...base, gossopka_state: 'not_sent', show_gossopka_button: sendable };
}

const presentIocs = (value: IncidentRecord['observedIocs']): Ioc[] =>
  value.flatMap((i) => {
    const type = IocTypeSchema.safeParse(i.ioc_type);
    return type.success ? [{ ioc: i.ioc, ioc_type: type.data, category: i.category ?? [] }] : [];
  });

export function presentIncidentCard(
  item: IncidentListItem,
  row: IncidentRecord,
  extra: {
    attachments: Attachment[];
    related: RelatedIncident[];
    canRate: boolean;
    allowedPriorities: IncidentPriority[];
    isIncidentType: boolean;
  },
): IncidentCard {
  return {
    ...item,
    description: row.description,
    rendered_description: renderMarkdown(row.description),
    recommendations: row.recommendations,
    rendered_recommendations: renderMarkdown(row.recommendations),
    status_description: row.statusDescription,
    affected_systems: row.affectedSystems,
    parsed_activity_detected: ms(row.activityDetectedAt),
    attachments: extra.attachments,
    customer_assignee_last_time: ms(row.customerAssigneeLastTime),
    customer_star_rating_comment: row.customerStarRatingComment,
    can_rate: extra.canRate,
    allowed_priorities: extra.allowedPriorities,
    mitre_cov: row.mitreCov,
    detection_rules: row.detectionRules,
    observed_iocs: presentIocs(row.observedIocs),
    related_incidents: extra.related,
    ...gossopkaStatus(row, extra.isIncidentType),
  };
}
