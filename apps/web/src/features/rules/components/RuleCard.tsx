import type { Rule } from '@soc/contracts';
import {
  RULE_CARD_MAX_CATEGORIES,
  RULE_CARD_MAX_TECHNIQUES,
  RULE_CATEGORY_TRUNCATE,
  RULE_TECHNIQUE_TRUNCATE,
} from '@soc/contracts';
import { Flex, Tag, theme, Typography } from 'antd';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { ruleCaption, ruleTechniques } from '../lib/ruleQuery.ts';
import { LevelTag } from './LevelTag.tsx';
import { TagList } from './TagList.tsx';
import { wrapText } from '@/shared/lib/wrapText.ts';
import '../i18n/texts.ts';

/** Card layouts by the list's width (product §B9 breakpoints 900 and 1080). */
export type RuleCardSize = 'narrow' | 'medium' | 'wide';

export type RuleCardProps = {
  rule: Rule;
  selected: boolean;
  size: RuleCardSize;
  position: number;
  setSize: number;
  onSelect: (id: number) => void;
};

/** One rule of the list: selected by click, Enter or Space. */
export function RuleCard({ rule, selected, size, position, setSize, onSelect }: RuleCardProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const language = useLanguage();
  const caption = ruleCaption(rule, language);
  const titleId = `rule-card-title-${rule.id}`;
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(rule.id);
    }
  };
  const tags = (
    <>
      <Flex gap={token.marginXXS} wrap align="center">
        <TagList
          values={rule.category}
          max={RULE_CARD_MAX_CATEGORIES}
          truncateAt={RULE_CATEGORY_TRUNCATE}
          testId="rule-card-category"
        />
      </Flex>
      <Flex gap={token.marginXXS} wrap align="center">
        <TagList
          values={ruleTechniques(rule)}
          max={RULE_CARD_MAX_TECHNIQUES}
          truncateAt={RULE_TECHNIQUE_TRUNCATE}
          testId="rule-card-technique"
        />
      </Flex>
    </>
  );
  const meta = (
    <Flex gap="small" align="center" wrap>
      <LevelTag level={rule.severity} />
      {rule.is_requested && <Tag style={{ marginInlineEnd: 0 }}>{t('rules.card.custom')}</Tag>}
      <Typography.Text type="secondary">
        <time dateTime={rule.created}>{formatDateTime(Date.parse(rule.created), i18n.language)}</time>
      </Typography.Text>
    </Flex>
  );
  return (
    <article
      tabIndex={0}
      aria-labelledby={titleId}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-current={selected ? 'true' : undefined}
      data-testid="rule-card"
      data-id={rule.id}
      data-selected={selected}
      data-size={size}
      onClick={() => onSelect(rule.id)}
      onKeyDown={onKeyDown}
      style={{
        cursor: 'pointer',
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        background: selected ? token.colorPrimaryBg : token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${selected ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
      }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small">
          <Typography.Text type="secondary" style={{ flex: 'none' }}>
            {rule.rule_id}
          </Typography.Text>
          <Typography.Text
            id={titleId}
            strong
            title={caption}
            style={{ ...wrapText, flex: '1 1 0' }}
            data-testid="rule-card-title"
          >
            {caption || t('rules.list.noTitle')}
          </Typography.Text>
          {size === 'wide' && meta}
        </Flex>
        {size === 'wide' ? (
          <Flex gap="middle" wrap>
            {tags}
          </Flex>
        ) : size === 'medium' ? (
          <>
            <Flex gap="middle" wrap>
              {tags}
            </Flex>
            {meta}
          </>
        ) : (
          <>
            {tags}
            {meta}
          </>
        )}
      </Flex>
    </article>
  );
}
