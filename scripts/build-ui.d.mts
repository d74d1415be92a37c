/** Writes the admin page (proxy/ui/) into proxy/dist/ui/. */
export function buildUi(): Promise<void>;
