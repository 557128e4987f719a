import { Flex, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countFilterParams } from '@/shared/lib/filters.ts';
import { FilterBar } from '@/shared/ui/filters/FilterBar.tsx';
import { ResetFiltersButton } from '@/shared/ui/ListPage.tsx';
import { SearchBox } from '@/shared/ui/SearchBox.tsx';
import { withMailParams } from '../lib/mailListQuery.ts';
import '../i18n/texts.ts';

export type MailFilterBarProps = {
  params: URLSearchParams;
  onChange: (next: URLSearchParams) => void;
};

/** The quarantine's filters (design §7): the sender's address or name, and the incident's key. */
export function MailFilterBar({ params, onChange }: MailFilterBarProps) {
  const { t } = useTranslation();
  const applied = params.get('incident');
  return (
    <FilterBar
      testId="soc-mail"
      active={countFilterParams(params) - (params.has('sender') ? 1 : 0)}
      search={
        <SearchBox
          value={params.get('sender') ?? ''}
          onSearch={(text) => onChange(withMailParams(params, { sender: text }))}
          placeholder={t('socMail.filters.senderPlaceholder')}
          label={t('socMail.filters.sender')}
          buttonText={t('socMail.filters.senderButton')}
          testId="soc-mail-sender"
          width="20rem"
          clearsWhenEmptied
        />
      }
    >
      {/* a new key remounts the field, so that reset and back/forward show the applied filter */}
      <IncidentFilter
        key={applied ?? ''}
        value={applied}
        onApply={(key) => onChange(withMailParams(params, { incident: key }))}
      />
      <ResetFiltersButton
        text={t('socMail.filters.reset')}
        label={t('socMail.filters.resetLabel')}
        onReset={() => onChange(new URLSearchParams())}
        testId="soc-mail-reset"
      />
    </FilterBar>
  );
}

type IncidentFilterProps = { value: string | null; onApply: (key: number | null) => void };

/** The incident's key, applied on Enter or when the field is left. */
function IncidentFilter({ value, onApply }: IncidentFilterProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<number | null>(value === null ? null : Number(value));
  const apply = () => {
    if ((draft === null ? null : String(draft)) !== value) onApply(draft);
  };
  return (
    <Flex align="center" gap="small" component="label">
      <Typography.Text>{t('socMail.filters.incident')}</Typography.Text>
      <InputNumber<number>
        min={1}
        precision={0}
        controls={false}
        value={draft}
        onChange={(next) => setDraft(next ?? null)}
        onPressEnter={apply}
        onBlur={apply}
        placeholder={t('socMail.filters.incidentPlaceholder')}
        style={{ width: '10rem' }}
        data-testid="soc-mail-filter-incident"
      />
    </Flex>
  );
}
