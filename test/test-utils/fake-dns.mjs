/**
 * A preload for a spawned Node process (`node --import <this file> …`): every host name ending
 * in `.rcp-test` resolves to 127.0.0.1, every other name as usual. Tests use it to play a
 * public-looking name that resolves to loopback (a DNS rebinding) without touching /etc/hosts,
 * and without any packet leaving this machine.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

const systemLookup = dns.lookup;

dns.lookup = function lookup(hostname, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = {};
  }
  if (typeof hostname === 'string' && hostname.toLowerCase().replace(/\.$/, '').endsWith('.rcp-test')) {
    const all = typeof options === 'object' && options !== null && options.all === true;
    if (all) process.nextTick(callback, null, [{ address: '127.0.0.1', family: 4 }]);
    else process.nextTick(callback, null, '127.0.0.1', 4);
    return;
  }
  return systemLookup.call(this, hostname, options, callback);
};
// ES modules that imported `lookup` from 'node:dns' see the replacement too.
syncBuiltinESMExports();
