import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CountBadge } from './CountBadge.tsx';

describe('CountBadge', () => {
  it.each([
    [98, '98'],
    [99, '99'],
    [100, '99+'],
    [12_345, '99+'],
  ])('shows %i as "%s"', (count, text) => {
    render(<CountBadge count={count} data-testid="badge" />);
    expect(screen.getByTestId('badge')).toHaveTextContent(new RegExp(`^${text.replace('+', '\\+')}$`));
  });

  it('shows zero only when asked to', () => {
    const { rerender } = render(<CountBadge count={0} data-testid="badge" />);
    expect(screen.getByTestId('badge')).toHaveTextContent(/^$/);
    rerender(<CountBadge count={0} showZero data-testid="badge" />);
    expect(screen.getByTestId('badge')).toHaveTextContent(/^0$/);
  });

  it('caps the badge of a wrapped control as well', () => {
    render(
      <CountBadge count={150} size="small" data-testid="badge">
        <button type="button">Filters</button>
      </CountBadge>,
    );
    expect(screen.getByTestId('badge')).toHaveTextContent(/^Filters99\+$/);
  });
});
