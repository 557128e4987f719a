import { UserOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Select, Skeleton, Typography } from 'antd';
import { useImperativeHandle, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription, isAbortedError } from '@/shared/api/index.ts';
import { useDebouncedValue } from '@/shared/hooks/useDebouncedValue.ts';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useCurrentUserQuery } from '../../auth/index.ts';
import { useStaffCardQuery } from '../api/useStaffCardQuery.ts';
import { useStaffListQuery } from '../api/useStaffListQuery.ts';
import { useStaffUpdateMutation } from '../api/useStaffUpdateMutation.ts';
import '../i18n/texts.ts';

/** What the page's `m` shortcut calls. */
export interface SocAssigneeHandle {
  /** Assigns the incident to the caller, unless they are the SOC assignee already. */
  assignToMe: () => void;
}

export type SocAssigneeControlProps = {
  incidentKey: number;
  ref?: Ref<SocAssigneeHandle>;
};

/**
 * Who works the incident at the SOC (staff only, design §9): the staff card's `soc_assignee` or
 * "Unassigned", a select searching the provider's staff (debounced), clearable, and "Assign to
 * me" unless the caller already is the assignee. Saved with PATCH /analyst/incidents/{key}/;
 * the server's field messages show under the select.
 */
export function SocAssigneeControl({ incidentKey, ref }: SocAssigneeControlProps) {
  const { t } = useTranslation();
  const me = useCurrentUserQuery().data;
  const card = useStaffCardQuery(incidentKey, true);
  const mutation = useStaffUpdateMutation(incidentKey);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [fieldErrors, setFieldErrors] = useState<readonly string[]>([]);
  const debounced = useDebouncedValue(search.trim());
  const staff = useStaffListQuery(debounced, open);

  const assignee = card.data?.soc_assignee ?? null;

  const assign = (userId: number | null) => {
    if (!card.data || mutation.isPending || userId === (assignee?.id ?? null)) return;
    setFieldErrors([]);
    mutation.mutate(
      { soc_assignee: userId },
      {
        onSuccess: () => notifySuccess({ title: t('incidentPage.socAssignee.saved') }),
        onError: (error) => {
          if (isAbortedError(error)) return;
          const fields = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
          const messages = fields ? Object.values(fields).flat() : [];
          if (messages.length > 0) setFieldErrors(messages);
          notifyError({
            title: t('incidentPage.socAssignee.failed'),
            description:
              messages.length > 0
                ? messages
                : error instanceof ApiError
                  ? errorDescription(error)
                  : undefined,
          });
        },
      },
    );
  };

  useImperativeHandle(ref, () => ({
    assignToMe: () => {
      if (me) assign(me.id);
    },
  }));

  if (card.isPending) return <Skeleton.Input active size="small" data-testid="soc-assignee-loading" />;
  if (card.isError) {
    return (
      <Flex gap="small" align="center" wrap data-testid="soc-assignee-error">
        <Typography.Text type="danger">{t('incidentPage.socAssignee.loadFailed')}</Typography.Text>
        <Button size="small" onClick={() => void card.refetch()}>
          {t('common.retry')}
        </Button>
      </Flex>
    );
  }

  const options = (staff.data ?? []).map((user) => ({
    value: user.id,
    label: user.full_name || user.username,
  }));
  // The current assignee keeps its label even when the search no longer lists them.
  if (assignee && !options.some((option) => option.value === assignee.id)) {
    options.unshift({ value: assignee.id, label: assignee.full_name || assignee.username });
  }

  return (
    <Flex vertical gap="small" style={{ width: '100%' }} data-testid="soc-assignee">
      <Form.Item
        style={{ marginBottom: 0 }}
        validateStatus={fieldErrors.length > 0 ? 'error' : undefined}
        help={
          fieldErrors.length > 0 ? (
            <span data-testid="soc-assignee-errors">{fieldErrors.join(' ')}</span>
          ) : undefined
        }
      >
        <Select<number | null>
          value={assignee?.id ?? null}
          options={options}
          placeholder={t('incidentPage.socAssignee.unassigned')}
          aria-label={t('incidentPage.socAssignee.label')}
          allowClear
          showSearch={{ filterOption: false, onSearch: setSearch }}
          loading={mutation.isPending || (open && staff.isFetching)}
          disabled={mutation.isPending}
          notFoundContent={staff.isFetching ? undefined : t('incidentPage.socAssignee.noStaff')}
          onOpenChange={(next) => {
            setOpen(next);
            if (!next) setSearch('');
          }}
          onChange={(value) => assign(value ?? null)}
          data-testid="soc-assignee-select"
          data-assignee={assignee?.id ?? ''}
          style={{ width: '100%' }}
        />
      </Form.Item>
      {me && assignee?.id !== me.id && (
        <Button
          size="small"
          icon={<UserOutlined aria-hidden />}
          onClick={() => assign(me.id)}
          loading={mutation.isPending}
          data-testid="soc-assign-to-me"
          style={{ alignSelf: 'flex-start' }}
        >
          {t('incidentPage.socAssignee.assignToMe')}
        </Button>
      )}
    </Flex>
  );
}
