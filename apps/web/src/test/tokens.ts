const base64url = (value: string): string =>
  btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT-shaped token expiring `expiresInSeconds` from now (the client only reads `exp`). */
export function makeAccessToken(expiresInSeconds = 300, subject = '1'): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  const payload = base64url(JSON.stringify({ sub: subject, exp, jti: Math.random().toString(36) }));
  return `${header}.${payload}.signature`;
}
