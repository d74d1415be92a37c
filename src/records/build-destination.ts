import { type DestinationEntry, isDestinationObject } from '../config/callback-setting.js';
import type { RecordDestination } from './destination.js';
import { fileDestination } from './file-destination.js';
import { otlpDestination } from './otlp-destination.js';
import type { RecordQueueOptions } from './record-queue.js';
import { webhookDestination } from './webhook-destination.js';

/** A destination with how its queue batches and retries. */
export interface BuiltDestination {
  destination: RecordDestination;
  queue: RecordQueueOptions;
}

/** The destination a validated `callbacks` entry names, or the user's destination object as given. */
export function buildDestination(setting: DestinationEntry | RecordDestination): BuiltDestination {
  if (isDestinationObject(setting)) return { destination: setting, queue: {} };
  return { destination: destinationOf(setting), queue: queueOptionsOf(setting) };
}

function destinationOf(entry: DestinationEntry): RecordDestination {
  switch (entry.type) {
    case 'otlp':
      return otlpDestination(entry);
    case 'webhook':
      return webhookDestination(entry);
    case 'file':
      return fileDestination(entry);
  }
}

/** The entry's delivery fields (seconds) as queue options (milliseconds); unset ones keep the defaults. */
function queueOptionsOf(entry: DestinationEntry): RecordQueueOptions {
  const options: RecordQueueOptions = {};
  if (entry.batch_size !== undefined) options.batchSize = entry.batch_size;
  if (entry.flush_interval !== undefined) options.flushIntervalMs = entry.flush_interval * 1000;
  if (entry.max_queue_size !== undefined) options.maxQueueSize = entry.max_queue_size;
  if (entry.timeout !== undefined) options.timeoutMs = entry.timeout * 1000;
  if (entry.max_retries !== undefined) options.maxRetries = entry.max_retries;
  return options;
}
