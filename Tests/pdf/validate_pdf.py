#!/usr/bin/env python3
"""Validate every signature of a PDF with pyHanko and print one JSON line for each.

usage: validate_pdf.py FILE.pdf --trust CERT.pem [--trust CERT.pem ...] [--save-time-stamp DIR]

Each line says what pyHanko's validation found: whether the signature is intact, valid and
trusted, what it covers, how the file was changed after it, and the PAdES baseline level
(ETSI EN 319 142-1 §6) its CMS meets: B-B for SubFilter ETSI.CAdES.detached with an ESS
signing-certificate-v2 attribute and no signing-time attribute; B-T when a signature time
stamp or a later document time stamp that pyHanko validates covers it. The exit status is 0
only when every signature is intact, valid and trusted. With --save-time-stamp, the last
signature's value and its signature-time-stamp token go to DIR/signature-value.bin and
DIR/token.der, for `openssl ts -verify -data ... -in ... -token_in`.
"""
import os
import argparse
import json
import sys

from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
from pyhanko_certvalidator import ValidationContext


def signed_attribute_types(signer_info):
    return {attr['type'].native for attr in signer_info['signed_attrs']}


def unsigned_attribute_types(signer_info):
    attrs = signer_info['unsigned_attrs']
    return set() if attrs.native is None else {attr['type'].native for attr in attrs}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('file')
    parser.add_argument('--trust', action='append', default=[])
    parser.add_argument('--save-time-stamp')
    args = parser.parse_args()
    roots = [load_cert_from_pemder(path) for path in args.trust]
    context = ValidationContext(trust_roots=roots, allow_fetching=False, revocation_mode='soft-fail')
    all_good = True
    with open(args.file, 'rb') as f:
        reader = PdfFileReader(f)
        signatures = reader.embedded_signatures
        if not signatures:
            print(json.dumps({'error': 'no signatures'}))
            return 1
        timestamped_up_to = -1
        for sig in signatures:
            if sig.sig_object_type == '/DocTimeStamp':
                status = validate_pdf_timestamp(sig, validation_context=context)
                if status.intact and status.valid:
                    timestamped_up_to = max(timestamped_up_to, sig.signed_revision)
        for sig in signatures:
            if sig.sig_object_type != '/Sig':
                continue
            status = validate_pdf_signature(sig, signer_validation_context=context, ts_validation_context=context)
            signed = signed_attribute_types(sig.signer_info)
            unsigned = unsigned_attribute_types(sig.signer_info)
            subfilter = str(sig.sig_object.get('/SubFilter'))
            level = None
            if subfilter == '/ETSI.CAdES.detached' and 'signing_certificate_v2' in signed and 'signing_time' not in signed:
                level = 'B-B'
                has_token = 'signature_time_stamp_token' in unsigned and status.timestamp_validity is not None \
                    and status.timestamp_validity.intact and status.timestamp_validity.valid
                if has_token or timestamped_up_to >= sig.signed_revision:
                    level = 'B-T'
            if args.save_time_stamp:
                tokens = [attr['values'][0] for attr in (sig.signer_info['unsigned_attrs'] or [])
                          if attr['type'].native == 'signature_time_stamp_token']
                with open(os.path.join(args.save_time_stamp, 'signature-value.bin'), 'wb') as out:
                    out.write(sig.signer_info['signature'].native)
                if tokens:
                    with open(os.path.join(args.save_time_stamp, 'token.der'), 'wb') as out:
                        out.write(tokens[0].dump())
            good = status.intact and status.valid and status.trusted
            all_good = all_good and good
            print(json.dumps({
                'field': sig.field_name,
                'intact': status.intact,
                'valid': status.valid,
                'trusted': status.trusted,
                'coverage': status.coverage.name if status.coverage else None,
                'modificationLevel': status.modification_level.name if status.modification_level else None,
                'subFilter': subfilter,
                'signedAttributes': sorted(signed),
                'padesLevel': level,
                'bottomLine': status.bottom_line,
            }))
    return 0 if all_good else 1


if __name__ == '__main__':
    sys.exit(main())
