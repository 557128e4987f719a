import { formatCount, formatPercent } from '@/shared/lib/formatNumber.ts';

/** A slice of a pie chart: its label, value and, for priorities, a fixed colour. */
export interface PieSlice {
  name: string;
  value: number;
  itemStyle?: { color?: string };
}

/** The theme colours a pie takes (antd tokens, so both themes read). */
export interface PieColors {
  text: string;
  secondaryText: string;
  background: string;
}

/**
 * Slices below this share of the whole have no label beside them: their labels would crowd the
 * small angles. Their values stay in the legend and the tooltip.
 */
export const PIE_LABEL_MIN_SHARE = 0.04;
/** The widest a slice label gets before it wraps, and a legend entry before its ellipsis. */
const LABEL_WIDTH = 150;

/**
 * The pie chart's option. Labels sit outside on guide lines, spread apart by the pie's layout;
 * any that still overlap are hidden (labelLayout), small slices are left to the legend, and the
 * legend gives every slice's value.
 */
export function pieOption(slices: PieSlice[], colors: PieColors) {
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  // one legend entry stands for every slice of its name (two categories may share a title)
  const values = new Map<string, number>();
  for (const s of slices) values.set(s.name, (values.get(s.name) ?? 0) + s.value);
  const hidden = { label: { show: false }, labelLine: { show: false } };
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: number; percent: number }) =>
        `${p.name}: ${formatCount(p.value)} (${formatPercent(p.percent)})`,
    },
    legend: {
      type: 'scroll',
      bottom: 0,
      formatter: (name: string) => `${name}: ${formatCount(values.get(name) ?? 0)}`,
      textStyle: { color: colors.secondaryText, width: LABEL_WIDTH, overflow: 'truncate' },
    },
    series: [
      {
        type: 'pie',
        radius: '50%',
        center: ['50%', '42%'],
        startAngle: 90,
        clockwise: true,
        avoidLabelOverlap: true,
        data: slices.map((s) =>
          total > 0 && s.value / total < PIE_LABEL_MIN_SHARE ? { ...s, ...hidden } : s,
        ),
        label: {
          color: colors.text,
          formatter: (p: { name: string; value: number }) => `${p.name}: ${formatCount(p.value)}`,
          width: LABEL_WIDTH,
          overflow: 'break',
          // without it the wrapped lines of a label are drawn into each other
          lineHeight: 16,
          // room between labels, so that moved labels do not touch
          minMargin: 4,
        },
        labelLine: { length: 10, length2: 8 },
        // the pie spreads its labels apart (avoidLabelOverlap); any that still overlap are hidden
        labelLayout: { hideOverlap: true },
        itemStyle: { borderColor: colors.background, borderWidth: 1 },
      },
    ],
  };
}
