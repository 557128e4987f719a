import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import { MITRE_BANDS, mitreBand, type RuleMitreTechnique, type RuleCoverage } from '@soc/contracts';
import { Alert, Button, Flex, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clipText } from '../../../shared/ui/clipText.ts';
import { bandColors } from './mitreColors.ts';

/** Columns in one view (spec 001 §9); more tactics scroll sideways. */
const COLUMNS_IN_VIEW = 12;

export type MitreMatrixProps = {
  coverage: RuleCoverage;
  selectedId: string | null;
  onSelect: (id: string) => void;
};

/**
 * The ATT&CK matrix (spec 001 §2, §4): tactics as columns, techniques as cells coloured by their
 * rule count; opening a cell shows its sub-techniques as extra rows under it; a click selects the
 * technique for the detail panel.
 */
export function MitreMatrix({ coverage, selectedId, onSelect }: MitreMatrixProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const byId = useMemo(
    () => new Map(coverage.techniques.map((tech) => [tech.technique_id, tech])),
    [coverage],
  );
  const columns = useMemo(
    () =>
      coverage.tactics
        .filter((tactic) => !tactic.is_hidden)
        .map((tactic) => ({
          tactic,
          techniques: coverage.techniques
            .filter((tech) => !tech.technique_id.includes('.') && tech.tactics.includes(tactic.short_name))
            .sort((a, b) => a.name.localeCompare(b.name)),
        })),
    [coverage],
  );
  const colors = bandColors(token);

  const toggle = (key: string) =>
    setOpened((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const cell = (tech: RuleMitreTechnique, key: string, sub: boolean) => {
    const band = mitreBand(tech.count);
    const isOpen = opened.has(key);
    const selected = tech.technique_id === selectedId;
    return (
      <Flex
        key={key}
        align="center"
        gap={2}
        data-testid={sub ? 'mitre-subtechnique' : 'mitre-technique'}
        data-id={tech.technique_id}
        data-band={band}
        data-count={tech.count}
        data-selected={selected}
        style={{
          marginInlineStart: sub ? token.marginSM : 0,
          padding: `${token.paddingXXS}px ${token.paddingXS}px`,
          borderRadius: token.borderRadiusSM,
          background: colors[band].background,
          border: `${selected ? 2 : token.lineWidth}px solid ${selected ? token.colorPrimary : colors[band].border}`,
          color: token.colorText,
        }}
      >
        {!sub && tech.sub_techniques.length > 0 && (
          <Button
            type="text"
            size="small"
            icon={isOpen ? <CaretDownOutlined aria-hidden /> : <CaretRightOutlined aria-hidden />}
            aria-expanded={isOpen}
            aria-label={t(isOpen ? 'rules.mitre.close' : 'rules.mitre.open', { id: tech.technique_id })}
            onClick={() => toggle(key)}
            data-testid="mitre-technique-toggle"
            style={{ flex: 'none', width: 'auto', minWidth: 0, paddingInline: 0 }}
          />
        )}
        <button
          type="button"
          onClick={() => onSelect(tech.technique_id)}
          aria-pressed={selected}
          title={`${tech.technique_id} ${tech.fullName || tech.name}`}
          style={{
            all: 'unset',
            cursor: 'pointer',
            flex: '1 1 0',
            minWidth: 0,
            fontSize: token.fontSizeSM,
            lineHeight: token.lineHeightSM,
          }}
        >
          <span
            style={{
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            }}
          >
            {tech.name || tech.technique_id}
          </span>
          <span style={{ ...clipText, color: token.colorTextSecondary }}>
            {tech.technique_id} · {t('rules.mitre.rulesCount', { count: tech.count })}
          </span>
        </button>
      </Flex>
    );
  };

  const legend = (
    <Flex gap="small" align="center" wrap data-testid="mitre-legend">
      <Typography.Text type="secondary">{t('rules.mitre.legend')}:</Typography.Text>
      {MITRE_BANDS.map((band) => (
        <Flex key={band} gap={4} align="center">
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: token.fontSize,
              height: token.fontSize,
              borderRadius: token.borderRadiusXS,
              background: colors[band].background,
              border: `${token.lineWidth}px solid ${colors[band].border}`,
            }}
          />
          <Typography.Text>{t(`rules.mitre.bands.${band}`)}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  );

  if (!coverage.attack_loaded) {
    return (
      <Flex vertical gap="small" data-testid="mitre-matrix" data-loaded="false">
        <Alert type="info" showIcon title={t('rules.mitre.noAttack')} data-testid="mitre-no-attack" />
        {legend}
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(9rem, 1fr))',
            gap: token.marginXXS,
          }}
        >
          {coverage.techniques.map((tech) => cell(tech, tech.technique_id, tech.technique_id.includes('.')))}
        </div>
      </Flex>
    );
  }

  return (
    <Flex vertical gap="small" data-testid="mitre-matrix" data-loaded="true">
      {legend}
      <div
        role="group"
        aria-label={t('rules.mitre.label')}
        style={{
          display: 'grid',
          gridAutoFlow: 'column',
          gridAutoColumns: `calc((100% - ${(COLUMNS_IN_VIEW - 1) * token.marginXXS}px) / ${COLUMNS_IN_VIEW})`,
          gap: token.marginXXS,
          overflowX: 'auto',
          alignItems: 'start',
          minWidth: 0,
        }}
      >
        {columns.map(({ tactic, techniques }) => (
          <Flex
            key={tactic.short_name}
            vertical
            gap={token.marginXXS}
            data-testid="mitre-tactic"
            data-tactic={tactic.short_name}
          >
            <div style={{ minHeight: '3rem' }}>
              <Typography.Text strong style={{ fontSize: token.fontSizeSM }}>
                {tactic.name}
              </Typography.Text>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                  {t('rules.mitre.techniques', { count: techniques.length })}
                </Typography.Text>
              </div>
            </div>
            {techniques.map((tech) => {
              const key = `${tactic.short_name}:${tech.technique_id}`;
              return [
                cell(tech, key, false),
                ...(opened.has(key)
                  ? tech.sub_techniques.flatMap((id) => {
                      const sub = byId.get(id);
                      return sub ? [cell(sub, `${key}:${id}`, true)] : [];
                    })
                  : []),
              ];
            })}
          </Flex>
        ))}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {t('rules.mitre.notice')}
      </Typography.Text>
    </Flex>
  );
}
