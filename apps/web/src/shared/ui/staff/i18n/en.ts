/** Texts every screen of the staff area shares (design §9). */
export const staffAreaEn = {
  notAvailable: {
    title: 'This page is not available',
    text: 'This part of the portal is for the provider’s staff only.',
    home: 'To the dashboard',
  },
};
