/** One line of `chatgraph doctor`: fine, something to do (with the command that does it), or a note. */
export interface DoctorCheck {
  /** What was checked: `data folder`, `store`, `full-text index`, … */
  name: string;
  /** `fix`: something needs doing (exit 1); `note`: worth knowing, nothing is wrong. */
  status: 'ok' | 'fix' | 'note';
  /** What was found, in a few words. */
  detail: string;
  /** The command that fixes it (for `fix`), or that would help (for `note`). */
  command?: string;
}

export const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'ok', detail });

export const fix = (name: string, detail: string, command: string): DoctorCheck => ({
  name,
  status: 'fix',
  detail,
  command,
});

export const note = (name: string, detail: string, command?: string): DoctorCheck => ({
  name,
  status: 'note',
  detail,
  ...(command !== undefined ? { command } : {}),
});
