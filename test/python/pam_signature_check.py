"""An independent check of a PAM memory store's signature, written from the spec alone.

PAM v1.0 section 15 (integrity), section 18 (signatures) and Appendix D; nothing of chatgraph's
code is used. The checksum is recomputed from the memories (sorted by id, RFC 8785 via the
`rfc8785` package, SHA-256), the payload {checksum, export_id, export_date, owner_id} is
canonicalized with RFC 8785, and the Ed25519 signature is verified with `cryptography` against
`public_key` (multibase base58btc of the multicodec 0xed 0x01 and the 32 key bytes).

Usage: python pam_signature_check.py memory-store.json
Prints "verified" and exits 0, or "failed: <why>" and exits 1.
"""

import base64
import hashlib
import json
import re
import sys
from datetime import datetime

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58decode(text: str) -> bytes:
    value = 0
    for char in text:
        value = value * 58 + B58.index(char)
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return b"\x00" * (len(text) - len(text.lstrip("1"))) + raw


def ed25519_key(multibase: str) -> bytes:
    if not multibase.startswith("z"):
        raise ValueError("public_key is not multibase base58btc")
    decoded = b58decode(multibase[1:])
    if decoded[:2] != b"\xed\x01" or len(decoded) != 34:
        raise ValueError("public_key is not an Ed25519 multicodec key")
    return decoded[2:]


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def check(store: dict) -> str | None:
    signature = store.get("signature")
    if not isinstance(signature, dict):
        return "no signature"
    if signature.get("algorithm") != "Ed25519":
        return f"algorithm {signature.get('algorithm')}"
    memories = sorted(store["memories"], key=lambda m: m["id"])
    checksum = "sha256:" + hashlib.sha256(rfc8785.dumps(memories)).hexdigest()
    integrity = store.get("integrity") or {}
    if integrity.get("checksum") != checksum:
        return f"integrity.checksum {integrity.get('checksum')} is not the memories' {checksum}"
    if integrity.get("total_memories") != len(memories):
        return "integrity.total_memories is not the number of memories"
    if when(signature["signed_at"]) < when(store["export_date"]):
        return "signed_at is before export_date"
    key = signature["public_key"]
    if signature.get("key_id") not in (None, f"did:key:{key}#{key}"):
        return "key_id is not the did:key URL of public_key"
    payload = rfc8785.dumps(
        {
            "checksum": integrity["checksum"],
            "export_id": store["export_id"],
            "export_date": store["export_date"],
            "owner_id": store["owner"]["id"],
        }
    )
    value = signature["value"]
    if not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", value):
        return "value is not base64url"
    raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    try:
        Ed25519PublicKey.from_public_bytes(ed25519_key(key)).verify(raw, payload)
    except InvalidSignature:
        return "the signature does not match the payload"
    return None


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as handle:
        store = json.load(handle)
    problem = check(store)
    print("verified" if problem is None else f"failed: {problem}")
    return 0 if problem is None else 1


if __name__ == "__main__":
    sys.exit(main())
