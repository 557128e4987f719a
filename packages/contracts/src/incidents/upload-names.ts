/**
 * File names that no upload accepts, whatever the content (issue 25): the server refuses them
 * and the web app says so before uploading.
 */

/** Extensions refused whatever the content: Windows runs or mounts them on a double-click. */
export const DANGEROUS_UPLOAD_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe',
  'dll',
  'scr',
  'com',
  'bat',
  'cmd',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'hta',
  'msi',
  'msp',
  'lnk',
  'reg',
  'jar',
  'iso',
  'img',
  'vhd',
]);

/** Bidirectional embedding, override and isolate controls: they make `exe.pdf` of `fdp.exe`. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

export type UnsafeUploadName = { reason: 'bidi' } | { reason: 'extension'; extension: string };

/**
 * Why a file name is refused, or null. Windows ignores trailing dots and spaces, so they are
 * stripped before the last extension is compared (`a.pdf.exe. .` is an `.exe`).
 */
export function unsafeUploadName(filename: string): UnsafeUploadName | null {
  if (BIDI_CONTROL.test(filename)) return { reason: 'bidi' };
  const trimmed = filename.replace(/[.\s]+$/u, '');
  const extension = /\.([^.]+)$/.exec(trimmed)?.[1]?.toLowerCase();
  return extension && DANGEROUS_UPLOAD_EXTENSIONS.has(extension) ? { reason: 'extension', extension } : null;
}

/** The name as it may be shown: direction controls written out (`[U+202E]`) rather than obeyed. */
export const visibleFileName = (filename: string): string =>
  filename.replace(
    /[\u202a-\u202e\u2066-\u2069]/g,
    (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`,
  );
