import { useEffect, useRef } from 'react';

export type QueueShortcutHandlers = {
  /** `j` (+1) and `k` (-1). */
  move: (offset: 1 | -1) => void;
  /** Enter: open the focused incident. */
  open: () => void;
  /** `a`: assign the focused incident to me. */
  assign: () => void;
  /** `?`: show the list of shortcuts. */
  help: () => void;
};

/** Where typed keys belong to a field, not to the queue. */
const isTyping = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || target.closest('input, textarea, select, [role="combobox"]') !== null);

/** A dialog or drawer handles its own keys. */
const inDialog = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && target.closest('[role="dialog"]') !== null;

/**
 * The queue's keyboard shortcuts, on the whole page while it is shown: ignored while typing in a
 * field, with a modifier held, inside a dialog, or while `paused` (one of the page's dialogs is
 * open: it may not hold the focus yet while it opens). Enter acts on
 * the queue only when nothing that Enter activates (a link, a button) has the focus.
 */
export function useQueueShortcuts(handlers: QueueShortcutHandlers, paused: boolean): void {
  const current = useRef(handlers);
  const isPaused = useRef(paused);
  useEffect(() => {
    current.current = handlers;
    isPaused.current = paused;
  }, [handlers, paused]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isPaused.current || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey)
        return;
      if (isTyping(event.target) || inDialog(event.target)) return;
      const on = current.current;
      switch (event.key) {
        case 'j':
          on.move(1);
          break;
        case 'k':
          on.move(-1);
          break;
        case 'a':
          on.assign();
          break;
        case '?':
          on.help();
          break;
        case 'Enter':
          if (event.target instanceof HTMLElement && event.target.closest('a, button, [role="button"]'))
            return;
          on.open();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
