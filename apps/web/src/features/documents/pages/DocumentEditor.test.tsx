import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { callsTo } from '../../../test/fetchMock.ts';
import { staffUser } from '../../../test/fixtures.ts';
import { makeCard, pageOfItems } from '../test/documentFixtures.ts';
import { openDocs, stubListLayout } from '../test/docsHarness.ts';

const CARD = 'GET /api/v0/soc/instructions/5/';
const PATCH = 'PATCH /api/v0/soc/instructions/5/';
const CREATE = 'POST /api/v0/soc/instructions/';
const PREVIEW = 'POST /api/v0/analyst/markdown/';
const AS_STAFF = { 'GET /api/v0/auth/user/': { body: staffUser } };
const FIRST_PAINT = { timeout: 15_000 };

const openCard = (canEdit: boolean, routes: Parameters<typeof openDocs>[1] = {}) =>
  openDocs('/instruction/5', {
    ...(canEdit ? AS_STAFF : {}),
    [CARD]: {
      body: makeCard(5, { can_edit: canEdit, tags: ['vpn'], languages: [{ language: 'en', id: 5 }] }),
    },
    'GET /api/v0/soc/instructions/5/comments/': { body: pageOfItems([]) },
    ...routes,
  });

describe('publishing documents (staff)', () => {
  it('edits a document, sending only what changed with the version comment', async () => {
    let saved = makeCard(5, { can_edit: true, tags: ['vpn'], languages: [{ language: 'en', id: 5 }] });
    const { user, fetchMock } = openCard(true, {
      [CARD]: () => ({ body: saved }),
      [PATCH]: ({ body }) => {
        saved = { ...saved, title: (body as { title: string }).title, versions_count: 2 };
        return { body: saved };
      },
    });
    await user.click(await screen.findByTestId('document-edit', {}, FIRST_PAINT));
    const drawer = await screen.findByTestId('document-editor');
    const title = within(drawer).getByTestId('document-editor-title');
    expect(title).toHaveValue('Document 5');
    await user.clear(title);
    await user.type(title, 'Isolating a host');
    await user.type(within(drawer).getByTestId('document-editor-comment'), 'Clearer title');
    await user.click(screen.getByTestId('document-editor-save'));
    await waitFor(() => expect(callsTo(fetchMock, PATCH)).toHaveLength(1));
    expect(callsTo(fetchMock, PATCH)[0]!.body).toEqual({
      title: 'Isolating a host',
      comment: 'Clearer title',
    });
    expect(await screen.findByText('Saved: a new version is in the history')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('document-title')).toHaveTextContent('Isolating a host'));
  });

  it('shows the server’s preview of the Markdown and places its field errors', async () => {
    const { user, fetchMock } = openCard(true, {
      [PREVIEW]: { body: { html: '<h1>Steps</h1><p>Isolate <strong>now</strong>.</p>' } },
      [PATCH]: { status: 400, body: { title: ['Ensure this field has no more than 255 characters.'] } },
    });
    await user.click(await screen.findByTestId('document-edit', {}, FIRST_PAINT));
    const drawer = await screen.findByTestId('document-editor');
    await user.click(within(drawer).getByRole('tab', { name: 'Preview' }));
    const preview = await within(drawer).findByTestId('document-editor-description-preview');
    expect(within(preview).getByRole('heading', { name: 'Steps' })).toBeInTheDocument();
    expect(callsTo(fetchMock, PREVIEW)[0]!.body).toEqual({ markdown: '# Steps\n\nIsolate the host.' });
    await user.type(within(drawer).getByTestId('document-editor-title'), '!');
    await user.click(screen.getByTestId('document-editor-save'));
    expect(
      await within(drawer).findByText('Ensure this field has no more than 255 characters.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('document-editor')).toBeInTheDocument();
  });

  it('publishes a new document from the hub and opens it', async () => {
    const { user, fetchMock } = openDocs('/docs/instructions', {
      ...AS_STAFF,
      [CREATE]: { status: 201, body: makeCard(77, { can_edit: true, title: 'VPN from home' }) },
      'GET /api/v0/soc/instructions/77/': { body: makeCard(77, { can_edit: true, title: 'VPN from home' }) },
      'GET /api/v0/soc/instructions/77/comments/': { body: pageOfItems([]) },
    });
    await user.click(await screen.findByTestId('documents-create', {}, FIRST_PAINT));
    const drawer = await screen.findByTestId('document-editor');
    // a blank title is refused in the form, before any request
    await user.click(screen.getByTestId('document-editor-save'));
    expect(await within(drawer).findByText('Fill in this field')).toBeInTheDocument();
    await user.type(within(drawer).getByTestId('document-editor-title'), 'VPN from home');
    await user.type(within(drawer).getByTestId('document-editor-description-input'), '1. Connect');
    await user.click(screen.getByTestId('document-editor-save'));
    await waitFor(() => expect(callsTo(fetchMock, CREATE)).toHaveLength(1));
    expect(callsTo(fetchMock, CREATE)[0]!.body).toEqual({
      title: 'VPN from home',
      description: '1. Connect',
      language: 'en',
      tags: [],
      sensors: [],
      comment: '',
    });
    expect(await screen.findByTestId('document-title', {}, FIRST_PAINT)).toHaveTextContent('VPN from home');
  });

  it('offers the translation a document lacks, in Russian too', async () => {
    await i18n.changeLanguage('ru');
    try {
      const { user } = openCard(true);
      const translate = await screen.findByTestId('document-translate', {}, FIRST_PAINT);
      expect(translate).toHaveTextContent('Добавить перевод');
      await user.click(translate);
      const drawer = await screen.findByTestId('document-editor');
      expect(within(drawer).getByText('Перевод «Document 5»')).toBeInTheDocument();
      expect(within(drawer).getByTestId('document-editor-language')).toHaveTextContent('Русский');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('offers customers neither editing nor publishing', async () => {
    const { fetchMock } = openCard(false);
    await waitFor(
      () => expect(screen.getByTestId('document-title')).toHaveTextContent('Document 5'),
      FIRST_PAINT,
    );
    expect(screen.queryByTestId('document-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('document-translate')).not.toBeInTheDocument();
    const urls = fetchMock.mock.calls.map(([input]) =>
      input instanceof Request ? input.url : input.toString(),
    );
    expect(urls.filter((url) => url.includes('/analyst/'))).toEqual([]);
  });

  it('shows no New button on the hub to customers', async () => {
    stubListLayout();
    openDocs('/docs/instructions');
    expect(await screen.findAllByTestId('document-card-link', {}, FIRST_PAINT)).not.toHaveLength(0);
    expect(screen.queryByTestId('documents-create')).not.toBeInTheDocument();
  });
});
