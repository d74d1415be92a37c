import type { CallRecords } from '../../records/call-records.js';
import { type Call, type Handler, type Layer, routedFacts, type Step } from '../call.js';
import { failedRecord, settledRecord } from '../observability/router-record.js';

export interface RecordsDeps {
  records: CallRecords;
  now(): number;
}

/**
 * One call record per call (`callbacks` destinations): made when the call settles (for streams: when
 * the stream ends) or fails, and handed to the destinations' queues, which send it later. Right inside
 * the trace layer (whose trace id the record names, from the step), above everything else, so a call's
 * record covers its fallbacks, hedges and cache hit.
 */
export function recordsLayer(deps: RecordsDeps): Layer {
  const { records, now } = deps;
  return (next: Handler) =>
    <T>(call: Call<T>, step: Step) =>
      next(call, step).then(
        (routed) => {
          const settle = routed.settle;
          const facts = routedFacts(routed);
          let recorded = false;
          routed.settle = (s) => {
            settle(s);
            if (recorded) return;
            recorded = true;
            records.add(settledRecord(call, step.trace, facts, s, now()));
          };
          return routed;
        },
        (error: unknown) => {
          records.add(failedRecord(call, step.trace, error, now()));
          throw error;
        },
      );
}
