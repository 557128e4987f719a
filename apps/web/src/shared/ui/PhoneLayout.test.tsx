import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubPhoneViewport } from '@/test/viewport.ts';
import { PhoneDetailDrawer, SplitColumns } from './PhoneLayout.tsx';

const direction = (testId: string) => getComputedStyle(screen.getByTestId(testId)).flexDirection;

describe('SplitColumns', () => {
  const columns = (sideLast?: boolean) => (
    <SplitColumns
      side={<p>Side</p>}
      sideWidth="30rem"
      main={<p>Main</p>}
      sideLast={sideLast}
      testId="columns"
    />
  );

  it('stands the columns side by side on the desktop, the side one at its width', () => {
    render(columns());
    expect(direction('columns')).not.toBe('column');
    expect(screen.getByText('Side').parentElement).toHaveStyle({ flex: '0 0 30rem' });
  });

  it('stacks them on a phone, the side one first unless it goes last', () => {
    stubPhoneViewport();
    const { unmount } = render(columns());
    expect(direction('columns')).toBe('column');
    expect(screen.getByTestId('columns').textContent).toBe('SideMain');
    expect(screen.getByText('Side').parentElement).not.toHaveStyle({ flex: '0 0 30rem' });
    unmount();
    render(columns(true));
    expect(screen.getByTestId('columns').textContent).toBe('MainSide');
  });
});

describe('PhoneDetailDrawer', () => {
  it('is a dialog named Details by default that its close button closes', async () => {
    const onClose = vi.fn();
    render(
      <PhoneDetailDrawer open onClose={onClose}>
        <p>Detail</p>
      </PhoneDetailDrawer>,
    );
    expect(await screen.findByRole('dialog', { name: 'Details' })).toHaveTextContent('Detail');
    await userEvent.click(screen.getByRole('button', { name: 'Close the details' }));
    expect(onClose).toHaveBeenCalled();
  });
});
