export { parseCsr, CsrParseError, type ParsedCsr } from './csr-request.js';
export { createCsr, type CsrSubject, type CreatedCsr } from './create-csr.js';
export * from './csr-policy.js';
export * from './approval-record.js';
