import { MITRE_BANDS, mitreBand, type RuleCoverage, type RuleMitreTechnique } from '@soc/contracts';
import { Alert, Flex, theme, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AttackMatrix, AttackMatrixCell, type AttackMatrixTechnique } from './AttackMatrix.tsx';
import { bandColors } from './mitreColors.ts';

export type MitreMatrixProps = {
  coverage: RuleCoverage;
  selectedId: string | null;
  onSelect: (id: string) => void;
};

/**
 * Rules → MITRE (spec 001 §2, §4): the ATT&CK matrix with techniques coloured by their rule
 * count; a click selects the technique for the detail panel.
 */
export function MitreMatrix({ coverage, selectedId, onSelect }: MitreMatrixProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const colors = useMemo(() => bandColors(token), [token]);
  const tactics = useMemo(() => {
    const byId = new Map(coverage.techniques.map((tech) => [tech.technique_id, tech]));
    const cell = (tech: RuleMitreTechnique): AttackMatrixTechnique => {
      const band = mitreBand(tech.count);
      return {
        id: tech.technique_id,
        name: tech.name,
        count: tech.count,
        band,
        ...colors[band],
        subs: tech.sub_techniques.flatMap((id) => {
          const sub = byId.get(id);
          return sub ? [cell({ ...sub, sub_techniques: [] })] : [];
        }),
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
  }, [coverage, colors]);
  const action = {
    countText: (count: number) => t('rules.mitre.rulesCount', { count }),
    onActivate: onSelect,
    selectedId,
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
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {t('rules.mitre.notice')}
      </Typography.Text>
    </Flex>
  );
}
