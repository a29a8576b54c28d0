/** Month names, shared by the corpus reader, the generator and the date measures. */
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/** 0-11 for a month's full name or three-letter abbreviation (and "Sept"), any case; -1 otherwise. */
export function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  return MONTH_NAMES.findIndex((month) => {
    const full = month.toLowerCase();
    return lower === full || lower === full.slice(0, 3) || (lower === 'sept' && full === 'september');
  });
}
