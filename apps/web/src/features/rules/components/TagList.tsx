import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { truncate } from '../lib/ruleQuery.ts';
import '../i18n/texts.ts';

export type TagListProps = {
  values: readonly string[];
  /** Shown before "+N" (product §B9: 3). */
  max: number;
  /** Characters before the text is cut and a tooltip shows the whole. */
  truncateAt: number;
  testId: string;
};

/** Up to `max` tags, then +N with the rest in a tooltip; long texts are cut with a tooltip. */
export function TagList({ values, max, truncateAt, testId }: TagListProps) {
  const { t } = useTranslation();
  const shown = values.slice(0, max);
  const rest = values.slice(max);
  return (
    <>
      {shown.map((value) => {
        const text = truncate(value, truncateAt);
        const tag = (
          <Tag key={value} style={{ marginInlineEnd: 0 }} data-testid={testId}>
            {text}
          </Tag>
        );
        return text === value ? (
          tag
        ) : (
          <Tooltip key={value} title={value}>
            {tag}
          </Tooltip>
        );
      })}
      {rest.length > 0 && (
        <Tooltip title={rest.join(', ')}>
          <Tag style={{ marginInlineEnd: 0 }} data-testid={`${testId}-more`}>
            {t('rules.card.more', { count: rest.length })}
          </Tag>
        </Tooltip>
      )}
    </>
  );
}
