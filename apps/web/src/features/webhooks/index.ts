// What other features and app/ may use of this feature (design §10.10): nothing yet; its pages
// are loaded through routes.ts.
export {};
