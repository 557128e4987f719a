import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_PRESET_KEYS, datePresetRanges } from '../../lib/datePresets.ts';
import { DateRangeInput } from '../DateInputs.tsx';

export type DateRangeFilterProps = {
  id: string;
  testId?: string;
  /** Applied bounds as millisecond timestamps (null: open). */
  from: number | null;
  to: number | null;
  /** The new range in whole days, or null when cleared. */
  onApply: (range: [Dayjs | null, Dayjs | null] | null) => void;
};

/** A date range with the presets of product §A9; either end may stay open. */
export function DateRangeFilter({ id, testId, from, to, onApply }: DateRangeFilterProps) {
  const { t } = useTranslation();
  // Recomputed on every render: a page left open overnight still offers today's ranges.
  const ranges = datePresetRanges(dayjs());
  const presets = DATE_PRESET_KEYS.map((key) => ({
    label: t(`dateRange.presets.${key}`),
    value: ranges[key],
  }));

  return (
    <DateRangeInput
      id={id}
      data-testid={testId}
      value={[from === null ? null : dayjs(from), to === null ? null : dayjs(to)]}
      allowEmpty={[true, true]}
      presets={presets}
      placeholder={[t('dateRange.startDate'), t('dateRange.endDate')]}
      style={{ width: '100%' }}
      onChange={(dates) => onApply(dates ? [dates[0], dates[1]] : null)}
    />
  );
}
