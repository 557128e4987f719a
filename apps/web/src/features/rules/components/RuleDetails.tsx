import type { Rule } from '@soc/contracts';
import { Alert, Descriptions, Flex, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { LevelTag } from './LevelTag.tsx';
import { wrapText } from '@/shared/lib/wrapText.ts';
import '../i18n/texts.ts';

/** Sections shared by the side panel and the rule page. */
export type RuleSection = 'summary' | 'description' | 'properties' | 'mitre' | 'sensors' | 'links' | 'origin';

const tagsOf = (values: readonly string[]): ReactNode =>
  values.length ? (
    <Flex gap={4} wrap>
      {values.map((value) => (
        <Tag key={value} style={{ ...wrapText, marginInlineEnd: 0 }}>
          {value}
        </Tag>
      ))}
    </Flex>
  ) : (
    '—'
  );

/** Summary: id, levels, dates and modes. */
export function RuleSummary({ rule }: { rule: Rule }) {
  const { t, i18n } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="rule-summary"
      items={[
        { key: 'id', label: t('rules.panel.ruleId'), children: rule.rule_id },
        { key: 'severity', label: t('rules.panel.severity'), children: <LevelTag level={rule.severity} /> },
        {
          key: 'confidence',
          label: t('rules.panel.confidence'),
          children: <LevelTag level={rule.confidence} />,
        },
        {
          key: 'created',
          label: t('rules.panel.created'),
          children: formatDateTime(Date.parse(rule.created), i18n.language),
        },
        {
          key: 'activation',
          label: t('rules.panel.activation'),
          children: t(`rules.activation.${rule.activation_mode}`),
        },
        {
          key: 'requested',
          label: t('rules.panel.requested'),
          children: rule.is_requested ? t('rules.filters.yes') : t('rules.filters.no'),
        },
      ]}
    />
  );
}

/** Properties: categories, service levels, platforms. */
export function RuleProperties({ rule }: { rule: Rule }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="rule-properties"
      items={[
        { key: 'categories', label: t('rules.panel.categories'), children: tagsOf(rule.category) },
        { key: 'services', label: t('rules.panel.services'), children: tagsOf(rule.available_for_services) },
        { key: 'platforms', label: t('rules.panel.platforms'), children: tagsOf(rule.mitre_platform) },
      ]}
    />
  );
}

/** MITRE: tactic → techniques, as mapped. */
export function RuleMitre({ rule }: { rule: Rule }) {
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="rule-mitre"
      items={Object.entries(rule.mitre_cov).map(([tactic, techniques]) => ({
        key: tactic,
        label: tactic,
        children: tagsOf(techniques),
      }))}
    />
  );
}

/** Sensors: the rule's sensor tuples. */
export function RuleSensors({ rule }: { rule: Rule }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      pagination={false}
      data-testid="rule-sensors"
      rowKey={(row) => `${row.sensor}|${row.sensor_module}|${row.sensor_type}`}
      dataSource={rule.sensor_tuples}
      columns={[
        { key: 'sensor', dataIndex: 'sensor', title: t('rules.panel.sensor') },
        { key: 'module', dataIndex: 'sensor_module', title: t('rules.panel.sensorModule') },
        { key: 'type', dataIndex: 'sensor_type', title: t('rules.panel.sensorType') },
      ]}
    />
  );
}

/** Links of the rule (external pages open in a new tab). */
export function RuleLinks({ rule }: { rule: Rule }) {
  const { t } = useTranslation();
  if (!rule.links.length)
    return <Typography.Text type="secondary">{t('rules.panel.noLinks')}</Typography.Text>;
  return (
    <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }} data-testid="rule-links">
      {rule.links.map((link) => (
        <li key={link.url}>
          <Typography.Link href={link.url} target="_blank" rel="noopener noreferrer" style={wrapText}>
            {link.title || link.url}
          </Typography.Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * Where an imported rule comes from: Sigma status, authors, dates, false positives and the
 * licence (the Detection Rule License asks to keep each rule's author and show the licence).
 */
export function RuleOrigin({ rule }: { rule: Rule }) {
  const { t } = useTranslation();
  if (!rule.source) return null;
  return (
    <Flex vertical gap="small" data-testid="rule-origin">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'source', label: t('rules.origin.source'), children: t('rules.origin.sigma') },
          { key: 'author', label: t('rules.origin.author'), children: rule.author || '—' },
          { key: 'status', label: t('rules.origin.status'), children: rule.source_status ?? '—' },
          { key: 'authored', label: t('rules.origin.authored'), children: rule.authored_on ?? '—' },
          { key: 'modified', label: t('rules.origin.modified'), children: rule.modified_on ?? '—' },
          {
            key: 'falsePositives',
            label: t('rules.origin.falsePositives'),
            children: rule.false_positives.length ? (
              <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                {rule.false_positives.map((text) => (
                  <li key={text} style={wrapText}>
                    {text}
                  </li>
                ))}
              </ul>
            ) : (
              '—'
            ),
          },
        ]}
      />
      {rule.licence && (
        <Alert
          type="info"
          showIcon
          data-testid="rule-licence"
          message={
            <span>
              {t('rules.origin.licence', { author: rule.author || '—' })}{' '}
              <Typography.Link href={rule.licence.url} target="_blank" rel="noopener noreferrer">
                {rule.licence.name}
              </Typography.Link>
            </span>
          }
        />
      )}
    </Flex>
  );
}
