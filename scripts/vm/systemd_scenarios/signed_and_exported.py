"""A signature through uinput and Done: the ink on the panel, the exports in a drop box as the
unit's user, the kiosk's signing key and the manifest's signature checked with stock OpenSSL on
the host, the InkML against the strict schema, and the kiosk's peak memory.

Its guest steps are signed_and_exported.sh, beside this file; its host checks are check(run), here."""
import hashlib, json, os, subprocess, tempfile

from driver import W, H, dark_pixels, layout, region_diff


def openssl_verifies(files, metas, guest):
    """(ok, detail): the first manifest's signature checked by `openssl pkeyutl` with the kiosk's
    public key as `signpad key show` printed it, the fingerprint the manifest names computed by
    `openssl pkey`, the same manifest with one byte changed refused, and the guest's own verify."""
    if not metas or 'kiosk.pem' not in files or metas[0] + '.sig' not in files:
        return False, f"no manifest, signature or public key among {sorted(files)}"
    with tempfile.TemporaryDirectory() as folder:
        def path(name, data):
            p = os.path.join(folder, name)
            open(p, 'wb').write(data)
            return p
        pem, manifest = path('kiosk.pem', files['kiosk.pem']), path('m.json', files[metas[0]])
        sig = path('m.json.sig', files[metas[0] + '.sig'])
        edited = path('edited.json', files[metas[0]].replace(b'"strokes"', b'"Strokes"'))
        def verify(m):
            return subprocess.run(['openssl', 'pkeyutl', '-verify', '-pubin', '-inkey', pem, '-rawin', '-in', m, '-sigfile', sig],
                                  capture_output=True).returncode
        der = subprocess.run(['openssl', 'pkey', '-pubin', '-in', pem, '-outform', 'DER'], capture_output=True).stdout
        named = json.loads(files[metas[0]]).get('signingKey', {}).get('sha256')
        good, bad = verify(manifest), verify(edited)
    fingerprint_ok = named == hashlib.sha256(der).hexdigest()
    ok = good == 0 and bad != 0 and fingerprint_ok and guest.get('exit') == '0' and guest.get('ok') == guest.get('manifests')
    return ok, f"openssl pkeyutl -verify: {good} (edited: {bad}); fingerprint {'matches' if fingerprint_ok else 'DIFFERS'}; on the kiosk: {guest['text']}"


def inkml_valid(files):
    """(ok, detail): every exported InkML validated by the host's libxml2 against the strict
    InkML schema the Swift tests use (Tests/schemas/inkml-strict.xsd)."""
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Tests', 'schemas', 'inkml-strict.xsd')
    names = [n for n in files if n.endswith('.inkml')]
    if not names:
        return False, f"no InkML among {sorted(files)}"
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for n in names:
            paths.append(os.path.join(folder, n))
            open(paths[-1], 'wb').write(files[n])
        run = subprocess.run(['xmllint', '--noout', '--nonet', '--schema', schema, *paths], capture_output=True, text=True)
    return run.returncode == 0, f"{len(names)} file(s): {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.returncode}"


def check(run):
    box, _, _ = layout(W, H)
    signed = run.shot('sd-signed')
    d = region_diff(signed, run.expected['signed'], W, box) if signed else 1
    ink = dark_pixels(signed, W, box) if signed else 0
    run.check('S4 ink through the hardened unit (predicted ahead while drawn) matches signpad replay predicting nothing', d < 0.002 and ink > 500,
              f'{ink} ink pixels; {100 * d:.3f}% of the box differs')
    files = run.files
    metas = [n for n in files if n.endswith('.meta.json')]
    owners = {f[-1]: f[:2] for f in run.checks.get('exportfile', [])}
    name = 'S5 Done writes the exports into the state directory as signpad:signpad 0640, into a folder it may not list, naming the kiosk'
    if metas:
        meta = json.loads(files[metas[0]])
        sums_ok = all(hashlib.sha256(files.get(n, b'')).hexdigest() == e['sha256'] for n, e in meta['files'].items())
        modes_ok = len(owners) == 6 and all(o == ['signpad:signpad', '640'] for o in owners.values())
        folder = run.said('exportdir')
        drop_box = folder.get('mode') == '330' and folder.get('failed') == '0'
        # The unit's ProtectHostname= gives signpad a namespace of its own: it must still read the machine's name.
        hostname = run.said('kiosk').get('hostname')
        named = hostname == 'signpad-vm-kiosk' and meta.get('kiosk') == hostname
        run.check(name, sums_ok and modes_ok and drop_box and named,
                  f"{len(files)} files, sha256 {'match' if sums_ok else 'MISMATCH'}, owners and modes {sorted({' '.join(o) for o in owners.values()})}; folder {folder['text']}; "
                  f"kiosk {meta.get('kiosk')!r} on host {hostname!r}")
    else:
        run.check(name, False, f'no metadata among {sorted(files)}')
    # Evidence: the key the packaged unit made, checked on the host with stock OpenSSL.
    key = run.said('signingkey')
    run.check('S24 the packaged unit makes the kiosk\'s signing key at its first start, signpad\'s alone, and the journal names it',
              key.get('owner') == 'signpad:signpad' and key.get('mode') == '600' and key.get('made') == '1' and key.get('named', '0') != '0',
              key['text'])
    run.check('S25 the exported manifest\'s signature verifies with OpenSSL on the host and with signpad verify on the kiosk; an edited one fails',
              *openssl_verifies(files, metas, run.said('verify')))
    run.check('S27 the exported InkML is valid against the strict InkML schema (xmllint on the host)', *inkml_valid(files))
    memory = run.said('memory')
    peak = int(memory.get('VmHWM', 0))
    run.check(f'S28 the packaged kiosk\'s peak memory (VmHWM) at {W}x{H}, having drawn, signed and exported, is at most 48 MiB',
              0 < peak <= 48 * 1024,
              f"VmHWM {peak / 1024:.1f} MiB; now RssAnon {int(memory.get('RssAnon', 0)) / 1024:.1f}, RssFile {int(memory.get('RssFile', 0)) / 1024:.1f}, "
              f"RssShmem {int(memory.get('RssShmem', 0)) / 1024:.1f} MiB")
