/** `chatgraph/trust`: checking and protecting a bundle: PAM validation, signatures, encryption at rest, doctor. */
export { createSigningKey, readSigningKey, SigningKeyError } from '../trust/signing-key.js';
export { verifyBundle } from '../trust/verify-bundle.js';
export type { VerifyOptions, VerifyReport } from '../trust/verify-bundle.js';
export { validatePam } from '../validate/validate-pam.js';
export type { Finding } from '../validate/validate-pam.js';
export { SchemaFetchError } from '../validate/fetch-schemas.js';
export type { ConvertReport } from '../folder/encrypt-folder.js';
export type { Unlock } from '../at-rest/folder-key.js';
export { FolderEncryptionError } from '../bundle/encryption-markers.js';
export type { DoctorCheck } from '../doctor/doctor.js';
