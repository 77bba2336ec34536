export * from './working-set-qr.js';
export * from './dense-qp.js';
