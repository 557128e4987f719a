import { mitreBand, type RuleMitreTechnique, type RuleCoverage } from '@soc/contracts';
import { Button, Descriptions, Flex, Skeleton, Tag, theme, Typography } from 'antd';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTechniqueQuery } from '../api/useTechniqueQuery.ts';
import '../i18n/texts.ts';

export type MitreDetailPanelProps = {
  coverage: RuleCoverage;
  technique: RuleMitreTechnique;
  filters: URLSearchParams;
  onSelect: (id: string) => void;
  onShowRules: (id: string) => void;
};

/** The selected technique: name, id, rule count, tactics, platforms, sub-techniques, description. */
export function MitreDetailPanel({
  coverage,
  technique,
  filters,
  onSelect,
  onShowRules,
}: MitreDetailPanelProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const detail = useTechniqueQuery(coverage.attack_loaded ? technique.technique_id : null, filters);
  const description = useRef<HTMLDivElement>(null);
  const html = detail.data?.rendered_description;
  // Links inside running text are underlined, not told apart by their colour alone (WCAG 1.4.1:
  // in the dark theme the link colour is too close to the text's).
  useLayoutEffect(() => {
    for (const link of description.current?.querySelectorAll('a') ?? [])
      link.style.textDecoration = 'underline';
  }, [html]);
  const tacticName = new Map(coverage.tactics.map((tactic) => [tactic.short_name, tactic.name]));
  const subs = technique.sub_techniques
    .map((id) => coverage.techniques.find((tech) => tech.technique_id === id))
    .filter((tech): tech is RuleMitreTechnique => tech !== undefined);
  return (
    <aside
      aria-label={t('rules.mitre.detail')}
      data-testid="mitre-detail"
      data-id={technique.technique_id}
      style={{
        padding: token.paddingSM,
        borderRadius: token.borderRadiusLG,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        background: token.colorBgContainer,
        overflowY: 'auto',
        maxHeight: 'calc(100vh - 14rem)',
      }}
    >
      <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading4 }}>
        {technique.technique_id} {technique.fullName}
      </Typography.Title>
      <Descriptions
        size="small"
        column={1}
        style={{ marginTop: token.marginSM }}
        items={[
          {
            key: 'count',
            label: t('rules.title'),
            children: (
              <span data-testid="mitre-detail-count" data-band={mitreBand(technique.count)}>
                {technique.count}
              </span>
            ),
          },
          {
            key: 'tactics',
            label: t('rules.mitre.tactics'),
            children: technique.tactics.map((tactic) => tacticName.get(tactic) ?? tactic).join(', ') || '—',
          },
          {
            key: 'platforms',
            label: t('rules.mitre.platforms'),
            children: technique.platforms.join(', ') || '—',
          },
        ]}
      />
      {subs.length > 0 && (
        <>
          <Typography.Title level={3} style={{ fontSize: token.fontSizeHeading5 }}>
            {t('rules.mitre.subTechniques')}
          </Typography.Title>
          <Flex vertical gap={4} data-testid="mitre-detail-subtechniques">
            {subs.map((sub) => (
              <Flex key={sub.technique_id} gap="small" align="center">
                <Typography.Link onClick={() => onSelect(sub.technique_id)}>
                  {sub.technique_id} {sub.name}
                </Typography.Link>
                <Tag style={{ marginInlineEnd: 0 }}>{sub.count}</Tag>
              </Flex>
            ))}
          </Flex>
        </>
      )}
      <Flex gap="small" wrap style={{ marginBlock: token.marginSM }}>
        <Button
          type="primary"
          disabled={technique.count === 0}
          onClick={() => onShowRules(technique.technique_id)}
          data-testid="mitre-show-rules"
        >
          {t('rules.mitre.showRules')}
        </Button>
        {technique.url && (
          <Button href={technique.url} target="_blank" rel="noopener noreferrer">
            {t('rules.mitre.onMitre')}
          </Button>
        )}
      </Flex>
      {coverage.attack_loaded &&
        (detail.isPending ? (
          <Skeleton active title={false} paragraph={{ rows: 3 }} />
        ) : html ? (
          <div
            ref={description}
            data-testid="mitre-detail-description"
            style={{ overflowWrap: 'break-word' }}
            // Rendered from MITRE's Markdown and sanitised on the server (no scripts, handlers,
            // javascript: links or remote images; links open in a new tab without a referrer).
            dangerouslySetInnerHTML={{ __html: html }}
          />
        ) : null)}
    </aside>
  );
}
