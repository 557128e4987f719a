import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MfaPinForm, type MfaPinFormProps } from './MfaPinForm.tsx';

const renderPin = (props: Partial<MfaPinFormProps> = {}) => {
  const handlers = { onSubmit: vi.fn(), onCancel: vi.fn(), onResend: vi.fn() };
  const all: MfaPinFormProps = {
    ...handlers,
    pending: false,
    resending: false,
    error: null,
    resendAvailableAt: Date.now() + 60_000,
    ...props,
  };
  const view = render(<MfaPinForm {...all} />);
  return {
    ...handlers,
    view,
    rerender: (next: Partial<MfaPinFormProps>) => view.rerender(<MfaPinForm {...all} {...next} />),
  };
};

const cells = () => screen.getByTestId('mfa-pin').querySelectorAll('input');

afterEach(() => {
  vi.useRealTimers();
});

describe('MfaPinForm', () => {
  it('submits once all six digits are typed, and not before', async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderPin();
    expect(cells()).toHaveLength(6);
    await user.click(cells()[0]!);
    await user.keyboard('12345');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.keyboard('6');
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('123456');
  });

  it('ignores letters: only digits count', async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderPin();
    await user.click(cells()[0]!);
    await user.keyboard('1a2b3c');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.keyboard('456');
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('123456');
  });

  it('marks the PIN invalid and shows the error in a tooltip, clearing the digits', async () => {
    const user = userEvent.setup();
    const { rerender } = renderPin();
    await user.click(cells()[0]!);
    await user.keyboard('111111');
    rerender({ error: 'Invalid code' });
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Invalid code');
    expect(screen.getByTestId('mfa-pin')).toHaveAttribute('aria-invalid', 'true');
    expect(cells()[0]!.className).toMatch(/status-error/);
    expect([...cells()].map((c) => c.value).join('')).toBe('');
  });

  it('cancels', async () => {
    const user = userEvent.setup();
    const { onCancel } = renderPin();
    await user.click(screen.getByTestId('mfa-cancel'));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('counts down in m:ss and enables Resend only at zero', () => {
    vi.useFakeTimers({ now: new Date('2026-11-20T12:00:00Z') });
    const { onResend } = renderPin({ resendAvailableAt: Date.now() + 65_000 });
    const resend = screen.getByTestId('mfa-resend');
    expect(resend).toBeDisabled();
    expect(resend).toHaveTextContent('New code in 1:05');
    act(() => {
      vi.advanceTimersByTime(6_000);
    });
    expect(resend).toHaveTextContent('New code in 0:59');
    // refreshed about every 300 ms, not once a second
    act(() => {
      vi.advanceTimersByTime(58_700);
    });
    expect(resend).toHaveTextContent('New code in 0:01');
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(resend).toBeEnabled();
    expect(resend).toHaveTextContent('Send a new code');
    fireEvent.click(resend);
    expect(onResend).toHaveBeenCalledOnce();
  });
});
