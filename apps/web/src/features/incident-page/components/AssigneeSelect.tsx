import { UserOutlined } from '@ant-design/icons';
import type { IncidentCard } from '@soc/contracts';
import { Button, Flex, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, describeErrorLines, errorDescription, isAbortedError } from '@/shared/api/index.ts';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue.ts';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useCurrentUserQuery } from '../../auth/index.ts';
import { useAssignMutation } from '../api/useAssignMutation.ts';
import { useUserSuggestionsQuery } from '../api/useUserSuggestionsQuery.ts';
import '../i18n/texts.ts';

export type AssigneeSelectProps = {
  incident: IncidentCard;
};

/**
 * The incident's customer assignee (product §A4 "Assignment"): a select searching the active
 * users of the incident's system (trimmed text, debounced 300 ms), clearable, and
 * "Assign to yourself" unless the caller already is the assignee. Toasts of product §A8.
 */
export function AssigneeSelect({ incident }: AssigneeSelectProps) {
  const { t } = useTranslation();
  const currentUser = useCurrentUserQuery().data;
  const mutation = useAssignMutation(incident.key);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim());
  const suggestions = useUserSuggestionsQuery(incident.system.id, debounced, open);
  const assignee = incident.customer_assignee;

  const assign = (userId: number | null) => {
    if (userId === (assignee?.id ?? null)) return;
    mutation.mutate(
      { customer_assignee_id: userId },
      {
        onSuccess: () => notifySuccess({ title: t('incidentPage.assignee.saved') }),
        onError: (error) => {
          if (isAbortedError(error)) return;
          if (error instanceof ApiError && error.kind === 'http') {
            const lines = describeErrorLines(error);
            notifyError({
              title: t('incidentPage.assignee.failedStatus', { status: error.status ?? '' }),
              description: lines,
            });
            return;
          }
          notifyError({
            title: t('incidentPage.assignee.failed'),
            description: error instanceof ApiError ? errorDescription(error) : String(error),
          });
        },
      },
    );
  };

  const options = (suggestions.data ?? []).map((user) => ({
    value: user.id,
    label: user.full_name || user.username,
  }));
  // The current assignee keeps its label even when the search no longer lists them.
  if (assignee && !options.some((option) => option.value === assignee.id)) {
    options.unshift({ value: assignee.id, label: assignee.full_name || assignee.username });
  }

  return (
    <Flex vertical gap="small" style={{ width: '100%' }}>
      <Select<number | null>
        value={assignee?.id ?? null}
        options={options}
        placeholder={t('incidentPage.assignee.placeholder')}
        aria-label={t('incidentPage.assignee.label')}
        allowClear
        showSearch={{ filterOption: false, onSearch: setSearch }}
        loading={mutation.isPending || (open && suggestions.isFetching)}
        disabled={mutation.isPending}
        notFoundContent={suggestions.isFetching ? undefined : t('incidentPage.assignee.noUsers')}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setSearch('');
        }}
        onChange={(value) => assign(value ?? null)}
        data-testid="assignee-select"
        data-assignee={assignee?.id ?? ''}
        style={{ width: '100%' }}
      />
      {currentUser && assignee?.id !== currentUser.id && (
        <Button
          size="small"
          icon={<UserOutlined aria-hidden />}
          onClick={() => assign(currentUser.id)}
          loading={mutation.isPending}
          data-testid="assign-to-yourself"
          style={{ alignSelf: 'flex-start' }}
        >
          {t('incidentPage.assignee.assignToYourself')}
        </Button>
      )}
    </Flex>
  );
}
