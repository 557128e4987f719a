import { useEffect, useRef } from 'react';

/** What each staff shortcut of the incident page does. */
export interface StaffShortcutHandlers {
  /** `n`: focus the internal note composer. */
  note: () => void;
  /** `c`: focus the customer chat composer. */
  comment: () => void;
  /** `m`: assign the incident to the caller at the SOC. */
  assignToMe: () => void;
  /** `?`: show the list of shortcuts. */
  help: () => void;
}

/** The keys, as KeyboardEvent.key gives them, in the order the help lists them. */
export const STAFF_SHORTCUT_KEYS = { note: 'n', comment: 'c', assignToMe: 'm', help: '?' } as const;

/** Whether the key goes to something the user is typing in (a field, an editor, a select). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return target.closest('[role="combobox"], [role="textbox"]') !== null;
}

/**
 * The incident page's staff shortcuts on the document: single keys without Ctrl, Alt or Meta,
 * ignored while the user types or while `enabled` is false (a dialog or drawer is open).
 */
export function useStaffShortcuts(enabled: boolean, handlers: StaffShortcutHandlers): void {
  // the latest handlers without re-subscribing on every render
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
      if (isTyping(event.target)) return;
      const action = (Object.keys(STAFF_SHORTCUT_KEYS) as (keyof StaffShortcutHandlers)[]).find(
        (name) =>
          STAFF_SHORTCUT_KEYS[name] === event.key.toLowerCase() || STAFF_SHORTCUT_KEYS[name] === event.key,
      );
      if (!action) return;
      event.preventDefault();
      latest.current[action]();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
