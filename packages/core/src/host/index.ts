export { host, setHost, type Host, type PathRules } from './host.js';
export { createPosixPath } from './posix-path.js';
