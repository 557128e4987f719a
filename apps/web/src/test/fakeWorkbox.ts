import { vi } from 'vitest';

type Handler = () => void;

/**
 * Stands in for workbox-window's `Workbox` (mock the module with it): records the calls and lets
 * a test play the browser's part (`emit('waiting')` when a new worker is installed).
 */
export class FakeWorkbox {
  static last: FakeWorkbox | null = null;
  /** Set before `register()` to make it fail as a browser would (insecure origin, CSP). */
  static failRegistration: Error | null = null;
  private readonly handlers = new Map<string, Handler[]>();
  readonly register = vi.fn(async () => {
    if (FakeWorkbox.failRegistration) throw FakeWorkbox.failRegistration;
    return {};
  });
  readonly update = vi.fn(async () => {});
  /** The waiting worker takes over at once, as sw.js does on SKIP_WAITING. */
  readonly messageSkipWaiting = vi.fn(() => this.emit('controlling'));

  constructor(readonly url: string) {
    FakeWorkbox.last = this;
  }

  addEventListener(type: string, handler: Handler): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }

  emit(type: string): void {
    for (const handler of this.handlers.get(type) ?? []) handler();
  }
}

/** Gives jsdom a `navigator.serviceWorker` (controlled page or not); returns the undo. */
export function stubServiceWorkerContainer(controlled: boolean): () => void {
  Object.defineProperty(window.navigator, 'serviceWorker', {
    value: { controller: controlled ? {} : null },
    configurable: true,
  });
  return () => {
    Reflect.deleteProperty(window.navigator, 'serviceWorker');
  };
}
