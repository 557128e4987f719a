/**
 * Keys of incidents the signed-in user registered, learnt from the live stream. The dashboard's
 * poll raises the same 'new incident' warning and its list rows carry no author id, so it asks
 * here before warning.
 */
const ownKeys = new Set<number>();

export const rememberOwnIncident = (key: number): void => {
  ownKeys.add(key);
};

export const isOwnIncident = (key: number): boolean => ownKeys.has(key);
