export { host, setHost, type Host, type PathRules, type SerialPort } from './host.js';
export { createPosixPath } from './posix-path.js';
export { osReason, writeFailure } from './write-failure.js';
