import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeWorkbox } from '../../test/fakeWorkbox.ts';
import { stubServiceWorkerContainer } from '../../test/fakeWorkbox.ts';

vi.mock('workbox-window', async () => ({
  Workbox: (await import('../../test/fakeWorkbox.ts')).FakeWorkbox,
}));

/**
 * A fresh copy of the module (its state is the page's one worker), with the fake Workbox class
 * it will use (the mocked module of this copy).
 */
const load = async (failRegistration: Error | null = null) => {
  vi.resetModules();
  const Fake = (await import('workbox-window')).Workbox as unknown as typeof FakeWorkbox;
  Fake.last = null;
  Fake.failRegistration = failRegistration;
  return { sw: await import('./serviceWorker.ts'), Fake };
};

describe('the service worker', () => {
  let reload: ReturnType<typeof vi.fn>;
  let unstub = () => {};

  beforeEach(() => {
    reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
  });
  afterEach(() => {
    unstub();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('is not registered where the browser has no workers, and a reload is a plain one', async () => {
    const { sw, Fake } = await load();
    await sw.registerServiceWorker();
    expect(Fake.last).toBeNull();
    await sw.reloadToNewVersion();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('only logs a failed registration, and the portal reloads without it', async () => {
    unstub = stubServiceWorkerContainer(true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failure = new Error('SecurityError');
    const { sw, Fake } = await load(failure);
    await expect(sw.registerServiceWorker()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('Service worker registration failed', failure);
    await sw.reloadToNewVersion();
    expect(Fake.last?.messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledOnce();
  });

  it("tells of a new deployment's worker and lets it take over before the reload", async () => {
    unstub = stubServiceWorkerContainer(true);
    const { sw, Fake } = await load();
    await sw.registerServiceWorker();
    const workbox = Fake.last!;
    expect(workbox.url).toBe('/sw.js');
    const listener = vi.fn();
    sw.onServiceWorkerUpdate(listener);
    workbox.emit('waiting');
    expect(listener).toHaveBeenCalledOnce();
    // a listener that comes later hears of it too
    const late = vi.fn();
    sw.onServiceWorkerUpdate(late);
    expect(late).toHaveBeenCalledOnce();

    await sw.reloadToNewVersion();
    expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('installs the new deployment first when the reload comes before the worker noticed it', async () => {
    unstub = stubServiceWorkerContainer(true);
    const { sw, Fake } = await load();
    await sw.registerServiceWorker();
    const workbox = Fake.last!;
    workbox.update.mockImplementation(async () => {
      setTimeout(() => workbox.emit('waiting'), 10);
    });
    await sw.reloadToNewVersion();
    expect(workbox.update).toHaveBeenCalledOnce();
    expect(workbox.messageSkipWaiting).toHaveBeenCalledOnce();
    expect(reload).toHaveBeenCalledOnce();
  });
});
