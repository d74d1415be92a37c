import { buildUi } from '../scripts/build-ui.mjs';

// The proxy serves the admin page from proxy/dist/ui/, which `npm run build` writes; building it here (esbuild,
// well under a second) lets `npm test` run on a fresh checkout and always test the current proxy/ui/ sources.
export default async function setup(): Promise<void> {
  await buildUi();
}
