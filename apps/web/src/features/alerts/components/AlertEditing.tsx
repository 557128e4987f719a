import type { AlertDetail } from '@soc/contracts';
import { TAG_PRESET_COLORS } from '@soc/contracts';
import { AutoComplete, Button, Flex, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import {
  useAlertPatchMutation,
  useResponseTeamsQuery,
  useTagSuggestionsQuery,
} from '../api/useAlertEditing.ts';
import '../i18n/texts.ts';

export type AlertEditingProps = {
  incidentKey: number;
  alert: AlertDetail;
};

/** The alert's tags with removal, and a tag input with suggestions (5, debounced) and a colour. */
export function AlertTagEditor({ incidentKey, alert }: AlertEditingProps) {
  const { t } = useTranslation();
  const patch = useAlertPatchMutation(incidentKey, alert.uuid);
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>('blue');
  const q = useDebouncedValue(name.trim());
  const suggestions = useTagSuggestionsQuery(q);
  // Open while typing, closed by Escape, a choice or leaving the input; kept here rather than in
  // the select so that suggestions answering after the user dismissed them stay closed.
  const [suggesting, setSuggesting] = useState(false);
  const options = (suggestions.data ?? []).map((s) => ({
    value: s.name,
    label: <Tag color={s.color}>{s.name}</Tag>,
  }));
  const save = (tags: AlertDetail['tags']) =>
    patch.mutate({ tags }, { onSuccess: () => notifySuccess({ title: t('alerts.saved') }) });
  const add = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    const known = suggestions.data?.find((s) => s.name.toLowerCase() === trimmed.toLowerCase());
    const rest = alert.tags.filter((tag) => tag.name.toLowerCase() !== trimmed.toLowerCase());
    save([...rest, { name: known?.name ?? trimmed, color: known && color === 'blue' ? known.color : color }]);
    setName('');
  };
  return (
    <Flex vertical gap={4} data-testid="alert-tag-editor">
      <Typography.Text type="secondary">{t('alerts.detail.tags')}</Typography.Text>
      <Flex gap={4} wrap data-testid="alert-detail-tags">
        {alert.tags.map((tag) => (
          <Tag
            key={tag.name}
            color={tag.color}
            closable
            closeIcon={<span aria-label={t('alerts.detail.removeTag', { name: tag.name })}>×</span>}
            onClose={(event) => {
              event.preventDefault();
              save(alert.tags.filter((other) => other.name !== tag.name));
            }}
          >
            {tag.name}
          </Tag>
        ))}
      </Flex>
      <Space.Compact>
        <AutoComplete
          value={name}
          onChange={setName}
          options={options}
          open={suggesting && options.length > 0}
          onSearch={() => setSuggesting(true)}
          onOpenChange={setSuggesting}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setSuggesting(false);
          }}
          onBlur={() => setSuggesting(false)}
          onSelect={(value: string) => {
            setSuggesting(false);
            setName(value);
            const known = suggestions.data?.find((s) => s.name === value);
            if (known) setColor(known.color);
          }}
          placeholder={t('alerts.detail.addTag')}
          aria-label={t('alerts.detail.tagName')}
          data-testid="alert-tag-input"
          style={{ width: '12rem' }}
        />
        <Select
          value={color}
          onChange={setColor}
          aria-label={t('alerts.detail.tagColor')}
          data-testid="alert-tag-color"
          style={{ width: '8rem' }}
          options={TAG_PRESET_COLORS.map((c) => ({ value: c, label: <Tag color={c}>{c}</Tag> }))}
        />
        <Button onClick={add} loading={patch.isPending} disabled={!name.trim()} data-testid="alert-tag-add">
          {t('alerts.detail.saveTag')}
        </Button>
      </Space.Compact>
    </Flex>
  );
}

/** The response team of the alert: teams of its system (5 per search), or none. */
export function ResponseTeamSelect({ incidentKey, alert }: AlertEditingProps) {
  const { t } = useTranslation();
  const patch = useAlertPatchMutation(incidentKey, alert.uuid);
  const [search, setSearch] = useState('');
  const teams = useResponseTeamsQuery(alert.system.id, useDebouncedValue(search.trim()));
  const options = [...(teams.data ?? [])];
  if (alert.response_team && !options.some((o) => o.id === alert.response_team!.id))
    options.unshift(alert.response_team);
  return (
    <Flex vertical gap={4}>
      <Typography.Text type="secondary">{t('alerts.detail.responseTeam')}</Typography.Text>
      <Select
        showSearch={{ filterOption: false, onSearch: setSearch }}
        allowClear
        value={alert.response_team?.id ?? null}
        placeholder={t('alerts.detail.noTeam')}
        aria-label={t('alerts.detail.responseTeam')}
        data-testid="alert-team-select"
        loading={teams.isFetching || patch.isPending}
        style={{ width: '14rem' }}
        options={options.map((team) => ({ value: team.id, label: team.name }))}
        onChange={(id: number | null | undefined) =>
          patch.mutate(
            { response_team: id === null || id === undefined ? null : { id } },
            { onSuccess: () => notifySuccess({ title: t('alerts.saved') }) },
          )
        }
      />
    </Flex>
  );
}
