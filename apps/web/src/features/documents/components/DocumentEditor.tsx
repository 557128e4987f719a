import {
  DOCUMENT_DESCRIPTION_MAX,
  DOCUMENT_TITLE_MAX,
  DOCUMENT_VERSION_COMMENT_MAX,
  type DocumentCard,
  type Language,
} from '@soc/contracts';
import { Button, Drawer, Flex, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { MarkdownEditor } from '@/shared/ui/markdown/MarkdownEditor.tsx';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useDocumentChoicesQuery } from '../api/useDocumentChoicesQuery.ts';
import { useSaveDocumentMutation } from '../api/useSaveDocumentMutation.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import '../i18n/texts.ts';

/** What the editor does: a new document, an edit of one, or its variant in another language. */
export type DocumentEditorMode =
  | { mode: 'create' }
  | { mode: 'edit'; document: DocumentCard }
  | { mode: 'translate'; document: DocumentCard; language: Language };

type Values = {
  title: string;
  description: string;
  language: Language;
  tags: string[];
  sensors: string[];
  comment: string;
};
type Field = keyof Values;
const SERVER_FIELDS: Record<string, Field> = {
  title: 'title',
  description: 'description',
  language: 'language',
  tags: 'tags',
  sensors: 'sensors',
  comment: 'comment',
};

export type DocumentEditorProps = {
  view: DocumentKindView;
  /** Null: closed. */
  editing: DocumentEditorMode | null;
  onClose: () => void;
  /** The saved card (a new one: the page opens it). */
  onSaved: (card: DocumentCard) => void;
  /** The interface language: a new document starts in it. */
  interfaceLanguage: Language;
};

/**
 * The staff's editor of instructions, response instructions and articles (issue 41): title, the
 * Markdown text with the server's preview, tags, sensors (instructions), the language of a new
 * document, and what changed (kept with the version). An edit sends only the changed fields.
 */
export function DocumentEditor({ view, editing, onClose, onSaved, interfaceLanguage }: DocumentEditorProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveDocumentMutation(view);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const tags = useDocumentChoicesQuery(view, 'tags', editing !== null);
  const sensors = useDocumentChoicesQuery(view, 'sensors', editing !== null && view.hasSensors);
  const busy = save.isPending;
  const required = { required: true, whitespace: true, message: t('docs.editor.required') };

  const initial = (): Values => {
    if (editing?.mode === 'edit') {
      const d = editing.document;
      return {
        title: d.title,
        description: d.description,
        language: d.language,
        tags: d.tags,
        sensors: d.sensors,
        comment: '',
      };
    }
    if (editing?.mode === 'translate') {
      const d = editing.document;
      return {
        title: '',
        description: '',
        language: editing.language,
        tags: d.tags,
        sensors: d.sensors,
        comment: '',
      };
    }
    return { title: '', description: '', language: interfaceLanguage, tags: [], sensors: [], comment: '' };
  };

  const submit = async (values: Values) => {
    if (!editing) return;
    setFormErrors([]);
    const sensorsOf = view.hasSensors ? { sensors: values.sensors } : {};
    try {
      let card: DocumentCard;
      if (editing.mode === 'edit') {
        const d = editing.document;
        const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
        card = await save.mutateAsync({
          id: d.id,
          body: {
            ...(values.title !== d.title ? { title: values.title } : {}),
            ...(values.description !== d.description ? { description: values.description } : {}),
            ...(!same(values.tags, d.tags) ? { tags: values.tags } : {}),
            ...(view.hasSensors && !same(values.sensors, d.sensors) ? { sensors: values.sensors } : {}),
            comment: values.comment,
          },
        });
        notifySuccess({ title: t('docs.editor.saved') });
      } else {
        card = await save.mutateAsync({
          id: null,
          body: {
            title: values.title,
            description: values.description,
            language: values.language,
            tags: values.tags,
            ...sensorsOf,
            comment: values.comment,
            ...(editing.mode === 'translate' ? { document: editing.document.document } : {}),
          },
        });
        notifySuccess({ title: t('docs.editor.created') });
      }
      onSaved(card);
      onClose();
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (!fieldErrors) {
        notifyApiError(error, t('docs.editor.failed'));
        return;
      }
      const mapped = mapFieldErrors(fieldErrors, SERVER_FIELDS);
      form.setFields(mapped.fields);
      setFormErrors(mapped.formErrors);
    }
  };

  const heading = !editing
    ? ''
    : editing.mode === 'edit'
      ? t('docs.editor.titleEdit', { title: editing.document.title })
      : editing.mode === 'translate'
        ? t('docs.editor.titleTranslate', { title: editing.document.title })
        : t(`docs.editor.titleCreate.${view.tab}`);
  const choices = (values: string[] | undefined) => (values ?? []).map((value) => ({ value, label: value }));

  return (
    <Drawer
      open={editing !== null}
      title={heading}
      size="min(56rem, 100vw)"
      onClose={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      destroyOnHidden
      afterOpenChange={(open) => {
        if (!open) setFormErrors([]);
      }}
      data-testid="document-editor"
      footer={
        <Flex justify="flex-end" gap="small">
          <Button onClick={onClose} disabled={busy}>
            {t('docs.editor.cancel')}
          </Button>
          <Button
            type="primary"
            loading={busy}
            onClick={() => form.submit()}
            data-testid="document-editor-save"
          >
            {editing?.mode === 'edit' ? t('docs.editor.save') : t('docs.editor.publish')}
          </Button>
        </Flex>
      }
    >
      {editing && (
        <Form<Values>
          form={form}
          layout="vertical"
          disabled={busy}
          initialValues={initial()}
          onFinish={(values) => void submit(values)}
        >
          <FormErrorAlert messages={formErrors} testId="document-editor-errors" />
          <Form.Item name="title" label={t('docs.editor.title')} rules={[required]}>
            <Input maxLength={DOCUMENT_TITLE_MAX} data-testid="document-editor-title" />
          </Form.Item>
          <Form.Item name="language" label={t('docs.editor.language')}>
            <Select
              disabled={editing.mode !== 'create'}
              data-testid="document-editor-language"
              options={(['ru', 'en'] as const).map((value) => ({
                value,
                label: t(`docs.languages.${value}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="description" label={t('docs.editor.description')}>
            <MarkdownEditor
              label={t('docs.editor.description')}
              maxLength={DOCUMENT_DESCRIPTION_MAX}
              rows={14}
              testId="document-editor-description"
            />
          </Form.Item>
          <Form.Item name="tags" label={t('docs.editor.tags')}>
            <Select mode="tags" options={choices(tags.data)} data-testid="document-editor-tags" />
          </Form.Item>
          {view.hasSensors && (
            <Form.Item name="sensors" label={t('docs.editor.sensors')}>
              <Select mode="tags" options={choices(sensors.data)} data-testid="document-editor-sensors" />
            </Form.Item>
          )}
          <Form.Item name="comment" label={t('docs.editor.comment')} extra={t('docs.editor.commentHint')}>
            <Input maxLength={DOCUMENT_VERSION_COMMENT_MAX} data-testid="document-editor-comment" />
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
}
