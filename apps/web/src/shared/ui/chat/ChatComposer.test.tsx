import { ATTACHMENT_MAX_BYTES } from '@soc/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerNotifier } from '../notifications.tsx';
import { ChatComposer } from './ChatComposer.tsx';

let unregister: () => void = () => undefined;
afterEach(() => unregister());

/** The error toasts raised, as text. */
function catchErrors(): () => string[] {
  const error = vi.fn<(options: { title: ReactNode; description?: ReactNode }) => void>();
  unregister = registerNotifier({ error, success: vi.fn() } as unknown as NotificationInstance);
  return () =>
    error.mock.calls.map(([options]) => {
      const { container, unmount } = render(
        <div>
          {options.title}
          {options.description}
        </div>,
      );
      const text = container.textContent ?? '';
      unmount();
      return text;
    });
}

describe('ChatComposer attachments', () => {
  it.each([
    ['invoice.pdf.exe', 'invoice.pdf.exe: files of type .exe are not accepted'],
    ['photo\u202egpj.js', 'photo[U+202E]gpj.js: the name contains text-direction control characters'],
  ])('refuses %j before sending and names it', async (name, message) => {
    const errors = catchErrors();
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<ChatComposer onSend={onSend} pending={false} />);
    await user.type(screen.getByTestId('comment-input'), 'See the file');
    await user.upload(screen.getByTestId('comment-file-input'), new File(['x'], name));
    await user.click(screen.getByTestId('comment-send'));
    expect(onSend).not.toHaveBeenCalled();
    expect(errors()).toEqual([expect.stringContaining(message)]);
  });

  it('refuses a file over 50 MB as it is chosen, naming it, and keeps the others', async () => {
    const errors = catchErrors();
    const onSend = vi.fn().mockResolvedValue(undefined);
    const user = userEvent.setup();
    render(<ChatComposer onSend={onSend} pending={false} />);
    const big = new File(['x'], 'dump.bin');
    Object.defineProperty(big, 'size', { value: ATTACHMENT_MAX_BYTES + 1 });
    const atLimit = new File(['x'], 'limit.bin');
    Object.defineProperty(atLimit, 'size', { value: ATTACHMENT_MAX_BYTES });
    await user.upload(screen.getByTestId('comment-file-input'), [big, atLimit]);
    // refused on choosing, before anything is typed or sent
    expect(errors()).toEqual([expect.stringContaining('dump.bin is larger than 50 MB and was not attached')]);
    const chips = screen.getAllByTestId('comment-file');
    expect(chips).toHaveLength(1);
    expect(chips[0]).toHaveTextContent('limit.bin');
    await user.type(screen.getByTestId('comment-input'), 'See the file');
    await user.click(screen.getByTestId('comment-send'));
    expect(onSend).toHaveBeenCalledWith(expect.objectContaining({ files: [atLimit] }));
  });

  it('sends a harmless file', async () => {
    const errors = catchErrors();
    const onSend = vi.fn().mockResolvedValue(undefined);
    const user = userEvent.setup();
    render(<ChatComposer onSend={onSend} pending={false} />);
    await user.type(screen.getByTestId('comment-input'), 'See the file');
    await user.upload(screen.getByTestId('comment-file-input'), new File(['x'], 'notes.txt'));
    await user.click(screen.getByTestId('comment-send'));
    expect(onSend).toHaveBeenCalledOnce();
    expect(errors()).toEqual([]);
  });
});
