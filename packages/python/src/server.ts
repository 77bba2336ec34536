/**
 * The engine of a Python program: `import Sofa` in python3 starts `node dist/server.js` with two
 * pipes (SOFATS_SERVER_FDS="in,out") and sends its requests; this process serves them until the
 * program says goodbye or exits (its end of the pipes closes).
 */
import { SofaError } from '@sofa-ts/core';
import { Channel } from './channel.js';
import { PythonSession } from './python-session.js';

const fds = (process.env['SOFATS_SERVER_FDS'] ?? '').split(',').map(Number);
if (fds.length !== 2 || fds.some((f) => !Number.isInteger(f) || f < 0)) {
  process.stderr.write('sofa-ts python server: SOFATS_SERVER_FDS is not set; this program is started by `import Sofa` in python3\n');
  process.exit(2);
}
// Ctrl-C belongs to the Python program (it started us in a session of our own); SIGTERM ends us.
const channel = new Channel(fds[0], fds[1], 'python3');
const session = new PythonSession(channel, { dataPaths: (process.env['SOFATS_DATA_PATH'] ?? '').split(':').filter((p) => p !== '') });
// no command prints this program's warnings: they are printed as they come, located
session.warningSink = (w) => process.stderr.write(`[WARNING] ${w.message}\n`);
try {
  await session.serve();
} catch (e) {
  process.stderr.write(`sofa-ts engine: ${e instanceof SofaError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
} finally {
  session.scene?.dispose();
  channel.close();
}
