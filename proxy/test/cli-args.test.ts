import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli/args.js';

describe('svc-router arguments', () => {
  it('defaults the port, host and workers', () => {
    expect(parseArgs(['--config', 'c.yaml'])).toEqual({
      config: 'c.yaml',
      port: 4000,
      host: '127.0.0.1',
      workers: 1,
    });
  });
  it('takes short flags', () => {
    expect(parseArgs(['-c', 'c.yaml', '-p', '0'])).toMatchObject({ config: 'c.yaml', port: 0 });
  });
  it('names a bad port', () => {
    expect(() => parseArgs(['--config', 'c.yaml', '--port', 'abc'])).toThrow(
      '--port: expected a whole number',
    );
  });
  it('names a bad --workers', () => {
    expect(() => parseArgs(['--config', 'c.yaml', '--workers', '0'])).toThrow(
      '--workers: expected a whole number from 1 to 1024, got `0`',
    );
  });
  it('names an unknown flag', () => {
    expect(() => parseArgs(['--config', 'c.yaml', '--prot', '1'])).toThrow("Unknown option '--prot'");
  });
  it('takes --host and --workers', () => {
    expect(parseArgs(['--config=c.yaml', '--host', '0.0.0.0', '--workers', '2'])).toEqual({
      config: 'c.yaml',
      port: 4000,
      host: '0.0.0.0',
      workers: 2,
    });
  });
  it('requires --config', () => {
    expect(() => parseArgs([])).toThrow('--config <file.yaml> is required');
  });
  it('answers --help and --version', () => {
    expect(parseArgs(['--help'])).toEqual({ help: true });
    expect(parseArgs(['--version'])).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});

describe('worker restart backoff', () => {
  it('waits 1 s after one death in a minute, doubling to at most 30 s', async () => {
    const { restartDelayMs } = await import('../src/cli/cluster.js');
    expect([1, 2, 3, 6, 20].map(restartDelayMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
  });
});
