import { describe, expect, it } from 'vitest';
import { fileResourcePath, prettyJson, previewKind, viewerRouteOfLink } from './filePath.ts';

describe('fileResourcePath', () => {
  it('maps files/download/<path> to the files resource', () => {
    expect(fileResourcePath('download/incidents/10042/abc')).toBe('incidents/10042/abc');
    expect(fileResourcePath('download/instructions/1/2/')).toBe('instructions/1/2');
    expect(fileResourcePath('download/articles/1/отчёт')).toBe('articles/1/%D0%BE%D1%82%D1%87%D1%91%D1%82');
  });

  it('answers null (not found) for other paths, empty ones and a download left after mapping', () => {
    expect(fileResourcePath(undefined)).toBeNull();
    expect(fileResourcePath('incidents/1/2')).toBeNull();
    expect(fileResourcePath('download/')).toBeNull();
    expect(fileResourcePath('download/incidents/1/2/download')).toBeNull();
    expect(fileResourcePath('download/../../etc/passwd')).toBeNull();
  });
});

describe('previewKind', () => {
  it('chooses the preview by content type', () => {
    expect(previewKind('image/png')).toBe('image');
    expect(previewKind('application/json')).toBe('json');
    expect(previewKind('text/plain; charset=utf-8')).toBe('text');
    expect(previewKind('audio/mpeg')).toBe('media-audio');
    expect(previewKind('video/mp4')).toBe('media-video');
    expect(previewKind('application/pdf')).toBe('media-pdf');
    expect(previewKind('application/zip')).toBe('fallback');
  });

  it('pretty-prints JSON and keeps other text', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});

describe('viewerRouteOfLink', () => {
  it('maps incident and document attachment links to the viewer', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(viewerRouteOfLink(`/api/v0/soc/incs/10042/attachments/${id}/download/`)).toBe(
      `/files/download/incidents/10042/${id}`,
    );
    expect(viewerRouteOfLink('/api/v0/soc/articles/7/attachments/9/')).toBe('/files/download/articles/7/9');
    expect(viewerRouteOfLink('/api/v0/soc/articles/7/download_pdf/')).toBeNull();
  });
});
