import type { Analytics } from '@soc/contracts';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, loadLanguage } from '@/shared/i18n/i18n.ts';
import { ThemeModeProvider } from '@/shared/theme/ThemeModeContext.tsx';
import { Factoids } from './Factoids.tsx';

const NBSP = '\u00a0';

const analytics: Analytics = {
  count: 7500,
  critical_count: 1200,
  waiting_for_customer: 3,
  sla_breached: 1.12,
  sla_breached_count: 84,
  previous: { count: 6000, sla_breached: 2.5, created__gte: 0, created__lte: 1 },
  eps: { average: 1563.6, contracted: 2000, max: 1800.25 },
  mitre: [],
  tactics: [],
  priority: [],
  status: [],
  category: [],
  top_domains: [],
  top_ips: [],
  timeline: [],
};

// the trend colours follow the theme
const renderFactoids = () =>
  render(
    <ThemeModeProvider initialMode="light">
      <Factoids data={analytics} hideEps={false} />
    </ThemeModeProvider>,
  );

// textContent keeps the no-break spaces that the queries' default normaliser would turn into spaces
const text = (testId: string) => screen.getByTestId(testId).textContent;

beforeAll(async () => {
  await loadLanguage('ru');
});

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('Factoids', () => {
  it('groups counts and writes percentages and EPS the Russian way', async () => {
    await i18n.changeLanguage('ru');
    renderFactoids();
    expect(text('factoid-count')).toContain(`7${NBSP}500`);
    expect(text('factoid-count')).toContain(`+25${NBSP}% к предыдущему периоду`);
    expect(text('factoid-count')).toContain(`предыдущий период: 6${NBSP}000`);
    expect(text('factoid-critical')).toContain(`1${NBSP}200`);
    expect(text('factoid-sla')).toContain(`1,12${NBSP}%`);
    expect(text('factoid-sla')).toContain(`предыдущий период: 2,5${NBSP}%`);
    expect(text('factoid-eps')).toContain(`1${NBSP}563,6 / 1${NBSP}800,25`);
    expect(text('factoid-eps')).toContain(`по договору 2${NBSP}000`);
  });

  it('writes them the English way', () => {
    renderFactoids();
    expect(text('factoid-count')).toContain('7,500');
    expect(text('factoid-count')).toContain('+25% vs previous period');
    expect(text('factoid-sla')).toContain('1.12%');
    expect(text('factoid-eps')).toContain('1,563.6 / 1,800.25');
    expect(text('factoid-eps')).toContain('contracted 2,000');
  });
});
