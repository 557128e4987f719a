import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IocsTab } from './IocsTab.tsx';

/** A value of 200 characters with nowhere to break. */
const long = (prefix: string) => `${prefix}${'x'.repeat(200 - prefix.length)}`;

describe('IOCs tab of the incident page', () => {
  it('groups IOCs by type and lets values and categories without spaces break anywhere', () => {
    const url = long('https://example.com/');
    const category = long('category-');
    render(
      <IocsTab
        iocs={[
          { ioc: url, ioc_type: 'url', category: [category] },
          { ioc: '203.0.113.7', ioc_type: 'ipv4', category: ['C2'] },
        ]}
      />,
    );
    const urls = screen.getByTestId('ioc-group-url');
    expect(urls).toHaveTextContent('URLs (1)');
    expect(screen.getByTestId('ioc-group-ipv4')).toHaveTextContent('203.0.113.7');
    // jsdom lays nothing out: the browser test measures; here, the values may break anywhere.
    expect(within(urls).getByText(url).closest('.ant-typography')).toHaveStyle({
      overflowWrap: 'anywhere',
      whiteSpace: 'normal',
    });
    expect(within(urls).getByText(category).closest('.ant-tag')).toHaveStyle({
      overflowWrap: 'anywhere',
      whiteSpace: 'normal',
    });
  });
});
