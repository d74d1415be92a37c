import { describe, expect, it } from 'vitest';
import { GATEWAY_V8_FLAGS, gatewayV8FlagsFor, tuneV8ForGateway } from '../src/index.js';

describe('the gateway V8 flags', () => {
  it('turn off allocation-site pretenuring', () => {
    expect(GATEWAY_V8_FLAGS).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('are all set in a process started without V8 flags', () => {
    expect(gatewayV8FlagsFor(['--enable-source-maps'])).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('leave a flag the command line turns on as given', () => {
    expect(gatewayV8FlagsFor(['--allocation-site-pretenuring'])).toEqual([]);
  });

  it('read a flag spelled with underscores as V8 does', () => {
    expect(gatewayV8FlagsFor(['--allocation_site_pretenuring'])).toEqual([]);
    expect(gatewayV8FlagsFor(['--noallocation_site_pretenuring'])).toEqual([]);
  });

  it('are not set again when the command line already sets them', () => {
    expect(tuneV8ForGateway(['--no-allocation-site-pretenuring'])).toEqual([]);
  });

  it('are set, and named, by tuneV8ForGateway', () => {
    expect(tuneV8ForGateway([])).toEqual(['--no-allocation-site-pretenuring']);
  });
});
