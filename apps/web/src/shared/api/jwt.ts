/** Decodes the payload of a JWT without verifying it (the server verifies; we only read `exp`). */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const binary = atob(padded);
    const json = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Expiry of a JWT in epoch milliseconds, or null when the token has no readable `exp`. */
export function getTokenExpiry(token: string): number | null {
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
}

/**
 * True when the token expires within `marginMs`. A token without a readable expiry is treated
 * as valid: the server's 401 then triggers the refresh instead of refreshing on every call.
 */
export function expiresWithin(token: string, marginMs: number, now: number = Date.now()): boolean {
  const expiry = getTokenExpiry(token);
  return expiry !== null && expiry - now <= marginMs;
}
