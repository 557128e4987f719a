const WORK_MEM_UNITS = { kB: 1, MB: 1024, GB: 1024 * 1024 } as const;

/** A work_mem setting (`32MB`) that PostgreSQL accepts (64 kB to 2 TB), or an error. */
export function checkWorkMem(value: string): string {
  const match = /^(\d{1,10})(kB|MB|GB)$/.exec(value);
  const kB = match ? Number(match[1]) * WORK_MEM_UNITS[match[2] as keyof typeof WORK_MEM_UNITS] : Number.NaN;
  if (!(kB >= 64 && kB <= 2_147_483_647))
    throw new Error(`Invalid work_mem ${value}: a size from 64kB to 2047GB`);
  return value;
}
