import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { installFetchBackedXhr } from '../../../test/fakeXhr.ts';
import { callsTo, deferred, settle, type MockRoutes } from '../../../test/fetchMock.ts';
import { incidentPage, makeIncident } from '../test/incidentFixtures.ts';
import {
  isCreateModalOpen,
  LIST,
  openDropdownOptions,
  openIncidents,
  openSelect,
  pickOption,
  renderedKeys,
  stubListLayout,
} from '../test/pageHarness.ts';

const CREATE = 'POST /api/v0/soc/incs/';
const UPLOAD = 'POST /api/v0/soc/incs/5001/add_file/';
const ISSUE_TYPES = 'GET /api/v0/soc/issue_types/';
const SYSTEMS = 'GET /api/v0/soc/systems/';
const categoriesOf = (type: number) => `GET /api/v0/soc/issues/${type}/categories/`;

const page = <T,>(results: T[]) => ({ body: { total: results.length, next: null, previous: null, results } });

const lookupRoutes: MockRoutes = {
  [ISSUE_TYPES]: page([
    { id: 1, title: 'Incident', code: 'incident' },
    { id: 2, title: 'Request', code: 'request' },
  ]),
  [SYSTEMS]: page([
    { id: 1, is_id: 'IS-0001', full_name: 'Main office' },
    { id: 2, is_id: 'IS-0002', full_name: 'Data centre' },
  ]),
  [categoriesOf(1)]: page([
    { id: 10, title: 'Malware', code: 'malware' },
    { id: 11, title: 'Phishing', code: 'phishing' },
  ]),
  [categoriesOf(2)]: page([{ id: 20, title: 'Question', code: 'question' }]),
};

beforeEach(() => {
  stubListLayout();
  installFetchBackedXhr();
});
afterEach(() => vi.restoreAllMocks());

async function openModal(routes: MockRoutes = {}) {
  const app = openIncidents('/incidents', { ...lookupRoutes, ...routes });
  await waitFor(() => expect(renderedKeys().length).toBeGreaterThan(0));
  await app.user.click(screen.getByTestId('incidents-create-button'));
  const modal = await screen.findByTestId('create-incident-modal');
  return { ...app, modal };
}

async function fillRequiredFields(user: UserEvent) {
  await openSelect(user, 'create-issuetype');
  await pickOption(user, 'Incident');
  await user.type(screen.getByTestId('create-title'), 'Phishing wave');
  await user.type(screen.getByTestId('create-description'), 'Many users received the same mail.');
  await openSelect(user, 'create-system');
  await pickOption(user, 'IS-0002 · Data centre');
  await openSelect(user, 'create-category');
  await pickOption(user, 'Phishing');
  await openSelect(user, 'create-priority');
  await pickOption(user, 'High');
}

const toasts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');
const fieldOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;
const fileOfSize = (name: string, size: number) => {
  const file = new File(['x'.repeat(Math.min(size, 16))], name, { type: 'text/plain' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

describe('Create-incident modal', () => {
  it('requires issue type, title, description, tenant, main category and priority', async () => {
    const { user, fetchMock } = await openModal();
    await user.click(screen.getByTestId('create-submit'));
    await waitFor(() => expect(screen.getAllByText('Required field')).toHaveLength(6));
    for (const testId of [
      'create-issuetype',
      'create-title',
      'create-description',
      'create-system',
      'create-category',
      'create-priority',
    ]) {
      expect(within(fieldOf(testId)).getByText('Required field')).toBeInTheDocument();
    }
    expect(
      within(fieldOf('create-additional-categories')).queryByText('Required field'),
    ).not.toBeInTheDocument();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });

  it('limits the title to 255 characters, in Russian too', async () => {
    await i18n.changeLanguage('ru');
    const { user } = await openModal();
    await user.click(screen.getByTestId('create-title'));
    await user.paste('a'.repeat(256));
    expect(
      await within(fieldOf('create-title')).findByText('Максимальное количество символов - 255'),
    ).toBeInTheDocument();
    await user.keyboard('{Backspace}');
    await waitFor(() =>
      expect(
        within(fieldOf('create-title')).queryByText('Максимальное количество символов - 255'),
      ).not.toBeInTheDocument(),
    );
    await user.click(screen.getByTestId('create-submit'));
    expect((await screen.findAllByText('Обязательное поле')).length).toBeGreaterThan(0);
  });

  it('keeps the categories disabled until an issue type is chosen, and clears them when it changes', async () => {
    const { user, fetchMock } = await openModal();
    const category = screen.getByTestId('create-category');
    expect(within(category).getByRole('combobox')).toBeDisabled();
    expect(within(screen.getByTestId('create-additional-categories')).getByRole('combobox')).toBeDisabled();
    expect(callsTo(fetchMock, categoriesOf(1))).toHaveLength(0);

    await openSelect(user, 'create-issuetype');
    await pickOption(user, 'Incident');
    await waitFor(() => expect(within(category).getByRole('combobox')).toBeEnabled());
    await openSelect(user, 'create-category');
    await pickOption(user, 'Phishing');
    await openSelect(user, 'create-additional-categories');
    // The main category is not offered again as an additional one.
    await pickOption(user, 'Malware');
    expect(openDropdownOptions()).toEqual(['Malware']);
    expect(category).toHaveTextContent('Phishing');
    expect(screen.getByTestId('create-additional-categories')).toHaveTextContent('Malware');
    expect(Object.fromEntries(callsTo(fetchMock, categoriesOf(1))[0]!.url.searchParams)).toEqual({
      limit: '30',
      language: 'en',
    });

    await openSelect(user, 'create-issuetype');
    await pickOption(user, 'Request');
    await waitFor(() => expect(category).not.toHaveTextContent('Phishing'));
    expect(screen.getByTestId('create-additional-categories')).not.toHaveTextContent('Malware');
    await openSelect(user, 'create-category');
    await pickOption(user, 'Question');
  });

  it('searches the lookups on the server once typing pauses', async () => {
    const { user, fetchMock } = await openModal();
    await openSelect(user, 'create-issuetype');
    await user.keyboard('inc');
    await waitFor(() =>
      expect(callsTo(fetchMock, ISSUE_TYPES).map((call) => call.url.searchParams.get('search'))).toContain(
        'inc',
      ),
    );
    const searches = callsTo(fetchMock, ISSUE_TYPES).map((call) => call.url.searchParams.get('search'));
    expect(searches).toEqual([null, 'inc']);
    expect(Object.fromEntries(callsTo(fetchMock, ISSUE_TYPES)[1]!.url.searchParams)).toEqual({
      limit: '30',
      search: 'inc',
      language: 'en',
    });
    await openSelect(user, 'create-system');
    expect(Object.fromEntries(callsTo(fetchMock, SYSTEMS)[0]!.url.searchParams)).toEqual({
      no_page: 'true',
      short: 'true',
      page_size: '30',
      language: 'en',
    });
  });

  it('creates the incident, uploads the files with progress and stays open until they are in', async () => {
    const upload = deferred<{ status: number; body: unknown }>();
    let listCalls = 0;
    const { user, fetchMock } = await openModal({
      [CREATE]: { status: 201, body: makeIncident(5001, { summary: 'Phishing wave' }) },
      [UPLOAD]: () => upload.promise,
      // After the creation the list is asked again and has the new incident first.
      [LIST]: () => {
        listCalls += 1;
        return { body: incidentPage(listCalls > 1 ? [5001, 1] : [1]) };
      },
    });
    await fillRequiredFields(user);
    await openSelect(user, 'create-additional-categories');
    await pickOption(user, 'Malware');
    await user.upload(screen.getByTestId('create-attachments'), [
      fileOfSize('mail.eml', 1000),
      fileOfSize('headers.txt', 3000),
    ]);
    expect(screen.getByTestId('create-attachments-list')).toHaveTextContent('mail.eml');
    await user.click(screen.getByTestId('create-submit'));

    expect(await screen.findByTestId('create-upload-progress')).toHaveTextContent('Uploading files: 50%');
    expect(isCreateModalOpen()).toBe(true);
    expect(await screen.findByText('Incident 5001 added')).toBeInTheDocument();
    // Created, but the files are still on their way: the modal stays, busy.
    expect(isCreateModalOpen()).toBe(true);
    expect(screen.getByTestId('create-submit')).toHaveClass('ant-btn-loading');
    expect(callsTo(fetchMock, CREATE)[0]?.body).toEqual({
      system: 2,
      summary: 'Phishing wave',
      issuetype: 1,
      priority: 'high',
      description: 'Many users received the same mail.',
      primary_category: 11,
      secondary_category: [10],
    });

    upload.resolve({ status: 201, body: { attachments: [] } });
    expect(await screen.findByText('Files added')).toBeInTheDocument();
    await waitFor(() => expect(isCreateModalOpen()).toBe(false));
    // The list refreshes, and the new incident is first and selected.
    await waitFor(() => expect(renderedKeys()[0]).toBe(5001));
    expect(screen.getByTestId('incident-side-panel')).toHaveAttribute('data-key', '5001');
  }, 60_000);

  it('shows server field errors under their fields and the rest above the buttons', async () => {
    const { user } = await openModal({
      [CREATE]: {
        status: 400,
        body: {
          summary: ['Ensure this field has no more than 255 characters.'],
          primary_category: ['Category 11 does not belong to issue type 1.'],
          system: ['You are not a member of this system.'],
          non_field_errors: ['Too many incidents created in a minute.'],
        },
      },
    });
    await fillRequiredFields(user);
    await user.click(screen.getByTestId('create-submit'));
    expect(
      await within(fieldOf('create-title')).findByText('Ensure this field has no more than 255 characters.'),
    ).toBeInTheDocument();
    expect(
      within(fieldOf('create-category')).getByText('Category 11 does not belong to issue type 1.'),
    ).toBeInTheDocument();
    expect(
      within(fieldOf('create-system')).getByText('You are not a member of this system.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('create-form-error')).toHaveTextContent(
      'Too many incidents created in a minute.',
    );
    expect(screen.queryByTestId('notification-error')).not.toBeInTheDocument();
    expect(isCreateModalOpen()).toBe(true);
  });

  it('reports a failure without field data as a toast', async () => {
    const { user } = await openModal({
      [CREATE]: { status: 500, body: { detail: 'Internal server error' } },
    });
    await fillRequiredFields(user);
    await user.click(screen.getByTestId('create-submit'));
    const toast = await screen.findByTestId('notification-error');
    expect(toast).toHaveTextContent('Problems occurred while adding');
    expect(toast).toHaveTextContent('Internal server error');
  });

  it('checks attachment size and count before anything is sent', async () => {
    const { user, fetchMock } = await openModal();
    await fillRequiredFields(user);
    await user.upload(screen.getByTestId('create-attachments'), [
      fileOfSize('dump.bin', 50 * 1024 * 1024 + 1),
    ]);
    // refused as it is chosen: named in a message and never listed
    await waitFor(() =>
      expect(toasts()).toEqual([
        expect.stringContaining('dump.bin is larger than 50 MB and was not attached'),
      ]),
    );
    expect(screen.queryByTestId('create-attachments-list')).not.toBeInTheDocument();
    await user.upload(
      screen.getByTestId('create-attachments'),
      Array.from({ length: 11 }, (_, index) => fileOfSize(`f${index}.txt`, 10)),
    );
    expect(
      await within(fieldOf('create-attachments')).findByText('No more than 10 files'),
    ).toBeInTheDocument();
    await user.click(screen.getByTestId('create-submit'));
    await settle();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });

  it('shows the server’s upload messages when the attachments are refused', async () => {
    await i18n.changeLanguage('ru');
    const { user } = await openModal({
      [CREATE]: { status: 201, body: makeIncident(5001) },
      // a name the form lets through, whose content only the server can judge
      [UPLOAD]: { status: 400, body: { attachments: ['report.pdf: недопустимый тип файла'] } },
    });
    await openSelect(user, 'create-issuetype');
    await pickOption(user, 'Incident');
    await user.type(screen.getByTestId('create-title'), 'Вредонос');
    await user.type(screen.getByTestId('create-description'), 'Описание');
    await openSelect(user, 'create-system');
    await pickOption(user, 'IS-0001 · Main office');
    await openSelect(user, 'create-category');
    await pickOption(user, 'Malware');
    await openSelect(user, 'create-priority');
    await pickOption(user, 'Низкий');
    await user.upload(screen.getByTestId('create-attachments'), [fileOfSize('report.pdf', 100)]);
    await user.click(screen.getByTestId('create-submit'));

    expect(await screen.findByText('Инцидент 5001 добавлен')).toBeInTheDocument();
    const toast = await screen.findByTestId('notification-error');
    expect(toast).toHaveTextContent('Ошибка при добавлении вложений');
    expect(toast).toHaveTextContent('report.pdf: недопустимый тип файла');
  });
});
