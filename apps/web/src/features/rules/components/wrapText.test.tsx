import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { makeRule } from '../test/ruleFixtures.ts';
import { RuleCard } from './RuleCard.tsx';
import { RuleLinks, RuleProperties } from './RuleDetails.tsx';
import { RuleNamePopover } from './RuleNamePopover.tsx';

// A name with no spaces is the worst case: without a break opportunity it runs out of its card.
const LONG = `Detect_${'very_long_detection_rule_name_'.repeat(8)}end`;
const wraps = { whiteSpace: 'normal', overflowWrap: 'anywhere' };

describe('long values inside rule cards', () => {
  it("wraps a long rule name in the incident page's detection-rules block", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RuleNamePopover name={LONG} />
      </QueryClientProvider>,
    );
    const button = screen.getByTestId('rule-name');
    expect(button).toHaveStyle({ ...wraps, maxWidth: '100%', textAlign: 'start' });
    expect(button).toHaveTextContent(LONG);
  });

  it('wraps a long caption, category and link of a rule card and its details', () => {
    const rule = makeRule(1, {
      rule_caption_eng: LONG,
      category: [LONG],
      links: [{ title: '', url: `https://example.com/${LONG}` }],
    });
    render(
      <>
        <RuleCard rule={rule} selected={false} size="wide" position={1} setSize={1} onSelect={() => {}} />
        <RuleProperties rule={rule} />
        <RuleLinks rule={rule} />
      </>,
    );
    expect(screen.getByTestId('rule-card-title')).toHaveStyle(wraps);
    expect(screen.getByText(LONG, { selector: '.ant-tag' })).toHaveStyle(wraps);
    expect(within(screen.getByTestId('rule-links')).getByRole('link')).toHaveStyle(wraps);
  });
});
