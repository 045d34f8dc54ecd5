/**
 * The periods the conversation list is grouped by: Today, This week, This month, then each
 * earlier month by name ("November 2026"), in the browser's locale and time zone.
 */

const MONTH = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

// The week starts on the locale's first day where the browser says which (Monday otherwise).
function firstDayOfWeek(): number {
  const locale = new Intl.Locale(navigator.language) as Intl.Locale & {
    getWeekInfo?: () => { firstDay: number };
    weekInfo?: { firstDay: number };
  };
  const info = locale.getWeekInfo?.() ?? locale.weekInfo;
  return (info?.firstDay ?? 1) % 7;
}

/** The heading of the period `value` falls in, seen from `now`. */
export function periodOf(value: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Undated';
  const today = startOfDay(now);
  if (date >= today) return 'Today';
  const weekStart = new Date(today);
  weekStart.setDate(today.getDate() - ((today.getDay() - firstDayOfWeek() + 7) % 7));
  if (date >= weekStart) return 'This week';
  if (date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth())
    return 'This month';
  return MONTH.format(date);
}
