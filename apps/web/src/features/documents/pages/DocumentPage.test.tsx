import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearDownloads } from '@/shared/downloads/downloads.ts';
import { callsTo } from '../../../test/fetchMock.ts';
import { installFetchBackedXhr } from '../../../test/fakeXhr.ts';
import { makeCard, makeComment, makeVersion, pageOfItems } from '../test/documentFixtures.ts';
import { openDocs } from '../test/docsHarness.ts';

const CARD = 'GET /api/v0/soc/instructions/5/';
const COMMENTS = 'GET /api/v0/soc/instructions/5/comments/';
const ADD_COMMENT = 'POST /api/v0/soc/instructions/5/comments/';
const PDF = 'GET /api/v0/soc/instructions/5/download_pdf/';
const ARTICLE = 'GET /api/v0/soc/articles/8/';
const ARTICLE_HISTORY = 'GET /api/v0/soc/articles/8/history/';

const toastTexts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');

const revokeObjectURL = vi.fn();

beforeEach(() => {
  revokeObjectURL.mockClear();
  installFetchBackedXhr();
  clearDownloads();
  // jsdom has no object URLs; downloads and inline images need them.
  let counter = 0;
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: vi.fn(() => `blob:image-${++counter}`),
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: revokeObjectURL });
});

function openInstruction(routes: Parameters<typeof openDocs>[1] = {}) {
  return openDocs('/instruction/5', {
    [CARD]: {
      body: makeCard(5, {
        languages: [
          { language: 'en', id: 5 },
          { language: 'ru', id: 6 },
        ],
        tags: ['vpn', 'mail'],
      }),
    },
    'GET /api/v0/soc/instructions/6/': {
      body: makeCard(6, {
        language: 'ru',
        title: 'Инструкция 6',
        languages: [
          { language: 'en', id: 5 },
          { language: 'ru', id: 6 },
        ],
      }),
    },
    [COMMENTS]: { body: pageOfItems([makeComment(1)]) },
    'GET /api/v0/soc/instructions/6/comments/': { body: pageOfItems([]) },
    ...routes,
  });
}

describe('document card', () => {
  it('shows breadcrumb, main info, the body, anchors and the link to the other language', async () => {
    const { user, router } = openInstruction();
    await waitFor(() => expect(screen.getByTestId('document-title')).toHaveTextContent('Document 5'));
    const breadcrumbs = screen.getByTestId('document-breadcrumbs');
    expect(within(breadcrumbs).getByRole('link', { name: 'Instructions' })).toHaveAttribute(
      'href',
      '/docs/instructions',
    );
    const mainInfo = screen.getByTestId('document-main-info');
    expect(mainInfo).toHaveTextContent('vpn');
    expect(mainInfo).toHaveTextContent('ids');
    expect(mainInfo).toHaveTextContent('No attachments');
    expect(screen.getByTestId('document-body')).toHaveTextContent('Isolate the host.');
    const anchors = screen.getByTestId('document-anchors');
    expect(within(anchors).getByRole('link', { name: 'Main info' })).toHaveAttribute(
      'href',
      '#document-main-info',
    );
    expect(within(anchors).getByRole('link', { name: 'Instruction' })).toHaveAttribute(
      'href',
      '#document-body',
    );
    expect(screen.queryByTestId('document-history-open')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Document 5 | Acme SOC'));

    const other = screen.getByTestId('document-other-language');
    expect(other).toHaveTextContent('This document in Russian');
    await user.click(other);
    expect(await screen.findByText('Инструкция 6', { selector: 'h1' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/instruction/6');
  });

  it('collapses the main info block', async () => {
    const { user } = openInstruction();
    const toggle = await screen.findByTestId('document-main-info-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAccessibleName('Show main info');
  });

  it('says no description for an empty body', async () => {
    openInstruction({ [CARD]: { body: makeCard(5, { description: '', description_html: '' }) } });
    expect(await screen.findByTestId('document-no-description')).toHaveTextContent('No description');
  });

  it('returns to its list with the error toast when the document cannot be fetched', async () => {
    const { router } = openInstruction({ [CARD]: { status: 404, body: { detail: 'Not found.' } } });
    expect(await screen.findByTestId('documents-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/docs/instructions');
    await waitFor(() =>
      expect(toastTexts()).toEqual(
        expect.arrayContaining([expect.stringContaining('Fetching instruction: error')]),
      ),
    );
  });

  it('lists the comments and adds one as multipart `text`, refusing an empty one', async () => {
    let comments = [makeComment(1, { from_soc: true, is_mine: false, author: 'SOC analyst' })];
    const { user, fetchMock } = openInstruction({
      [COMMENTS]: () => ({ body: pageOfItems(comments) }),
      [ADD_COMMENT]: () => {
        comments = [...comments, makeComment(2, { body: '<p>Checked the VPN</p>' })];
        return { status: 201, body: comments.at(-1) };
      },
    });
    const list = await screen.findByTestId('document-comments-list');
    await waitFor(() => expect(within(list).getAllByTestId('document-comment')).toHaveLength(1));
    expect(list).toHaveTextContent('Comment 1');
    expect(within(list).getByTestId('document-comment-soc')).toHaveTextContent('SOC');

    await user.click(screen.getByTestId('document-comment-submit'));
    expect(await screen.findByText('Enter the comment text')).toBeInTheDocument();
    expect(callsTo(fetchMock, ADD_COMMENT)).toHaveLength(0);

    await user.type(screen.getByTestId('document-comment-input'), '  Checked the VPN  ');
    await user.click(screen.getByTestId('document-comment-submit'));
    await waitFor(() => expect(within(list).getAllByTestId('document-comment')).toHaveLength(2));
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const body = call?.[1]?.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get('text')).toBe('Checked the VPN');
    expect(screen.getByTestId('document-comment-input')).toHaveValue('');
    expect(screen.getByTestId('document-comments-count')).toHaveTextContent('2');
  });

  it("shows each comment's source as incident comments do, in the interface's language", async () => {
    openInstruction({
      [COMMENTS]: {
        body: pageOfItems([makeComment(1, { from_soc: true, is_mine: false }), makeComment(2)]),
      },
    });
    const list = await screen.findByTestId('document-comments-list');
    await waitFor(() => expect(within(list).getAllByTestId('document-comment')).toHaveLength(2));
    const sources = within(list).getAllByTestId('comment-source');
    expect(sources.map((icon) => icon.getAttribute('aria-label'))).toEqual(['Web or API', 'Web or API']);
    expect(
      within(list)
        .getAllByTestId('document-comment')
        .map((comment) => comment.getAttribute('data-source')),
    ).toEqual(['web', 'web']);
  });

  it('shows a server validation message under the comment field', async () => {
    const { user } = openInstruction({
      [ADD_COMMENT]: {
        status: 400,
        body: { text: ['Ensure this field has no more than 10000 characters.'] },
      },
    });
    await user.type(await screen.findByTestId('document-comment-input'), 'x');
    await user.click(screen.getByTestId('document-comment-submit'));
    expect(
      await screen.findByText('Ensure this field has no more than 10000 characters.'),
    ).toBeInTheDocument();
  });

  it('downloads the PDF named after the title', async () => {
    const { user, fetchMock } = openInstruction({ [PDF]: { body: 'pdf' } });
    await screen.findByTestId('document-main-info');
    await user.click(screen.getByTestId('document-pdf'));
    const item = await screen.findByTestId('download-item');
    expect(item).toHaveAttribute('data-filename', 'Document 5.pdf');
    await waitFor(() => expect(callsTo(fetchMock, PDF)).toHaveLength(1));
    expect(callsTo(fetchMock, PDF)[0]?.headers.get('Accept')).toContain('application/pdf');
  });

  it('opens the version history of an article and a version in the detail modal', async () => {
    const { user, fetchMock } = openDocs('/article/8', {
      [ARTICLE]: { body: makeCard(8, {}, 'article') },
      'GET /api/v0/soc/articles/8/comments/': { body: pageOfItems([]) },
      [ARTICLE_HISTORY]: { body: pageOfItems([makeVersion(2), makeVersion(1, { comment: '' })]) },
    });
    await user.click(await screen.findByTestId('document-history-open'));
    const modal = await screen.findByTestId('document-history-modal');
    await waitFor(() => expect(within(modal).getAllByTestId('document-version-open')).toHaveLength(2));
    expect(modal).toHaveTextContent('Version comment 2');
    expect(modal).toHaveTextContent('No comment');
    await user.click(within(modal).getAllByTestId('document-version-open')[0]!);
    const detail = await screen.findByTestId('document-version-modal');
    await waitFor(() =>
      expect(within(detail).getByTestId('document-version-description')).toHaveTextContent(
        'Body of version 2',
      ),
    );
    expect(within(detail).getByTestId('document-version-comment')).toHaveTextContent('Version comment 2');
    expect(callsTo(fetchMock, ARTICLE_HISTORY)).toHaveLength(1);
  });

  it('fetches inline API images with the Authorization header, shows object URLs and revokes them on leaving', async () => {
    const image = 'GET /api/v0/soc/instructions/5/attachments/3/';
    const { fetchMock, router } = openInstruction({
      [CARD]: {
        body: makeCard(5, {
          description_html:
            '<p>Scheme: <img src="/api/v0/soc/instructions/5/attachments/3/" alt="scheme"></p>',
        }),
      },
      [image]: { body: 'png-bytes', headers: { 'Content-Type': 'image/png' } },
    });
    const body = await screen.findByTestId('document-body');
    const img = within(body).getByAltText('scheme');
    await waitFor(() => expect(img.getAttribute('src')).toMatch(/^blob:image-/));
    const request = callsTo(fetchMock, image)[0];
    expect(request?.headers.get('Authorization')).toMatch(/^Bearer /);
    const url = img.getAttribute('src');

    await router.navigate('/docs/instructions');
    await screen.findByTestId('documents-page');
    expect(revokeObjectURL).toHaveBeenCalledWith(url);
  });
});
