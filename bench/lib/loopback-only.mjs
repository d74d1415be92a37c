// Preloaded (`--import`) into a server bench/all.ts did not write (@portkey-ai/gateway): every
// `listen()` binds 127.0.0.1, whatever host the server asked for, so a bench never serves beyond the
// machine.
import { Server } from 'node:net';

const listen = Server.prototype.listen;
Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'object' && args[0] !== null) args[0] = { ...args[0], host: '127.0.0.1' };
  else if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const callback = typeof args.at(-1) === 'function' ? args.at(-1) : undefined;
    args = [{ port: Number(args[0]), host: '127.0.0.1' }, ...(callback ? [callback] : [])];
  }
  return listen.apply(this, args);
};
