/** Texts of the file viewer (product §B2 File viewer, §8). */
export const filesEn = {
  preview: 'Preview {{name}}',
  download: 'Download',
  loading: 'Loading the file…',
  progress: 'Download progress',
  zoomIn: 'Click to zoom in',
  zoomOut: 'Click to fit the window',
  fallback: 'This file cannot be previewed. It has been downloaded to your computer.',
  tooLarge: 'The text is too large to preview. It has been downloaded to your computer.',
  notFound: 'File not found',
  error: 'An error occurred while contacting the server',
  back: 'Go back',
  toMain: 'Go to main page',
};
