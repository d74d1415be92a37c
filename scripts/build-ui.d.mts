/** Writes the admin page (ui/) into dist/ui/. */
export function buildUi(): Promise<void>;
