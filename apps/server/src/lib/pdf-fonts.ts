import { createRequire } from 'node:module';
import path from 'node:path';

// DejaVu ships with the npm dependencies, so Cyrillic renders on any machine without system fonts.
const fontDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
/** The regular and bold faces of every PDF the server writes (incidents, reports, documents). */
export const FONT = path.join(fontDir, 'DejaVuSans.ttf');
export const FONT_BOLD = path.join(fontDir, 'DejaVuSans-Bold.ttf');
