"""Issue 57: a point of sale's PDF signed under the shipped unit. The TPM's key is certified by
key certificate; a user in signpad-pos leaves the PDF in the documents folder (2770, the group's)
and asks for it; the customer signs on the panel through uinput; the host's pdfsig accepts the
signed PDF, which starts with the original's bytes.

Its guest steps are document_signed.sh, beside this file; its host checks are check(run), here."""
import hashlib
import os
import subprocess
import tempfile


def check(run):
    said = run.said('documentsigned')
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
              'Signature is Valid' in pdfsig and 'Total document signed' in pdfsig and 'Signature Field Name: Signature1' in pdfsig,
              said['text'] + ' | ' + pdfsig.replace('\n', ' '))
