import type { AnalystIncidentUpdate, IncidentCard, IncidentPriority } from '@soc/contracts';

/** What the staff edit drawer holds. */
export interface EditValues {
  summary: string;
  description: string;
  recommendations: string;
  tags: string[];
  priority: IncidentPriority;
}

/** The drawer's starting values: the card's. */
export const editValuesOf = (card: IncidentCard): EditValues => ({
  summary: card.summary,
  description: card.description,
  recommendations: card.recommendations,
  tags: [...card.tags],
  priority: card.priority,
});

const cleanTags = (tags: readonly string[]): string[] => {
  const seen = new Set<string>();
  for (const tag of tags) {
    const trimmed = tag.trim();
    if (trimmed) seen.add(trimmed);
  }
  return [...seen];
};

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * The PATCH body of an edit: only the fields that differ from the card (texts trimmed as the
 * server stores them, tags trimmed and without repeats), or null when nothing changed.
 */
export function editChanges(card: IncidentCard, values: Partial<EditValues>): AnalystIncidentUpdate | null {
  const changes: AnalystIncidentUpdate = {};
  const text = (value: string | undefined) => (value ?? '').trim();
  if (values.summary !== undefined && text(values.summary) !== card.summary)
    changes.summary = text(values.summary);
  if (values.description !== undefined && text(values.description) !== card.description.trim())
    changes.description = text(values.description);
  if (values.recommendations !== undefined && text(values.recommendations) !== card.recommendations.trim())
    changes.recommendations = text(values.recommendations);
  if (values.tags !== undefined) {
    const tags = cleanTags(values.tags);
    if (!sameList(tags, card.tags)) changes.tags = tags;
  }
  if (values.priority !== undefined && values.priority !== card.priority) changes.priority = values.priority;
  return Object.keys(changes).length > 0 ? changes : null;
}
