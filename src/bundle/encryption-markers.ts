/**
 * Every refusal of encryption at rest the person can act on (a wrong passphrase, a folder
 * encrypted already): one line, exit code 2 in the CLI. (Where the markers of an encrypted
 * folder are, its layout says.)
 */
export class FolderEncryptionError extends Error {}
