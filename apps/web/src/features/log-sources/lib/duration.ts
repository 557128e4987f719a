/** The largest whole unit of a duration in milliseconds, for "{{ago}} ago" texts. */
export function durationParts(ms: number): { unit: 'seconds' | 'minutes' | 'hours' | 'days'; n: number } {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return { unit: 'seconds', n: seconds };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: 'minutes', n: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return { unit: 'hours', n: hours };
  return { unit: 'days', n: Math.floor(hours / 24) };
}
