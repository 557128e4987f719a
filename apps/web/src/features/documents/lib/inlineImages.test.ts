import { describe, expect, it } from 'vitest';
import { apiPathOfImageSource, deferApiImages } from './inlineImages.ts';

describe('inline Markdown images', () => {
  it('recognises API image paths, relative or on this origin, and nothing else', () => {
    expect(apiPathOfImageSource('/api/v0/soc/articles/3/attachments/9/')).toBe(
      '/soc/articles/3/attachments/9/',
    );
    expect(apiPathOfImageSource(`${window.location.origin}/api/v0/soc/articles/3/attachments/9/`)).toBe(
      '/soc/articles/3/attachments/9/',
    );
    expect(apiPathOfImageSource('https://evil.example/api/v0/soc/x/')).toBeNull();
    expect(apiPathOfImageSource('/static/logo.png')).toBeNull();
  });

  it('moves API image sources to data-api-src and leaves the rest of the HTML alone', () => {
    const html =
      '<p>Text <img src="/api/v0/soc/articles/3/attachments/9/" alt="scheme"></p><img src="/logo.png">';
    const out = deferApiImages(html);
    expect(out).toContain('data-api-src="/soc/articles/3/attachments/9/"');
    expect(out).not.toContain('src="/api/v0');
    expect(out).toContain('alt="scheme"');
    expect(out).toContain('<img src="/logo.png">');
    expect(deferApiImages('<p>no images</p>')).toBe('<p>no images</p>');
  });
});
