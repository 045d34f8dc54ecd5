/**
 * A stored time as a person reads it in a terminal: the local date and minute (`2025-09-04
 * 21:55`, in `TZ` or the system's zone). A text that is no time is given back as it is.
 */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${String(date.getFullYear())}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
