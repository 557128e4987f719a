import { describe, expect, it } from 'vitest';
import { apiPathOfLink, hasThumbnail } from './attachmentLinks.ts';

describe('attachment helpers', () => {
  it('turns a download link into a path under the API base', () => {
    expect(apiPathOfLink('/api/v0/soc/incs/5/attachments/a1/download/')).toBe(
      '/soc/incs/5/attachments/a1/download/',
    );
    expect(apiPathOfLink('http://portal.example/api/v0/soc/incs/5/attachments/a1/download/')).toBe(
      '/soc/incs/5/attachments/a1/download/',
    );
  });

  it('shows thumbnails for the image types of the spec only', () => {
    for (const type of [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/svg+xml',
      'image/webp',
      'image/avif',
      'image/apng',
    ])
      expect(hasThumbnail(type)).toBe(true);
    expect(hasThumbnail('IMAGE/PNG; charset=binary')).toBe(true);
    expect(hasThumbnail('image/tiff')).toBe(false);
    expect(hasThumbnail('application/pdf')).toBe(false);
  });
});
