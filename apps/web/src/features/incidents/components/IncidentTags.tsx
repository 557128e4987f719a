import { Flex, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { clipTags } from '@/shared/lib/clipTags.ts';

export type IncidentTagsProps = {
  tags: readonly string[];
};

/** An incident's tags: the first three, then '+N' with the rest in a tooltip (product §A9). */
export function IncidentTags({ tags }: IncidentTagsProps) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  const { shown, hidden } = clipTags(tags);
  return (
    <Flex wrap gap="small" role="list" aria-label={t('incidents.card.tags')} data-testid="incident-tags">
      {shown.map((tag) => (
        <Tag key={tag} role="listitem" style={{ marginInlineEnd: 0 }} data-testid="incident-tag">
          {tag}
        </Tag>
      ))}
      {hidden.length > 0 && (
        <Tooltip title={hidden.join(', ')}>
          <Tag
            role="listitem"
            tabIndex={0}
            aria-label={t('incidents.card.moreTagsLabel', { count: hidden.length, tags: hidden.join(', ') })}
            style={{ marginInlineEnd: 0, cursor: 'default' }}
            data-testid="incident-tags-more"
          >
            {t('incidents.card.moreTags', { count: hidden.length })}
          </Tag>
        </Tooltip>
      )}
    </Flex>
  );
}
