import {
  mitreHeatLevel,
  type AnalyticsItem,
  type MitreHeatLevel,
  type MitreMatrix as MitreMatrixData,
  type MitreTechnique,
} from '@soc/contracts';
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Flex, Typography, theme, type GlobalToken } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '@/shared/theme/ThemeModeContext.tsx';
import { AttackMatrix, AttackMatrixCell, type AttackMatrixTechnique } from '../../rules/index.ts';

export type MitreMatrixProps = {
  matrix: MitreMatrixData | undefined;
  /** Incidents per technique id (analytics). */
  counts: AnalyticsItem[];
  /** Opens the incident list filtered by a technique. */
  hrefOf: (techniqueId: string) => string;
  onOpen: (techniqueId: string) => void;
  /** Downloads the counts as an ATT&CK Navigator layer. */
  onDownload: () => void;
  downloading?: boolean;
};

/** A heat level's cell: its background and, where the theme's text would read poorly, its text. */
type HeatStyle = { background: string; color?: string };

/**
 * The heat levels as steps of the theme's red palette, each step apart from the next (mixing
 * one red at 50 % and 70 % made "high" and "critical" look alike, and in the dark theme every
 * cell the same red); the strongest step takes a text colour that keeps its contrast.
 */
export function heatStyles(token: GlobalToken, dark: boolean): Record<MitreHeatLevel, HeatStyle> {
  return dark
    ? {
        none: { background: 'transparent' },
        low: { background: token.red2 },
        medium: { background: token.red4 },
        high: { background: token.red5 },
        higher: { background: token.red7, color: token.colorBgContainer },
      }
    : {
        none: { background: 'transparent' },
        low: { background: token.red1 },
        medium: { background: token.red3 },
        high: { background: token.red5 },
        higher: { background: token.red7, color: token.colorTextLightSolid },
      };
}

/**
 * The ATT&CK Enterprise matrix as a heat map of the period's incidents: tactics as columns, 12
 * to a row (product §A9), techniques coloured by frequency; a technique opens its incidents and
 * opens into its sub-techniques. MITRE's copyright notice is shown beneath.
 */
export function MitreMatrix({
  matrix,
  counts,
  hrefOf,
  onOpen,
  onDownload,
  downloading = false,
}: MitreMatrixProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [showAll, setShowAll] = useState(false);
  const byId = useMemo(() => new Map(counts.map((c) => [c.item, c.value])), [counts]);
  const max = useMemo(() => counts.reduce((m, c) => Math.max(m, c.value), 0), [counts]);
  const dark = useThemeMode().mode === 'dark';
  const colors = useMemo(() => heatStyles(token, dark), [token, dark]);
  const border = token.colorBorderSecondary;

  const tactics = useMemo(() => {
    if (!matrix?.available) return [];
    const techniques = new Map(matrix.techniques.map((x) => [x.technique_id, x]));
    const cell = (x: MitreTechnique, subs: AttackMatrixTechnique[] = []): AttackMatrixTechnique => {
      const count = byId.get(x.technique_id) ?? 0;
      const band = mitreHeatLevel(count, max);
      return { id: x.technique_id, name: x.name, count, band, ...colors[band], border, subs };
    };
    return matrix.tactics
      .filter((tactic) => !tactic.is_hidden)
      .map((tactic) => ({
        shortName: tactic.short_name,
        name: tactic.name,
        techniques: matrix.techniques
          .filter(
            (x) =>
              !x.is_subtechnique &&
              !x.is_revoked &&
              !x.is_deprecated &&
              x.tactics.includes(tactic.short_name),
          )
          .map((x) =>
            cell(
              x,
              x.sub_techniques
                .map((id) => techniques.get(id))
                .filter((s): s is MitreTechnique => Boolean(s && !s.is_revoked && !s.is_deprecated))
                .map((s) => cell(s))
                .filter((s) => showAll || s.count > 0),
            ),
          )
          .filter((c) => showAll || c.count > 0 || c.subs.length > 0)
          .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)),
      }));
  }, [matrix, byId, max, colors, border, showAll]);

  const action = {
    countText: (count: number) => t('dashboard.mitre.incidents', { count }),
    onActivate: onOpen,
    hrefOf,
  };

  const download = (
    <Button
      size="small"
      icon={<DownloadOutlined aria-hidden />}
      loading={downloading}
      onClick={onDownload}
      title={t('dashboard.mitre.downloadTitle')}
      data-testid="mitre-layer-download"
    >
      {t('dashboard.mitre.download')}
    </Button>
  );

  return (
    <Flex vertical gap={8} data-testid="mitre-matrix">
      {matrix && !matrix.available ? (
        <>
          <Alert type="info" showIcon title={t('dashboard.mitre.notice')} data-testid="mitre-notice" />
          <Flex justify="end">{download}</Flex>
          <Flex wrap gap={4}>
            {counts.map((c) => {
              const band = mitreHeatLevel(c.value, max);
              return (
                <div key={c.item} style={{ width: 160 }}>
                  <AttackMatrixCell
                    {...action}
                    technique={{
                      id: c.item,
                      name: '',
                      count: c.value,
                      band,
                      ...colors[band],
                      border,
                      subs: [],
                    }}
                  />
                </div>
              );
            })}
          </Flex>
        </>
      ) : (
        <>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <Flex gap={8} align="center" wrap>
              <Checkbox checked={showAll} onChange={(e) => setShowAll(e.target.checked)}>
                {t('dashboard.mitre.showAll')}
              </Checkbox>
              {download}
            </Flex>
            <Flex gap={6} align="center" aria-label={t('dashboard.mitre.legend')}>
              <Typography.Text type="secondary">{t('dashboard.mitre.legend')}:</Typography.Text>
              {(['low', 'medium', 'high', 'higher'] as const).map((level) => (
                <span
                  key={level}
                  style={{
                    padding: '0 6px',
                    borderRadius: token.borderRadiusSM,
                    ...colors[level],
                    border: `1px solid ${token.colorBorderSecondary}`,
                    fontSize: token.fontSizeSM,
                  }}
                >
                  {t(`dashboard.mitre.levels.${level}`)}
                </span>
              ))}
            </Flex>
          </Flex>
          <AttackMatrix tactics={tactics} label={t('dashboard.widgets.mitre')} {...action} />
        </>
      )}
      {matrix ? (
        <Typography.Text
          type="secondary"
          style={{ fontSize: token.fontSizeSM - 1 }}
          data-testid="mitre-copyright"
        >
          {matrix.version ? `${t('dashboard.mitre.version', { version: matrix.version })}. ` : ''}
          {matrix.notice}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
