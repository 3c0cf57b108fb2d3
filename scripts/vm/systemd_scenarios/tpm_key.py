"""Issue 56: the kiosk's key in a TPM 2.0 on a real kernel (QEMU's tpm-tis, swtpm on the host)
under the shipped unit with the README's drop-in: key create --tpm makes it, the service starts
with it, and the signature taken then is signed in the TPM, as openssl and signpad verify accept.

Its guest steps are tpm_key.sh, beside this file; its host checks are check(run), here."""


def check(run):
    said = run.said('tpmkey')
    run.check('S35 a key made in the TPM signs under the shipped unit with the README\'s drop-in, and openssl verifies it',
              said['state'] == 'active/running' and said.get('create') == '0' and said.get('device') == 'tss' and
              said.get('dgst') == '0' and said.get('verify') == '0' and said.get('ecdsa') == '1' and said.get('keyline', '0') != '0' and
              int(said.get('manifests', 0)) > int(said.get('manifests_before', 0)),
              said['text'] + ' ' + run.files.get('tpm-create.out', b'').decode(errors='replace'))
