#!/usr/bin/env python3
"""Checks a signpad time-stamp token with PyPI's rfc3161-client, a reader independent of OpenSSL.

usage: verify_token.py TOKEN.tsr SIGNATURE CA.pem

TOKEN.tsr is the authority's reply (TimeStampResp, DER) beside a manifest; SIGNATURE the
manifest's signature it stamps (its SHA-256 is the imprint); CA.pem the authority's root.
Prints "OK <gen_time>" and exits 0, or prints why not and exits 1.
"""
import sys

import cryptography.x509
from rfc3161_client import VerificationError, VerifierBuilder, decode_timestamp_response


def main(token_path, signature_path, ca_path):
    with open(token_path, "rb") as f:
        response = decode_timestamp_response(f.read())
    with open(signature_path, "rb") as f:
        signature = f.read()
    with open(ca_path, "rb") as f:
        root = cryptography.x509.load_pem_x509_certificate(f.read())
    verifier = VerifierBuilder().add_root_certificate(root).build()
    try:
        verifier.verify_message(response, signature)
    except VerificationError as error:
        print(f"FAILED {error}")
        return 1
    print(f"OK {response.tst_info.gen_time.isoformat()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
