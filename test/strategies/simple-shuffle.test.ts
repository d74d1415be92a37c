import { simpleShuffle } from '../../src/strategies/simple-shuffle.js';
import { strategyContract } from '../../src/testing/index.js';

strategyContract({ name: 'simple-shuffle', create: ({ random }) => simpleShuffle(random) });
