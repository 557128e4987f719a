import { DocumentCardSchema, type DocumentCreate, type DocumentUpdate } from '@soc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { documentKeys } from './documentKeys.ts';

/** A new document or language variant (POST), or an edit that makes a version (PATCH). */
export type SaveDocument = { id: null; body: DocumentCreate } | { id: number; body: DocumentUpdate };

/**
 * POST /soc/{kind}/ or PATCH /soc/{kind}/{id}/ (staff). Errors are left to the form (field
 * messages under their fields). Everything of the kind refreshes: lists, languages, the card
 * and its history.
 */
export function useSaveDocumentMutation(view: DocumentKindView) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveDocument) =>
      apiRequest(id === null ? view.apiPath : `${view.apiPath}${id}/`, {
        method: id === null ? 'POST' : 'PATCH',
        body,
        schema: DocumentCardSchema,
        notify: false,
      }),
    onSuccess: async (card) => {
      client.setQueryData(documentKeys.card(view.kind, card.id), card);
      await client.invalidateQueries({ queryKey: documentKeys.kind(view.kind) });
    },
  });
}
