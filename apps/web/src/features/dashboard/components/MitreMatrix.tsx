import {
  MITRE_MATRIX_COLUMNS,
  mitreHeatLevel,
  type AnalyticsItem,
  type MitreHeatLevel,
  type MitreMatrix as MitreMatrixData,
  type MitreTechnique,
} from '@soc/contracts';
import { Alert, Checkbox, Flex, Tooltip, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../../shared/theme/ThemeModeContext.tsx';

export type MitreMatrixProps = {
  matrix: MitreMatrixData | undefined;
  /** Incidents per technique id (analytics). */
  counts: AnalyticsItem[];
  /** Opens the incident list filtered by a technique. */
  hrefOf: (techniqueId: string) => string;
  onOpen: (techniqueId: string) => void;
};

/** Background of each heat level over the base colour (light and dark themes). */
function heatColors(primary: string, dark: boolean): Record<MitreHeatLevel, string> {
  const mix = (alpha: number) => `color-mix(in srgb, ${primary} ${alpha}%, transparent)`;
  return {
    none: 'transparent',
    low: mix(dark ? 25 : 15),
    medium: mix(dark ? 40 : 30),
    high: mix(dark ? 55 : 50),
    higher: mix(dark ? 75 : 70),
  };
}

interface Cell {
  technique: MitreTechnique;
  count: number;
  subs: { technique: MitreTechnique; count: number }[];
}

/**
 * The ATT&CK Enterprise matrix as a heat map of the period's incidents: tactics as columns, 12
 * to a row (spec 000 §9), techniques coloured by frequency; a technique opens its incidents.
 * MITRE's copyright notice is shown beneath.
 */
export function MitreMatrix({ matrix, counts, hrefOf, onOpen }: MitreMatrixProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [showAll, setShowAll] = useState(false);
  const byId = useMemo(() => new Map(counts.map((c) => [c.item, c.value])), [counts]);
  const max = useMemo(() => counts.reduce((m, c) => Math.max(m, c.value), 0), [counts]);
  const dark = useThemeMode().mode === 'dark';
  const colors = heatColors(token.colorError, dark);

  const columns = useMemo(() => {
    if (!matrix?.available) return [];
    const techniques = new Map(matrix.techniques.map((x) => [x.technique_id, x]));
    return matrix.tactics
      .filter((tactic) => !tactic.is_hidden)
      .map((tactic) => {
        const cells: Cell[] = matrix.techniques
          .filter(
            (x) =>
              !x.is_subtechnique &&
              !x.is_revoked &&
              !x.is_deprecated &&
              x.tactics.includes(tactic.short_name),
          )
          .map((x) => ({
            technique: x,
            count: byId.get(x.technique_id) ?? 0,
            subs: x.sub_techniques
              .map((id) => techniques.get(id))
              .filter((s): s is MitreTechnique => Boolean(s && !s.is_revoked && !s.is_deprecated))
              .map((s) => ({ technique: s, count: byId.get(s.technique_id) ?? 0 }))
              .filter((s) => s.count > 0),
          }))
          .filter((c) => showAll || c.count > 0 || c.subs.length > 0)
          .sort(
            (a, b) => b.count - a.count || a.technique.technique_id.localeCompare(b.technique.technique_id),
          );
        return { tactic, cells };
      });
  }, [matrix, byId, showAll]);

  const rows: (typeof columns)[] = [];
  for (let i = 0; i < columns.length; i += MITRE_MATRIX_COLUMNS)
    rows.push(columns.slice(i, i + MITRE_MATRIX_COLUMNS));

  const cellButton = (id: string, name: string, count: number, small = false) => {
    const level = mitreHeatLevel(count, max);
    return (
      <Tooltip title={`${id}${name ? ` ${name}` : ''} — ${t('dashboard.mitre.incidents', { count })}`}>
        <a
          href={hrefOf(id)}
          onClick={(e) => {
            e.preventDefault();
            onOpen(id);
          }}
          data-testid={`mitre-cell-${id}`}
          data-level={level}
          style={{
            display: 'block',
            padding: small ? '2px 4px 2px 12px' : '4px 6px',
            marginBottom: 4,
            borderRadius: token.borderRadiusSM,
            border: `1px solid ${token.colorBorderSecondary}`,
            background: colors[level],
            color: token.colorText,
            fontSize: small ? token.fontSizeSM - 1 : token.fontSizeSM,
            lineHeight: 1.3,
          }}
        >
          <span style={{ fontWeight: 600 }}>{id}</span>
          {name ? ` ${name}` : ''}
          {count > 0 ? <span style={{ float: 'right', fontWeight: 600 }}>{count}</span> : null}
        </a>
      </Tooltip>
    );
  };

  return (
    <Flex vertical gap={8} data-testid="mitre-matrix">
      {matrix && !matrix.available ? (
        <>
          <Alert type="info" showIcon title={t('dashboard.mitre.notice')} data-testid="mitre-notice" />
          <Flex wrap gap={4}>
            {counts.map((c) => (
              <div key={c.item} style={{ width: 160 }}>
                {cellButton(c.item, '', c.value)}
              </div>
            ))}
          </Flex>
        </>
      ) : (
        <>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <Checkbox checked={showAll} onChange={(e) => setShowAll(e.target.checked)}>
              {t('dashboard.mitre.showAll')}
            </Checkbox>
            <Flex gap={6} align="center" aria-label={t('dashboard.mitre.legend')}>
              <Typography.Text type="secondary">{t('dashboard.mitre.legend')}:</Typography.Text>
              {(['low', 'medium', 'high', 'higher'] as const).map((level) => (
                <span
                  key={level}
                  style={{
                    padding: '0 6px',
                    borderRadius: token.borderRadiusSM,
                    background: colors[level],
                    border: `1px solid ${token.colorBorderSecondary}`,
                    fontSize: token.fontSizeSM,
                  }}
                >
                  {t(`dashboard.mitre.levels.${level}`)}
                </span>
              ))}
            </Flex>
          </Flex>
          {rows.map((row, r) => (
            <div
              key={r}
              style={{
                display: 'grid',
                gridTemplateColumns: `repeat(${MITRE_MATRIX_COLUMNS}, minmax(0, 1fr))`,
                gap: 6,
              }}
            >
              {row.map(({ tactic, cells }) => (
                <div key={tactic.id} data-testid={`mitre-tactic-${tactic.short_name}`}>
                  <Typography.Text strong style={{ display: 'block', fontSize: token.fontSizeSM }}>
                    {tactic.name}
                  </Typography.Text>
                  <Typography.Text
                    type="secondary"
                    style={{ display: 'block', fontSize: token.fontSizeSM - 1, marginBottom: 4 }}
                  >
                    {t('dashboard.mitre.techniques', { count: cells.length })}
                  </Typography.Text>
                  {cells.map((c) => (
                    <div key={c.technique.technique_id}>
                      {cellButton(c.technique.technique_id, c.technique.name, c.count)}
                      {c.subs.map((s) => (
                        <div key={s.technique.technique_id}>
                          {cellButton(s.technique.technique_id, s.technique.name, s.count, true)}
                        </div>
                      ))}
                    </div>
                  ))}
                </div>
              ))}
            </div>
          ))}
        </>
      )}
      {matrix ? (
        <Typography.Text
          type="secondary"
          style={{ fontSize: token.fontSizeSM - 1 }}
          data-testid="mitre-copyright"
        >
          {matrix.notice}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
