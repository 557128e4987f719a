const WORK_MEM_UNITS = { kB: 1, MB: 1024, GB: 1024 * 1024 } as const;

/** Whether PostgreSQL accepts `value` as work_mem (`32MB`: 64 kB to 2 TB). */
export function isWorkMem(value: string): boolean {
  const match = /^(\d{1,10})(kB|MB|GB)$/.exec(value);
  const kB = match ? Number(match[1]) * WORK_MEM_UNITS[match[2] as keyof typeof WORK_MEM_UNITS] : Number.NaN;
  return kB >= 64 && kB <= 2_147_483_647;
}

/** `value` if it is a work_mem setting PostgreSQL accepts, else an error. */
export function checkWorkMem(value: string): string {
  if (!isWorkMem(value)) throw new Error(`Invalid work_mem ${value}: a size from 64kB to 2047GB`);
  return value;
}
