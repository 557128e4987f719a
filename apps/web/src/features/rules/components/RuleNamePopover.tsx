import { ExportOutlined } from '@ant-design/icons';
import { Button, Flex, Popover, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { useRuleByNameQuery } from '../api/useRuleByNameQuery.ts';
import { ruleCaption, ruleDescription } from '../lib/ruleQuery.ts';
import { LevelTag } from './LevelTag.tsx';
import { wrapText } from '@/shared/lib/wrapText.ts';
import '../i18n/texts.ts';

function RulePopupContent({ name }: { name: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const query = useRuleByNameQuery(name, true);
  if (query.isPending) return <Spin size="small" aria-label={t('rules.popup.loading')} />;
  if (query.isError) return <Typography.Text type="danger">{t('rules.popup.loadFailed')}</Typography.Text>;
  const rule = query.data;
  if (!rule) return <Typography.Text type="secondary">{t('rules.popup.notInCatalogue')}</Typography.Text>;
  const description = ruleDescription(rule, language);
  return (
    <Flex vertical gap="small" style={{ maxWidth: 360 }} data-testid="rule-popup">
      <Typography.Text strong style={wrapText}>
        {ruleCaption(rule, language) || rule.name}
      </Typography.Text>
      <Flex gap="middle" wrap>
        <Typography.Text type="secondary">{rule.rule_id}</Typography.Text>
        <LevelTag level={rule.severity} />
      </Flex>
      {description && (
        <Typography.Paragraph ellipsis={{ rows: 3 }} style={{ marginBottom: 0 }}>
          {description}
        </Typography.Paragraph>
      )}
      <a href={`/rule/${rule.id}`} target="_blank" rel="noopener noreferrer" data-testid="rule-popup-open">
        <ExportOutlined /> {t('rules.popup.open')}
      </a>
    </Flex>
  );
}

export type RuleNamePopoverProps = { name: string };

/**
 * A detection rule named on an incident: a click opens a popup with the rule's caption, code,
 * severity and description, and a link that opens the rule page in a new tab (product §A2).
 */
export function RuleNamePopover({ name }: RuleNamePopoverProps) {
  // the popup's content mounts when it first opens (and unmounts when it closes), so the rule
  // is fetched only then
  return (
    <Popover trigger="click" content={<RulePopupContent name={name} />} destroyOnHidden>
      <Button
        type="link"
        size="small"
        style={{ ...wrapText, padding: 0, height: 'auto', maxWidth: '100%', textAlign: 'start' }}
        data-testid="rule-name"
      >
        {name}
      </Button>
    </Popover>
  );
}
