import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** `global.gc`, exposed at run time (the test runner starts node without --expose-gc). */
export function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
