import { RocketOutlined } from '@ant-design/icons';
import type { Rule } from '@soc/contracts';
import { Button, Collapse, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { ruleCaption, ruleDescription } from '../lib/ruleQuery.ts';
import {
  RuleLinks,
  RuleMitre,
  RuleOrigin,
  RuleProperties,
  RuleSensors,
  RuleSummary,
} from './RuleDetails.tsx';
import '../i18n/texts.ts';

export type RuleSidePanelProps = { rule: Rule };

/**
 * The selected rule (product §B2): summary, description (only when present), properties, MITRE
 * (only when present), sensors, links (only when present), and for an imported rule its origin
 * with the licence; the launch button opens /rule/{id} in a new tab.
 */
export function RuleSidePanel({ rule }: RuleSidePanelProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const language = useLanguage();
  const description = ruleDescription(rule, language);
  const hasMitre = Object.keys(rule.mitre_cov).length > 0;
  const items = [
    { key: 'summary', label: t('rules.panel.summary'), children: <RuleSummary rule={rule} /> },
    ...(description
      ? [
          {
            key: 'description',
            label: t('rules.panel.description'),
            children: (
              <Typography.Paragraph style={{ marginBottom: 0 }} data-testid="rule-description">
                {description}
              </Typography.Paragraph>
            ),
          },
        ]
      : []),
    { key: 'properties', label: t('rules.panel.properties'), children: <RuleProperties rule={rule} /> },
    ...(hasMitre
      ? [{ key: 'mitre', label: t('rules.panel.mitre'), children: <RuleMitre rule={rule} /> }]
      : []),
    { key: 'sensors', label: t('rules.panel.sensors'), children: <RuleSensors rule={rule} /> },
    ...(rule.links.length
      ? [{ key: 'links', label: t('rules.panel.links'), children: <RuleLinks rule={rule} /> }]
      : []),
    ...(rule.source
      ? [{ key: 'origin', label: t('rules.origin.title'), children: <RuleOrigin rule={rule} /> }]
      : []),
  ];
  return (
    <aside
      aria-label={t('rules.panel.label')}
      data-testid="rule-side-panel"
      data-id={rule.id}
      style={{
        flex: 1,
        overflowY: 'auto',
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        background: token.colorBgContainer,
      }}
    >
      <Flex align="start" gap="small" style={{ marginBottom: token.marginSM }}>
        <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading4, flex: 1 }}>
          {ruleCaption(rule, language)}
        </Typography.Title>
        <Button
          icon={<RocketOutlined aria-hidden />}
          href={`/rule/${rule.id}`}
          target="_blank"
          rel="noopener"
          title={t('rules.panel.launch')}
          aria-label={t('rules.panel.launch')}
          data-testid="rule-launch"
        />
      </Flex>
      <Collapse
        size="small"
        defaultActiveKey={items.map((item) => item.key)}
        items={items.map((item) => ({ ...item, 'data-testid': `rule-section-${item.key}` }))}
      />
    </aside>
  );
}
