"""Issue 57: a point of sale's PDF signed under the shipped unit. The TPM's key is certified by
key certificate; a user in signpad-pos leaves the PDF in the documents folder (2770, the group's)
and asks for it; the customer reads it on the panel through uinput (dragged to its foot, where
its empty field, Customer, is outlined), taps Sign and signs; the host's pdfsig accepts the
signature in that field, and the signed PDF starts with the original's bytes.

Its guest steps are document_signed.sh, beside this file; its host checks are check(run), here."""
import hashlib
import os
import subprocess
import tempfile

from driver import W, H, review_layout, region_diff

# Session.fieldColour: the outline of the field the signature goes in.
FIELD = (0x15, 0x65, 0xC0)


def outlined(img, rect):
    """How many pixels inside rect are the field's outline colour."""
    x0, y0, x1, y1 = rect
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if tuple(img[(y * W + x) * 3:(y * W + x) * 3 + 3]) == FIELD)


def check(run):
    said = run.said('documentsigned')
    top, foot, signing = (run.shot(n) for n in ('sd-document-top', 'sd-document-foot', 'sd-document-signing'))
    page = review_layout(W, H)['page']
    scrolled = region_diff(foot, top, W, page, threshold=16) if top and foot else 0
    field_top, field_foot = (outlined(shot, page) if shot else 0 for shot in (top, foot))
    left = region_diff(signing, foot, W, page, threshold=16) if signing and foot else 0
    run.check('S36 the customer reads the PDF on the panel: dragged to its foot, the field outlined there, then Sign leads to signing',
              scrolled > 0.004 and field_top == 0 and field_foot > 200 and left > 0.05,
              f"the page changed by {100 * scrolled:.1f}% between the top and the foot, outline pixels {field_top} at the top and "
              f"{field_foot} at the foot, the signing screen differs from the page by {100 * left:.1f}%")
    signed = run.files.get('signed.pdf', b'')
    pdfsig = 'no signed PDF came back'
    if signed:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, 'signed.pdf')
            with open(path, 'wb') as f:
                f.write(signed)
            result = subprocess.run(['pdfsig', path], capture_output=True, text=True)
            pdfsig = result.stdout + result.stderr
    run.check('S36 a point of sale\'s PDF is signed on the panel with the TPM\'s key, and the host\'s pdfsig accepts it',
              said['state'] == 'active/running' and said.get('cert') == '0' and said.get('folder') == '2770:signpad-pos' and
              said.get('copied') == '0' and said.get('exit') == '0' and said.get('status') == 'signed' and said.get('prefix') == 'yes' and
              said.get('sha') == said.get('told') == hashlib.sha256(signed).hexdigest() and
              'Signature is Valid' in pdfsig and 'Total document signed' in pdfsig and 'Signature Field Name: Customer' in pdfsig,
              said['text'] + ' | ' + pdfsig.replace('\n', ' '))
