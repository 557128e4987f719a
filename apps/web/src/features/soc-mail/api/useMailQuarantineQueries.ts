import {
  MailQuarantineDetailSchema,
  MailQuarantinePageSchema,
  MailQuarantineReleasedSchema,
} from '@soc/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiRequest } from '@/shared/api/index.ts';
import { MAIL_PAGE_SIZE } from '../lib/mailListQuery.ts';
import { socMailKeys } from './socMailKeys.ts';

const BASE = '/analyst/mail_quarantine/';

/** A page of quarantined mail, newest first (GET /analyst/mail_quarantine/). */
export function useMailQuarantineQuery(filters: URLSearchParams, page: number) {
  const key = filters.toString();
  return useQuery({
    queryKey: socMailKeys.list(key, page),
    queryFn: ({ signal }) =>
      apiRequest(BASE, {
        schema: MailQuarantinePageSchema,
        query: { ...Object.fromEntries(new URLSearchParams(key)), page, page_size: MAIL_PAGE_SIZE },
        signal,
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One quarantined mail with its text (GET /analyst/mail_quarantine/{id}/). */
export function useMailDetailQuery(id: number | null) {
  return useQuery({
    queryKey: socMailKeys.detail(id ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`${BASE}${id}/`, { schema: MailQuarantineDetailSchema, signal, notify: false }),
    enabled: id !== null,
  });
}

/**
 * Release (POST …/{id}/release/: the mail becomes an outside comment in its incident's chat) or
 * delete (DELETE …/{id}/). A refusal is shown as a toast with the server's message; either way
 * the list asks again, since another analyst may have taken the mail meanwhile.
 */
export function useMailActionMutation() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'release' | 'delete' }) =>
      action === 'release'
        ? apiRequest(`${BASE}${id}/release/`, {
            method: 'POST',
            schema: MailQuarantineReleasedSchema,
            errorMessage: t('socMail.release.failed'),
          })
        : apiRequest(`${BASE}${id}/`, {
            method: 'DELETE',
            schema: z.null(),
            errorMessage: t('socMail.delete.failed'),
          }),
    onSettled: () => client.invalidateQueries({ queryKey: socMailKeys.all }),
  });
}
