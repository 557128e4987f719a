import { MITRE_BANDS, mitreBand, type RuleCoverage, type RuleMitreTechnique } from '@soc/contracts';
import { Alert, Flex, theme, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LayerOverlay } from '../lib/layerOverlay.ts';
import { AttackMatrix, AttackMatrixCell, type AttackMatrixTechnique } from './AttackMatrix.tsx';
import { bandColors } from './mitreColors.ts';
import '../i18n/texts.ts';

export type MitreMatrixProps = {
  coverage: RuleCoverage;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** A compared Navigator layer: its techniques without a rule are marked as gaps. */
  overlay?: LayerOverlay | null;
};

/**
 * Rules → MITRE (product §B2, §B4): the ATT&CK matrix with techniques coloured by their rule
 * count; a click selects the technique for the detail panel.
 */
export function MitreMatrix({ coverage, selectedId, onSelect, overlay = null }: MitreMatrixProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const colors = useMemo(() => bandColors(token), [token]);
  const gaps = useMemo(() => new Set(overlay?.gaps), [overlay]);
  const tactics = useMemo(() => {
    const byId = new Map(coverage.techniques.map((tech) => [tech.technique_id, tech]));
    const cell = (tech: RuleMitreTechnique): AttackMatrixTechnique => {
      const band = mitreBand(tech.count);
      const subs = tech.sub_techniques.flatMap((id) => {
        const sub = byId.get(id);
        return sub ? [cell({ ...sub, sub_techniques: [] })] : [];
      });
      return {
        id: tech.technique_id,
        name: tech.name,
        count: tech.count,
        band,
        ...colors[band],
        subs,
        gap: gaps.has(tech.technique_id),
        gapInSubs: subs.some((sub) => sub.gap),
      };
    };
    return coverage.tactics
      .filter((tactic) => !tactic.is_hidden)
      .map((tactic) => ({
        shortName: tactic.short_name,
        name: tactic.name,
        techniques: coverage.techniques
          .filter((tech) => !tech.technique_id.includes('.') && tech.tactics.includes(tactic.short_name))
          .sort((a, b) => a.name.localeCompare(b.name))
          .map(cell),
      }));
  }, [coverage, colors, gaps]);
  const action = {
    countText: (count: number) => t('rules.mitre.rulesCount', { count }),
    onActivate: onSelect,
    selectedId,
  };

  /** A legend entry: a swatch with the cell's background and border, and its text. */
  const entry = (key: string, background: string, border: string, text: string, testId?: string) => (
    <Flex key={key} gap={4} align="center" data-testid={testId}>
      <span
        aria-hidden
        style={{
          display: 'inline-block',
          width: token.fontSize,
          height: token.fontSize,
          borderRadius: token.borderRadiusXS,
          background,
          border,
        }}
      />
      <Typography.Text>{text}</Typography.Text>
    </Flex>
  );
  const legend = (
    <Flex gap="small" align="center" wrap data-testid="mitre-legend">
      <Typography.Text type="secondary">{t('rules.mitre.legend')}:</Typography.Text>
      {MITRE_BANDS.map((band) =>
        entry(
          band,
          colors[band].background,
          `${token.lineWidth}px solid ${colors[band].border}`,
          t(`rules.mitre.bands.${band}`),
        ),
      )}
      {overlay &&
        entry(
          'gap',
          token.colorErrorBg,
          `2px dashed ${token.colorError}`,
          t('rules.layer.gapLegend'),
          'mitre-legend-gap',
        )}
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
          {coverage.techniques.map((tech) => {
            const band = mitreBand(tech.count);
            return (
              <AttackMatrixCell
                key={tech.technique_id}
                {...action}
                technique={{
                  id: tech.technique_id,
                  name: '',
                  count: tech.count,
                  band,
                  ...colors[band],
                  subs: [],
                  gap: gaps.has(tech.technique_id),
                }}
                sub={tech.technique_id.includes('.')}
              />
            );
          })}
        </div>
      </Flex>
    );
  }

  return (
    <Flex vertical gap="small" data-testid="mitre-matrix" data-loaded="true">
      {legend}
      <AttackMatrix tactics={tactics} label={t('rules.mitre.label')} {...action} />
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }} data-testid="mitre-version">
        {coverage.attack_version
          ? t('rules.mitre.version', { version: coverage.attack_version })
          : t('rules.mitre.versionUnknown')}{' '}
        {t('rules.mitre.notice')}
      </Typography.Text>
    </Flex>
  );
}
