import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { makeIncident } from '../test/incidentFixtures.ts';
import { IncidentCard, type IncidentCardProps } from './IncidentCard.tsx';

function renderCard(overrides: Partial<IncidentCardProps> = {}) {
  const props: IncidentCardProps = {
    incident: makeIncident(12345),
    selected: false,
    position: 1,
    setSize: 1,
    onSelect: vi.fn(),
    ...overrides,
  };
  render(
    <MemoryRouter>
      <IncidentCard {...props} />
    </MemoryRouter>,
  );
  return { props, card: screen.getByTestId('incident-card'), user: userEvent.setup() };
}

describe('IncidentCard', () => {
  it('shows key (linking to the incident), summary, priority, status, system and assignee', () => {
    const { card } = renderCard({
      incident: makeIncident(12345, {
        priority: 'critical',
        status: 'work_in_progress',
        customer_assignee: { id: 7, username: 'ivanov', full_name: 'Ivan Ivanov' },
      }),
    });
    expect(card).toHaveAttribute('data-key', '12345');
    expect(within(card).getByRole('link', { name: '12345' })).toHaveAttribute('href', '/inc/12345');
    expect(within(card).getByTestId('incident-card-summary')).toHaveTextContent('Suspicious activity 12345');
    expect(within(card).getByTestId('incident-card-priority')).toHaveTextContent('Critical');
    expect(within(card).getByTestId('incident-card-status')).toHaveTextContent('Work in progress');
    expect(within(card).getByTestId('incident-card-system')).toHaveTextContent('IS-0001 · Main office');
    expect(within(card).getByTestId('incident-card-assignee')).toHaveTextContent('Ivan Ivanov');
  });

  it('translates priority and status', async () => {
    await i18n.changeLanguage('ru');
    const { card } = renderCard({
      incident: makeIncident(1, { priority: 'low', status: 'waiting_for_support' }),
    });
    expect(within(card).getByTestId('incident-card-priority')).toHaveTextContent('Низкий');
    expect(within(card).getByTestId('incident-card-status')).toHaveTextContent('Ожидает ответа поддержки');
    expect(within(card).getByTestId('incident-card-assignee')).toHaveTextContent('Не назначен');
  });

  it('clips tags to three plus +N, with the rest in a tooltip', async () => {
    const { card, user } = renderCard({
      incident: makeIncident(1, { tags: ['vpn', 'brute-force', 'edge', 'night', 'admin'] }),
    });
    expect(
      within(card)
        .getAllByTestId('incident-tag')
        .map((tag) => tag.textContent),
    ).toEqual(['vpn', 'brute-force', 'edge']);
    const more = within(card).getByTestId('incident-tags-more');
    expect(more).toHaveTextContent('+2');
    expect(more).toHaveAccessibleName('2 more tags: night, admin');
    await user.hover(more);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('night, admin');
  });

  it('names one hidden tag in the singular, and hidden tags in Russian by their count', async () => {
    const more = (tags: string[]) =>
      within(renderCard({ incident: makeIncident(1, { tags }) }).card).getByTestId('incident-tags-more');
    expect(more(['vpn', 'edge', 'night', 'admin'])).toHaveAccessibleName('1 more tag: admin');
    cleanup();
    await i18n.changeLanguage('ru');
    expect(more(['vpn', 'edge', 'night', 'admin'])).toHaveAccessibleName('Ещё 1 тег: admin');
    cleanup();
    expect(more(['a', 'b', 'c', 'd', 'e', 'f'])).toHaveAccessibleName('Ещё 3 тега: d, e, f');
    cleanup();
    expect(more(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])).toHaveAccessibleName('Ещё 5 тегов: d, e, f, g, h');
  });

  it('shows no +N with three tags or fewer', () => {
    const { card } = renderCard({ incident: makeIncident(1, { tags: ['a', 'b', 'c'] }) });
    expect(within(card).getAllByTestId('incident-tag')).toHaveLength(3);
    expect(within(card).queryByTestId('incident-tags-more')).not.toBeInTheDocument();
  });

  it('marks a breached SLA in red', () => {
    const { card } = renderCard({ incident: makeIncident(1, { sla_breached: true }) });
    expect(within(card).getByTestId('incident-card-sla-breached')).toHaveTextContent('SLA breached');
    expect(within(card).getByTestId('incident-card-sla')).toHaveAttribute('data-breached', 'true');
    expect(within(card).getByTestId('incident-card-sla').closest('.ant-typography-danger')).not.toBeNull();
  });

  it('shows the SLA deadline without a marker when it is kept', () => {
    const { card } = renderCard({ incident: makeIncident(1, { sla_breached: false, sla: null }) });
    expect(within(card).queryByTestId('incident-card-sla-breached')).not.toBeInTheDocument();
    expect(within(card).getByTestId('incident-card-sla')).toHaveTextContent('SLA: No SLA');
  });

  it('is selected by click, Enter and Space, but not by following its link', async () => {
    const { card, user, props } = renderCard();
    await user.click(card);
    card.focus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(props.onSelect).toHaveBeenCalledTimes(3);
    expect(props.onSelect).toHaveBeenCalledWith(12345);
    await user.click(within(card).getByRole('link'));
    expect(props.onSelect).toHaveBeenCalledTimes(3);
  });

  it('is an article named by its summary and marked current when selected', () => {
    const { card } = renderCard({ selected: true, position: 3, setSize: 120 });
    expect(card).toHaveAccessibleName('Suspicious activity 12345');
    expect(card).toHaveAttribute('aria-current', 'true');
    expect(card).toHaveAttribute('aria-posinset', '3');
    expect(card).toHaveAttribute('aria-setsize', '120');
  });
});
