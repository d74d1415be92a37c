import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { RecordDestination } from './destination.js';

/** A `file` entry of `callbacks`. */
export interface FileSettings {
  /** The file records are appended to; relative to the working directory (config files: to their folder). */
  path: string;
}

/**
 * Appends each batch as JSON lines, one record per line. The file is opened for each batch, so a
 * rotated file (moved away by logrotate) is created afresh; its folder is created when missing.
 */
export function fileDestination(settings: FileSettings): RecordDestination {
  const path = resolve(settings.path);
  let folder: Promise<unknown> | undefined;
  return {
    type: 'file',
    async send(records, signal) {
      folder ??= mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
        folder = undefined;
        throw error;
      });
      await folder;
      let text = '';
      for (const record of records) text += `${JSON.stringify(record)}\n`;
      // one write per batch, opened for appending: concurrent writers never interleave within a line
      await writeFile(path, text, { flag: 'a', signal });
    },
  };
}
